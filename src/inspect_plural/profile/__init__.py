"""The pluralism profile: one command runs the suite, one page compares models.

``inspect-plural profile run`` runs a documented set of cells (:mod:`._cells`) for every
model through Inspect's ``eval_set``; ``inspect-plural profile show`` reads the logs
and writes one page (``index.html``), ``profile.md`` and ``profile.json``: per model and
mode (steerable, distributional, jury, role) an estimate with its 95% interval and its
chance level, and paired differences between models. See ``docs/profile.md``.
"""

from inspect_plural.profile._build import (
    CELLS_FILE,
    NoProfileLogsError,
    build_profile,
    read_cell_notes,
)
from inspect_plural.profile._cells import (
    BUDGETS,
    CELLS,
    MODES,
    PRECISION,
    SIZES,
    Budget,
    Cell,
    Mode,
    cells_for,
)
from inspect_plural.profile._independence import (
    effective_judges,
    mean_error_correlation,
    vote_error,
)
from inspect_plural.profile._plan import CellPlan, plan_cell, plan_total, render_plan
from inspect_plural.profile._render import render_html, render_markdown, write_profile
from inspect_plural.profile._results import (
    CellResult,
    Difference,
    ModeResult,
    NotMeasured,
    Profile,
    Value,
)
from inspect_plural.profile._run import RunResult, build_cells, run_profile
from inspect_plural.profile._tasks import PROFILE_KEY, BuiltCell, build_cell, choose_samples

__all__ = [
    "BUDGETS",
    "CELLS",
    "CELLS_FILE",
    "CellResult",
    "Difference",
    "ModeResult",
    "NoProfileLogsError",
    "NotMeasured",
    "Profile",
    "Value",
    "build_profile",
    "effective_judges",
    "mean_error_correlation",
    "read_cell_notes",
    "render_html",
    "render_markdown",
    "vote_error",
    "write_profile",
    "MODES",
    "PRECISION",
    "PROFILE_KEY",
    "SIZES",
    "Budget",
    "BuiltCell",
    "Cell",
    "CellPlan",
    "Mode",
    "RunResult",
    "build_cell",
    "build_cells",
    "cells_for",
    "choose_samples",
    "plan_cell",
    "plan_total",
    "render_plan",
    "run_profile",
]
