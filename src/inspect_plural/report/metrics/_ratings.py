"""Metrics of rating tasks (MAJ-Eval, G-Eval, ChatEval on MSLR-Cochrane and StorySparkQA).

Per dimension, Spearman / Kendall tau-b / Pearson of a prediction key against
``gold/{dim}`` over the samples that have both (pooled), absolute when the task says so
(``log.eval.metadata["absolute"]``, as the ``maj_eval`` preset sets it):

- the panel's final score ``pred/{dim}`` (``{dim}/{coef}``, the headline);
- each stakeholder group's ``group/{g}/{dim}`` (``group/{g}/{dim}/{coef}``) and the
  scores before the debate, ``pred_initial/{dim}`` (``initial/{dim}/{coef}``) and
  ``group_initial/{g}/{dim}`` (``initial/group/{g}/{dim}/{coef}``): breakdowns,
  recomputed when the log holds only its headline.

A breakdown uses the coefficients the log reports for the panel (the ``maj_eval``
preset: Spearman only). A sample whose prediction is missing on a dimension counts as
failed for that dimension's cells. With epochs, the per-sample values are averaged over
epochs first (the tasks' ``rating_mean`` reducer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from inspect_plural.report._bootstrap import Bootstrap
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics._base import (
    MetricValue,
    column,
    log_only,
    stat_value,
)
from inspect_plural.report.metrics._statistics import CORRELATIONS
from inspect_plural.scorers.ratings._values import groups_in_keys

__all__ = [
    "absolute",
    "epoch_means",
    "rating_dimensions",
    "rating_groups",
    "rating_metrics",
]


def _truthy(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1", "yes")


def absolute(log: LogData) -> bool:
    """Whether the log's correlations are absolute values (task metadata ``absolute``)."""
    return _truthy(log.metadata.get("absolute", False))


def epoch_means(log: LogData) -> pd.DataFrame:
    """Per-sample values, averaged over epochs where a sample has several (NaNs skipped)."""
    if log.epochs <= 1 or "sample_id" not in log.sample_meta:
        return log.values
    ids = log.sample_meta["sample_id"].to_numpy()
    means: pd.DataFrame = pd.DataFrame(log.values.groupby(ids, sort=False).mean())
    reset: pd.DataFrame = means.reset_index(drop=True)
    return reset


def rating_dimensions(log: LogData) -> list[str]:
    """The rated dimensions, in the task's order (then any other with a ``gold/`` key)."""
    names: dict[str, None] = {}
    for dim in log.metadata.get("dimensions") or []:
        if isinstance(dim, dict) and "name" in dim:
            names.setdefault(str(dim["name"]), None)
    for key in log.values.columns:
        if key.startswith("gold/"):
            names.setdefault(key.removeprefix("gold/"), None)
    return list(names)


def rating_groups(log: LogData, prefix: str = "group/") -> list[str]:
    """Stakeholder groups with a ``{prefix}{g}/{dim}`` key, in first-seen order."""
    return groups_in_keys(log.values.columns, prefix, rating_dimensions(log))


def _absolute(function: Callable[..., Any]) -> Callable[..., Any]:
    def statistic(*args: Any, **kwargs: Any) -> Any:
        return np.abs(function(*args, **kwargs))

    return statistic


def _coefficients(log: LogData, dims: list[str]) -> list[str]:
    logged = [c for c in CORRELATIONS if any(f"{d}/{c}" in log.metrics for d in dims)]
    return logged or list(CORRELATIONS)


def _cells(
    log: LogData,
    boot: Bootstrap,
    values: pd.DataFrame,
    pred_key: str,
    dim: str,
    prefix: str,
    coefficients: list[str],
    breakdown: bool,
) -> Iterator[MetricValue | None]:
    pred, gold = column(values, pred_key), column(values, f"gold/{dim}")
    rated = ~np.isnan(gold)
    both = rated & ~np.isnan(pred)
    if breakdown and not both.any() and pred_key not in values:
        return
    failures = (int((rated & np.isnan(pred)).sum()) + log.errored, int(rated.sum()) + log.errored)
    pooled = str(log.metadata.get("correlation", "pooled")) == "pooled"
    for coefficient in coefficients:
        name = f"{prefix}{dim}/{coefficient}"
        if not pooled:  # per-item correlations: the log's own values only
            if name in log.metrics:
                yield log_only(log, name, "per-item correlation: log value, no interval")
            continue
        function = CORRELATIONS[coefficient]
        statistic = _absolute(function) if absolute(log) else function
        yield stat_value(log, boot, name, (pred[both], gold[both]), statistic, failures, breakdown)


def rating_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """The panel's correlations per dimension, then the breakdowns (module docstring)."""
    values = epoch_means(log)
    dims = rating_dimensions(log)
    coefficients = _coefficients(log, dims)
    for dim in dims:
        yield from _cells(log, boot, values, f"pred/{dim}", dim, "", list(CORRELATIONS), False)
    for dim in dims:
        for group in rating_groups(log):
            key = f"group/{group}/{dim}"
            yield from _cells(log, boot, values, key, dim, f"group/{group}/", coefficients, True)
    for dim in dims:
        key = f"pred_initial/{dim}"
        yield from _cells(log, boot, values, key, dim, "initial/", coefficients, True)
        for group in rating_groups(log, "group_initial/"):
            key = f"group_initial/{group}/{dim}"
            prefix = f"initial/group/{group}/"
            yield from _cells(log, boot, values, key, dim, prefix, coefficients, True)
    for name in sorted(log.metrics):
        if name.startswith("alpha/") and not name.endswith("_undefined"):
            yield log_only(log, name)
