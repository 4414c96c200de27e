"""``profile run``: every measured cell for every model, as one Inspect eval set.

Each (cell, model) is a task of its own (a no-call baseline runs once, with the ``none``
model), tagged in its metadata with the cell, budget, demo flag and sample count, so
``profile show`` finds it and Inspect's ``eval_set`` resumes an interrupted run without
repeating finished samples (a second run of the same command adds none). A cell whose
data is not on the machine is reported as not measured, never replaced by the demo rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.model import Model

from inspect_plural.profile._cells import CELLS, MODES, Budget, Mode, cells_for
from inspect_plural.profile._plan import CellPlan, plan_cell
from inspect_plural.profile._tasks import CELLS_FILE, BuiltCell, build_cell, cell_task

__all__ = ["RunResult", "build_cells", "record_cells", "run_profile"]

Progress = Callable[[str], None]


@dataclass
class RunResult:
    """What a run did.

    Attributes:
        success: Whether every task of the eval set finished.
        built: Every cell, measured or not.
        plans: Each cell's planned samples, calls and tokens.
        logs: Logs the eval set holds.
    """

    success: bool
    built: list[BuiltCell]
    plans: list[CellPlan]
    logs: int = 0
    skipped: list[str] = field(default_factory=list)


def build_cells(
    budget: Budget,
    demo: bool,
    modes: tuple[Mode, ...] = MODES,
    progress: Progress | None = None,
    only: Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[BuiltCell]:
    """Every cell of the modes, its data read and its samples chosen (no model call).

    Args:
        budget: The budget.
        demo: Every task on its demo rows.
        modes: The modes.
        progress: Called with a line per cell.
        only: Keep only the cells whose key starts with one of these (all: None).
        options: Task options for every cell that calls a model (e.g. ``max_tokens``).

    Returns:
        The built cells, in profile order.
    """
    built = []
    for cell in cells_for(modes):
        if only is not None and not any(cell.key.startswith(p) for p in only):
            continue
        if progress:
            progress(f"reading {cell.key}")
        built.append(build_cell(cell, budget, demo, options))
    return built


def record_cells(log_dir: Path, built: Sequence[BuiltCell], models: Sequence[str]) -> Path:
    """Write ``profile_cells.jsonl``: the models in order, then each cell's samples and note.

    Cells recorded by an earlier run and not built now (``--only``) keep their lines, so
    a run of a few cells does not lose the others' "data missing" notes.
    """
    log_dir.mkdir(parents=True, exist_ok=True)
    path = log_dir / CELLS_FILE
    lines: dict[str, str] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            key = json.loads(line).get("key") if line.strip() else None
            if isinstance(key, str):
                lines[key] = line
    for b in built:
        lines[b.cell.key] = json.dumps(
            {"key": b.cell.key, "samples": len(b.samples), "note": b.missing}
        )
    order = {cell.key: i for i, cell in enumerate(CELLS)}
    kept = sorted(lines, key=lambda k: order.get(k, len(order)))
    text = [json.dumps({"models": list(models)}), *(lines[k] for k in kept)]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def run_profile(
    models: Sequence[str | Model],
    log_dir: str,
    budget: Budget = "quick",
    demo: bool = False,
    *,
    dry_run: bool = False,
    max_connections: int | None = None,
    model_roles: Mapping[str, str] | None = None,
    modes: tuple[Mode, ...] = MODES,
    progress: Progress | None = None,
    only: Sequence[str] | None = None,
    max_tokens: int | None = None,
    reasoning: bool | None = None,
    **eval_options: Any,
) -> RunResult:
    """Run (or plan) the profile of one or more models.

    Args:
        models: The models (any Inspect provider).
        log_dir: The eval set's log directory.
        budget: ``quick``, ``standard`` or ``full`` (the sample sizes).
        demo: Every task on its demo rows.
        dry_run: Plan only: no eval runs.
        max_connections: Concurrent connections per model.
        model_roles: Role -> model for every task (e.g. ``judge``, ``persona_builder``).
        modes: The modes to run (default: all four).
        progress: Called with a line per step.
        only: Run only the cells whose key starts with one of these (all: None).
        max_tokens: Cap every model answer at this many tokens (the tasks' ``max_tokens``
            option; None: each method's own cap).
        reasoning: Reasoning before every answer (the tasks' ``reasoning`` option;
            None: each method's protocol).
        **eval_options: Further ``eval_set`` options (``display``, ``max_tasks``, ...).

    Returns:
        Whether every task finished, the cells, their plans and the logs.
    """
    caps: dict[str, Any] = {}
    if max_tokens is not None:
        caps["max_tokens"] = max_tokens
    if reasoning is not None:
        caps["reasoning"] = reasoning
    built = build_cells(budget, demo, modes, progress, only, caps or None)
    plans = [plan_cell(b, len(models)) for b in built]
    if dry_run:
        return RunResult(True, built, plans)
    record_cells(Path(log_dir), built, [str(m) for m in models])
    from inspect_ai import eval_set

    tasks = []
    for b in built:
        if not b.measured or not b.samples:
            continue
        for model in models if b.cell.per_model else [None]:
            tasks.append(cell_task(b, model))
    options: dict[str, Any] = {"retry_attempts": 2, "log_dir_allow_dirty": True, **eval_options}
    if max_connections is not None:
        options["max_connections"] = max_connections
    if model_roles:
        options["model_roles"] = dict(model_roles)
    if not tasks:
        return RunResult(True, built, plans)
    success, logs = eval_set(tasks=tasks, log_dir=log_dir, **options)
    return RunResult(success, built, plans, len(logs))
