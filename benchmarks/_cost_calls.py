"""Python function calls per sample: the sample-cost benchmark's deterministic measure.

CPU seconds on a shared 2-vCPU VM move by a third between identical runs (the floor's
marginal CPU ratio read 0.86 in one run of the section and 1.38 in the next), so a
change of a tenth in a ratio cannot be seen in them. The number of Python function calls
``cProfile`` counts over an eval is the same on every run of the same code and data: a
proxy for the interpreter's work (not for time spent inside C calls, such as zstd or
sqlite), reported beside the timings. Counted over one eval of each kind at the
section's size and, in the full run, at the larger size, whose difference cancels the
eval's fixed work.
"""

from __future__ import annotations

import cProfile
import pstats
from collections.abc import Callable
from typing import Any

from inspect_ai import Task

from benchmarks._cost_child import run_eval

__all__ = ["call_counts", "calls_line"]


def _calls(task: Task, n: int, log_dir: str) -> int:
    """Python function calls (``cProfile``'s count, recursive calls included) of one eval."""
    profile = cProfile.Profile()
    profile.enable()
    try:
        run_eval(task, n, log_dir)
    finally:
        profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return sum(entry[1] for entry in stats.values())


def call_counts(
    make: dict[str, Callable[[], Task]], n: int, large: int | None, log_dir: str
) -> dict[str, Any]:
    """Calls per sample of each kind (``bare``, ``floor``, ``package``) and their ratios.

    Args:
        make: Each kind's task factory (built outside the count).
        n: Samples of the first eval.
        large: Samples of the second (None: no marginal).
        log_dir: Where the evals write.

    Returns:
        ``calls_per_sample`` per kind at ``n``, ``ratio`` and ``floor_ratio`` against
        bare (with a ``data`` kind also ``data_ratio`` and ``over_data``, the package's
        calls over the data floor's), and with ``large`` the same of the marginal calls
        (``marginal_*``).
    """
    sizes = [n] + ([large] if large else [])
    counts = {
        kind: [_calls(factory(), size, log_dir) for size in sizes] for kind, factory in make.items()
    }
    per = {kind: c[0] / n for kind, c in counts.items()}
    out: dict[str, Any] = {"samples": n, "calls_per_sample": per, **_ratios(per)}
    if large:
        marginal = {kind: (c[1] - c[0]) / (large - n) for kind, c in counts.items()}
        out |= {"large": large, "marginal_calls_per_sample": marginal}
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
    return line
