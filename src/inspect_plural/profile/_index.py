"""The logs of a profile by cell and model, and the units two models share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from inspect_plural.profile._cells import CELLS, Cell, Mode
from inspect_plural.profile._logs import NONE_MODEL, CellLog, Row
from inspect_plural.profile._results import NotMeasured

__all__ = ["LogIndex", "Unit", "codes_of", "rows_by_id"]

Unit = tuple[str, str]
"""A unit of a stratified figure: (dataset, sample id)."""


def rows_by_id(log: CellLog | None) -> dict[str, Row]:
    """A log's scored rows by sample id (errored samples have no number and are left out)."""
    if log is None:
        return {}
    return {row.id: row for row in log.rows if not row.errored}


def codes_of(units: Sequence[Unit]) -> np.ndarray:
    """Each unit's stratum as a code ``0 .. k-1`` (in order of first appearance)."""
    order: dict[str, int] = {}
    return np.array([order.setdefault(g, len(order)) for g, _ in units], dtype=float)


@dataclass
class LogIndex:
    """Profile logs by (cell key, model).

    Attributes:
        logs: Every log kept.
        models: The models, in the order given (no-call baselines excluded).
    """

    logs: list[CellLog]
    models: list[str]

    def __post_init__(self) -> None:
        self._by = {(log.cell.key, log.model): log for log in self.logs}

    def get(self, cell: Cell, model: str) -> CellLog | None:
        """A cell's log for a model (a no-call cell's shared log whatever the model)."""
        return self._by.get((cell.key, model if cell.per_model else NONE_MODEL))

    def cells(self, mode: Mode, role: str | None = None) -> list[Cell]:
        """A mode's cells (of one role), in profile order."""
        return [c for c in CELLS if c.mode == mode and (role is None or c.role == role)]

    def cell(self, mode: Mode, group: str, role: str) -> Cell | None:
        """The cell of a mode, dataset and role."""
        return next((c for c in self.cells(mode, role) if c.group == group), None)

    def missing(self, mode: Mode, notes: dict[str, str]) -> list[NotMeasured]:
        """The mode's cells without a log for some model, with why."""
        out = []
        for cell in self.cells(mode):
            models = self.models if cell.per_model else [NONE_MODEL]
            absent = [m for m in models if (cell.key, m) not in self._by]
            if absent:
                why = notes.get(cell.key) or "no log: not run (or not finished) in this directory"
                out.append(NotMeasured(key=cell.key, mode=mode, note=why))
        return out

    def paths(self, logs: Iterable[CellLog | None]) -> list[str]:
        """The files of some logs (each once)."""
        return list(dict.fromkeys(log.path for log in logs if log is not None))
