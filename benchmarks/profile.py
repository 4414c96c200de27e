"""``inspect-plural profile show`` on a full-budget run of one model: wall time.

The logs are generated once with ``plural/random`` (``profile run --budget full``) into a
folder kept between runs (``$INSPECT_PLURAL_BENCH_PROFILE_LOGS``, else
``~/.cache/inspect_plural/bench_profile_logs``), on the real data under
``$INSPECT_PLURAL_DATA_DIR`` when it is set (every cell whose data is there; the others
are not measured), else on the demo rows. The timed step is the command a user types,
``inspect-plural profile show DIR --out OUT``, as a child process (the import time
counts), ``REPEATS`` times; the figure is the median, beside the samples read.

The target (issue 31) is under a minute on 2 cores. ``show`` is linear in the samples:
one read of each log, per-sample work, and bootstrap resamples that are vectorised.
Run it with ``python -m benchmarks --only profile`` (full run only; the first run
generates the logs, which takes minutes).
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPEATS = 3
TARGET_S = 60.0


def default_folder() -> Path:
    """Where the generated logs are kept between runs."""
    env = os.environ.get("INSPECT_PLURAL_BENCH_PROFILE_LOGS")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "inspect_plural" / "bench_profile_logs"


def generate(folder: Path) -> dict[str, Any]:
    """Run the full-budget profile of ``plural/random`` into ``folder`` (resumes)."""
    from inspect_plural.profile import run_profile

    demo = not os.environ.get("INSPECT_PLURAL_DATA_DIR")
    started = time.perf_counter()
    result = run_profile(["plural/random"], str(folder), "full", demo=demo, display="none")
    return {
        "demo": demo,
        "logs": result.logs,
        "success": result.success,
        "generate_s": round(time.perf_counter() - started, 1),
    }


def _samples(folder: Path) -> int:
    from inspect_ai.log import list_eval_logs, read_eval_log

    return sum(
        (read_eval_log(info, header_only=True).results or _NoResults()).total_samples
        for info in list_eval_logs(str(folder))
    )


class _NoResults:
    total_samples = 0


def time_show(folder: Path, repeats: int = REPEATS) -> dict[str, Any]:
    """Run ``inspect-plural profile show`` on the folder ``repeats`` times; the timings."""
    times: list[float] = []
    cpu: list[float] = []
    with tempfile.TemporaryDirectory() as out:
        for i in range(repeats):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "inspect_plural.cli", "profile", "show", str(folder)]
                + ["--out", str(Path(out) / str(i))],
                check=True,
                capture_output=True,
            )
            times.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        "samples": _samples(folder),
        "show_s": statistics.median(times),
        "show_runs_s": [round(t, 2) for t in times],
        "cpu_s": round(statistics.median(cpu), 2),
        "load_average": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "target_s": TARGET_S,
    }


def run(quick: bool = False) -> dict[str, Any]:
    """The benchmark section (full run only): generate the logs if needed, time ``show``."""
    if quick:
        print("== profile show on a full run: full run only (python -m benchmarks --only profile)")
        return {"skipped": "full run only"}
    folder = default_folder()
    made = generate(folder)
    return {**made, **time_show(folder)}


def summary(result: dict[str, Any]) -> list[str]:
    """One line for the suite's summary."""
    if "skipped" in result:
        return [f"profile: {result['skipped']}"]
    verdict = "ok" if result["show_s"] < result["target_s"] else "OVER TARGET"
    data = "demo rows" if result.get("demo") else "real data"
    return [
        f"profile show on a full run ({result['samples']} samples, {data}): "
        f"{result['show_s']:.1f} s median wall, {result['cpu_s']:.1f} s CPU "
        f"({result['cpus']} CPUs, load {result['load_average']}; "
        f"target < {result['target_s']:.0f} s: {verdict})"
    ]
