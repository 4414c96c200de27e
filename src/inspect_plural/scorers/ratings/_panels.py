"""Panel metrics of rating tasks: agreement within each panel, and cost per panel.

Both read ``Score.metadata["panels"]`` (per panel: its members' initial and final scores,
its calls and tokens for the sample).

- :func:`group_alpha`: Krippendorff's alpha within each panel, ``alpha/{g}/{phase}`` on
  the ``overall`` dimension, plus ``alpha/{g}/{phase}/{dim}`` with ``dimensions="all"``.
- :func:`panel_cost`: ``calls/{g}`` and ``tokens/{g}``, the means over the samples the
  panel scored.
- :func:`rating_cost`: ``model_calls`` and ``tokens`` (means over samples) and the keys of
  :func:`panel_cost` (the PERSE tasks' cost metric; rating tasks log
  :func:`~inspect_plural.scorers._cost.cost` and :func:`panel_cost`).
"""

from __future__ import annotations

import logging
import math
from typing import Literal

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.scorers._agreement import ALPHA_LEVELS, AlphaLevel, panel_alpha
from inspect_plural.scorers._undefined import UndefinedWarnings
from inspect_plural.scorers.ratings._values import PHASES, panels, rows

__all__ = [
    "ALPHA_DIMENSIONS",
    "AlphaDimensions",
    "OVERALL",
    "group_alpha",
    "panel_cost",
    "rating_cost",
]

logger = logging.getLogger(__name__)

AlphaDimensions = Literal["overall", "all"]
ALPHA_DIMENSIONS: tuple[AlphaDimensions, ...] = ("overall", "all")

OVERALL = "overall"
"""The dimension behind the headline alpha keys."""


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
        ``{key}_undefined = 1`` and its reason warned once per key per run. A phase
        nobody has scores for (e.g. no initial round) has no keys.

    Raises:
        ValueError: On an unknown level or dimensions option.
    """
    if level not in ALPHA_LEVELS:
        raise ValueError(f"unknown alpha level {level!r}; one of {list(ALPHA_LEVELS)}")
    if dimensions not in ALPHA_DIMENSIONS:
        raise ValueError(f"unknown alpha dimensions {dimensions!r}; 'overall' or 'all'")
    alpha_level: AlphaLevel = level
    warnings = UndefinedWarnings(logger)

    def keys(key: str, samples: list[dict[str, dict[str, float]]], dim: str) -> dict[str, float]:
        result = panel_alpha(samples, dim, alpha_level)
        if result.reason is None:
            return {key: result.alpha}
        warnings.warn(key, result.reason, f"{result.n_units} units")
        return {key: result.alpha, f"{key}_undefined": 1.0}

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        by_group: dict[str, dict[str, list[dict[str, dict[str, float]]]]] = {}
        for _, metadata, _ in rows(scores):
            for group, panel in panels(metadata).items():
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
                    report.update(keys(f"alpha/{group}/{phase}", samples, OVERALL))
                else:
                    warnings.warn(f"alpha/{group}/{phase}", f"no {OVERALL!r} scores", "0 units")
                if dimensions == "all":
                    for dim in dims:
                        report.update(keys(f"alpha/{group}/{phase}/{dim}", samples, dim))
        return report

    return compute


def _panel_means(scores: list[SampleScore]) -> dict[str, float]:
    group_calls: dict[str, list[float]] = {}
    group_tokens: dict[str, list[float]] = {}
    for _, metadata, _ in rows(scores):
        for group, panel in panels(metadata).items():
            group_calls.setdefault(group, []).append(float(panel.get("model_calls", 0)))
            group_tokens.setdefault(group, []).append(float(panel.get("tokens", 0)))
    report: dict[str, float] = {}
    for group, values in group_calls.items():
        report[f"calls/{group}"] = float(np.mean(values))
        report[f"tokens/{group}"] = float(np.mean(group_tokens[group]))
    return report


@metric
def panel_cost() -> Metric:
    """Model calls and tokens per sample of each panel (a breakdown of ``cost``).

    Returns:
        The metric: ``calls/{group}`` and ``tokens/{group}`` (means over the samples
        the panel scored).
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return _panel_means(scores)

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
        for value, _, _ in rows(scores):
            calls.append(float(value.get("model_calls", 0.0)))
            tokens.append(float(value.get("tokens", 0.0)))
        return {
            "model_calls": float(np.mean(calls)) if calls else math.nan,
            "tokens": float(np.mean(tokens)) if tokens else math.nan,
            **_panel_means(scores),
        }

    return compute
