"""Jury pluralism: a persona panel as a judge of how people label (``stakeholder_panel``).

Per dataset with annotator traits, the panel (one persona per trait value) votes on each
item; its vote shares are its distribution. The section gives, per model:

- how close the vote distribution is to the people's (the soft-label distance, beside
  the uniform distribution's on the same items) and its item skill (:mod:`._skill`);
- how much the personas agree (Krippendorff's alpha of their votes);
- how independent they are: the mean pairwise correlation of their errors and the
  effective number of independent judges it implies (:mod:`._independence`).

The headline is the panel's item skill, averaged over datasets (chance 0). Intervals
resample items; alpha's uses :data:`ALPHA_RESAMPLES` resamples (each resample runs the
package's alpha once), the effective number's is the error correlation's mapped through
the formula (it decreases as the correlation grows).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from inspect_plural.profile._distributional import (
    SkillUnits,
    skill_headline,
    skill_units,
)
from inspect_plural.profile._independence import (
    effective_judges,
    error_matrix,
    mean_error_correlation,
    vote_alpha,
)
from inspect_plural.profile._index import LogIndex, rows_by_id
from inspect_plural.profile._intervals import (
    FloatArray,
    mean_value,
    paired_value,
    single_skill_statistic,
)
from inspect_plural.profile._logs import NONE_MODEL, CellLog, Row
from inspect_plural.profile._results import CellResult, ModeResult, Value
from inspect_plural.profile._skill import distance_key
from inspect_plural.report import Bootstrap
from inspect_plural.scorers._agreement import AlphaLevel

__all__ = ["ALPHA_RESAMPLES", "jury_cells", "jury_groups", "jury_headline", "jury_units"]

ALPHA_RESAMPLES = 200
"""Bootstrap resamples of alpha's interval (each runs the alpha computation once)."""


def _alpha(rows: list[Row], boot: Bootstrap, key: str) -> Value:
    ordinal = bool(rows) and rows[0].kind == "ordinal" and not rows[0].base_labels
    level: AlphaLevel = "ordinal" if ordinal else "nominal"

    def statistic(index: FloatArray, axis: int = -1) -> FloatArray:
        idx = np.moveaxis(np.asarray(index), axis, -1)
        flat = idx.reshape(-1, idx.shape[-1]).astype(np.int64)
        values = [vote_alpha([rows[i] for i in sample], level) for sample in flat]
        return np.asarray(np.array(values).reshape(idx.shape[:-1]), dtype=float)

    few = Bootstrap(seed=boot.seed, resamples=min(boot.resamples, ALPHA_RESAMPLES))
    return paired_value(few, [np.arange(len(rows), dtype=float)], statistic, key)


def _independence(rows: list[Row], boot: Bootstrap, key: str) -> dict[str, object]:
    personas, errors = error_matrix(rows)
    n = len(personas)
    if n < 2:
        return {"personas": n, "note": "fewer than 2 personas"}
    r = paired_value(boot, list(errors), mean_error_correlation, key)
    n_eff = Value(
        estimate=effective_judges(n, r.estimate) if r.estimate is not None else None,
        low=effective_judges(n, r.high) if r.high is not None else None,
        high=effective_judges(n, r.low) if r.low is not None else None,
        n=r.n,
        note=r.note,
    )
    return {
        "personas": n,
        "error_correlation": r.model_dump(),
        "effective_judges": n_eff.model_dump(mode="json"),
    }


def _cell(index: LogIndex, boot: Bootstrap, log: CellLog, model: str) -> CellResult:
    group = log.cell.group
    rows = list(rows_by_id(log).values())
    name = distance_key(rows[0]) if rows else "manhattan"
    key = log.cell.key
    own = np.array([r.values.get(name, np.nan) for r in rows])
    value = mean_value(boot, own, f"{key}/{model}")
    uniform_cell = index.cell("distributional", group, "uniform")
    uniform = rows_by_id(index.get(uniform_cell, NONE_MODEL)) if uniform_cell else {}
    base = [uniform[r.id].values.get(name, np.nan) for r in rows if r.id in uniform]
    units = skill_units(group, log)
    pairs = np.array(list(units.values()), dtype=float).reshape(-1, 2)
    item = paired_value(
        boot, [pairs[:, 0], pairs[:, 1]], single_skill_statistic, f"{key}/item/{model}"
    )
    extra: dict[str, object] = {
        "item_skill": item.model_dump(),
        "alpha": _alpha(rows, boot, f"{key}/alpha/{model}").model_dump(),
        **_independence(rows, boot, f"{key}/r/{model}"),
        "uniform": float(np.mean(base)) if base and len(base) == len(rows) else None,
    }
    return CellResult(
        **value.model_dump(),
        key=key,
        mode="jury",
        group=group,
        model=model,
        metric=f"{name} of the vote shares (lower is better)",
        chance=extra["uniform"],
        logs=index.paths([log]),
        extra=extra,
    )


def jury_groups(index: LogIndex) -> list[str]:
    """The panel datasets, in profile order."""
    return [cell.group for cell in index.cells("jury", "panel")]


def jury_cells(
    index: LogIndex, boot: Bootstrap, model: str, groups: Sequence[str] | None = None
) -> list[CellResult]:
    """Each panel dataset's figures for one model (only ``groups``, when given)."""
    out = []
    for cell in index.cells("jury", "panel"):
        if groups is not None and cell.group not in groups:
            continue
        log = index.get(cell, model)
        if log is not None and rows_by_id(log):
            out.append(_cell(index, boot, log, model))
    return out


def jury_units(index: LogIndex, model: str) -> tuple[SkillUnits, list[CellLog | None]]:
    """The model's panel items on every dataset, for the headline."""
    units: SkillUnits = {}
    logs: list[CellLog | None] = []
    for cell in index.cells("jury", "panel"):
        log = index.get(cell, model)
        logs.append(log)
        units |= skill_units(cell.group, log)
    return units, logs


def jury_headline(index: LogIndex, boot: Bootstrap, model: str) -> ModeResult:
    """The panel's item skill, averaged over datasets (chance 0)."""
    units, logs = jury_units(index, model)
    return skill_headline(index, boot, model, units, logs, mode="jury")
