"""Cells -> Inspect tasks: the data, the chosen samples, and why a cell is not measured.

Building a cell's task reads its data (never the demo rows unless ``demo``); a cell whose
data is not on the machine is recorded as not measured, with the loader's own message
and the docs page that says how to get it. Samples are chosen by the SHA-256 of their
id, so every cell of one dataset draws the same samples (the cells of a comparison are
paired) and a smaller budget's samples are a subset of a larger one's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from inspect_ai import Task, task_with
from inspect_ai.dataset import Sample
from inspect_ai.model import Model

from inspect_plural.profile._cells import Budget, Cell
from inspect_plural.sources import DataNotFoundError

__all__ = [
    "CELLS_FILE",
    "PROFILE_KEY",
    "BuiltCell",
    "build_cell",
    "cell_task",
    "choose_samples",
    "missing_note",
]

NOTE_CHARS = 160
"""At most this much of the loader's message goes into a not-measured note."""
CELLS_FILE = "profile_cells.jsonl"
"""Written by ``profile run`` into the log directory: the models, each cell's status."""
PROFILE_KEY = "inspect_plural_profile"
"""Key of the task metadata that tags a profile eval: cell, budget, demo, samples."""


@dataclass(frozen=True)
class BuiltCell:
    """A cell's task under a budget, or why it cannot run.

    Attributes:
        cell: The cell.
        budget: The budget.
        demo: Whether the demo data was asked for.
        samples: The chosen samples (empty when not measured).
        available: Samples the task has before the choice.
        missing: Why the cell is not measured (None: it runs).
        task_args: The task arguments.
    """

    cell: Cell
    budget: Budget
    demo: bool
    samples: list[Sample] = field(default_factory=list)
    available: int = 0
    missing: str | None = None
    task_args: dict[str, Any] = field(default_factory=dict)

    @property
    def measured(self) -> bool:
        """Whether the cell can run."""
        return self.missing is None


def missing_note(cell: Cell, reason: str) -> str:
    """The note of a cell whose data is not here: what is missing and where to read how."""
    text = " ".join(reason.split()) or "no data"
    first = text.split(". ", 1)[0].rstrip(".")
    if len(first) > NOTE_CHARS:
        first = first[: NOTE_CHARS - 3].rstrip() + "..."
    return f"not measured: data missing, see {cell.data} ({first})"


def _rank(sample_id: str | int | None) -> str:
    return hashlib.sha256(str(sample_id).encode("utf-8")).hexdigest()


def choose_samples(samples: Sequence[Sample], n: int | None) -> list[Sample]:
    """The ``n`` samples with the smallest SHA-256 of their id, in dataset order.

    Args:
        samples: The task's samples.
        n: How many (None: all).

    Returns:
        The chosen samples; the same ids for every task with these ids, whatever the
        dataset order, and nested across sizes.
    """
    if n is None or n >= len(samples):
        return list(samples)
    kept = {str(s.id) for s in sorted(samples, key=lambda s: _rank(s.id))[:n]}
    return [s for s in samples if str(s.id) in kept]


def _task(cell: Cell, args: dict[str, Any]) -> Task:
    factory = getattr(import_module("inspect_plural.tasks"), cell.task)
    task: Task = factory(**args)
    return task


def build_cell(
    cell: Cell, budget: Budget, demo: bool, options: Mapping[str, Any] | None = None
) -> BuiltCell:
    """Read a cell's data and choose its samples (no model is called).

    Args:
        cell: The cell.
        budget: The budget (the sample size).
        demo: Use the demo rows (every task's ``demo=true``).
        options: Further task options for a cell that calls a model (``max_tokens``,
            which also caps a panel's persona creation, and ``reasoning``).

    Returns:
        The built cell; when the loader reports missing data, a cell that is not
        measured, with the reason.
    """
    args = cell.task_args(budget, demo)
    if cell.per_model and options:
        args |= dict(options)
        if cell.method == "stakeholder_panel" and "max_tokens" in options:
            args["persona_max_tokens"] = options["max_tokens"]  # its creation calls too
    try:
        task = _task(cell, args)
    except DataNotFoundError as ex:
        return BuiltCell(cell, budget, demo, missing=missing_note(cell, str(ex)), task_args=args)
    samples = list(task.dataset)
    chosen = choose_samples(samples, cell.samples(budget))
    return BuiltCell(cell, budget, demo, chosen, len(samples), None, args)


def cell_task(built: BuiltCell, model: str | Model | None) -> Task:
    """A fresh task of a built cell for one model, tagged for ``profile show``.

    Args:
        built: A measured cell.
        model: The model (None: ``none``, for a cell that makes no call).

    Returns:
        The task, with its chosen samples, its model and the profile tag in its metadata
        (merged into the task's own).
    """
    cell = built.cell
    task = _task(cell, built.task_args)
    ids = {str(s.id) for s in built.samples}
    tag = {
        "cell": cell.key,
        "budget": built.budget,
        "demo": built.demo,
        "samples": len(built.samples),
    }
    return task_with(
        task,
        dataset=[s for s in task.dataset if str(s.id) in ids],
        model=model or "none",
        metadata={**(task.metadata or {}), PROFILE_KEY: tag},
    )
