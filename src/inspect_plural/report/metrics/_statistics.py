"""Corpus statistics recomputed on bootstrap resamples (vectorised where cheap).

Each function takes per-sample arrays and returns the same figure the package's
metric computes on them; a vectorised one takes ``axis`` and a batch of resamples as
its leading dimensions (``scipy.stats.bootstrap(vectorized=True)``). The unit tests
check each against scikit-learn / scipy / the package's metric.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from scipy.stats import kendalltau, pearsonr, rankdata

__all__ = [
    "CORRELATIONS",
    "class_f1_statistic",
    "ece_statistic",
    "group_macro_f1",
    "kendall",
    "macro_f1_statistic",
    "mean_of_group_means",
    "pearson",
    "spearman",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _constant(x: FloatArray, axis: int) -> npt.NDArray[np.bool_]:
    return np.asarray(np.ptp(x, axis=axis) == 0)


def pearson(x: FloatArray, y: FloatArray, axis: int = -1) -> FloatArray:
    """Pearson's r along ``axis`` (scipy), NaN when either side is constant or has < 2 values."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    undefined = _constant(x, axis) | _constant(y, axis) | (x.shape[axis] < 2)
    if x.shape[axis] < 2:
        return np.full(undefined.shape, np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # constant input: flagged as NaN below
        r = pearsonr(x, y, axis=axis).statistic
    return np.asarray(np.where(undefined, np.nan, r), dtype=float)


def spearman(x: FloatArray, y: FloatArray, axis: int = -1) -> FloatArray:
    """Spearman's rho along ``axis``: Pearson's r of the average ranks (as scipy)."""
    return pearson(
        np.asarray(rankdata(x, axis=axis), dtype=float),
        np.asarray(rankdata(y, axis=axis), dtype=float),
        axis=axis,
    )


_PAIRWISE_MAX_N = 600
"""Up to this many samples, tau-b is computed from the sign of every pair (vectorised)."""
_PAIR_CELLS = 4_000_000
"""Resamples x pairs held in memory at once."""


def _kendall_pairs(x: FloatArray, y: FloatArray) -> FloatArray:
    """Tau-b of each row of ``(rows, n)`` arrays from the signs of all pairs.

    ``tau_b = S / sqrt(P_x P_y)`` with ``S`` the sum over pairs of
    ``sign(dx) * sign(dy)`` and ``P_x``, ``P_y`` the pairs not tied in x, in y: scipy's
    definition, written out so a batch of resamples costs one numpy call.
    """
    n = x.shape[-1]
    i, j = np.triu_indices(n, 1)
    chunk = max(1, _PAIR_CELLS // max(len(i), 1))
    out = np.empty(x.shape[0], dtype=float)
    for start in range(0, x.shape[0], chunk):
        sx = np.sign(x[start : start + chunk, i] - x[start : start + chunk, j])
        sy = np.sign(y[start : start + chunk, i] - y[start : start + chunk, j])
        concordance = (sx * sy).sum(axis=-1)
        untied = np.abs(sx).sum(axis=-1) * np.abs(sy).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[start : start + chunk] = concordance / np.sqrt(untied)
    return out


def kendall(x: FloatArray, y: FloatArray, axis: int = -1) -> FloatArray:
    """Kendall's tau-b along ``axis`` (scipy's definition), NaN when a side is constant.

    Up to :data:`_PAIRWISE_MAX_N` samples every resample is computed at once from the
    pairs' signs; above that, scipy's ``kendalltau`` runs once per resample.
    """
    x2 = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    y2 = np.moveaxis(np.asarray(y, dtype=float), axis, -1)
    shape = x2.shape[:-1]
    n = x2.shape[-1]
    x2, y2 = x2.reshape(-1, n), y2.reshape(-1, n)
    if n < 2:
        return np.full(shape, np.nan)
    undefined = (np.ptp(x2, axis=1) == 0) | (np.ptp(y2, axis=1) == 0)
    if n <= _PAIRWISE_MAX_N:
        tau = _kendall_pairs(x2, y2)
    else:
        tau = np.array(
            [
                np.nan if flat else kendalltau(a, b, variant="b").statistic
                for a, b, flat in zip(x2, y2, undefined)
            ],
            dtype=float,
        )
    tau = np.where(undefined, np.nan, tau)
    return np.asarray(tau.reshape(shape), dtype=float)


CORRELATIONS: dict[str, Callable[..., FloatArray]] = {
    "spearman": spearman,
    "kendall": kendall,
    "pearson": pearson,
}
"""Coefficient -> vectorised statistic, in the order the report shows them."""


def macro_f1_statistic(
    n_labels: int, inferred: bool, zero_division: float
) -> Callable[..., FloatArray]:
    """Macro-F1 of (gold, pred) label indices, as scikit-learn computes it.

    Args:
        n_labels: Size of the scale (the fixed label set is ``0..n_labels-1``).
        inferred: Use the labels present in gold or prediction (PersEval) instead.
        zero_division: F1 of a class with no gold and no predicted row (fixed labels).

    Returns:
        A vectorised statistic ``f(gold, pred, axis=-1)``; a failed prediction is
        ``-1`` (a miss for recall, no vote for precision).
    """

    def statistic(gold: FloatArray, pred: FloatArray, axis: int = -1) -> FloatArray:
        gold = np.moveaxis(np.asarray(gold), axis, -1)
        pred = np.moveaxis(np.asarray(pred), axis, -1)
        f1s, present = [], []
        for label in range(n_labels):
            g, p = gold == label, pred == label
            tp = (g & p).sum(axis=-1)
            den = g.sum(axis=-1) + p.sum(axis=-1)
            f1s.append(np.where(den > 0, 2.0 * tp / np.maximum(den, 1), zero_division))
            present.append(den > 0 if inferred else np.ones(den.shape, dtype=bool))
        f1 = np.stack(f1s, axis=-1)
        mask = np.stack(present, axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray((f1 * mask).sum(axis=-1) / mask.sum(axis=-1), dtype=float)

    return statistic


def class_f1_statistic(label: int) -> Callable[..., FloatArray]:
    """F1 of one class from (gold, pred) label indices: ``2 tp / (gold + predicted)``.

    Returns:
        A vectorised statistic ``f(gold, pred, axis=-1)``; NaN when the class is
        neither in gold nor predicted (scikit-learn's ``zero_division`` case).
    """

    def statistic(gold: FloatArray, pred: FloatArray, axis: int = -1) -> FloatArray:
        g = np.moveaxis(np.asarray(gold), axis, -1) == label
        p = np.moveaxis(np.asarray(pred), axis, -1) == label
        tp = (g & p).sum(axis=-1)
        den = g.sum(axis=-1) + p.sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(np.where(den > 0, 2.0 * tp / den, np.nan), dtype=float)

    return statistic


def group_macro_f1(
    gold: IntArray,
    pred: IntArray,
    codes: IntArray,
    n_labels: int,
    inferred: bool,
    zero_division: float,
    row_labels: IntArray | None = None,
) -> FloatArray:
    """Macro-F1 of each group (annotator or item), the values PersEval's levels average.

    Args:
        gold: Gold label index per row.
        pred: Predicted label index per row (``-1``: failed).
        codes: Group index per row (``0..n_groups-1``).
        n_labels: Size of the scale.
        inferred: Labels present in the group (PersEval) instead of the whole scale.
        zero_division: F1 of a class with no gold and no predicted row.
        row_labels: Scale size per row when items have scales of their own: a group is
            then scored on the label set of its largest scale.

    Returns:
        One macro-F1 per group (the mean of these is ``annotator_macro_f1`` /
        ``text_macro_f1``).
    """
    n_groups = int(codes.max()) + 1 if len(codes) else 0

    def counts(labels: IntArray, mask: npt.NDArray[np.bool_]) -> FloatArray:
        flat = codes[mask] * n_labels + labels[mask]
        table = np.bincount(flat, minlength=n_groups * n_labels)
        return np.asarray(table.reshape(n_groups, n_labels), dtype=float)

    valid_gold = (gold >= 0) & (gold < n_labels)
    valid_pred = (pred >= 0) & (pred < n_labels)
    true_n = counts(gold, valid_gold)
    pred_n = counts(pred, valid_pred)
    tp = counts(gold, valid_gold & (gold == pred))
    den = true_n + pred_n
    if inferred:
        present = den > 0
    elif row_labels is None:
        present = np.ones_like(tp, dtype=bool)
    else:
        sizes = np.zeros(n_groups, dtype=np.int64)
        np.maximum.at(sizes, codes, row_labels)
        present = np.arange(n_labels)[None, :] < sizes[:, None]
    f1 = np.full(tp.shape, zero_division, dtype=float)
    np.divide(2 * tp, den, out=f1, where=den > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray((f1 * present).sum(axis=1) / present.sum(axis=1), dtype=float)


def ece_statistic(n_bins: int) -> Callable[..., FloatArray]:
    """ECE of (confidence, correct) rows, every resample at once.

    The definition of :func:`~inspect_plural.scorers.expected_calibration_error`
    (equal-width ``(low, high]`` bins, top-label): ``sum_b |B_b|/n * |conf_b - acc_b|``,
    written as ``sum_b |sum conf - sum correct| / n`` over each bin's rows.
    """
    edges = np.linspace(0.0, 1.0, n_bins + 1)

    def statistic(confidence: FloatArray, correct: FloatArray, axis: int = -1) -> FloatArray:
        conf = np.moveaxis(np.asarray(confidence, dtype=float), axis, -1)
        hit = (np.moveaxis(np.asarray(correct, dtype=float), axis, -1) > 0.5).astype(float)
        shape, n = conf.shape[:-1], conf.shape[-1]
        conf, hit = conf.reshape(-1, n), hit.reshape(-1, n)
        if n == 0:
            return np.full(shape, np.nan)
        bins = np.clip(np.searchsorted(edges, conf, side="left") - 1, 0, n_bins - 1)
        index = (np.arange(conf.shape[0])[:, None] * n_bins + bins).ravel()
        size = conf.shape[0] * n_bins
        gap = np.bincount(index, weights=conf.ravel(), minlength=size) - np.bincount(
            index, weights=hit.ravel(), minlength=size
        )
        ece = np.abs(gap.reshape(-1, n_bins)).sum(axis=1) / n
        return np.asarray(ece.reshape(shape), dtype=float)

    return statistic


def mean_of_group_means(values: FloatArray, codes: FloatArray, axis: int = -1) -> FloatArray:
    """The unweighted mean over groups of each group's mean (Per-DOC's averaged accuracy).

    Groups absent from a resample are left out of its mean, as the metric leaves out
    aspects without rows.
    """
    v = np.moveaxis(np.asarray(values, dtype=float), axis, -1)
    g = np.moveaxis(np.asarray(codes, dtype=float), axis, -1).astype(np.int64)
    shape, n = v.shape[:-1], v.shape[-1]
    v, g = v.reshape(-1, n), g.reshape(-1, n)
    k = int(g.max()) + 1 if g.size else 0
    index = (np.arange(v.shape[0])[:, None] * k + g).ravel()
    sums = np.bincount(index, weights=v.ravel(), minlength=v.shape[0] * k).reshape(-1, k)
    sizes = np.bincount(index, minlength=v.shape[0] * k).reshape(-1, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(sizes > 0, sums / np.maximum(sizes, 1), 0.0)
        out = means.sum(axis=1) / (sizes > 0).sum(axis=1)
    return np.asarray(out.reshape(shape), dtype=float)
