"""``inspect-plural profile show`` on a full-budget run of one model: wall time.

The logs are generated once with ``plural/random`` (``profile run --budget full``) into a
folder kept between runs (``$INSPECT_PLURAL_BENCH_PROFILE_LOGS``, else
``~/.cache/inspect_plural/bench_profile_logs``), on the real data under
``$INSPECT_PLURAL_DATA_DIR`` when it is set (every cell whose data is there; the others
are not measured), else on the demo rows. The timed step is the command a user types,
``inspect-plural profile show DIR --out OUT``, as a child process (the import time
counts), ``REPEATS`` times; the figure is the median, beside the samples and logs
``show`` reads (the latest finished log per cell: a folder that a later version of the
package resumed into holds older logs of the same cells too, counted apart), their CPU
time and the peak resident memory of the command or its workers.

The target (issue 31) is under a minute on 2 cores. ``show`` is linear in the samples:
one read of each log (the profile's own reader, which never parses the samples' events),
per-sample work, and vectorised bootstrap resamples, in the report's worker pool.
Run it with ``python -m benchmarks --only profile`` (full run only). The first run
generates the logs: hours on 2 cores (MP's 3,756 and MD-Agreement's 3,057 items, five
cells each); a change to a task's definition makes ``eval_set`` run its cells again.
To time ``show`` alone on logs already there: ``python -c "from pathlib import Path;
from benchmarks.profile import time_show; print(time_show(Path(DIR)))"``.
"""

from __future__ import annotations

import json
import os
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
        "run_logs": result.logs,
        "success": result.success,
        "generate_s": round(time.perf_counter() - started, 1),
    }


def _read(folder: Path) -> dict[str, Any]:
    """The logs ``show`` reads (the latest finished one per cell), their samples and bytes.

    A folder that a later version of the package ran into again holds older logs of
    the same cells too; ``show`` leaves them out, so they are counted apart.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log

    from inspect_plural.profile._logs import find_profile_logs

    logs = find_profile_logs(folder, lambda _: None)
    samples = sum(
        (read_eval_log(log.path, header_only=True).results or _NoResults()).total_samples
        for log in logs
    )
    return {
        "samples": samples,
        "logs": len(logs),
        "log_mb": round(sum(Path(log.path).stat().st_size for log in logs) / 1e6, 1),
        "logs_in_folder": len(list_eval_logs(str(folder))),
    }


class _NoResults:
    total_samples = 0


_LAUNCHER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], check=True, capture_output=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": time.perf_counter() - start, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_kb": usage.ru_maxrss}))
"""
"""Runs the command and reports its wall, CPU and peak RSS (with its workers).

A small process of its own starts the command: a child forked straight from this one
inherits its resident set as its peak (Linux keeps ``ru_maxrss`` across ``exec``),
and after :func:`generate` this process holds gigabytes.
"""


def time_show(folder: Path, repeats: int = REPEATS) -> dict[str, Any]:
    """Run ``inspect-plural profile show`` on the folder ``repeats`` times; the timings."""
    runs: list[dict[str, float]] = []
    loads: list[float] = []
    with tempfile.TemporaryDirectory() as out:
        for i in range(repeats):
            command = [sys.executable, "-m", "inspect_plural.cli", "profile", "show", str(folder)]
            done = subprocess.run(
                [sys.executable, "-c", _LAUNCHER, *command, "--out", str(Path(out) / str(i))],
                check=True,
                capture_output=True,
                text=True,
            )
            runs.append(json.loads(done.stdout))
            loads.append(os.getloadavg()[0])
    times = [r["wall"] for r in runs]
    return {
        **_read(folder),
        "show_s": statistics.median(times),
        "show_runs_s": [round(t, 2) for t in times],
        "cpu_s": round(statistics.median(r["cpu"] for r in runs), 2),
        "peak_rss_mb": round(max(r["peak_kb"] for r in runs) / 1024),
        "load_average": round(statistics.median(loads), 2),
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
        f"profile show on a full run ({result['samples']} samples in {result['logs']} logs, "
        f"{result['log_mb']} MB, {data}): {result['show_s']:.1f} s median wall, "
        f"{result['cpu_s']:.1f} s CPU, peak {result['peak_rss_mb']} MB "
        f"({result['cpus']} CPUs, load {result['load_average']}; "
        f"target < {result['target_s']:.0f} s: {verdict})"
    ]
