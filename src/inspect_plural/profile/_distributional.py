"""Distributional pluralism: how well the model's label distributions match the people's.

On every LeWiDi dataset measured, ``distribution_judge``'s soft-label distance (LeWiDi
2025's: Wasserstein on ordinal scales, Manhattan otherwise; lower is better) beside the
no-call baselines on the same items: ``uniform``, ``label_prior`` and the LeWiDi 2025
leaderboard's ``most_frequent`` and ``random``. Each row also gives the skill score
against the uniform distribution, ``1 - d(method) / d(uniform)`` on the same items
(above 0: better than admitting ignorance), and the item skill (:mod:`._skill`).

The headline is the item skill, averaged over datasets with equal weight: 0 for any
method that ignores the item (the chance level), 1 for the people's own distributions.
It is the item skill rather than the skill against uniform because a chance model that
answers a random distribution is *worse* than the uniform one (its skill against
uniform is negative), so that skill has no chance level a random model sits at.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from inspect_plural.profile._cells import Mode
from inspect_plural.profile._index import LogIndex, Unit, codes_of, rows_by_id
from inspect_plural.profile._intervals import (
    FloatArray,
    mean_value,
    paired_value,
    single_skill_statistic,
    skill_statistic,
)
from inspect_plural.profile._logs import NONE_MODEL, CellLog, Row
from inspect_plural.profile._results import CellResult, ModeResult, Value
from inspect_plural.profile._skill import distance_key, shuffled_reference
from inspect_plural.report import Bootstrap

__all__ = [
    "BASELINES",
    "SkillUnits",
    "distribution_cells",
    "distribution_groups",
    "distribution_units",
    "skill_headline",
    "skill_units",
]

BASELINES = ("uniform", "label_prior", "most_frequent", "random")
"""The no-call rows beside the model's, in table order."""
METRIC = "item skill"

SkillUnits = dict[Unit, tuple[float, float]]
"""(dataset, item) -> (the method's distance, the shuffled reference distance)."""


def _ratio_skill(own: FloatArray, base: FloatArray, axis: int = -1) -> FloatArray:
    """``1 - sum(own) / sum(base)``: the skill against a baseline on the same items."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(1.0 - own.sum(axis=axis) / base.sum(axis=axis), dtype=float)


def skill_units(group: str, log: CellLog | None) -> SkillUnits:
    """Each scored item's distance and reference distance (empty without a log).

    Computed once per log (the section, the headline and the differences share it).
    """
    if log is None:
        return {}
    if "skill_units" not in log.computed:
        rows = list(rows_by_id(log).values())
        reference = shuffled_reference(rows) if len(rows) >= 2 else np.zeros(0)
        log.computed["skill_units"] = {
            (group, row.id): (row.values[distance_key(row)], float(ref))
            for row, ref in zip(rows, reference)
            if distance_key(row) in row.values
        }
    units: SkillUnits = log.computed["skill_units"]
    return units


def _row_result(
    key: str,
    group: str,
    model: str,
    log: CellLog,
    uniform: dict[str, Row],
    boot: Bootstrap,
    index: LogIndex,
) -> CellResult:
    rows = rows_by_id(log)
    name = distance_key(next(iter(rows.values()))) if rows else "manhattan"
    ids = list(rows)
    own = np.array([rows[i].values.get(name, np.nan) for i in ids])
    value = mean_value(boot, own, f"{key}/{model}")
    common = [i for i in ids if i in uniform]
    base = np.array([uniform[i].values.get(name, np.nan) for i in common])
    mine = np.array([rows[i].values.get(name, np.nan) for i in common])
    vs_uniform = paired_value(boot, [mine, base], _ratio_skill, f"{key}/uniform/{model}")
    units = skill_units(group, log)
    pairs = np.array(list(units.values()), dtype=float).reshape(-1, 2)
    item = paired_value(
        boot, [pairs[:, 0], pairs[:, 1]], single_skill_statistic, f"{key}/item/{model}"
    )
    return CellResult(
        **value.model_dump(),
        key=key,
        mode="distributional",
        group=group,
        model=model,
        metric=f"{name} (lower is better)",
        chance=float(np.mean(base)) if len(common) else None,
        logs=index.paths([log]),
        extra={"skill_vs_uniform": vs_uniform.model_dump(), "item_skill": item.model_dump()},
    )


def distribution_groups(index: LogIndex) -> list[str]:
    """The LeWiDi datasets, in profile order."""
    return [c.group for c in index.cells("distributional", "judge")]


def distribution_cells(
    index: LogIndex,
    boot: Bootstrap,
    models: Sequence[str],
    groups: Sequence[str] | None = None,
) -> list[CellResult]:
    """Per dataset (every one, or ``groups``): each model's row, then the baselines'."""
    results = []
    for group in distribution_groups(index) if groups is None else groups:
        uniform_cell = index.cell("distributional", group, "uniform")
        uniform = rows_by_id(index.get(uniform_cell, NONE_MODEL)) if uniform_cell else {}
        judge = index.cell("distributional", group, "judge")
        for model in models if judge is not None else []:
            log = index.get(judge, model)  # type: ignore[arg-type]
            if judge is not None and log is not None:
                results.append(_row_result(judge.key, group, model, log, uniform, boot, index))
        for role in BASELINES:
            cell = index.cell("distributional", group, role)
            log = index.get(cell, NONE_MODEL) if cell else None
            if cell is not None and log is not None:
                results.append(_row_result(cell.key, group, NONE_MODEL, log, uniform, boot, index))
    return results


def skill_headline(
    index: LogIndex,
    boot: Bootstrap,
    model: str,
    units: SkillUnits,
    logs: Sequence[CellLog | None],
    mode: Mode = "distributional",
) -> ModeResult:
    """A model's item skill, averaged over datasets (chance 0)."""
    keys = list(units)
    if keys:
        own = np.array([units[k][0] for k in keys])
        ref = np.array([units[k][1] for k in keys])
        value = paired_value(boot, [own, ref, codes_of(keys)], skill_statistic, f"{mode}/{model}")
    else:
        value = Value(estimate=None, note="no dataset measured")
    return ModeResult(
        **value.model_dump(),
        mode=mode,
        model=model,
        metric=METRIC,
        chance=0.0,
        logs=index.paths(logs),
    )


def distribution_units(index: LogIndex, model: str) -> tuple[SkillUnits, list[CellLog | None]]:
    """The model's ``distribution_judge`` items on every dataset, for the headline."""
    units: SkillUnits = {}
    logs = []
    for group in distribution_groups(index):
        cell = index.cell("distributional", group, "judge")
        log = index.get(cell, model) if cell else None
        logs.append(log)
        units |= skill_units(group, log)
    return units, logs
