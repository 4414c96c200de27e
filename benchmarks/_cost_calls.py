"""Python function calls per sample: the sample-cost benchmark's deterministic measure.

CPU seconds on a shared 2-vCPU VM move by a third between identical runs (the floor's
marginal CPU ratio read 0.86 in one run of the section and 1.38 in the next), so a
change of a tenth in a ratio cannot be seen in them. The number of Python function calls
``cProfile`` counts over an eval is the same on every run of the same code and data: a
proxy for the interpreter's work (not for time spent inside C calls, such as zstd or
sqlite), reported beside the timings. Counted over one eval of each kind at the
section's size and, in the full run, at the larger size, whose difference cancels the
eval's fixed work.

Two measures say how much of a ratio is Inspect's own per-sample work, which no package
change can remove (issue 32's CPU target is reported against them):

* the calls made inside Inspect's *per-value passes* (:data:`INSPECT_PASSES`): walks
  over every value of a sample's data and events (the attachment and depth checks when
  an event is recorded, the summary's size check, condensing, deep copies, state
  diffs), counted as each pass function's own calls plus the built-ins it calls, so a
  lower bound;
* a *what-if* kind, ``store_events_off``: the package's task run under Inspect's
  ``suspend_store_events()``, so a store write is logged in the solver's ``state`` event
  and the final store but not as a ``store`` event per enclosing span: what a sample
  would cost if Inspect logged each write once.
"""

from __future__ import annotations

import contextlib
import cProfile
import pstats
from collections.abc import Callable
from typing import Any

from inspect_ai import Task

from benchmarks._cost_child import run_eval

__all__ = [
    "INSPECT_PASSES",
    "STORE_EVENTS_OFF",
    "call_counts",
    "calls_line",
    "inspect_share",
    "pass_calls",
]

STORE_EVENTS_OFF = "store_events_off"
"""The what-if kind: its evals run under Inspect's ``suspend_store_events()``."""

_DIFFS = ("json_changes", "_diff_values", "_same_json", "_json_pointer_join", "_replace_change")
_COPIES = (
    "deepcopy",
    "_deepcopy_dict",
    "_deepcopy_list",
    "_deepcopy_tuple",
    "_deepcopy_atomic",
    "_reconstruct",
    "_keep_alive",
)
INSPECT_PASSES: dict[tuple[str, str], str] = {
    ("inspect_ai/log/_condense.py", "attachment_refs_from_object"): "attachment check",
    ("inspect_ai/_util/json.py", "exceeds_max_depth"): "depth check",
    ("inspect_ai/log/_util.py", "_min_json_size"): "summary size check",
    ("inspect_ai/log/_condense.py", "walk_json_value"): "condensing",
    ("inspect_ai/log/_condense.py", "walk_json_dict"): "condensing",
    ("inspect_ai/log/_condense.py", "walk_json_list"): "condensing",
    **{("inspect_ai/_util/json.py", name): "state diffs" for name in _DIFFS},
    **{("/copy.py", name): "deep copies" for name in _COPIES},
}
"""Inspect's per-value passes, by (the end of the function's file, its name): what each is."""


def _pass_of(file: str, name: str) -> str | None:
    for (suffix, function), what in INSPECT_PASSES.items():
        if name == function and file.endswith(suffix):
            return what
    return None


def pass_calls(stats: dict[Any, Any]) -> dict[str, int]:
    """Calls inside Inspect's per-value passes, per pass, from ``pstats`` stats.

    A pass function's own calls (recursive ones included) plus the calls of built-ins
    (``isinstance``, ``id``, ``dict.get``...) it makes directly: a lower bound, since the
    few Python functions a pass calls (``json.dumps`` in a diff) are not counted.

    Args:
        stats: ``pstats.Stats(...).stats``: ``{(file, line, name): (primitive calls,
            calls, own time, cumulative time, {caller: (..., calls, ...)})}``.

    Returns:
        Calls per pass name (the values of :data:`INSPECT_PASSES`); absent: none seen.
    """
    out: dict[str, int] = {}
    for (file, _line, name), (_primitive, calls, _own, _cumulative, callers) in stats.items():
        what = _pass_of(file, name)
        if what is not None:
            out[what] = out.get(what, 0) + calls
        elif file == "~":  # a built-in: counted for the passes that call it
            for (caller_file, _caller_line, caller_name), caller_stats in callers.items():
                caller_pass = _pass_of(caller_file, caller_name)
                if caller_pass is not None:
                    out[caller_pass] = out.get(caller_pass, 0) + caller_stats[1]
    return out


def _calls(
    task: Task, n: int, log_dir: str, store_events: bool = True
) -> tuple[int, dict[str, int]]:
    """Python function calls of one eval (``cProfile``'s count, recursive calls included).

    Returns:
        All the calls, and those inside Inspect's per-value passes (:func:`pass_calls`).
    """
    from inspect_ai.util._store import suspend_store_events  # private: the what-if only

    profile = cProfile.Profile()
    off = contextlib.nullcontext() if store_events else suspend_store_events()
    with off:
        profile.enable()
        try:
            run_eval(task, n, log_dir)
        finally:
            profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(entry[1] for entry in stats.values()), pass_calls(stats)


def call_counts(
    make: dict[str, Callable[[], Task]], n: int, large: int | None, log_dir: str
) -> dict[str, Any]:
    """Calls per sample of each kind (``bare``, ``floor``, ``package``) and their ratios.

    Args:
        make: Each kind's task factory (built outside the count). A kind named
            :data:`STORE_EVENTS_OFF` runs with Inspect's store events suspended.
        n: Samples of the first eval.
        large: Samples of the second (None: no marginal).
        log_dir: Where the evals write.

    Returns:
        ``calls_per_sample`` per kind at ``n``, ``ratio`` and ``floor_ratio`` against
        bare (with a ``data`` kind also ``data_ratio`` and ``over_data``, the package's
        calls over the data floor's; with a ``store_events_off`` kind, its ratio),
        ``pass_calls_per_sample``, per kind, those inside each of Inspect's per-value
        passes, and with ``large`` the same of the marginal calls (``marginal_*``).
    """
    sizes = [n] + ([large] if large else [])
    counts = {
        kind: [_calls(factory(), size, log_dir, kind != STORE_EVENTS_OFF) for size in sizes]
        for kind, factory in make.items()
    }
    per = {kind: c[0][0] / n for kind, c in counts.items()}
    out: dict[str, Any] = {
        "samples": n,
        "calls_per_sample": per,
        "pass_calls_per_sample": {
            kind: {what: calls / n for what, calls in c[0][1].items()} for kind, c in counts.items()
        },
        **_ratios(per),
    }
    if large:
        marginal = {kind: (c[1][0] - c[0][0]) / (large - n) for kind, c in counts.items()}
        out |= {
            "large": large,
            "marginal_calls_per_sample": marginal,
            "marginal_pass_calls_per_sample": {
                kind: {
                    what: (c[1][1].get(what, 0) - c[0][1].get(what, 0)) / (large - n)
                    for what in c[0][1].keys() | c[1][1].keys()
                }
                for kind, c in counts.items()
            },
        }
        out |= {f"marginal_{key}": value for key, value in _ratios(marginal).items()}
    return out


def _ratios(per: dict[str, float]) -> dict[str, float]:
    """The package's and floors' calls over bare's, and the package's over the data floor's."""
    ratios = {"ratio": per["package"] / per["bare"], "floor_ratio": per["floor"] / per["bare"]}
    if "data" in per:
        ratios |= {
            "data_ratio": per["data"] / per["bare"],
            "over_data": per["package"] / per["data"],
        }
    if STORE_EVENTS_OFF in per:
        ratios[f"{STORE_EVENTS_OFF}_ratio"] = per[STORE_EVENTS_OFF] / per["bare"]
    return ratios


def calls_line(method: str, row: dict[str, Any]) -> str:
    """One method's calls-per-sample line."""
    per = row["calls_per_sample"]
    line = (
        f"  {method:<19} Python calls per sample at {row['samples']}: package "
        f"{per['package']:,.0f}, floor {per['floor']:,.0f}, bare {per['bare']:,.0f}: "
        f"ratio {row['ratio']:.2f} (floor {row['floor_ratio']:.2f})"
    )
    if "data" in per:
        line += f", data floor {per['data']:,.0f} (ratio {row['data_ratio']:.2f})"
    if "marginal_ratio" in row:
        marginal = row["marginal_calls_per_sample"]
        line += (
            f"; marginal to {row['large']}: {marginal['package']:,.0f} vs "
            f"{marginal['bare']:,.0f}, ratio {row['marginal_ratio']:.2f} "
            f"(floor {row['marginal_floor_ratio']:.2f}"
            + (f", data floor {row['marginal_data_ratio']:.2f}" if "data" in marginal else "")
            + ")"
        )
    if "over_data" in row:
        over = row.get("marginal_over_data", row["over_data"])
        line += f"; package / data floor {over:.2f}"
    return line + _upstream_part(row)


def inspect_share(row: dict[str, Any]) -> dict[str, Any]:
    """What of a :func:`call_counts` row is Inspect's own work, marginal where measured.

    Returns:
        ``calls`` and ``pass_calls`` per kind (all calls, and those inside Inspect's
        per-value passes) and ``store_events_off`` (the what-if's ratio to bare, or None).
    """
    key = "marginal_" if "marginal_ratio" in row else ""
    return {
        "calls": row[f"{key}calls_per_sample"],
        "pass_calls": {
            kind: sum(p.values()) for kind, p in row[f"{key}pass_calls_per_sample"].items()
        },
        "store_events_off": row.get(f"{key}{STORE_EVENTS_OFF}_ratio"),
    }


def _upstream_part(row: dict[str, Any]) -> str:
    """The calls inside Inspect's per-value passes and the what-if, marginal if measured."""
    share = inspect_share(row)
    passes = share["pass_calls"]
    part = (
        f"; in Inspect's per-value passes: package {passes['package']:,.0f}, "
        f"bare {passes['bare']:,.0f}"
    )
    if share["store_events_off"] is not None:
        part += f"; with Inspect's store events off, package ratio {share['store_events_off']:.2f}"
    return part
