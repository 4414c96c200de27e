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
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from inspect_plural.profile._cells import MODES, Mode
from inspect_plural.profile._distributional import (
    SkillUnits,
    distribution_cells,
    distribution_groups,
    distribution_units,
    skill_headline,
)
from inspect_plural.profile._index import LogIndex, Unit, codes_of
from inspect_plural.profile._intervals import (
    paired_value,
    skill_difference_statistic,
    stratified_mean_statistic,
)
from inspect_plural.profile._jury import jury_cells, jury_groups, jury_headline, jury_units
from inspect_plural.profile._logs import NONE_MODEL, CellLog, read_profile_logs
from inspect_plural.profile._opinionqa import representativeness_cell, steerability_cell
from inspect_plural.profile._results import CellResult, Difference, ModeResult, Profile, Value
from inspect_plural.profile._role import role_cells, role_headline, role_units
from inspect_plural.profile._steerable import steerable_units, steering_cells, steering_headline
from inspect_plural.profile._tasks import CELLS_FILE
from inspect_plural.report import Bootstrap
from inspect_plural.report._parallel import default_jobs, run_all

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


def _model_cells(index: LogIndex, boot: Bootstrap, model: str) -> list[CellResult]:
    """A model's steering, OpinionQA and role figures (its panels and LeWiDi rows apart)."""
    cells = steering_cells(index, boot, model)
    cells += [c for c in (steerability_cell(index, boot, model),) if c is not None]
    cells += [c for c in (representativeness_cell(index, boot, model),) if c is not None]
    return cells + role_cells(index, boot, model)


def _compute(
    index: LogIndex, boot: Bootstrap, models: Sequence[str], jobs: int
) -> tuple[dict[str, dict[Mode, ModeResult]], dict[Mode, list[CellResult]], list[Difference]]:
    """Every headline, cell and difference, as independent pieces in worker processes.

    Each interval's generator is seeded from its own key, so the pieces give the same
    numbers in any process and order. The item skill units every piece shares are
    computed once, here, before the workers fork.
    """
    for model in models:
        distribution_units(index, model)
        jury_units(index, model)
    groups = distribution_groups(index)
    work: list[Callable[[], Any]] = [partial(_summary, index, boot, m) for m in models]
    work += [partial(distribution_cells, index, boot, models, [g]) for g in groups]
    work += [partial(_model_cells, index, boot, m) for m in models]
    work += [partial(jury_cells, index, boot, m, [g]) for m in models for g in jury_groups(index)]
    work.append(partial(_differences, index, boot, models))
    done = run_all(lambda i: work[i](), len(work), jobs)
    m, g = len(models), len(groups)
    summaries = dict(zip(models, done[:m]))
    lewidi = [c for part in done[m : m + g] for c in part]
    per_model = [c for part in done[m + g : m + g + m] for c in part]
    cells: dict[Mode, list[CellResult]] = {mode: [] for mode in MODES}
    for cell in per_model:
        cells[cell.mode].append(cell)
    cells["distributional"] = lewidi + cells["distributional"]
    cells["jury"] = [c for part in done[m + g + m : -1] for c in part]
    return summaries, cells, done[-1]


def build_profile(
    log_dir: str | Path,
    warn: Warn,
    models: Sequence[str] | None = None,
    seed: int = 42,
    resamples: int = 2000,
    jobs: int | None = None,
) -> Profile:
    """The profile of the models whose logs are in a directory.

    Args:
        log_dir: The directory ``profile run`` wrote.
        warn: Called with a note for every log left out.
        models: The models, in the order to show them (default: the order ``profile run``
            was given them, then any other model the logs have).
        seed: The bootstrap seed.
        resamples: Bootstrap resamples per interval.
        jobs: Worker processes reading the logs and computing the figures (default:
            the CPUs, at most 4; 1: in this process).

    Returns:
        The profile.

    Raises:
        NoProfileLogsError: No profile log in the directory.
    """
    root = Path(log_dir)
    logs = read_profile_logs(root, warn, jobs)
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
    per_model, cells, differences = _compute(index, boot, shown, jobs or default_jobs())
    return Profile(
        demo=any(log.demo for log in logs),
        models=shown,
        budgets=sorted({log.budget for log in logs}),
        summary={mode: {m: per_model[m][mode] for m in shown} for mode in MODES},
        cells=cells,
        differences=differences,
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
