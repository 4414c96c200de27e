"""A log's ``panel`` scores summarised for a report: cells, agreement, contested samples.

:func:`panel_summary` is pure: it reads an already-loaded log (or its samples) and
returns a :class:`PanelSummary`:

- ``cells``: per dimension, the whole panel (``group=None``) and each group, with the
  per-sample values and their sample ids (ready for a bootstrap interval), their mean
  and n;
- ``agreement``: Krippendorff's alpha among the personas per dimension, with its level;
- ``contested``: the samples with the largest between-group spread (largest minus
  smallest group mean), most contested first, with their ids and group means;
- ``parse_failures`` and ``unscored`` samples.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import cast

from inspect_ai.log import EvalLog, EvalSample
from pydantic import BaseModel, Field

from inspect_plural.scorers._agreement import AlphaLevel
from inspect_plural.scorers.panel._metrics import (
    PanelRow,
    group_spread,
    panel_alpha_of,
    panel_row,
)
from inspect_plural.scorers.panel._score import PARSE_FAILURES_KEY, group_key

__all__ = ["ContestedSample", "PanelAgreement", "PanelCell", "PanelSummary", "panel_summary"]


class PanelCell(BaseModel):
    """One dimension × group cell (``group=None``: the whole panel).

    Attributes:
        dimension: The dimension.
        group: The group's name, or None for the panel.
        values: Per scored sample, its value (NaN samples left out).
        sample_ids: The samples behind ``values`` (``id`` or ``id#epoch`` with epochs).
        mean: The mean of ``values`` (NaN when empty).
        n: ``len(values)``.

    """

    dimension: str
    group: str | None = None
    values: list[float] = Field(default_factory=list)
    sample_ids: list[str] = Field(default_factory=list)
    mean: float = math.nan
    n: int = 0


class PanelAgreement(BaseModel):
    """Krippendorff's alpha among the personas on one dimension.

    Attributes:
        dimension: The dimension.
        alpha: The coefficient (NaN when undefined).
        level: Its level of measurement.
        n_units: Samples with two or more persona scores.
        reason: Why alpha is undefined (None when it is defined).

    """

    dimension: str
    alpha: float
    level: str
    n_units: int
    reason: str | None = None


class ContestedSample(BaseModel):
    """A sample the groups disagree on.

    Attributes:
        sample_id: Its id (``id#epoch`` with epochs).
        dimension: The dimension.
        spread: Largest minus smallest group mean.
        group_means: Group name -> its mean on the sample.

    """

    sample_id: str
    dimension: str
    spread: float
    group_means: dict[str, float]


class PanelSummary(BaseModel):
    """A log's panel scores, ready for a report section.

    Attributes:
        scorer: The scorer name the scores were found under.
        samples: Samples with a panel score.
        dimensions: The dimensions, in rubric order.
        groups: The groups, in panel order.
        cells: Dimension × (panel and each group).
        agreement: Alpha per dimension.
        contested: The most contested samples, most contested first.
        parse_failures: Persona answers not read on every dimension.
        unscored: Samples no persona could score.

    """

    scorer: str
    samples: int
    dimensions: list[str]
    groups: list[str]
    cells: list[PanelCell]
    agreement: list[PanelAgreement]
    contested: list[ContestedSample]
    parse_failures: int = 0
    unscored: int = 0


def _sample_id(sample: EvalSample, epochs: bool) -> str:
    return f"{sample.id}#{sample.epoch}" if epochs else str(sample.id)


def _rows(samples: Sequence[EvalSample], scorer: str | None) -> tuple[str, list[PanelRow]]:
    epochs = len({s.epoch for s in samples}) > 1
    found = scorer
    rows = []
    for sample in samples:
        for name, score in (sample.scores or {}).items():
            if found is not None and name != found:
                continue
            row = panel_row(score, _sample_id(sample, epochs), sample.epoch)
            if row is not None:
                found = name
                rows.append(row)
                break
    return found or "", rows


def _cell(rows: Sequence[PanelRow], dimension: str, key: str, group: str | None) -> PanelCell:
    pairs = [
        (str(r.sample_id), r.values[key])
        for r in rows
        if key in r.values and not math.isnan(r.values[key])
    ]
    values = [v for _, v in pairs]
    return PanelCell(
        dimension=dimension,
        group=group,
        values=values,
        sample_ids=[i for i, _ in pairs],
        mean=math.fsum(values) / len(values) if values else math.nan,
        n=len(values),
    )


def panel_summary(
    log: EvalLog | Sequence[EvalSample], scorer: str | None = None, top: int = 5
) -> PanelSummary | None:
    """Summarise a log's panel scores for the report.

    Args:
        log: A log read with its samples, or its samples.
        scorer: The score name to read (None: the first panel score of each sample).
        top: How many contested samples to list per dimension.

    Returns:
        The summary, or None when no sample has a panel score.
    """
    samples = list(log.samples or []) if isinstance(log, EvalLog) else list(log)
    name, rows = _rows(samples, scorer)
    if not rows:
        return None
    record = rows[0].record
    level = cast(AlphaLevel, record.alpha_level)
    cells, agreement, contested = [], [], []
    for d in record.dimensions:
        cells.append(_cell(rows, d.name, d.name, None))
        cells += [_cell(rows, d.name, group_key(d.name, g.key), g.name) for g in record.groups]
        alpha = panel_alpha_of(rows, d.name, level)
        agreement.append(
            PanelAgreement(
                dimension=d.name,
                alpha=alpha.alpha,
                level=alpha.level,
                n_units=alpha.n_units,
                reason=alpha.reason,
            )
        )
        spreads = [(group_spread(r, d.name), r) for r in rows]
        ranked = sorted(((s, r) for s, r in spreads if not math.isnan(s)), key=lambda sr: -sr[0])
        for spread, row in ranked[:top]:
            means = {
                g.name: row.values[group_key(d.name, g.key)]
                for g in record.groups
                if not math.isnan(row.values.get(group_key(d.name, g.key), math.nan))
            }
            contested.append(
                ContestedSample(
                    sample_id=str(row.sample_id),
                    dimension=d.name,
                    spread=spread,
                    group_means=means,
                )
            )
    return PanelSummary(
        scorer=name,
        samples=len(rows),
        dimensions=[d.name for d in record.dimensions],
        groups=[g.name for g in record.groups],
        cells=cells,
        agreement=agreement,
        contested=contested,
        parse_failures=int(sum(r.values.get(PARSE_FAILURES_KEY, 0.0) for r in rows)),
        unscored=sum(
            all(math.isnan(r.values.get(d.name, math.nan)) for d in record.dimensions) for r in rows
        ),
    )
