"""Scorer and corpus metrics for rating tasks (MSLR-Cochrane, StorySparkQA).

One sample is one generated output with human ratings on several dimensions. Per
sample, :func:`rating_scorer` reads the method's
:class:`~inspect_plural.prediction.Prediction` and writes numbers only:

- ``pred/{dim}``: the method's score per dimension it could score;
- ``gold/{dim}``: the human score (mean over raters) per dimension anybody rated;
- ``pred_initial/{dim}``: the score before discussion (debates only);
- ``group/{g}/{dim}``: each panel's (stakeholder group's) score;
- ``parse_ok``, ``n_scored`` (dimensions predicted), ``model_calls``, ``tokens``,
  ``n_answers`` and ``failed_answers``.

A missing value is left out, never NaN. ``Score.metadata`` holds ``panels`` (the
``model_dump`` of ``Prediction.panels``: every member's initial and final scores, calls
and tokens per panel) and ``group`` (``output.group``, the review or story).

Corpus metrics (parameters are configuration):

- :func:`rating_correlations`: ``{dim}/spearman``, ``{dim}/kendall`` (tau-b),
  ``{dim}/pearson``, ``{dim}/n`` and, ``per_item``, ``{dim}/n_groups`` and
  ``{dim}/skipped_groups``; an undefined coefficient is NaN with
  ``{dim}/{coef}_undefined = 1`` and its reason logged. Pairwise over the samples
  with both a prediction and a gold score, so failed samples drop out (and are counted
  by ``parse_failures``). Correlations do not depend on scale: no rescaling.
- :func:`initial_correlations`: the same on ``pred_initial``, keys ``initial/...``.
- :func:`group_alpha`: Krippendorff's alpha within each panel, ``alpha/{g}/{phase}``
  on the ``overall`` dimension, plus ``alpha/{g}/{phase}/{dim}`` with
  ``dimensions="all"``.
- :func:`rating_cost`: mean ``model_calls`` and ``tokens`` per sample, and
  ``calls/{g}``, ``tokens/{g}`` per panel.
- ``parse_failures`` (shared with the role scorer).

With ``--epochs``, reduce with :func:`rating_mean` (``--epochs-reducer rating_mean``):
Inspect's ``mean`` refuses dict scores whose keys differ between epochs, which happens
as soon as one epoch fails to score a dimension.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator, Mapping
from typing import Any, Literal, cast

import numpy as np
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    ScoreReducer,
    Target,
    metric,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_plural.prediction import Prediction
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.scorers._agreement import ALPHA_LEVELS, AlphaLevel, panel_alpha
from inspect_plural.scorers._correlation import (
    COEFFICIENTS,
    CorrelationMode,
    CorrelationResult,
    correlations,
)
from inspect_plural.scorers._reduce import mean_by_key
from inspect_plural.scorers.role import parse_failures

__all__ = [
    "AlphaDimensions",
    "OVERALL",
    "group_alpha",
    "initial_correlations",
    "rating_correlations",
    "rating_cost",
    "rating_mean",
    "rating_metrics",
    "rating_scorer",
]

logger = logging.getLogger(__name__)

AlphaDimensions = Literal["overall", "all"]

OVERALL = "overall"
"""The dimension behind the headline alpha keys."""

PHASES: tuple[Literal["initial", "final"], ...] = ("initial", "final")


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(float(value))


# --------------------------------------------------------------------------------------
# Reading the per-sample scores
# --------------------------------------------------------------------------------------


def _rows(scores: list[SampleScore]) -> Iterator[tuple[dict[str, float], dict[str, Any], Any]]:
    """Per dict-valued score: its value, its metadata, and the sample's metadata."""
    for sample_score in scores:
        value = sample_score.score.value
        if isinstance(value, dict):
            yield (
                cast(dict[str, float], value),
                dict(sample_score.score.metadata or {}),
                sample_score.sample_metadata or {},
            )


def _sample_group(metadata: dict[str, Any], sample_metadata: Mapping[str, Any]) -> str | None:
    group = metadata.get("group")
    if group is None:
        output = sample_metadata.get("output")
        group = output.get("group") if isinstance(output, Mapping) else None
    return None if group is None else str(group)


def _dimension_order(scores: list[SampleScore], prefix: str) -> list[str]:
    """Dimensions in the task's order, then any other with a ``{prefix}{dim}`` key."""
    names: dict[str, None] = {}
    for value, _, sample_metadata in _rows(scores):
        for dim in sample_metadata.get("dimensions") or []:
            if isinstance(dim, Mapping) and "name" in dim:
                names.setdefault(str(dim["name"]), None)
        for key in value:
            if key.startswith(prefix):
                names.setdefault(key[len(prefix) :], None)
    return list(names)


def _check_mode(correlation: str) -> CorrelationMode:
    if correlation not in ("pooled", "per_item"):
        raise ValueError(f"unknown correlation {correlation!r}; 'pooled' or 'per_item'")
    return cast(CorrelationMode, correlation)


def _correlation_report(
    scores: list[SampleScore],
    pred_prefix: str,
    key_prefix: str,
    dimensions: list[str] | None,
    mode: CorrelationMode,
    absolute: bool,
    only_predicted: bool,
) -> dict[str, float]:
    rows = list(_rows(scores))
    if dimensions is None:
        dimensions = _dimension_order(scores, "gold/")
    groups = [_sample_group(metadata, sample_metadata) for _, metadata, sample_metadata in rows]
    report: dict[str, float] = {}
    for dim in dimensions:
        pred = [value.get(f"{pred_prefix}{dim}", math.nan) for value, _, _ in rows]
        if only_predicted and not any(_finite(p) for p in pred):
            continue
        gold = [value.get(f"gold/{dim}", math.nan) for value, _, _ in rows]
        result = correlations(pred, gold, groups, mode, absolute)
        report.update(_correlation_keys(f"{key_prefix}{dim}", result, mode))
    return report


def _correlation_keys(
    prefix: str, result: CorrelationResult, mode: CorrelationMode
) -> dict[str, float]:
    keys: dict[str, float] = {}
    for name in COEFFICIENTS:
        keys[f"{prefix}/{name}"] = result.coefficient(name)
    keys[f"{prefix}/n"] = float(result.n)
    if mode == "per_item":
        keys[f"{prefix}/n_groups"] = float(result.n_groups or 0)
        keys[f"{prefix}/skipped_groups"] = float(result.skipped)
    for coefficient, reason in result.reasons.items():
        keys[f"{prefix}/{coefficient}_undefined"] = 1.0
        logger.warning("%s/%s is undefined: %s (n=%d)", prefix, coefficient, reason, result.n)
    return keys


# --------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------


@metric
def rating_correlations(
    dimensions: list[str] | None = None,
    correlation: str = "pooled",
    absolute: bool = False,
) -> Metric:
    """Spearman, Kendall tau-b and Pearson of ``pred/{dim}`` against ``gold/{dim}``.

    Args:
        dimensions: The dimensions to report (None: every rated dimension, in the
            task's order).
        correlation: ``pooled`` (all samples at once) or ``per_item`` (within each
            ``output.group``, constant groups skipped, unweighted mean).
        absolute: Report absolute values.

    Returns:
        The metric: ``{dim}/spearman``, ``{dim}/kendall``, ``{dim}/pearson``,
        ``{dim}/n``, with ``per_item`` ``{dim}/n_groups`` and ``{dim}/skipped_groups``,
        and ``{dim}/{coef}_undefined = 1`` for each NaN coefficient.

    """
    mode = _check_mode(correlation)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return _correlation_report(scores, "pred/", "", dimensions, mode, absolute, False)

    return compute


@metric
def initial_correlations(
    dimensions: list[str] | None = None,
    correlation: str = "pooled",
    absolute: bool = False,
) -> Metric:
    """The correlations of the scores before discussion (``pred_initial/{dim}``).

    Args:
        dimensions: The dimensions to report (None: every rated dimension).
        correlation: ``pooled`` or ``per_item``.
        absolute: Report absolute values.

    Returns:
        The metric: the keys of :func:`rating_correlations` prefixed ``initial/``, for
        the dimensions that some sample has an initial score for (none for methods
        without a discussion).

    """
    mode = _check_mode(correlation)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return _correlation_report(
            scores, "pred_initial/", "initial/", dimensions, mode, absolute, True
        )

    return compute


def _panels(metadata: dict[str, Any]) -> dict[str, Mapping[str, Any]]:
    panels = metadata.get("panels") or {}
    return {str(k): v for k, v in panels.items() if isinstance(v, Mapping)}


def _alpha_keys(
    key: str, samples: list[dict[str, dict[str, float]]], dim: str, level: AlphaLevel
) -> dict[str, float]:
    result = panel_alpha(samples, dim, level)
    if result.reason is None:
        return {key: result.alpha}
    logger.warning("%s is undefined: %s (%d units)", key, result.reason, result.n_units)
    return {key: result.alpha, f"{key}_undefined": 1.0}


@metric
def group_alpha(level: str = "interval", dimensions: str = "overall") -> Metric:
    """Krippendorff's alpha within each panel, before and after discussion.

    Units are samples and coders are the panel's members (from ``Score.metadata``
    ``panels``); failed parses are absent and units with fewer than 2 values skipped.

    Args:
        level: ``interval`` (default), ``ordinal`` or ``nominal``.
        dimensions: ``overall`` (alpha on the ``overall`` dimension only) or ``all``
            (also one key per dimension).

    Returns:
        The metric: ``alpha/{group}/{initial|final}`` and, with ``all``,
        ``alpha/{group}/{phase}/{dim}``; an undefined alpha is NaN with
        ``{key}_undefined = 1`` and its reason logged. A phase nobody has scores for
        (e.g. no initial round) has no keys.

    Raises:
        ValueError: On an unknown level or dimensions option.

    """
    if level not in ALPHA_LEVELS:
        raise ValueError(f"unknown alpha level {level!r}; one of {list(ALPHA_LEVELS)}")
    if dimensions not in ("overall", "all"):
        raise ValueError(f"unknown alpha dimensions {dimensions!r}; 'overall' or 'all'")
    alpha_level: AlphaLevel = level

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        by_group: dict[str, dict[str, list[dict[str, dict[str, float]]]]] = {}
        for _, metadata, _ in _rows(scores):
            for group, panel in _panels(metadata).items():
                phases = by_group.setdefault(group, {phase: [] for phase in PHASES})
                for phase in PHASES:
                    phases[phase].append(dict(panel.get(phase) or {}))
        report: dict[str, float] = {}
        for group, phases in by_group.items():
            for phase in PHASES:
                samples = phases[phase]
                dims = list(
                    dict.fromkeys(d for members in samples for s in members.values() for d in s)
                )
                if not dims:
                    continue
                if OVERALL in dims:
                    key = f"alpha/{group}/{phase}"
                    report.update(_alpha_keys(key, samples, OVERALL, alpha_level))
                else:
                    logger.warning("alpha/%s/%s: no %r scores", group, phase, OVERALL)
                if dimensions == "all":
                    for dim in dims:
                        key = f"alpha/{group}/{phase}/{dim}"
                        report.update(_alpha_keys(key, samples, dim, alpha_level))
        return report

    return compute


@metric
def rating_cost() -> Metric:
    """Model calls and tokens per sample, overall and per panel.

    Returns:
        The metric: ``model_calls`` and ``tokens`` (means over samples), and
        ``calls/{group}`` and ``tokens/{group}`` (means over the samples the panel
        scored).

    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        calls: list[float] = []
        tokens: list[float] = []
        group_calls: dict[str, list[float]] = {}
        group_tokens: dict[str, list[float]] = {}
        for value, metadata, _ in _rows(scores):
            calls.append(float(value.get("model_calls", 0.0)))
            tokens.append(float(value.get("tokens", 0.0)))
            for group, panel in _panels(metadata).items():
                group_calls.setdefault(group, []).append(float(panel.get("model_calls", 0)))
                group_tokens.setdefault(group, []).append(float(panel.get("tokens", 0)))
        report = {
            "model_calls": float(np.mean(calls)) if calls else math.nan,
            "tokens": float(np.mean(tokens)) if tokens else math.nan,
        }
        for group, values in group_calls.items():
            report[f"calls/{group}"] = float(np.mean(values))
            report[f"tokens/{group}"] = float(np.mean(group_tokens[group]))
        return report

    return compute


def rating_metrics(
    correlation: str = "pooled",
    absolute: bool = False,
    alpha_level: str = "interval",
    alpha_dimensions: str = "overall",
    dimensions: list[str] | None = None,
) -> list[Metric | dict[str, list[Metric]]]:
    """The corpus metrics of a rating task under one configuration.

    Args:
        correlation: ``pooled`` or ``per_item``.
        absolute: Report absolute correlations.
        alpha_level: Krippendorff level (``interval``, ``ordinal``, ``nominal``).
        alpha_dimensions: ``overall`` or ``all``.
        dimensions: The dimensions to correlate (None: every rated one).

    Returns:
        Correlations (final and initial), panel alpha, cost and parse failures.

    """
    return [
        rating_correlations(dimensions, correlation, absolute),
        initial_correlations(dimensions, correlation, absolute),
        group_alpha(alpha_level, alpha_dimensions),
        rating_cost(),
        parse_failures(),
    ]


# --------------------------------------------------------------------------------------
# Scorer
# --------------------------------------------------------------------------------------


def _scores(prefix: str, scores: Mapping[str, float]) -> dict[str, float]:
    return {f"{prefix}{dim}": float(v) for dim, v in scores.items() if _finite(v)}


@scorer(metrics=rating_metrics())
def rating_scorer() -> Scorer:
    """Score a rating ``Prediction`` against the human scores of one generated output.

    Returns:
        The scorer. Its own metrics are the defaults (pooled, signed correlations,
        interval alpha on ``overall``); the tasks attach
        ``rating_metrics(correlation, absolute, alpha_level, alpha_dimensions)`` through
        ``Task(metrics=...)`` so the metrics follow the task options.

    """

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(RatedSampleMetadata)
        prediction = Prediction.read(state.store)
        pred = _scores("pred/", prediction.scores)
        value: dict[str, float] = {**pred, **_scores("gold/", metadata.gold)}
        value.update(_scores("pred_initial/", prediction.initial_scores))
        for group, panel in prediction.panels.items():
            value.update(_scores(f"group/{group}/", panel.scores))
        value.update(
            {
                "parse_ok": float(prediction.parse_ok),
                "n_scored": float(len(pred)),
                "model_calls": float(prediction.model_calls),
                "tokens": float(prediction.tokens),
                "n_answers": float(len(prediction.answers)),
                "failed_answers": float(sum(1 for a in prediction.answers if not a.parse_ok)),
            }
        )
        shown = prediction.scores.get(OVERALL, prediction.score)
        return Score(
            value=value,
            answer=None if shown is None else f"{shown:g}",
            explanation=prediction.error if not prediction.parse_ok else prediction.rationale,
            metadata={
                "panels": {g: p.model_dump() for g, p in prediction.panels.items()},
                "group": metadata.output.group,
            },
        )

    return score


@score_reducer(name="rating_mean")
def rating_mean() -> ScoreReducer:
    """Reduce epochs key by key, each key over the epochs that have it.

    ``pred/{dim}`` is the mean over the epochs that scored the dimension (Inspect's
    ``mean`` raises when the keys differ between epochs). ``parse_ok`` is the mean too,
    so a sample that failed in any epoch counts in ``parse_failures``. The metadata
    (panels, group) is the first epoch's, as with Inspect's reducers, so ``group_alpha``
    and the per-panel cost read the first epoch.

    Returns:
        The reducer.
    """

    def reduce(scores: list[Score]) -> Score:
        return mean_by_key(scores)

    return reduce
