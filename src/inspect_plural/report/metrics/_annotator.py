"""Metrics of annotator-level tasks and probability answers (CINEMETRIC, PersEval, PersonaEval).

Recomputed from the per-sample values with the definitions of the task's
``metrics_preset`` (how failures count, tie rules, ECE bins):

- accuracy, MAE, within-one (means over samples), macro-F1 over all rows (PersEval's
  global level), and the annotator- and text-level macro-F1 (means over annotators or
  items of their own macro-F1: a cluster bootstrap);
- top-1, top-2, mean rank, Brier (means) and ECE (recomputed per resample) of
  probability answers (``role_scorer``, or ``-T answer_format=distribution``);
- breakdowns the headline log leaves out: accuracy per trait value, F1 per class, and
  each annotator's accuracy.

The paper tables' metrics are shown even when a log does not hold them (an older or
trimmed log), recomputed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from inspect_plural.report._bootstrap import Bootstrap, Estimate, FloatArray
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics._base import (
    GROUP_MEAN,
    MEAN,
    RECOMPUTED,
    MetricValue,
    cell_key,
    checked,
    codes,
    column,
    failed_rows,
    mean_value,
    preset,
    reduce_epochs,
    stat_value,
)
from inspect_plural.report.metrics._statistics import (
    class_f1_statistic,
    ece_statistic,
    group_macro_f1,
    macro_f1_statistic,
)
from inspect_plural.scorers import (
    PERSPECTIVE_PRESETS,
    ROLE_PRESETS,
    RoleMetricConfig,
    gold_rank,
    top_k_correct,
)

__all__ = [
    "CLASS_PREFIX",
    "TRAIT_PREFIX",
    "DistributionRows",
    "annotator_accuracy",
    "class_cells",
    "class_f1",
    "distribution_metrics",
    "distribution_rows",
    "perspective_metrics",
    "trait_accuracy",
    "trait_cells",
]

TRAIT_PREFIX = "accuracy/"
"""Name prefix of accuracy per trait value (``accuracy/<dimension>=<value>``, as logged)."""
CLASS_PREFIX = "f1/"
"""Name prefix of F1 per gold class (``f1/<label index>``; never logged)."""


@dataclass(frozen=True)
class DistributionRows:
    """Per-sample values of probability answers (after the preset's failure rule).

    Attributes:
        confidence: Probability of the top option.
        top1: Whether the top option is right (the preset's tie rule).
        top2: Whether the gold option is among the two most probable.
        rank: 1-based rank of the gold option.
        brier: Multiclass Brier of the row (the preset's normalisation).
        n_bins: ECE bins of the preset.
        failures: (failed, total) samples behind the rows.
    """

    confidence: FloatArray
    top1: FloatArray
    top2: FloatArray
    rank: FloatArray
    brier: FloatArray
    n_bins: int
    failures: tuple[int, int]


def _role_config(log: LogData) -> RoleMetricConfig | None:
    if log.scorer == "role_scorer":
        return ROLE_PRESETS.get(preset(log))
    if log.scorer == "annotator_scorer" and "p_true" in log.values:
        config = PERSPECTIVE_PRESETS.get(preset(log))
        if config is None:
            return None
        failures = "drop" if config.failures == "drop" else "uniform"
        return ROLE_PRESETS["default"].model_copy(update={"failures": failures})
    return None


def distribution_rows(log: LogData) -> DistributionRows | None:
    """The per-sample values behind top-k, rank, Brier and ECE, or None without them.

    Args:
        log: A log of ``role_scorer``, or of ``annotator_scorer`` with probability answers.

    Returns:
        The rows the metrics use (failures kept as the uniform answer or dropped, as the
        task's preset says), or None when the log has no probability answers.
    """
    config = _role_config(log)
    log = reduce_epochs(log)
    values = log.values
    if config is None or "n_options" not in values or "gold_index" not in values:
        return None
    failures = failed_rows(log, np.ones(log.n, dtype=bool))
    if config.failures == "drop":
        values = values[column(values, "parse_ok") >= 1.0]
    k_all = column(values, "n_options")
    gold_all = column(values, "gold_index")
    n = len(values)
    out = {name: np.zeros(n) for name in ("confidence", "top1", "top2", "rank", "brier")}
    for k in sorted({int(x) for x in k_all if not math.isnan(x)}):
        rows = k_all == k
        probs = np.column_stack([column(values, f"p_{i}")[rows] for i in range(k)])
        gold = gold_all[rows].astype(np.int64)
        onehot = np.eye(k)[gold]
        brier = ((probs - onehot) ** 2).sum(axis=1)
        out["brier"][rows] = brier / k if config.brier_normalize == "mean_over_classes" else brier
        out["confidence"][rows] = probs.max(axis=1)
        out["top1"][rows] = top_k_correct(probs, gold, 1, config.tie_break)
        out["top2"][rows] = top_k_correct(probs, gold, 2, config.tie_break)
        out["rank"][rows] = gold_rank(probs, gold, config.rank_method)
    return DistributionRows(n_bins=config.n_bins, failures=failures, **out)


def distribution_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """Top-1, top-2, mean rank, ECE and Brier of probability answers."""
    rows = distribution_rows(log)
    if rows is None:
        return
    f = rows.failures
    yield mean_value(log, boot, "top1", rows.top1, f, True)
    yield mean_value(log, boot, "top2", rows.top2, f, True)
    yield mean_value(log, boot, "mean_rank", rows.rank, f, True)
    ece = ece_statistic(rows.n_bins)
    yield stat_value(log, boot, "ece", (rows.confidence, rows.top1), ece, f, True)
    yield mean_value(log, boot, "brier_score", rows.brier, f, True)


def _kept(log: LogData) -> np.ndarray:
    """Rows the preset scores (all, or the parsed ones when it drops failures)."""
    config = PERSPECTIVE_PRESETS.get(preset(log), PERSPECTIVE_PRESETS["default"])
    if config.failures == "drop":
        return np.asarray(column(log.values, "parse_ok") >= 1.0)
    return np.ones(log.n, dtype=bool)


def _labels(values: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    ok = column(values, "parse_ok") >= 1.0
    gold = column(values, "gold").astype(np.int64)
    pred = np.where(ok, column(values, "pred"), -1.0).astype(np.int64)
    return gold, pred, column(values, "n_labels").astype(np.int64)


def perspective_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """The annotator-level metrics of the log's preset, then its probability metrics."""
    config = PERSPECTIVE_PRESETS.get(preset(log))
    if config is None:
        return
    kept = _kept(log)
    values, meta = log.values[kept], log.sample_meta[kept]
    everything = failed_rows(log, np.ones(log.n, dtype=bool))
    yield mean_value(log, boot, "accuracy", column(values, "correct"), everything, True)
    abs_error = column(values, "abs_error")
    yield mean_value(log, boot, "mae", abs_error, everything, True)
    within = np.where(np.isnan(abs_error), np.nan, (abs_error <= 1.0).astype(float))
    yield mean_value(log, boot, "within_one", within, everything)
    if len(values):
        gold, pred, row_labels = _labels(values)
        n_labels = int(row_labels.max())
        inferred = config.labels == "inferred"
        statistic = macro_f1_statistic(n_labels, inferred, config.zero_division)
        data = (gold.astype(float), pred.astype(float))
        yield stat_value(log, boot, "macro_f1", data, statistic, everything, True)
        mixed = len(set(row_labels.tolist())) > 1
        for name, key, unit in (
            ("annotator_macro_f1", "annotator_id", "annotators"),
            ("text_macro_f1", "item_id", "items"),
        ):
            if key not in meta:
                continue
            groups = meta[key] if key == "annotator_id" else meta[key].fillna(meta["sample_id"])
            per_group = group_macro_f1(
                gold,
                pred,
                codes(groups),
                n_labels,
                inferred,
                config.zero_division,
                row_labels if mixed else None,
            )
            estimate = boot.mean(per_group, cell_key(log, name)).with_failures(*everything)
            yield checked(log, name, estimate, GROUP_MEAN.format(unit=unit), True)
    yield from distribution_metrics(log, boot)
    for (dim, value), estimate in trait_accuracy(log, boot).items():
        name = f"{TRAIT_PREFIX}{dim}={value}"
        yield MetricValue(name, estimate, MEAN, logged=name in log.metrics)
    for label, estimate in class_f1(log, boot).items():
        yield MetricValue(f"{CLASS_PREFIX}{label}", estimate, RECOMPUTED, logged=False)


def trait_cells(values: Sequence[MetricValue]) -> dict[tuple[str, str], Estimate]:
    """(dimension, value) -> accuracy, from a log's values (:func:`perspective_metrics`)."""
    out: dict[tuple[str, str], Estimate] = {}
    for value in values:
        if value.name.startswith(TRAIT_PREFIX) and "=" in value.name:
            dim, _, trait = value.name.removeprefix(TRAIT_PREFIX).partition("=")
            out[(dim, trait)] = value.estimate
    return out


def class_cells(values: Sequence[MetricValue]) -> dict[str, Estimate]:
    """Label index -> F1 of that gold class, from a log's values."""
    return {
        v.name.removeprefix(CLASS_PREFIX): v.estimate
        for v in values
        if v.name.startswith(CLASS_PREFIX)
    }


def trait_accuracy(log: LogData, boot: Bootstrap) -> dict[tuple[str, str], Estimate]:
    """Accuracy per trait value (the annotator's traits), with intervals and failures.

    Values ``""`` and ``UNK`` form no group, as in the task's ``accuracy_by_trait``.
    When the log stores ``accuracy/<dimension>=<value>``, the point is checked against it.

    Args:
        log: An ``annotator_scorer`` log.
        boot: The bootstrap settings.

    Returns:
        (dimension, value) -> estimate, in sorted order.
    """
    if log.scorer != "annotator_scorer":
        return {}
    log = reduce_epochs(log)
    kept = _kept(log)
    correct = column(log.values, "correct")
    out: dict[tuple[str, str], Estimate] = {}
    for name in sorted(c for c in log.sample_meta.columns if c.startswith("trait:")):
        dim = name.removeprefix("trait:")
        labels = log.sample_meta[name]
        for value in sorted({str(v) for v in labels.dropna()} - {"", "UNK"}):
            metric = f"accuracy/{dim}={value}"
            rows = (labels == value).to_numpy(dtype=bool, na_value=False)
            failures = failed_rows(log, rows)
            estimate = boot.mean(correct[rows & kept], cell_key(log, metric))
            cell = checked(log, metric, estimate.with_failures(*failures), MEAN, True)
            if cell is not None:
                out[(dim, value)] = cell.estimate
    return out


def class_f1(log: LogData, boot: Bootstrap) -> dict[str, Estimate]:
    """F1 of each gold class (label index -> estimate; n = the class's gold samples)."""
    if log.scorer != "annotator_scorer" or not log.n:
        return {}
    log = reduce_epochs(log)
    kept = _kept(log)
    values = log.values[kept]
    gold, pred, row_labels = _labels(values)
    out: dict[str, Estimate] = {}
    for label in range(int(row_labels.max()) if len(row_labels) else 0):
        name = f"f1/{label}"
        estimate = boot.statistic(
            (gold.astype(float), pred.astype(float)),
            class_f1_statistic(label),
            cell_key(log, name),
        )
        rows = column(log.values, "gold") == label
        failed, total = failed_rows(log, rows)
        out[str(label)] = replace(estimate, n=int(rows.sum()), failed=failed, total=total)
    return out


def annotator_accuracy(log: LogData) -> FloatArray:
    """Each annotator's accuracy (after the preset's failure rule), in first-seen order."""
    if log.scorer != "annotator_scorer" or "annotator_id" not in log.sample_meta:
        return np.zeros(0)
    log = reduce_epochs(log)
    kept = _kept(log)
    frame = pd.DataFrame(
        {
            "annotator": log.sample_meta["annotator_id"][kept],
            "correct": column(log.values, "correct")[kept],
        }
    )
    frame = frame.dropna(subset=["annotator"])
    means = frame.groupby("annotator", sort=False)["correct"].mean()
    return np.asarray(means.to_numpy(dtype=float), dtype=float)
