"""Correlations between predicted and human scores (MAJ-Eval, G-Eval, ChatEval meta-evaluation).

Pure functions over 1-D arrays. Pairs where either side is missing (NaN, None, inf) are
left out (pairwise-complete). Coefficients are scipy's: ``spearmanr``,
``kendalltau(variant="b")`` (tau-b, explicit: tau-c differs with ties) and ``pearsonr``.

Undefined coefficients are NaN with a reason, never an exception or a scipy warning:

- ``too_few_pairs``: fewer than 2 complete pairs;
- ``constant_pred`` / ``constant_gold``: one side has no variation;
- ``no_groups`` (``per_item``): no group has 2 pairs and variation on both sides.

``mode="pooled"`` correlates all pairs at once (PERSE, MAJ-Eval's dataset level).
``mode="per_item"`` correlates within each group (a review, a story), keeps groups with
at least 2 pairs, skips groups where either side is constant, and takes the unweighted
mean over the groups used (G-Eval's and ChatEval's summary level, ``meta_eval_summeval``).
No official code takes absolute values; ``absolute=True`` applies ``abs`` to the
reported figure (after the per-group mean).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "COEFFICIENTS",
    "Coefficient",
    "CorrelationMode",
    "CorrelationResult",
    "correlations",
]

Coefficient = Literal["spearman", "kendall", "pearson"]
CorrelationMode = Literal["pooled", "per_item"]

COEFFICIENTS: tuple[Coefficient, ...] = ("spearman", "kendall", "pearson")
"""The coefficients every result holds, in report order."""

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CorrelationResult:
    """Correlation coefficients between predicted and gold scores.

    Attributes:
        spearman: Spearman's rho (NaN when undefined).
        kendall: Kendall's tau-b (NaN when undefined).
        pearson: Pearson's r (NaN when undefined).
        n: Complete pairs behind the figures (``per_item``: in the groups used).
        n_groups: Groups averaged over (``per_item`` only; None when pooled).
        skipped: Groups with at least 2 pairs left out because one side is constant.
        too_small: Groups left out because they have fewer than 2 complete pairs.
        ungrouped: Complete pairs without a group, left out of ``per_item``.
        reasons: Coefficient -> why it is NaN (only the undefined ones).

    """

    spearman: float
    kendall: float
    pearson: float
    n: int
    n_groups: int | None = None
    skipped: int = 0
    too_small: int = 0
    ungrouped: int = 0
    reasons: dict[str, str] = field(default_factory=dict)

    def coefficient(self, name: Coefficient) -> float:
        """The value of one coefficient by name."""
        return float(getattr(self, name))


def _as_array(values: Sequence[float | None] | FloatArray) -> FloatArray:
    array = np.asarray(
        [np.nan if v is None else v for v in values] if isinstance(values, Sequence) else values,
        dtype=float,
    )
    if array.ndim != 1:
        raise ValueError(f"correlations need 1-D inputs, got shape {array.shape}")
    return array


def _undefined_reason(pred: FloatArray, gold: FloatArray) -> str | None:
    if len(pred) < 2:
        return "too_few_pairs"
    if np.ptp(pred) == 0:
        return "constant_pred"
    if np.ptp(gold) == 0:
        return "constant_gold"
    return None


def _coefficients(pred: FloatArray, gold: FloatArray) -> dict[Coefficient, float]:
    """All three coefficients of complete, non-constant pairs (n >= 2)."""
    from scipy.stats import kendalltau, pearsonr, spearmanr

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. pearsonr's "nearly constant" notice
        return {
            "spearman": float(spearmanr(pred, gold).statistic),
            "kendall": float(kendalltau(pred, gold, variant="b").statistic),
            "pearson": float(pearsonr(pred, gold).statistic),
        }


def _finish(
    values: dict[Coefficient, float],
    reasons: dict[str, str],
    absolute: bool,
    n: int,
    n_groups: int | None = None,
    skipped: int = 0,
    too_small: int = 0,
    ungrouped: int = 0,
) -> CorrelationResult:
    final: dict[Coefficient, float] = {}
    for name in COEFFICIENTS:
        value = values.get(name, float("nan"))
        if not np.isfinite(value):
            value = float("nan")
            reasons.setdefault(name, "undefined")
        elif absolute:
            value = abs(value)
        final[name] = value
    return CorrelationResult(
        spearman=final["spearman"],
        kendall=final["kendall"],
        pearson=final["pearson"],
        n=n,
        n_groups=n_groups,
        skipped=skipped,
        too_small=too_small,
        ungrouped=ungrouped,
        reasons=reasons,
    )


def correlations(
    pred: Sequence[float | None] | FloatArray,
    gold: Sequence[float | None] | FloatArray,
    groups: Sequence[str | None] | None = None,
    mode: CorrelationMode = "pooled",
    absolute: bool = False,
) -> CorrelationResult:
    """Spearman, Kendall tau-b and Pearson between predictions and gold scores.

    Args:
        pred: Predicted score per sample (NaN or None: missing).
        gold: Human score per sample (NaN or None: missing).
        groups: Group per sample (a review, a story), for ``per_item``; None entries are
            left out of ``per_item``. Ignored when pooled.
        mode: ``pooled`` (all pairs at once) or ``per_item`` (mean over groups).
        absolute: Report absolute values (applied after the per-group mean).

    Returns:
        The coefficients, with counts and the reasons for any NaN.

    Raises:
        ValueError: On inputs of different lengths, non-1-D inputs, an unknown mode, or
            ``per_item`` without groups.

    """
    p, g = _as_array(pred), _as_array(gold)
    if len(p) != len(g):
        raise ValueError(f"pred has {len(p)} values, gold {len(g)}")
    if mode not in ("pooled", "per_item"):
        raise ValueError(f"unknown correlation mode {mode!r}; 'pooled' or 'per_item'")
    complete = np.isfinite(p) & np.isfinite(g)

    if mode == "pooled":
        p, g = p[complete], g[complete]
        reason = _undefined_reason(p, g)
        if reason is not None:
            return _finish({}, dict.fromkeys(COEFFICIENTS, reason), absolute, n=len(p))
        return _finish(_coefficients(p, g), {}, absolute, n=len(p))

    if groups is None:
        raise ValueError("per_item correlations need a group per sample")
    if len(groups) != len(p):
        raise ValueError(f"pred has {len(p)} values, groups {len(groups)}")
    members: dict[str, list[int]] = {}
    ungrouped = 0
    for i, group in enumerate(groups):
        if not complete[i]:
            continue
        if group is None:
            ungrouped += 1
            continue
        members.setdefault(group, []).append(i)

    per_group: list[dict[Coefficient, float]] = []
    n = skipped = too_small = 0
    for indices in members.values():
        gp, gg = p[indices], g[indices]
        reason = _undefined_reason(gp, gg)
        if reason == "too_few_pairs":
            too_small += 1
        elif reason is not None:
            skipped += 1
        else:
            per_group.append(_coefficients(gp, gg))
            n += len(indices)
    means: dict[Coefficient, float] = {}
    reasons: dict[str, str] = {}
    for name in COEFFICIENTS:
        finite = [v[name] for v in per_group if np.isfinite(v[name])]
        means[name] = float(np.mean(finite)) if finite else float("nan")
        if not finite:
            reasons[name] = "no_groups"
    return _finish(means, reasons, absolute, n, len(per_group), skipped, too_small, ungrouped)
