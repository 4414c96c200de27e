"""Server busy time over wall time against a real local server, at 1, 2 and 4 connections.

``python -m benchmarks --only real_latency`` (never in ``--quick``, the full run or CI),
with ``LOCAL_BASE_URL`` as for :mod:`benchmarks.real`. A one-call method
(``llm_judge``) and CINEMETRIC (selection, then validations, then role-play, per
annotator) run on the brexit demo at ``--max-connections`` 1, 2 and 4 (Inspect then runs
as many samples as connections). The server is *busy* while at least one request is
outstanding: the union of the model calls' intervals (each model event's start to its
completion). A server that answers one request at a time (llama-cpp-python) is then
working, or has work queued; ``busy / wall`` below 1 is time it sat idle while the
client rendered, parsed, scored or logged. The load average is printed with each row:
on shared cores the client's own work takes longer.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import datetime
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog

from benchmarks._call_runs import Run
from benchmarks._local_server import server
from benchmarks.calls import fresh_caches

__all__ = ["CONNECTIONS", "WORKLOADS", "busy_seconds", "run", "summary"]

CONNECTIONS = (1, 2, 4)
WORKLOADS = (
    Run("annotator", "brexit", "demo", "llm_judge", limit=8),
    Run("annotator", "brexit", "demo", "cinemetric", limit=4),
)
"""The one-call method and CINEMETRIC; the limits keep each run to a minute or two."""


def _intervals(log: EvalLog) -> list[tuple[float, float]]:
    spans = []
    for sample in log.samples or []:
        for event in sample.events:
            if event.event != "model" or event.cache == "read" or event.completed is None:
                continue
            start: datetime = event.timestamp
            spans.append((start.timestamp(), event.completed.timestamp()))
    return sorted(spans)


def busy_seconds(intervals: list[tuple[float, float]]) -> float:
    """The length of the union of the intervals (time with a request outstanding).

    Args:
        intervals: ``(start, end)`` pairs, in seconds.

    Returns:
        Seconds covered by at least one interval.
    """
    total, current_start, current_end = 0.0, None, None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None and current_start is not None:
                total += current_end - current_start
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None and current_start is not None:
        total += current_end - current_start
    return total


def _one(run: Run, model: str, connections: int, log_dir: str) -> dict[str, Any]:
    load = os.getloadavg()[0]
    with fresh_caches():  # CINEMETRIC's panels are built in every run
        start = time.perf_counter()
        [log] = eval(
            run.build(),
            model=model,
            max_connections=connections,
            log_dir=log_dir,
            display="none",
            log_level="error",
            score_display=False,
            log_realtime=False,
        )
        wall = time.perf_counter() - start
    intervals = _intervals(log)
    busy = busy_seconds(intervals)
    span = (max(e for _, e in intervals) - min(s for s, _ in intervals)) if intervals else 0.0
    row = {
        "method": run.method,
        "connections": connections,
        "samples": len(log.samples or []),
        "calls": len(intervals),
        "wall_s": round(wall, 1),
        "busy_s": round(busy, 1),
        "busy_over_wall": round(busy / wall, 3) if wall else 0.0,
        "busy_over_span": round(busy / span, 3) if span else 0.0,
        "load": round(load, 2),
        "status": log.status,
    }
    print(
        f"{run.method:<12} C={connections} n={row['samples']} calls={row['calls']} "
        f"wall {row['wall_s']} s, busy {row['busy_s']} s: busy/wall {row['busy_over_wall']:.2f} "
        f"(busy/span {row['busy_over_span']:.2f}); load {row['load']}",
        flush=True,
    )
    return row


def run(quick: bool = False) -> dict[str, Any]:
    """The section: each workload at each C against the local server.

    Args:
        quick: Never runs in ``--quick``.

    Returns:
        ``rows`` (or ``skipped``) and the model.
    """
    if quick:
        return {"skipped": "the real-server latency section does not run in --quick"}
    found = server()
    if isinstance(found, str):
        print(f"real_latency: {found}")
        return {"skipped": found}
    base_url, name = found
    os.environ.setdefault("LOCAL_API_KEY", "x")
    model = f"openai-api/local/{name}"
    print(f"server busy time over wall time, {model} at {base_url}")
    rows = []
    with tempfile.TemporaryDirectory() as log_dir:
        for workload in WORKLOADS:
            for connections in CONNECTIONS:
                rows.append(_one(workload, model, connections, log_dir))
    return {"model": model, "rows": rows}


def summary(result: dict[str, Any]) -> list[str]:
    """busy/wall per method and C."""
    if "skipped" in result:
        return [f"skipped: {result['skipped']}"]
    by_method: dict[str, list[str]] = {}
    for row in result["rows"]:
        by_method.setdefault(row["method"], []).append(
            f"C={row['connections']} {row['busy_over_wall']:.2f}"
        )
    return [f"{m}: server busy/wall " + ", ".join(parts) for m, parts in by_method.items()]


if __name__ == "__main__":
    print(summary(run(quick="--quick" in sys.argv[1:])))
