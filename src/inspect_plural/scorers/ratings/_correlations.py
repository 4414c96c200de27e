"""Correlation metrics of rating tasks: the panel's and each stakeholder group's.

Every metric correlates a per-sample prediction key with ``gold/{dim}`` across samples,
pairwise complete (a sample without the prediction or the human score drops out, and
failed parses are counted by ``parse_failures``), with
:func:`~inspect_plural.scorers._correlation.correlations`:

- :func:`rating_correlations`: ``pred/{dim}`` -> ``{dim}/{coef}``;
- :func:`initial_correlations`: ``pred_initial/{dim}`` -> ``initial/{dim}/{coef}``;
- :func:`group_correlations`: ``group/{g}/{dim}`` -> ``group/{g}/{dim}/{coef}`` and,
  ``phase="initial"``, ``group_initial/{g}/{dim}`` -> ``initial/group/{g}/{dim}/{coef}``.

``{coef}`` is ``spearman``, ``kendall`` (tau-b) and ``pearson``, or the subset asked
for. With ``detail=True`` each prefix also has ``/n`` (complete pairs), with
``per_item`` ``/n_groups`` and ``/skipped_groups``, and ``/{coef}_undefined = 1`` for a
NaN coefficient; with ``detail=False`` (the headline set) only the coefficients. An
undefined coefficient is NaN either way and is warned about once per key per run
(:class:`~inspect_plural.scorers._undefined.UndefinedWarnings`).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from typing import cast

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.scorers._correlation import (
    COEFFICIENTS,
    Coefficient,
    CorrelationMode,
    CorrelationResult,
    correlations,
)
from inspect_plural.scorers._undefined import UndefinedWarnings
from inspect_plural.scorers.ratings._values import (
    GROUP_PREFIX,
    INITIAL_GROUP_PREFIX,
    dimension_order,
    finite,
    group_names,
    rows,
    sample_group,
)

__all__ = [
    "check_coefficients",
    "check_mode",
    "group_correlations",
    "initial_correlations",
    "rating_correlations",
]

logger = logging.getLogger(__name__)


def check_mode(correlation: str) -> CorrelationMode:
    """The correlation mode, or ValueError."""
    if correlation not in ("pooled", "per_item"):
        raise ValueError(f"unknown correlation {correlation!r}; 'pooled' or 'per_item'")
    return cast(CorrelationMode, correlation)


def check_coefficients(coefficients: Sequence[str] | None) -> tuple[Coefficient, ...]:
    """The coefficients to report, in report order (None: all three), or ValueError."""
    if coefficients is None:
        return COEFFICIENTS
    unknown = [c for c in coefficients if c not in COEFFICIENTS]
    if unknown or not coefficients:
        raise ValueError(f"coefficients must be some of {list(COEFFICIENTS)}, not {coefficients}")
    return tuple(c for c in COEFFICIENTS if c in coefficients)


class _Correlator:
    """One metric's configuration and its warn-once state."""

    def __init__(
        self,
        correlation: str,
        absolute: bool,
        coefficients: Sequence[str] | None,
        detail: bool,
    ) -> None:
        self.mode = check_mode(correlation)
        self.absolute = absolute
        self.coefficients = check_coefficients(coefficients)
        self.detail = detail
        self.warnings = UndefinedWarnings(logger)

    def report(
        self,
        scores: list[SampleScore],
        pairs: Sequence[tuple[str, str, str]],
        only_predicted: bool,
    ) -> dict[str, float]:
        """Keys for each (prediction key, gold key, metric key prefix)."""
        table = list(rows(scores))
        groups = [sample_group(metadata, sample) for _, metadata, sample in table]
        report: dict[str, float] = {}
        for pred_key, gold_key, prefix in pairs:
            pred = [value.get(pred_key, math.nan) for value, _, _ in table]
            if only_predicted and not any(finite(p) for p in pred):
                continue
            gold = [value.get(gold_key, math.nan) for value, _, _ in table]
            result = correlations(pred, gold, groups, self.mode, self.absolute)
            report.update(self._keys(prefix, result))
        return report

    def _keys(self, prefix: str, result: CorrelationResult) -> dict[str, float]:
        keys = {f"{prefix}/{name}": result.coefficient(name) for name in self.coefficients}
        if self.detail:
            keys[f"{prefix}/n"] = float(result.n)
            if self.mode == "per_item":
                keys[f"{prefix}/n_groups"] = float(result.n_groups or 0)
                keys[f"{prefix}/skipped_groups"] = float(result.skipped)
        for coefficient, reason in result.reasons.items():
            if coefficient not in self.coefficients:
                continue
            if self.detail:
                keys[f"{prefix}/{coefficient}_undefined"] = 1.0
            self.warnings.warn(f"{prefix}/{coefficient}", reason, f"n={result.n}")
        return keys


@metric
def rating_correlations(
    dimensions: list[str] | None = None,
    correlation: str = "pooled",
    absolute: bool = False,
    coefficients: list[str] | None = None,
    detail: bool = True,
) -> Metric:
    """Spearman, Kendall tau-b and Pearson of ``pred/{dim}`` against ``gold/{dim}``.

    Args:
        dimensions: The dimensions to report (None: every rated dimension, in the
            task's order).
        correlation: ``pooled`` (all samples at once) or ``per_item`` (within each
            ``output.group``, constant groups skipped, unweighted mean).
        absolute: Report absolute values.
        coefficients: Report only these of ``spearman``, ``kendall``, ``pearson``.
        detail: Also report the counts and the ``_undefined`` flags.

    Returns:
        The metric: ``{dim}/spearman``, ``{dim}/kendall``, ``{dim}/pearson`` and, with
        ``detail``, ``{dim}/n``, with ``per_item`` ``{dim}/n_groups`` and
        ``{dim}/skipped_groups``, and ``{dim}/{coef}_undefined = 1`` for each NaN
        coefficient.
    """
    correlator = _Correlator(correlation, absolute, coefficients, detail)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        dims = dimensions if dimensions is not None else dimension_order(scores, "gold/")
        pairs = [(f"pred/{dim}", f"gold/{dim}", dim) for dim in dims]
        return correlator.report(scores, pairs, only_predicted=False)

    return compute


@metric
def initial_correlations(
    dimensions: list[str] | None = None,
    correlation: str = "pooled",
    absolute: bool = False,
    coefficients: list[str] | None = None,
    detail: bool = True,
) -> Metric:
    """The correlations of the scores before discussion (``pred_initial/{dim}``).

    Args:
        dimensions: The dimensions to report (None: every rated dimension).
        correlation: ``pooled`` or ``per_item``.
        absolute: Report absolute values.
        coefficients: Report only these coefficients.
        detail: Also report the counts and the ``_undefined`` flags.

    Returns:
        The metric: the keys of :func:`rating_correlations` prefixed ``initial/``, for
        the dimensions that some sample has an initial score for (none for methods
        without a discussion).
    """
    correlator = _Correlator(correlation, absolute, coefficients, detail)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        dims = dimensions if dimensions is not None else dimension_order(scores, "gold/")
        pairs = [(f"pred_initial/{dim}", f"gold/{dim}", f"initial/{dim}") for dim in dims]
        return correlator.report(scores, pairs, only_predicted=True)

    return compute


@metric
def group_correlations(
    dimensions: list[str] | None = None,
    correlation: str = "pooled",
    absolute: bool = False,
    coefficients: list[str] | None = None,
    detail: bool = True,
    phase: str = "final",
) -> Metric:
    """The correlations of each stakeholder group's scores with the human scores.

    MAJ-Eval's tables and figures report them per group (§5.2, Appendix A.5), before
    and after the debate (§5.4.2). Computed from the per-sample ``group/{g}/{dim}``
    (final) or ``group_initial/{g}/{dim}`` (before discussion) values, so the same
    numbers can be recomputed from the samples of any log.

    Args:
        dimensions: The dimensions to report (None: every rated dimension).
        correlation: ``pooled`` or ``per_item``.
        absolute: Report absolute values (the paper's tables).
        coefficients: Report only these coefficients.
        detail: Also report the counts and the ``_undefined`` flags.
        phase: ``final`` (after the debate) or ``initial`` (before it).

    Returns:
        The metric: ``group/{g}/{dim}/{coef}`` (final) or
        ``initial/group/{g}/{dim}/{coef}`` (initial) per group and dimension that
        some sample has a score for, with the ``detail`` keys of
        :func:`rating_correlations`.

    Raises:
        ValueError: An unknown phase.
    """
    if phase not in ("initial", "final"):
        raise ValueError(f"unknown phase {phase!r}; 'initial' or 'final'")
    correlator = _Correlator(correlation, absolute, coefficients, detail)
    source = INITIAL_GROUP_PREFIX if phase == "initial" else GROUP_PREFIX
    target = "initial/group/" if phase == "initial" else "group/"

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        dims = dimensions if dimensions is not None else dimension_order(scores, "gold/")
        pairs = [
            (f"{source}{group}/{dim}", f"gold/{dim}", f"{target}{group}/{dim}")
            for group in group_names(scores, source, dims)
            for dim in dims
        ]
        return correlator.report(scores, pairs, only_predicted=True)

    return compute
