"""Corpus metrics of the distribution target, as Inspect metrics over per-item values.

Each metric reads the values :func:`~inspect_plural.scorers.distribution._item_values.item_values`
wrote per item and averages them over the items that have the key (an ordinal metric
skips nominal questions of a mixed corpus such as OpinionQA), rounding the mean where
the official LeWiDi code rounds it (``decimals=5``). Names in the log: ``manhattan``,
``wasserstein``, ``cross_entropy``, ``hard_micro_f1``, ``error_rate``,
``norm_abs_distance``; representativeness as ``rep/<dimension>`` (and
``rep_steered/<dimension>``), per group ``rep/<dimension>=<value>``.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.item_records import split_group_key
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.distribution._item_values import (
    REP_KEY,
    REP_STEERED_KEY,
    REP_STYLE_KEY,
)
from inspect_plural.scorers.distribution._lewidi import hard_label_micro_f1

__all__ = [
    "SOFT_METRICS",
    "PERSPECTIVIST_METRICS",
    "cross_entropy",
    "group_representativeness",
    "hard_micro_f1",
    "manhattan",
    "norm_abs_distance",
    "perspectivist_error_rate",
    "headline_representativeness",
    "wasserstein",
]

SOFT_METRICS = ("manhattan", "wasserstein", "cross_entropy", "hard_micro_f1")
"""Soft-label (and hard-label) metric names, in the order tasks log them."""
PERSPECTIVIST_METRICS = ("error_rate", "norm_abs_distance")
"""Perspectivist metric names."""


def _values(scores: list[SampleScore], key: str) -> list[float]:
    return [float(value[key]) for s in scores if key in (value := values_of(s.score))]


def _mean(scores: list[SampleScore], key: str, decimals: int | None = None) -> float:
    values = _values(scores, key)
    if not values:
        return math.nan
    mean = math.fsum(values) / len(values)
    return mean if decimals is None else round(mean, decimals)


@metric(name="manhattan")
def manhattan(decimals: int | None = None) -> Metric:
    """Mean Manhattan distance between predicted and gold distributions (lower is better).

    LeWiDi 2025's ``average_MD`` (MP) and, on label sets, ``multilabel_average_MD``
    (VariErrNLI: per base label, the distance of the binary distributions).

    Args:
        decimals: Round the mean (5: as the official code); None: not.
    """

    def compute(scores: list[SampleScore]) -> float:
        return _mean(scores, "manhattan", decimals)

    return compute


@metric(name="wasserstein")
def wasserstein(decimals: int | None = None) -> Metric:
    """Mean 1-Wasserstein distance on ordinal scales, unit spacing (``average_WS``).

    Args:
        decimals: Round the mean (5: as the official code); None: not.
    """

    def compute(scores: list[SampleScore]) -> float:
        return _mean(scores, "wasserstein", decimals)

    return compute


@metric(name="cross_entropy")
def cross_entropy() -> Metric:
    """LeWiDi 2023's cross-entropy of the predicted against the gold distributions."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(scores, "cross_entropy")

    return compute


@metric(name="hard_micro_f1")
def hard_micro_f1() -> Metric:
    """LeWiDi 2023's micro-F1 of the predicted top label against the hard label (sklearn).

    A failed prediction is its own wrong class, so the value equals the share of items
    whose top label is the hard label.
    """

    def compute(scores: list[SampleScore]) -> float:
        gold = _values(scores, "gold")
        pred = _values(scores, "pred")
        if not gold or len(gold) != len(pred):
            return math.nan
        return hard_label_micro_f1(np.asarray(gold, int), np.asarray(pred, int))

    return compute


@metric(name="error_rate")
def perspectivist_error_rate() -> Metric:
    """LeWiDi 2025's average error rate of the annotators' labels (nominal; lower is better).

    Each item's value is already rounded as the official code rounds it; the mean is not.
    """

    def compute(scores: list[SampleScore]) -> float:
        return _mean(scores, "error_rate")

    return compute


@metric(name="norm_abs_distance")
def norm_abs_distance() -> Metric:
    """LeWiDi 2025's average normalised absolute distance of the annotators' labels (ordinal)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean(scores, "norm_abs_distance")

    return compute


def _group_means(scores: list[SampleScore], prefix: str) -> dict[str, float]:
    """Each group's mean over the items it has a value on."""
    sums: dict[str, list[float]] = defaultdict(list)
    for s in scores:
        if not isinstance(s.score.value, dict):
            continue
        for key, value in values_of(s.score).items():
            if key.startswith(prefix):
                sums[key.removeprefix(prefix)].append(float(value))
    return {group: math.fsum(v) / len(v) for group, v in sums.items()}


STYLE_PREFIX = REP_STYLE_KEY.split("{", 1)[0]
"""``rep_steered_``: what every other steering style's keys start with."""


def _style_prefixes(scores: list[SampleScore]) -> list[str]:
    """The ``rep_steered_<style>/`` prefixes the samples have, sorted."""
    found = {
        key.split("/", 1)[0] + "/"
        for s in scores
        for key in values_of(s.score)
        if key.startswith(STYLE_PREFIX) and "/" in key
    }
    return sorted(found)


def headline_representativeness(dimensions: Sequence[str], steered: Sequence[str]) -> int:
    """How many values :func:`group_representativeness` logs under ``metrics=headline``."""
    return 2 * len(steered) if steered else len(dimensions)


@metric(name="group_representativeness")
def group_representativeness(
    dimensions: list[str],
    steered: list[str] | None = None,
    level: Literal["headline", "full"] = "headline",
) -> Metric:
    """Representativeness per trait group and dimension (Santurkar et al. 2023).

    A group's value is the mean over items of ``1 - W1/(max - min)`` on the options'
    ordinal values (OpinionQA's ``option_ordinal``; else the positions of an ordinal
    scale, ``1 - W1/(N - 1)``) or ``1 - JS`` (nominal, no values) between the model's
    and the group's distributions; a
    dimension's is the mean over its groups.

    Args:
        dimensions: The trait dimensions, in display order.
        steered: The steered dimensions (``-T steer=``), logged as ``rep_steered/``.
        level: ``headline``: per dimension (only the steered ones, steered and unsteered
            side by side, when steering); ``full``: also every group.

    Returns:
        The metric: ``rep/<dimension>``, ``rep_steered/<dimension>`` and under ``full``
        ``rep/<dimension>=<value>``, ``rep_steered/<dimension>=<value>``, and each other
        steering style's ``rep_steered_<style>/<dimension>`` and per group (``-T
        steer_style=``).
    """
    steered_dims = list(steered or [])

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result: dict[str, float] = {}
        styles = _style_prefixes(scores) if level == "full" else []
        for prefix, shown in (
            (REP_KEY, steered_dims if steered_dims and level == "headline" else dimensions),
            (REP_STEERED_KEY, steered_dims),
            *((style, steered_dims) for style in styles),
        ):
            groups = _group_means(scores, prefix)
            by_dimension: dict[str, list[float]] = defaultdict(list)
            for group, value in groups.items():
                by_dimension[split_group_key(group)[0]].append(value)
            for dimension in shown:
                if by_dimension.get(dimension):
                    values = by_dimension[dimension]
                    result[prefix + dimension] = math.fsum(values) / len(values)
            if level == "full":
                result |= {prefix + group: value for group, value in sorted(groups.items())}
        return result

    return compute
