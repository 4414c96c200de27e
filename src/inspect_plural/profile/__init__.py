"""The pluralism profile: one command runs the suite, one page compares models.

``inspect-plural profile run`` runs a documented set of cells (:mod:`._cells`) for every
model through Inspect's ``eval_set``; ``inspect-plural profile show`` reads the logs
and writes one page (``index.html``), ``profile.md`` and ``profile.json``: per model and
mode (steerable, distributional, jury, role) an estimate with its 95% interval and its
chance level, and paired differences between models. See ``docs/profile.md``.

The names are imported when first used (``__getattr__``), so that ``inspect-plural
--help`` does not pay for the statistics and figures behind ``profile show``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from inspect_plural.profile._plan import (
        CellPlan,
        plan_cell,
        plan_total,
        render_plan,
    )
    from inspect_plural.profile._render import (
        render_html,
        render_markdown,
        write_profile,
    )
    from inspect_plural.profile._results import (
        CellResult,
        Difference,
        ModeResult,
        NotMeasured,
        Profile,
        Value,
    )
    from inspect_plural.profile._run import (
        RunResult,
        build_cells,
        run_profile,
    )
    from inspect_plural.profile._tasks import (
        PROFILE_KEY,
        BuiltCell,
        build_cell,
        choose_samples,
    )

_EXPORTS: dict[str, str] = {
    "CELLS_FILE": "_build",
    "NoProfileLogsError": "_build",
    "build_profile": "_build",
    "read_cell_notes": "_build",
    "BUDGETS": "_cells",
    "CELLS": "_cells",
    "MODES": "_cells",
    "PRECISION": "_cells",
    "SIZES": "_cells",
    "Budget": "_cells",
    "Cell": "_cells",
    "Mode": "_cells",
    "cells_for": "_cells",
    "effective_judges": "_independence",
    "mean_error_correlation": "_independence",
    "vote_error": "_independence",
    "CellPlan": "_plan",
    "plan_cell": "_plan",
    "plan_total": "_plan",
    "render_plan": "_plan",
    "render_html": "_render",
    "render_markdown": "_render",
    "write_profile": "_render",
    "CellResult": "_results",
    "Difference": "_results",
    "ModeResult": "_results",
    "NotMeasured": "_results",
    "Profile": "_results",
    "Value": "_results",
    "RunResult": "_run",
    "build_cells": "_run",
    "run_profile": "_run",
    "PROFILE_KEY": "_tasks",
    "BuiltCell": "_tasks",
    "build_cell": "_tasks",
    "choose_samples": "_tasks",
}
"""Public name -> the private module that defines it."""

__all__ = [
    "BUDGETS",
    "Budget",
    "BuiltCell",
    "CELLS",
    "CELLS_FILE",
    "Cell",
    "CellPlan",
    "CellResult",
    "Difference",
    "MODES",
    "Mode",
    "ModeResult",
    "NoProfileLogsError",
    "NotMeasured",
    "PRECISION",
    "PROFILE_KEY",
    "Profile",
    "RunResult",
    "SIZES",
    "Value",
    "build_cell",
    "build_cells",
    "build_profile",
    "cells_for",
    "choose_samples",
    "effective_judges",
    "mean_error_correlation",
    "plan_cell",
    "plan_total",
    "read_cell_notes",
    "render_html",
    "render_markdown",
    "render_plan",
    "run_profile",
    "vote_error",
    "write_profile",
]


def __getattr__(name: str) -> Any:
    """Import a public name from its module on first use."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
