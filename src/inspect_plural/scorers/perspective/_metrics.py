"""Corpus metrics of annotator-level tasks (CINEMETRIC, PersEval), from per-sample values.

They recompute everything from each sample's score value (``pred``, ``gold``, ``correct``,
``parse_ok``, ``n_labels``, ``abs_error``) and metadata (``annotator_id``, ``item_id``,
``metric_traits``); see :mod:`inspect_plural.scorers.perspective` for the definitions and
presets. :func:`perspective_metrics` picks them for a task: the headline figures by
default, every breakdown with ``level="full"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, cast

import numpy as np
from inspect_ai.scorer import Metric, MetricProtocol, SampleScore, metric
from pydantic import BaseModel, ConfigDict

from inspect_plural.scorers._cost import cost
from inspect_plural.scorers._failures import failure_reasons
from inspect_plural.scorers._prf import (
    FAILED,
    LabelSet,
    Report,
    grouped_report,
    prf_report,
    trait_report,
)
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.role import (
    ROLE_PRESETS,
    distribution_metrics,
    failed_answers,
    parse_failures,
)

__all__ = [
    "PERSPECTIVE_PRESETS",
    "Failures",
    "PerspectiveMetricConfig",
    "TRAIT_KEY",
    "accuracy",
    "accuracy_by_trait",
    "annotator_macro_f1",
    "calibration_metrics",
    "mae",
    "macro_f1",
    "perspective_metrics",
    "prf_annotator",
    "prf_global",
    "prf_text",
    "prf_trait",
    "resolve_perspective_config",
    "text_macro_f1",
    "trait_macro_f1",
    "trait_value",
    "within_one",
]

Failures = Literal["wrong", "drop"]

TRAIT_KEY = "trait:{}"
"""Flat metadata key of a trait dimension, read by :func:`trait_value` (samples built by hand)."""
Level = Literal["global", "annotator", "text"]


class PerspectiveMetricConfig(BaseModel):
    """Explicit metric definitions; a preset is a named instance of this.

    Attributes:
        labels: ``fixed`` (the whole scale in every group) or ``inferred`` (PersEval).
        zero_division: Value of a ratio whose denominator is 0.
        failures: ``wrong`` (a failure is a wrong answer) or ``drop`` (left out).
        skip_trait_values: Trait values that form no group.

    """

    model_config = ConfigDict(frozen=True)

    labels: LabelSet = "fixed"
    zero_division: float = 0.0
    failures: Failures = "wrong"
    skip_trait_values: tuple[str, ...] = ("", "UNK")


PERSPECTIVE_PRESETS: dict[str, PerspectiveMetricConfig] = {
    "default": PerspectiveMetricConfig(),
    "perseval": PerspectiveMetricConfig(labels="inferred", failures="drop"),
}
"""Named metric definitions (``-T metrics_preset=NAME``)."""


def resolve_perspective_config(preset: str) -> PerspectiveMetricConfig:
    """The configuration of a named preset."""
    if preset not in PERSPECTIVE_PRESETS:
        raise ValueError(f"unknown metrics preset {preset!r}; one of {list(PERSPECTIVE_PRESETS)}")
    return PERSPECTIVE_PRESETS[preset]


class _Rows:
    """The scored rows a metric needs, as arrays (failures dropped when configured)."""

    def __init__(self, scores: list[SampleScore], failures: Failures) -> None:
        gold: list[int] = []
        pred: list[int] = []
        annotators: list[str] = []
        items: list[str] = []
        traits: list[dict[str, str]] = []
        abs_error: list[float] = []
        correct: list[float] = []
        row_labels: list[int] = []
        for sample_score in scores:
            if not isinstance(sample_score.score.value, dict):
                continue
            value = values_of(sample_score.score)
            ok = float(value.get("parse_ok", 0.0)) >= 1.0
            if failures == "drop" and not ok:
                continue
            metadata = sample_score.sample_metadata or {}
            gold.append(int(value["gold"]))
            pred.append(int(value["pred"]) if ok else FAILED)
            # the share of runs credited (a mean over epochs), else this row's match
            correct.append(
                float(value["correct"]) if "correct" in value else float(gold[-1] == pred[-1])
            )
            annotators.append(str(metadata.get("annotator_id", "")))
            items.append(str(metadata.get("item_id", sample_score.sample_id)))
            traits.append(dict(metadata.get("metric_traits") or {}))
            row_labels.append(int(value.get("n_labels", 0)))
            if "abs_error" in value:
                abs_error.append(float(value["abs_error"]))
        self.gold = np.asarray(gold, dtype=np.int64)
        self.pred = np.asarray(pred, dtype=np.int64)
        self.annotators = annotators
        self.items = items
        self.traits = traits
        self.abs_error = np.asarray(abs_error, dtype=float)
        self.correct = np.asarray(correct, dtype=float)
        self.row_labels = np.asarray(row_labels, dtype=np.int64)
        self.n_labels = int(self.row_labels.max()) if row_labels else 0
        self.mixed_scales = len(set(row_labels)) > 1

    def __len__(self) -> int:
        return len(self.gold)


def _level_report(
    rows: _Rows, level: Level, config: PerspectiveMetricConfig, names: Sequence[str] | None
) -> Report:
    if not len(rows):
        return {}
    if level == "global":
        return prf_report(
            rows.gold, rows.pred, rows.n_labels, config.labels, config.zero_division, names
        )
    groups = rows.annotators if level == "annotator" else rows.items
    return grouped_report(
        rows.gold,
        rows.pred,
        groups,
        rows.n_labels,
        config.labels,
        config.zero_division,
        names,
        rows.row_labels if rows.mixed_scales else None,
    )


def _trait_reports(
    rows: _Rows, config: PerspectiveMetricConfig, names: Sequence[str] | None
) -> dict[str, Report]:
    if not len(rows):
        return {}
    return trait_report(
        rows.gold,
        rows.pred,
        rows.traits,
        rows.n_labels,
        config.labels,
        config.zero_division,
        names,
        config.skip_trait_values,
    )


@metric
def accuracy(failures: Failures = "wrong") -> Metric:
    """Share of judgments predicted exactly (with runs averaged: the mean over the runs)."""

    def compute(scores: list[SampleScore]) -> float:
        rows = _Rows(scores, failures)
        return float(np.mean(rows.correct)) if len(rows) else float("nan")

    return compute


@metric
def mae(failures: Failures = "wrong") -> Metric:
    """Mean absolute error in scale positions (ordinal scales; failures at worst distance)."""

    def compute(scores: list[SampleScore]) -> float:
        rows = _Rows(scores, failures)
        return float(rows.abs_error.mean()) if len(rows.abs_error) else float("nan")

    return compute


@metric
def within_one(failures: Failures = "wrong") -> Metric:
    """Share of predictions at most one scale position from the gold label (ordinal)."""

    def compute(scores: list[SampleScore]) -> float:
        rows = _Rows(scores, failures)
        return float((rows.abs_error <= 1.0).mean()) if len(rows.abs_error) else float("nan")

    return compute


def _macro(level: Level, config: PerspectiveMetricConfig) -> Metric:
    def compute(scores: list[SampleScore]) -> float:
        report = _level_report(_Rows(scores, config.failures), level, config, None)
        return float(report.get("macro_f1", float("nan")))

    return compute


@metric
def macro_f1(preset: str = "default") -> Metric:
    """Macro-F1 over all judgments (global level)."""
    return _macro("global", resolve_perspective_config(preset))


@metric
def annotator_macro_f1(preset: str = "default") -> Metric:
    """Macro-F1 per annotator, averaged over annotators (PersEval's annotator level)."""
    return _macro("annotator", resolve_perspective_config(preset))


@metric
def text_macro_f1(preset: str = "default") -> Metric:
    """Macro-F1 per item, averaged over items (PersEval's text level)."""
    return _macro("text", resolve_perspective_config(preset))


@metric
def trait_macro_f1(preset: str = "default") -> Metric:
    """Per trait dimension: macro-F1 per trait value (pooled), averaged over values."""
    config = resolve_perspective_config(preset)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        reports = _trait_reports(_Rows(scores, config.failures), config, None)
        return {f"macro_f1/{dim}": float(report["macro_f1"]) for dim, report in reports.items()}

    return compute


def _prf(level: Level, preset: str, names: list[str] | None) -> Metric:
    config = resolve_perspective_config(preset)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        report = _level_report(_Rows(scores, config.failures), level, config, names)
        return {f"{level}/{key}": value for key, value in report.items()}

    return compute


@metric
def prf_global(preset: str = "default", names: list[str] | None = None) -> Metric:
    """Precision, recall and F1 per class plus macro/micro averages over all judgments."""
    return _prf("global", preset, names)


@metric
def prf_annotator(preset: str = "default", names: list[str] | None = None) -> Metric:
    """The per-annotator reports averaged over annotators (each key over those that have it)."""
    return _prf("annotator", preset, names)


@metric
def prf_text(preset: str = "default", names: list[str] | None = None) -> Metric:
    """The per-item reports averaged over items (each key over those that have it)."""
    return _prf("text", preset, names)


@metric
def prf_trait(preset: str = "default", names: list[str] | None = None) -> Metric:
    """Trait-level precision, recall and F1, keys ``<dimension>/<measure>``."""
    config = resolve_perspective_config(preset)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        reports = _trait_reports(_Rows(scores, config.failures), config, names)
        return {
            f"trait/{dim}/{key}": v for dim, report in reports.items() for key, v in report.items()
        }

    return compute


def trait_value(metadata: Mapping[str, Any], dimension: str) -> str:
    """A sample's value of a trait dimension (``UNK`` when the annotator has none).

    Its ``trait:<dimension>`` key (samples built by hand), else its ``metric_traits``,
    where annotator samples store their traits once (issue 32).
    """
    key = TRAIT_KEY.format(dimension)
    if key in metadata:
        return str(metadata[key])
    traits = metadata.get("metric_traits") or {}
    return str(traits.get(dimension) or "UNK")


@metric
def accuracy_by_trait(
    dimensions: list[str],
    failures: Failures = "wrong",
    skip_values: list[str] | None = None,
) -> Metric:
    """Accuracy per trait value, keys ``accuracy/<dimension>=<value>``.

    Groups as Inspect's ``grouped(accuracy, all=False)`` does (in order of first
    appearance), by :func:`trait_value`; values in ``skip_values`` form no group.
    """
    per_group = cast(MetricProtocol, accuracy(failures))
    skip = set(skip_values if skip_values is not None else ("", "UNK"))

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result: dict[str, float] = {}
        for dim in dimensions:
            groups: dict[str, list[SampleScore]] = {}
            for score in scores:
                value = trait_value(score.sample_metadata or {}, dim)
                if value not in skip:
                    groups.setdefault(value, []).append(score)
            for value, members in groups.items():
                result[f"accuracy/{dim}={value}"] = float(cast(float, per_group(members)) or 0.0)
        return result

    return compute


def perspective_metrics(
    preset: str = "default",
    ordinal: bool = False,
    names: list[str] | None = None,
    traits: bool = True,
    level: Literal["headline", "full"] = "full",
) -> list[Metric]:
    """The corpus metrics of an annotator-level task.

    Args:
        preset: ``default`` or ``perseval``.
        ordinal: Add MAE and within-one accuracy.
        names: Class names for the per-class keys (None: label indices).
        traits: Add the trait-level metrics (``full`` only).
        level: ``headline``: accuracy, MAE and within-one (ordinal), global, annotator
            and text macro-F1 (PersEval's levels), parse failures, calls and tokens;
            ``full`` adds trait-level macro-F1 and precision, recall and F1 per class at
            every level. Every breakdown stays computable from the per-sample values.

    Returns:
        The metrics, headline figures first.

    """
    config = resolve_perspective_config(preset)
    metrics: list[Metric] = [accuracy(config.failures)]
    if ordinal:
        metrics += [mae(config.failures), within_one(config.failures)]
    metrics += [macro_f1(preset), annotator_macro_f1(preset), text_macro_f1(preset)]
    if level == "full":
        if traits:
            metrics.append(trait_macro_f1(preset))
        metrics += [
            prf_global(preset, names),
            prf_annotator(preset, names),
            prf_text(preset, names),
        ]
        if traits:
            metrics.append(prf_trait(preset, names))
    metrics += [parse_failures(), failed_answers(), failure_reasons(), cost()]
    return metrics


def calibration_metrics(config: PerspectiveMetricConfig) -> list[Metric]:
    """Top-k, mean rank, ECE and Brier of distribution answers (the role scorer's defaults).

    They read the per-sample probabilities that :func:`annotator_scorer` writes with
    ``distribution=True``; a failure counts as the uniform distribution, or is dropped
    under a preset that drops failures.

    Args:
        config: The task's metric configuration.

    Returns:
        The metrics.

    """
    role = ROLE_PRESETS["default"].model_copy(
        update={"failures": "drop" if config.failures == "drop" else "uniform"}
    )
    return distribution_metrics(role)
