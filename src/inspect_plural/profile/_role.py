"""Role fidelity: can the model tell who is speaking (PersonaEval), and is it calibrated?

Per PersonaEval track, ``role_identification``'s top-1 accuracy (the role scorer's
``correct``: ties never credited) with its chance level (the mean of 1/K over the
samples, K the candidates) and its expected calibration error (the role scorer's
default: 15 equal-width bins of the top probability; the report's statistic). The
headline is top-1 accuracy averaged over the tracks measured, beside the same average
of their chance levels.
"""

from __future__ import annotations

import numpy as np

from inspect_plural.profile._headline import stratified_headline
from inspect_plural.profile._index import LogIndex, Unit, rows_by_id
from inspect_plural.profile._intervals import (
    mean_value,
    paired_value,
)
from inspect_plural.profile._logs import CellLog
from inspect_plural.profile._results import CellResult, ModeResult
from inspect_plural.report import Bootstrap, ece_statistic
from inspect_plural.scorers import ROLE_PRESETS

__all__ = ["role_cells", "role_headline", "role_units"]

METRIC = "top-1 accuracy"
ECE_BINS = ROLE_PRESETS["default"].n_bins


def _chance(log: CellLog) -> float:
    rows = rows_by_id(log).values()
    return float(np.mean([1.0 / max(r.values.get("n_options", 1.0), 1.0) for r in rows]))


def role_cells(index: LogIndex, boot: Bootstrap, model: str) -> list[CellResult]:
    """Each track's top-1 accuracy (with chance) and ECE for one model."""
    out = []
    for cell in index.cells("role", "role"):
        log = index.get(cell, model)
        rows = list(rows_by_id(log).values())
        if log is None or not rows:
            continue
        correct = np.array([r.values.get("correct", 0.0) for r in rows])
        confidence = np.array([r.values.get("max_prob", np.nan) for r in rows])
        top1 = mean_value(boot, correct, f"{cell.key}/{model}")
        ece = paired_value(
            boot, [confidence, correct], ece_statistic(ECE_BINS), f"{cell.key}/ece/{model}"
        )
        out.append(
            CellResult(
                **top1.model_dump(),
                key=cell.key,
                mode="role",
                group=cell.group,
                model=model,
                metric=METRIC,
                chance=_chance(log),
                logs=index.paths([log]),
                extra={"ece": ece.model_dump()},
            )
        )
    return out


def role_units(
    index: LogIndex, model: str
) -> tuple[dict[Unit, float], list[CellLog | None], float | None]:
    """Per (track, sample) its top-1 correctness, the logs, and the mean chance level."""
    units: dict[Unit, float] = {}
    logs: list[CellLog | None] = []
    chances = []
    for cell in index.cells("role", "role"):
        log = index.get(cell, model)
        logs.append(log)
        rows = rows_by_id(log)
        if rows and log is not None:
            chances.append(_chance(log))
            units |= {(cell.group, i): r.values.get("correct", 0.0) for i, r in rows.items()}
    return units, logs, float(np.mean(chances)) if chances else None


def role_headline(index: LogIndex, boot: Bootstrap, model: str) -> ModeResult:
    """Top-1 accuracy averaged over the tracks, beside its chance level."""
    units, logs, chance = role_units(index, model)
    return stratified_headline(
        index,
        boot,
        "role",
        model,
        units,
        logs,
        metric=METRIC,
        chance=chance,
        empty="no PersonaEval track measured",
    )
