"""Metrics read by name: LeWiDi's leaderboard, group representativeness, other scorers.

- **LeWiDi** (:data:`~inspect_plural.report._load.LEWIDI_METRICS`: ``manhattan``,
  ``wasserstein``, ``cross_entropy``, ``hard_micro_f1``, ``error_rate``,
  ``norm_abs_distance``): when the samples carry a per-item value under the metric's
  own name (``hard_correct`` for ``hard_micro_f1``), the cell is its mean over samples
  with a bootstrap interval, checked against the log; otherwise the log's value,
  without an interval.
- **The uniform baseline** beside a chance model's run (:mod:`._uniform`):
  ``uniform/<metric>``, the uniform answer's mean over the run's items.
- **Representativeness**: per-sample keys ``rep/<dimension>=<value>`` (one item's
  representativeness of that group) and ``rep_steered/<dimension>=<value>`` (the same
  when the persona was told the group) are averaged over the items that have them; a
  log metric of the same name is the check, and a log metric without a group
  (``rep/<dimension>``) is shown as the log holds it.
- **Any other scorer**: the log's values as they are.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from inspect_plural.report._bootstrap import Bootstrap
from inspect_plural.report._logs import LEWIDI_METRICS, LogData
from inspect_plural.report.metrics._base import (
    MetricValue,
    column,
    failed_rows,
    log_only,
    mean_value,
)
from inspect_plural.report.metrics._uniform import uniform_metrics

__all__ = [
    "PER_ITEM",
    "REP_PREFIX",
    "STEERED_PREFIX",
    "lewidi_metrics",
    "other_metrics",
    "representativeness_metrics",
]

PER_ITEM = {"hard_micro_f1": "hard_correct"}
"""A LeWiDi metric whose per-item value has another name (micro-F1 of one hard label per
item is the share of items whose label is right; the check against the log says when
it is not, e.g. multi-label items)."""

REP_PREFIX = "rep/"
"""Per-sample (and metric) key prefix of representativeness: ``rep/<dim>=<value>``."""
STEERED_PREFIX = "rep_steered/"
"""The same when the persona was told the group (``-T steer=<dim>``)."""


def lewidi_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """The LeWiDi metrics the log holds, then representativeness per group."""
    everything = failed_rows(log, np.ones(log.n, dtype=bool))
    for name in LEWIDI_METRICS:
        if name not in log.metrics:
            continue
        key = PER_ITEM.get(name, name)
        if key in log.values and log.epochs <= 1:
            yield mean_value(log, boot, name, column(log.values, key), everything)
        else:
            yield log_only(log, name)
    yield from representativeness_metrics(log, boot)
    yield from uniform_metrics(log, boot)


def representativeness_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """``rep/<dim>=<value>`` (and ``rep_steered/...``): each group's mean over items."""
    prefixes = (REP_PREFIX, STEERED_PREFIX)
    keys = [str(c) for c in log.values.columns if str(c).startswith(prefixes)]
    for key in keys:
        values = column(log.values, key)
        rows = ~np.isnan(values)
        yield mean_value(log, boot, key, values, failed_rows(log, rows), True)
    for name in sorted(log.metrics):
        if name.startswith(prefixes) and name not in keys:
            yield log_only(log, name)


def other_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """A scorer the report does not know: its metrics as the log holds them."""
    note = f"scorer {log.scorer!r} is not known to the report: log value, no interval"
    for name in log.metrics:
        if not name.endswith("_undefined"):
            yield log_only(log, name, note)
