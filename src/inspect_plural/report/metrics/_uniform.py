"""The uniform baseline of a distribution task, on the items a run was scored on.

A chance model (``plural/random``) is only worth a look beside chance itself: the
uniform distribution over each item's labels (what the ``uniform`` solver answers,
and what a failed answer is scored as). Its per-item values are the distribution
scorer's own (:func:`~inspect_plural.scorers.distribution.item_values`, with the task's
preset), computed from each sample's gold distribution, so the baseline needs no run
of its own; the report shows it as a row beside the chance model's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

import numpy as np
from pydantic import ValidationError

from inspect_plural.item_records import ItemSampleKeys
from inspect_plural.prediction import Prediction
from inspect_plural.report._bootstrap import Bootstrap
from inspect_plural.report._logs import LEWIDI_METRICS, LogData
from inspect_plural.report.metrics._base import MEAN, MetricValue, cell_key, column, preset
from inspect_plural.scorers.distribution import DISTRIBUTION_PRESETS, item_values

__all__ = [
    "CHANCE_MODEL",
    "UNIFORM_PREFIX",
    "uniform_item_values",
    "uniform_metrics",
    "wants_uniform",
]

CHANCE_MODEL = "plural/random"
"""The offline chance model; a distribution run of it gets the uniform baseline beside it."""
UNIFORM_PREFIX = "uniform/"
"""Name prefix of the baseline's cells (``uniform/manhattan``)."""
_PER_ITEM = {"hard_micro_f1": "hard_correct"}


def wants_uniform(log: LogData) -> bool:
    """Whether the report computes the uniform baseline for a log.

    It does for a distribution run of the chance model whose method called it (a
    baseline that makes no call, such as ``uniform`` itself, needs none).
    """
    calls = float(np.nansum(column(log.values, "model_calls")))
    return log.family == "lewidi" and log.model == CHANCE_MODEL and bool(log.n) and calls > 0


def uniform_item_values(metadata: Mapping[str, Any], preset_name: str) -> dict[str, float]:
    """The distribution scorer's values of the uniform answer on one item sample.

    Args:
        metadata: The sample's metadata (:class:`~inspect_plural.item_records.ItemSampleKeys`).
        preset_name: The task's metrics preset.

    Returns:
        Metric key -> value (``manhattan``, ``cross_entropy``, ``hard_correct``...); empty
        when the metadata is not an item sample's.
    """
    try:
        item = ItemSampleKeys.model_validate(dict(metadata))
    except ValidationError:
        return {}
    labels = item.labels
    if not labels:
        return {}
    distribution = {label: 1.0 / len(labels) for label in labels}
    prediction = Prediction.detached(
        method="uniform",
        label=labels[0],
        distribution=distribution,
        parse_ok=True,
        aggregate="uniform",
        model_calls=0,
    )
    config = DISTRIBUTION_PRESETS.get(preset_name, DISTRIBUTION_PRESETS["default"])
    return item_values(item, prediction, None, None, config)


def uniform_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue]:
    """``uniform/<metric>`` for each LeWiDi metric the log holds: the baseline's mean."""
    if log.uniform is None or not len(log.uniform):
        return
    config = DISTRIBUTION_PRESETS.get(preset(log), DISTRIBUTION_PRESETS["default"])
    for name in LEWIDI_METRICS:
        key = _PER_ITEM.get(name, name)
        if name not in log.metrics or key not in log.uniform:
            continue
        values = column(log.uniform, key)
        values = values[~np.isnan(values)]
        estimate = boot.mean(values, cell_key(log, UNIFORM_PREFIX + name))
        if config.decimals is not None:  # the mean rounded as the corpus metric rounds it
            estimate = replace(estimate, value=round(estimate.value, config.decimals))
        cell = estimate.with_failures(0, len(values))
        yield MetricValue(UNIFORM_PREFIX + name, cell, MEAN, logged=False)
