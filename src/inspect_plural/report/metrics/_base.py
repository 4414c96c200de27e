"""What every family's metrics share: the cell type, checks against the log, failures.

A metric recomputed from the per-sample values is checked against the log: when both
agree (to 1e-9, or the log holds it rounded to 3-6 decimals, as LeWiDi's scorer
rounds) the cell shows the log's value with the interval; when they do not, the
log's value is shown without an interval and a note says so. A *breakdown* the log does
not hold (per group, per class, before the debate) is shown as recomputed.

Every cell carries the samples behind it and how many of them failed (an answer not
parsed, a missing score, an errored sample), so a table can show them and flag a cell
whose failures exceed 10%.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from inspect_plural.report._bootstrap import Bootstrap, Estimate, FloatArray
from inspect_plural.report._logs import LogData

__all__ = [
    "GROUP_MEAN",
    "LOG_ONLY",
    "MEAN",
    "RECOMPUTED",
    "MetricValue",
    "cell_key",
    "checked",
    "codes",
    "column",
    "failed_rows",
    "log_only",
    "mean_value",
    "preset",
    "reduce_epochs",
    "stat_value",
]

MEAN = "bootstrap of the mean over samples"
GROUP_MEAN = "bootstrap of the mean over {unit}"
RECOMPUTED = "samples resampled, statistic recomputed"
LOG_ONLY = "log value, no interval"

_TOLERANCE = 1e-9


@dataclass(frozen=True)
class MetricValue:
    """One metric of one log.

    Attributes:
        name: The metric key as the log stores it (or would, for a breakdown).
        estimate: The cell.
        interval: How the interval was made (one of this module's descriptions).
        logged: Whether the log holds the metric (False: a breakdown recomputed here).
    """

    name: str
    estimate: Estimate
    interval: str
    logged: bool = True


def cell_key(log: LogData, name: str) -> str:
    """A cell's identity (seeds its bootstrap): stable whatever else is in the folder."""
    return f"{log.run_key}|{name}"


_ROUNDINGS = (3, 4, 5, 6)
"""Decimals a log may round a metric to (LeWiDi's official scorer rounds to 5)."""


def _same(recomputed: float, logged: float) -> bool:
    """Equal to 1e-9, or the log holds the recomputed value rounded (to 3-6 decimals)."""
    if math.isnan(recomputed) or math.isnan(logged):
        return math.isnan(recomputed) and math.isnan(logged)
    if math.isclose(recomputed, logged, rel_tol=_TOLERANCE, abs_tol=_TOLERANCE):
        return True
    return any(round(recomputed, d) == logged for d in _ROUNDINGS)


def checked(
    log: LogData,
    name: str,
    estimate: Estimate,
    interval: str,
    breakdown: bool = False,
) -> MetricValue | None:
    """The estimate with the log's value as its point, or the log's value alone.

    Args:
        log: The log.
        name: The metric's name in the log.
        estimate: The recomputed estimate (with its failures).
        interval: How its interval was made.
        breakdown: Show the recomputed estimate when the log does not hold the metric
            (and some sample has the values it needs).

    Returns:
        The cell, or None when the log does not hold the metric and it is not a
        breakdown (or no sample has its values).
    """
    logged = log.metrics.get(name)
    if logged is None:
        if not breakdown or estimate.n == 0:
            return None  # not logged, or nothing to compute it from
        return MetricValue(name, estimate, interval, logged=False)
    if _same(estimate.value, logged):
        return MetricValue(name, replace(estimate, value=logged), interval)
    note = (
        f"recomputed {estimate.value:.6g} from the samples, the log holds {logged:.6g}: "
        "log value shown, no interval"
    )
    cell = replace(estimate, value=logged, low=None, high=None, source="log", note=note)
    return MetricValue(name, cell, LOG_ONLY)


def log_only(log: LogData, name: str, note: str | None = None) -> MetricValue:
    """The log's own value of a metric, without an interval."""
    failed, total = failed_rows(log, np.ones(log.n, dtype=bool))
    estimate = Estimate(log.metrics[name], None, None, log.n, "log", note)
    return MetricValue(name, estimate.with_failures(failed, total), LOG_ONLY)


def column(values: pd.DataFrame, key: str) -> FloatArray:
    """A per-sample value as floats (NaN where a sample has none)."""
    if key not in values:
        return np.full(len(values), np.nan)
    return np.asarray(values[key].to_numpy(dtype=float, na_value=np.nan), dtype=float)


def failed_rows(log: LogData, rows: np.ndarray) -> tuple[int, int]:
    """Failed and total answers among some rows: ``parse_ok`` 0, plus errored samples.

    For a log reduced over epochs (:func:`reduce_epochs`), ``parse_ok`` is the share of
    a sample's epochs with a usable answer, and the counts are answers (samples x
    epochs).

    Args:
        log: The log.
        rows: A boolean mask over :attr:`LogData.values` (the cell's population).

    Returns:
        (failed, total); errored samples count in both.
    """
    parse_ok = column(log.values, "parse_ok")[rows]
    if log.reduced_epochs > 1:
        epochs = log.reduced_epochs
        failed = int(round(float(np.nansum(1.0 - parse_ok)) * epochs))
        return failed + log.errored, int(rows.sum()) * epochs + log.errored
    failed = int(np.sum(parse_ok < 1.0))
    return failed + log.errored, int(rows.sum()) + log.errored


MODAL_KEYS = ("pred", "gold", "gold_index", "n_labels", "ordinal", "n_options")
"""Keys an epoch reduction takes from the epoch with the most common prediction."""


def reduce_epochs(log: LogData) -> LogData:
    """A log run over several epochs, one row per sample as the tasks' reducers make it.

    Every numeric key becomes its mean over the sample's epochs (``correct``,
    ``abs_error``, ``parse_ok``, probabilities: the ``run_mean`` and ``role_mean``
    reducers), and the label keys (:data:`MODAL_KEYS`) come from the epoch whose
    prediction is the most common (the first on ties, as ``modal_row``). A metric
    recomputed from these rows is still checked against the log's own value.

    Args:
        log: The log (one row per sample and epoch).

    Returns:
        The log with one row per sample (``reduced_epochs`` set), or the log itself.
    """
    if log.epochs <= 1 or log.reduced_epochs > 1 or "sample_id" not in log.sample_meta:
        return log
    ids = log.sample_meta["sample_id"].astype(str).to_numpy()
    order = list(dict.fromkeys(ids))
    means = log.values.groupby(ids, sort=False).mean().reindex(order)
    first_rows: list[int] = []
    for sample in order:
        rows = np.flatnonzero(ids == sample)
        preds = [log.values["pred"].iloc[i] if "pred" in log.values else None for i in rows]
        counts = pd.Series(preds).value_counts(sort=False, dropna=False)
        modal = counts.idxmax() if len(counts) else None
        chosen = next((i for i, p in zip(rows, preds) if p == modal), rows[0])
        first_rows.append(int(chosen))
    for key in MODAL_KEYS:
        if key in log.values:
            means[key] = log.values[key].iloc[first_rows].to_numpy()
    reduced = replace(
        log,
        values=means.reset_index(drop=True),
        sample_meta=log.sample_meta.iloc[first_rows].reset_index(drop=True),
        scale=log.scale.iloc[first_rows].reset_index(drop=True)
        if len(log.scale) == log.n
        else log.scale,
        reduced_epochs=log.epochs,
    )
    return reduced


def preset(log: LogData) -> str:
    """The task's metrics preset (``default`` when none)."""
    name = log.metadata.get("metrics_preset", log.task_args.get("metrics_preset"))
    return str(name) if name else "default"


def codes(labels: pd.Series) -> np.ndarray:
    """Group labels -> integer codes ``0..k-1`` in first-seen order."""
    found, _ = pd.factorize(labels.astype(str), sort=False)
    return np.asarray(found, dtype=np.int64)


def mean_value(
    log: LogData,
    boot: Bootstrap,
    name: str,
    values: FloatArray,
    failures: tuple[int, int],
    breakdown: bool = False,
) -> MetricValue | None:
    """A mean over samples (NaNs left out) with its bootstrap interval and failures."""
    finite = values[~np.isnan(values)]
    estimate = boot.mean(finite, cell_key(log, name)).with_failures(*failures)
    return checked(log, name, estimate, MEAN, breakdown)


def stat_value(
    log: LogData,
    boot: Bootstrap,
    name: str,
    data: tuple[FloatArray, ...],
    statistic: Callable[..., Any],
    failures: tuple[int, int],
    breakdown: bool = False,
) -> MetricValue | None:
    """A corpus statistic recomputed on bootstrap resamples of the samples."""
    estimate = boot.statistic(data, statistic, cell_key(log, name)).with_failures(*failures)
    return checked(log, name, estimate, RECOMPUTED, breakdown)
