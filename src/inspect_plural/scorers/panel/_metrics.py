"""The ``panel`` scorer's corpus metrics: means, agreement, and where the groups differ.

Per dimension ``{dim}`` (NaN per-sample values skipped):

- ``{dim}``: the mean of the samples' panel scores;
- ``{dim}/alpha_{level}``: Krippendorff's alpha among all personas (units = samples,
  coders = personas, their final scores; :func:`~inspect_plural.scorers.units_alpha`,
  i.e. Inspect's ``krippendorff_alpha`` at the stated level, ``interval`` by default;
  NaN when undefined, e.g. every score the same);
- with two groups or more, ``{dim}/group_spread``: the largest minus the smallest
  group mean over the corpus, and ``{dim}/groups_disagree``: the share of samples on
  which the groups' means differ by at least one scale point;
- ``{dim}/group/{group}``: each group's mean, when that keeps the log at most
  :data:`~inspect_plural.options.MAX_HEADLINE_METRICS` values (always with
  ``metrics=full``).

Besides: ``parse_failures`` (persona answers not read on every dimension, summed) and
``unscored`` (samples no persona could score). ``calls_per_sample`` and
``tokens_per_sample`` come from :func:`~inspect_plural.scorers._cost.cost`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, cast

from inspect_ai.scorer import Metric, SampleScore, Score, metric
from pydantic import BaseModel

from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.scorers._agreement import AlphaLevel, AlphaResult, units_alpha
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.panel._score import (
    DEBATE_KEY,
    PANEL_KEY,
    PARSE_FAILURES_KEY,
    PanelRecord,
    group_key,
)

__all__ = [
    "DISAGREEMENT_POINTS",
    "PanelRow",
    "group_spread",
    "panel_alpha_of",
    "panel_metrics",
    "panel_rows",
]

DISAGREEMENT_POINTS = 1.0
"""Groups disagree on a sample when their means differ by at least this (scale points)."""
COST_METRICS = 2
"""``calls_per_sample`` and ``tokens_per_sample``, logged by the ``cost`` metric."""


class PanelRow(BaseModel):
    """One sample's panel score, as the metrics and the report read it.

    Attributes:
        sample_id: The sample's id (None inside a metric, which is not told).
        epoch: Its epoch.
        values: The score's value.
        record: The panel.
        finals: Per coder (``group/persona``), the persona's final scores.

    """

    sample_id: str | None = None
    epoch: int = 1
    values: dict[str, float]
    record: PanelRecord
    finals: dict[str, dict[str, float]]


def _finals(debate: Any) -> dict[str, dict[str, float]]:
    finals: dict[str, dict[str, float]] = {}
    for group in debate if isinstance(debate, list) else []:
        for evaluation in group.get("final") or []:
            coder = f"{group.get('group')}/{evaluation.get('persona')}"
            finals[coder] = {k: float(v) for k, v in (evaluation.get("scores") or {}).items()}
    return finals


def panel_row(score: Score, sample_id: str | None = None, epoch: int = 1) -> PanelRow | None:
    """A panel score's row, or None when the score is not the panel's."""
    metadata = score.metadata
    if not isinstance(score.value, Mapping) or not metadata or PANEL_KEY not in metadata:
        return None
    values = values_of(score)
    return PanelRow(
        sample_id=sample_id,
        epoch=epoch,
        values=values,
        record=PanelRecord.model_validate(metadata[PANEL_KEY]),
        finals=_finals(metadata.get(DEBATE_KEY)),
    )


def panel_rows(scores: Sequence[SampleScore]) -> Iterator[PanelRow]:
    """The panel rows among a metric's sample scores."""
    for s in scores:
        row = panel_row(s.score, str(s.sample_id), 1)
        if row is not None:
            yield row


def _finite(values: Sequence[float]) -> list[float]:
    return [v for v in values if not math.isnan(v)]


def _mean(values: Sequence[float]) -> float:
    kept = _finite(values)
    return math.fsum(kept) / len(kept) if kept else math.nan


def panel_alpha_of(rows: Sequence[PanelRow], dimension: str, level: AlphaLevel) -> AlphaResult:
    """Krippendorff's alpha among the personas on one dimension (units = samples)."""
    units = [
        {coder: s[dimension] for coder, s in row.finals.items() if dimension in s} for row in rows
    ]
    return units_alpha(units, level)


def group_spread(row: PanelRow, dimension: str) -> float:
    """A sample's largest minus smallest group mean on a dimension (NaN with < 2 groups)."""
    means = _finite(
        [row.values.get(group_key(dimension, g.key), math.nan) for g in row.record.groups]
    )
    return max(means) - min(means) if len(means) >= 2 else math.nan


def _breakdown(record: PanelRecord) -> bool:
    """Whether the per-group means fit in the log (or are asked for)."""
    groups, dims = len(record.groups), len(record.dimensions)
    if groups < 2:
        return False
    base = dims * 4 + 2 + COST_METRICS
    return record.metrics == "full" or base + dims * groups <= MAX_HEADLINE_METRICS


def _dimension_metrics(rows: Sequence[PanelRow], name: str) -> dict[str, float]:
    record = rows[0].record
    level = cast(AlphaLevel, record.alpha_level)
    out = {
        name: _mean([r.values.get(name, math.nan) for r in rows]),
        f"{name}/alpha_{level}": panel_alpha_of(rows, name, level).alpha,
    }
    if len(record.groups) < 2:
        return out
    means = {
        g.key: _mean([r.values.get(group_key(name, g.key), math.nan) for r in rows])
        for g in record.groups
    }
    known = _finite(list(means.values()))
    out[f"{name}/group_spread"] = max(known) - min(known) if len(known) >= 2 else math.nan
    spreads = _finite([group_spread(r, name) for r in rows])
    disagree = [s >= DISAGREEMENT_POINTS for s in spreads]
    out[f"{name}/groups_disagree"] = sum(disagree) / len(disagree) if disagree else math.nan
    if _breakdown(record):
        out |= {group_key(name, key): value for key, value in means.items()}
    return out


@metric
def panel_metrics() -> Metric:
    """The ``panel`` scorer's metrics (module docstring).

    Returns:
        The metric: a dict of named values.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        rows = list(panel_rows(scores))
        if not rows:
            return {}
        out: dict[str, float] = {}
        for d in rows[0].record.dimensions:
            out |= _dimension_metrics(rows, d.name)
        out[PARSE_FAILURES_KEY] = math.fsum(r.values.get(PARSE_FAILURES_KEY, 0.0) for r in rows)
        out["unscored"] = float(
            sum(
                all(math.isnan(r.values.get(d.name, math.nan)) for d in r.record.dimensions)
                for r in rows
            )
        )
        return out

    return compute
