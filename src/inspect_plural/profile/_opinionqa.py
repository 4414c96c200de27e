"""OpinionQA (Santurkar et al. 2023): representativeness per group, and steerability.

The ``opinionqa`` cell runs ``distribution_judge`` on the survey questions, unsteered and
steered towards each group of the steered dimensions; the scorer logs each question's
representativeness per group, ``rep/<dimension>=<value>`` (unsteered) and
``rep_steered.../<dimension>=<value>`` (steered; one prefix per steering style).

- Representativeness (distributional): a group's value is the mean over the questions it
  answered of its representativeness; the summary is the mean over groups, and the
  worst-represented groups are named.
- Steerability (steerable), as in Santurkar et al.'s ``steerability.ipynb``: a group's
  steered representativeness is the best, over the steering styles (the profile asks
  their three: ``qa``, ``bio``, ``portray``), of its mean steered representativeness,
  beside its unsteered value; the gain is their difference, per group and averaged over
  the steered groups (the means of both values over the groups are shown too). Taking
  the best of several styles is optimistic by construction (a model whose styles differ
  only by noise gains a little), which is the published definition; with one style it
  is the plain difference.

Intervals resample questions (all of a question's group values together).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from inspect_plural.profile._index import LogIndex, rows_by_id
from inspect_plural.profile._intervals import FloatArray, mean_value, paired_value
from inspect_plural.profile._logs import CellLog
from inspect_plural.profile._results import CellResult
from inspect_plural.report import Bootstrap

__all__ = ["UNSTEERED", "WORST", "representativeness_cell", "steerability_cell"]

UNSTEERED = "rep/"
STEERED = "rep_steered"
WORST = 5
"""Worst-represented groups named in the summary."""


def _series(log: CellLog, prefix: str) -> dict[str, FloatArray]:
    """Group -> its per-question values under a key prefix (NaN where it has none)."""
    rows = list(rows_by_id(log).values())
    groups = sorted({k[len(prefix) :] for r in rows for k in r.values if k.startswith(prefix)})
    return {
        g: np.array([r.values.get(prefix + g, np.nan) for r in rows], dtype=float) for g in groups
    }


def _styles(log: CellLog) -> list[str]:
    """The steered key prefixes of the log (``rep_steered``, ``rep_steered_qa``, ...)."""
    keys = {k.split("/", 1)[0] for r in log.rows for k in r.values if k.startswith(STEERED)}
    return sorted(k for k in keys if "/" not in k)


def style_name(prefix: str) -> str:
    """A steered key prefix's style (``rep_steered_qa``: ``qa``; ``rep_steered``: population)."""
    return prefix.removeprefix(STEERED).removeprefix("_") or "population"


def _nanmean(x: FloatArray, axis: int) -> FloatArray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a group without values: NaN
        return np.asarray(np.nanmean(x, axis=axis), dtype=float)


def _mean_of_groups(*series: FloatArray, axis: int = -1) -> FloatArray:
    return np.asarray(np.mean([_nanmean(s, axis) for s in series], axis=0), dtype=float)


def representativeness_cell(index: LogIndex, boot: Bootstrap, model: str) -> CellResult | None:
    """The model's unsteered representativeness per group, its mean and the worst groups."""
    cell = index.cell("steerable", "opinionqa", "opinionqa")
    log = index.get(cell, model) if cell else None
    if log is None:
        return None
    series = _series(log, UNSTEERED)
    if not series:
        return None
    key = "distributional/opinionqa/representativeness"
    groups = {
        g: mean_value(boot, s[np.isfinite(s)], f"{key}/{g}/{model}") for g, s in series.items()
    }
    overall = paired_value(boot, list(series.values()), _mean_of_groups, f"{key}/{model}")
    ranked = sorted(groups, key=lambda g: _or_one(groups[g].estimate))
    return CellResult(
        **overall.model_dump(),
        key=key,
        mode="distributional",
        group="opinionqa",
        model=model,
        metric="representativeness, mean over groups (higher is better)",
        logs=index.paths([log]),
        extra={
            "worst_groups": ranked[:WORST],
            "groups": {g: v.model_dump() for g, v in groups.items()},
        },
    )


def _or_one(value: float | None) -> float:
    return 1.0 if value is None else value


def _gain(n_styles: int) -> Callable[..., FloatArray]:
    """Best steered style minus unsteered, per group, averaged over groups.

    Arrays come per group: the unsteered series, then one per style.
    """

    def statistic(*series: FloatArray, axis: int = -1) -> FloatArray:
        width = n_styles + 1
        gains = []
        for start in range(0, len(series), width):
            unsteered = _nanmean(series[start], axis)
            styles = [_nanmean(s, axis) for s in series[start + 1 : start + width]]
            gains.append(np.max(styles, axis=0) - unsteered)
        return np.asarray(np.mean(gains, axis=0), dtype=float)

    return statistic


def steerability_cell(index: LogIndex, boot: Bootstrap, model: str) -> CellResult | None:
    """Santurkar et al.'s steerability of the model: best-of-styles gain per group."""
    cell = index.cell("steerable", "opinionqa", "opinionqa")
    log = index.get(cell, model) if cell else None
    styles = _styles(log) if log is not None else []
    if log is None or not styles:
        return None
    unsteered = _series(log, UNSTEERED)
    steered = {s: _series(log, s + "/") for s in styles}
    groups = [g for g in unsteered if any(g in steered[s] for s in styles)]
    nan = np.full(len(next(iter(unsteered.values()))), np.nan)
    key = "steerable/opinionqa/steerability"
    per_group = {}
    arrays: list[FloatArray] = []
    for g in groups:
        series = [unsteered[g], *(steered[s].get(g, nan) for s in styles)]
        arrays += series
        gain = paired_value(boot, series, _gain(len(styles)), f"{key}/{g}/{model}")
        means = {s: float(_nanmean(steered[s].get(g, nan), 0)) for s in styles}
        best = max(means, key=lambda s: means[s] if np.isfinite(means[s]) else -1.0)
        per_group[g] = {
            "unsteered": float(_nanmean(unsteered[g], 0)),
            "steered": means[best],
            "best_style": style_name(best),
            "styles": {style_name(s): means[s] for s in styles},
            "gain": gain.model_dump(),
        }
    overall = paired_value(boot, arrays, _gain(len(styles)), f"{key}/{model}")
    averages = {
        name: float(np.mean([v[name] for v in per_group.values()])) if per_group else None
        for name in ("unsteered", "steered")
    }
    return CellResult(
        **overall.model_dump(),
        key=key,
        mode="steerable",
        group="opinionqa",
        model=model,
        metric=f"representativeness gain from steering (best of {len(styles)} style(s))",
        chance=0.0,
        logs=index.paths([log]),
        extra={
            "styles": [style_name(s) for s in styles],
            "groups": per_group,
            "unsteered_mean": averages["unsteered"],
            "steered_mean": averages["steered"],
        },
    )
