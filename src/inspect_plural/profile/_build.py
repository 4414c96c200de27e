"""Logs -> the :class:`Profile`: headlines, sections and paired differences per mode.

Reads the logs once (no model call, linear in their samples) and computes each mode's
figures (:mod:`._steerable`, :mod:`._opinionqa`, :mod:`._distributional`, :mod:`._jury`,
:mod:`._role`). Differences between two models use the units both have (the same
samples, items or questions): the per-unit differences for gains and accuracies, the
two skills on the same items for skill scores, resampled together (a paired
bootstrap). ``profile run`` records which cells could not run (``profile_cells.jsonl``
in the log directory); without that file a cell without a log is listed as not run.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from inspect_plural.profile._cells import MODES, Mode
from inspect_plural.profile._distributional import (
    SkillUnits,
    distribution_cells,
    distribution_units,
    skill_headline,
)
from inspect_plural.profile._index import LogIndex, Unit, codes_of
from inspect_plural.profile._intervals import (
    paired_value,
    skill_difference_statistic,
    stratified_mean_statistic,
)
from inspect_plural.profile._jury import jury_cells, jury_headline, jury_units
from inspect_plural.profile._logs import NONE_MODEL, CellLog, read_profile_logs
from inspect_plural.profile._opinionqa import representativeness_cell, steerability_cell
from inspect_plural.profile._results import CellResult, Difference, ModeResult, Profile, Value
from inspect_plural.profile._role import role_cells, role_headline, role_units
from inspect_plural.profile._steerable import steerable_units, steering_cells, steering_headline
from inspect_plural.profile._tasks import CELLS_FILE
from inspect_plural.report import Bootstrap

__all__ = ["CELLS_FILE", "NoProfileLogsError", "build_profile", "read_cell_notes", "run_notes"]

Warn = Callable[[str], None]


class NoProfileLogsError(Exception):
    """The directory holds no log written by ``profile run``."""


def read_cell_notes(log_dir: Path) -> tuple[dict[str, str], list[str]]:
    """What ``profile run`` recorded: cell -> why it was not measured, and the models."""
    path = log_dir / CELLS_FILE
    if not path.is_file():
        return {}, []
    notes: dict[str, str] = {}
    models: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line) if line.strip() else {}
        if record.get("models"):
            models = [str(m) for m in record["models"]]
        elif record.get("note"):
            notes[str(record["key"])] = str(record["note"])
    return notes, models


def _scalar_difference(
    a: dict[Unit, float], b: dict[Unit, float], boot: Bootstrap, key: str
) -> Value:
    common = [u for u in a if u in b]
    if not common:
        return Value(estimate=None, note="no unit in common")
    diff = np.array([a[u] - b[u] for u in common])
    return paired_value(boot, [diff, codes_of(common)], stratified_mean_statistic, key)


def _skill_difference(a: SkillUnits, b: SkillUnits, boot: Bootstrap, key: str) -> Value:
    common = [u for u in a if u in b]
    if not common:
        return Value(estimate=None, note="no item in common")
    arrays = [np.array([x[u][k] for u in common]) for x in (a, b) for k in (0, 1)]
    return paired_value(boot, [*arrays, codes_of(common)], skill_difference_statistic, key)


def _differences(index: LogIndex, boot: Bootstrap, models: Sequence[str]) -> list[Difference]:
    units = {
        model: {
            "steerable": steerable_units(index, model)[0],
            "distributional": distribution_units(index, model)[0],
            "jury": jury_units(index, model)[0],
            "role": role_units(index, model)[0],
        }
        for model in models
    }
    metrics = {
        "steerable": "accuracy gain",
        "distributional": "item skill",
        "jury": "item skill",
        "role": "top-1 accuracy",
    }
    out = []
    for a, b in itertools.combinations(models, 2):
        for mode in MODES:
            key = f"difference/{mode}/{a}/{b}"
            ua, ub = units[a][mode], units[b][mode]
            if mode in ("distributional", "jury"):
                value = _skill_difference(ua, ub, boot, key)  # type: ignore[arg-type]
            else:
                value = _scalar_difference(ua, ub, boot, key)  # type: ignore[arg-type]
            out.append(
                Difference(
                    **value.model_dump(), mode=mode, model_a=a, model_b=b, metric=metrics[mode]
                )
            )
    return out


def _summary(index: LogIndex, boot: Bootstrap, model: str) -> dict[Mode, ModeResult]:
    units, logs = distribution_units(index, model)
    return {
        "steerable": steering_headline(index, boot, model),
        "distributional": skill_headline(index, boot, model, units, logs),
        "jury": jury_headline(index, boot, model),
        "role": role_headline(index, boot, model),
    }


def _cells(index: LogIndex, boot: Bootstrap, models: Sequence[str]) -> dict[Mode, list[CellResult]]:
    cells: dict[Mode, list[CellResult]] = {mode: [] for mode in MODES}
    for model in models:
        cells["steerable"] += steering_cells(index, boot, model)
        steering = steerability_cell(index, boot, model)
        if steering is not None:
            cells["steerable"].append(steering)
        rep = representativeness_cell(index, boot, model)
        if rep is not None:
            cells["distributional"].append(rep)
        cells["jury"] += jury_cells(index, boot, model)
        cells["role"] += role_cells(index, boot, model)
    cells["distributional"] = distribution_cells(index, boot, models) + cells["distributional"]
    return cells


def build_profile(
    log_dir: str | Path,
    warn: Warn,
    models: Sequence[str] | None = None,
    seed: int = 42,
    resamples: int = 2000,
) -> Profile:
    """The profile of the models whose logs are in a directory.

    Args:
        log_dir: The directory ``profile run`` wrote.
        warn: Called with a note for every log left out.
        models: The models, in the order to show them (default: the order ``profile run``
            was given them, then any other model the logs have).
        seed: The bootstrap seed.
        resamples: Bootstrap resamples per interval.

    Returns:
        The profile.

    Raises:
        NoProfileLogsError: No profile log in the directory.
    """
    root = Path(log_dir)
    logs = read_profile_logs(root, warn)
    if not logs:
        raise NoProfileLogsError(
            f"{root}: no log written by `inspect-plural profile run` (logs whose task metadata "
            "has the profile tag); run `inspect-plural profile run --log-dir "
            f"{root} --model MODEL` first"
        )
    notes, ran = read_cell_notes(root)
    found = list(dict.fromkeys(log.model for log in logs if log.model != NONE_MODEL))
    order = [m for m in (models or ran) if m in found]
    shown = order + [m for m in found if m not in order]
    index = LogIndex(logs, shown)
    boot = Bootstrap(seed=seed, resamples=resamples)
    per_model = {m: _summary(index, boot, m) for m in shown}
    return Profile(
        demo=any(log.demo for log in logs),
        models=shown,
        budgets=sorted({log.budget for log in logs}),
        summary={mode: {m: per_model[m][mode] for m in shown} for mode in MODES},
        cells=_cells(index, boot, shown),
        differences=_differences(index, boot, shown),
        not_measured=[nm for mode in MODES for nm in index.missing(mode, notes)],
        notes=run_notes(logs),
    )


def run_notes(logs: Sequence[CellLog]) -> list[str]:
    """Per log, the samples that errored and the answers that could not be read."""
    notes = []
    for log in logs:
        if log.errored:
            notes.append(
                f"{log.cell.key} ({log.model}): {log.errored} of {len(log.rows)} samples "
                "errored (no score) and are left out of its figures"
            )
        failed = sum(r.values.get("failed_answers", 0.0) for r in log.rows)
        answers = sum(r.values.get("n_answers", 0.0) for r in log.rows)
        if failed:
            notes.append(
                f"{log.cell.key} ({log.model}): {failed:.0f} of {answers:.0f} answers could "
                "not be read and are scored as failures (a label: wrong; a distribution: "
                "uniform)"
            )
    return notes
