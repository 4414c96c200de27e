"""How independent a persona panel's judges are: error correlation and effective judges.

A persona's *error* on an item is how often a random annotator of the item would
disagree with its vote, from the item's gold distribution ``t``:

- nominal labels: ``1 - t[vote]``;
- ordinal labels: ``sum_k t[k] |pos(vote) - k| / (K - 1)`` (the expected normalised
  distance);
- label sets (VariErrNLI): the mean over base labels ``j`` of ``|[j in vote] - t[j]|``
  (the expected per-label error, as LeWiDi 2025's multi-label error rate);

an unreadable vote has no error (NaN). Two personas' error correlation is Pearson's r
over the items both voted on (at least :data:`MIN_COMMON` items, neither constant); the
panel's is the mean over its pairs with an r. For n judges whose errors are equally
correlated with mean r, the mean of their errors varies like that of

    n_eff = n / (1 + (n - 1) r)

independent judges (the variance of a mean of n equicorrelated variables, Kish's design
effect): 6 judges with r = 0.5 are worth 6 / 3.5 = 1.71 independent ones; r = 0 gives
n, r = 1 gives 1. A negative mean correlation is read as 0 (n judges, not more): the
formula would give more than n (or no finite value at r <= -1/(n - 1)), which reads as
"more judges than the panel has"; the correlation itself is shown beside. Agreement between the
personas is Krippendorff's alpha over items (units) and personas (coders), nominal (or
ordinal on ordinal scales), with the package's :func:`~inspect_plural.scorers.units_alpha`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from inspect_plural.label_sets import decode_label_set
from inspect_plural.profile._intervals import FloatArray
from inspect_plural.profile._logs import Row
from inspect_plural.scorers._agreement import AlphaLevel, units_alpha

__all__ = [
    "MIN_COMMON",
    "effective_judges",
    "error_matrix",
    "mean_error_correlation",
    "vote_alpha",
    "vote_error",
]

MIN_COMMON = 3
"""Fewest items two personas must both have voted on for their correlation."""


def vote_error(row: Row, label: str | None) -> float:
    """How often a random annotator of the item disagrees with this vote (NaN: no vote)."""
    gold = row.gold or {}
    if label is None or (label not in row.labels):
        return math.nan
    if row.base_labels:
        members = set(decode_label_set(label, row.base_labels))
        return float(
            np.mean([abs(float(b in members) - gold.get(b, 0.0)) for b in row.base_labels])
        )
    if row.kind == "ordinal" and len(row.labels) > 1:
        k = row.labels.index(label)
        span = len(row.labels) - 1
        return float(
            sum(gold.get(lab, 0.0) * abs(k - j) for j, lab in enumerate(row.labels)) / span
        )
    return 1.0 - float(gold.get(label, 0.0))


def error_matrix(rows: Sequence[Row]) -> tuple[list[str], FloatArray]:
    """Personas (in panel order) and their errors, ``(personas, items)`` with NaN gaps."""
    personas = list(dict.fromkeys(v.persona for row in rows for v in row.votes))
    errors = np.full((len(personas), len(rows)), np.nan)
    where = {p: i for i, p in enumerate(personas)}
    for j, row in enumerate(rows):
        for vote in row.votes:
            errors[where[vote.persona], j] = vote_error(row, vote.label)
    return personas, errors


def _pair_r(a: FloatArray, b: FloatArray) -> FloatArray:
    """Pearson's r of two ``(m, n)`` arrays row by row, over positions where both are finite."""
    mask = np.isfinite(a) & np.isfinite(b)
    count = mask.sum(axis=-1)
    x, y = np.where(mask, a, 0.0), np.where(mask, b, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mx, my = x.sum(axis=-1) / count, y.sum(axis=-1) / count
        dx = np.where(mask, x - mx[..., None], 0.0)
        dy = np.where(mask, y - my[..., None], 0.0)
        cov = (dx * dy).sum(axis=-1)
        r = cov / np.sqrt((dx * dx).sum(axis=-1) * (dy * dy).sum(axis=-1))
    return np.asarray(np.where(count >= MIN_COMMON, r, np.nan), dtype=float)


def mean_error_correlation(*errors: FloatArray, axis: int = -1) -> FloatArray:
    """The mean over persona pairs of their error correlation (vectorised over resamples).

    Args:
        *errors: One array of errors per persona (NaN: no vote), items on ``axis``.
        axis: The items' axis.

    Returns:
        The mean r over the pairs that have one (NaN when none has).
    """
    columns = [np.moveaxis(np.asarray(e, dtype=float), axis, -1) for e in errors]
    shape = columns[0].shape[:-1]
    flat = [c.reshape(-1, c.shape[-1]) for c in columns]
    rs = [_pair_r(flat[i], flat[j]) for i in range(len(flat)) for j in range(i + 1, len(flat))]
    if not rs:
        return np.full(shape, np.nan)
    stacked = np.stack(rs)
    defined = np.isfinite(stacked)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(defined, stacked, 0.0).sum(axis=0) / defined.sum(axis=0)
    return np.asarray(mean.reshape(shape), dtype=float)


def effective_judges(n: int, r: float) -> float:
    """``n / (1 + (n - 1) r)``: independent judges worth n judges with error correlation r.

    ``r`` below 0 counts as 0, so the value lies between 1 and ``n``.
    """
    return n / (1.0 + (n - 1) * min(max(r, 0.0), 1.0))


def vote_alpha(rows: Sequence[Row], level: AlphaLevel) -> float:
    """Krippendorff's alpha of the personas' votes (units: items; values: label positions)."""
    units = [
        {v.persona: float(row.labels.index(v.label)) for v in row.votes if v.label in row.labels}
        for row in rows
    ]
    return units_alpha(units, level).alpha
