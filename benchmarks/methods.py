"""Model calls, tokens and wall time of every annotator-level method, read from the logs.

Each method runs on the real Brexit data (``../shared/data/brexit``, when present) and on
every annotator-level task's demo data, with ``plural/random`` and ``--limit``. For each
run the table gives the samples, annotators, model calls (total, per sample median and
maximum), the protocol budget and tokens per sample, and the wall time. The budget is
the protocol minimum of :func:`benchmarks.protocol.run_minimum` (1 call per sample for the
judges and retrieval, the known traits for the trait ensemble, 0 for the baselines,
and for CINEMETRIC 3 per sample plus each annotator's selection rounds once).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog

from benchmarks._counting import log_calls, log_tokens
from benchmarks.calls import ANNOTATOR_METHODS as METHODS
from benchmarks.calls import ANNOTATOR_TASKS as TASKS
from benchmarks.calls import NEEDS_TRAITS, NO_TRAITS, SHARED_BREXIT, fresh_caches
from benchmarks.protocol import run_minimum

__all__ = ["METHODS", "TASKS", "main", "run_one", "summarise"]


def run_one(task: str, method: str, limit: int | None, log_dir: str, **args: Any) -> dict[str, Any]:
    """Run one task with one method and summarise its log."""
    start = time.perf_counter()
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={"method": method, **args},
        model="plural/random",
        limit=limit,
        log_dir=log_dir,
        display="none",
    )
    wall = time.perf_counter() - start
    return summarise(log, task, method, wall)


def summarise(log: EvalLog, task: str, method: str, wall: float) -> dict[str, Any]:
    """The row of one run."""
    if log.status != "success" or not log.samples:
        return {"task": task, "method": method, "status": log.status, "wall_s": round(wall, 2)}
    samples = log.samples
    calls = [log_calls(s) for s in samples]
    annotators = len({s.metadata.get("annotator_id") for s in samples})
    accuracy = None
    if log.results and log.results.scores:
        metric = log.results.scores[0].metrics.get("accuracy")
        accuracy = None if metric is None else round(float(metric.value), 3)
    return {
        "task": task,
        "method": method,
        "status": log.status,
        "samples": len(samples),
        "annotators": annotators,
        "calls": sum(calls),
        "median_calls": statistics.median(calls),
        "max_calls": max(calls),
        "budget": run_minimum(method, samples, {}),
        "tokens_per_sample": round(sum(log_tokens(s) for s in samples) / len(samples), 1),
        "accuracy": accuracy,
        "wall_s": round(wall, 2),
    }


def main(limit: int = 24, json_path: str | None = None, real_limit: int | None = None) -> None:
    """Run the method matrix and print the table (and write JSON)."""
    rows = []
    with fresh_caches(), tempfile.TemporaryDirectory() as log_dir:
        if SHARED_BREXIT.is_dir():
            for method in METHODS:
                row = run_one("brexit", method, real_limit, log_dir, data_dir=str(SHARED_BREXIT))
                rows.append({**row, "task": "brexit (real)"})
        for task in TASKS:
            for method in METHODS:
                if task in NO_TRAITS and method in NEEDS_TRAITS:
                    continue
                rows.append(run_one(task, method, limit, log_dir, demo=True))
    columns = [
        "task",
        "method",
        "samples",
        "annotators",
        "calls",
        "budget",
        "median_calls",
        "max_calls",
        "tokens_per_sample",
        "accuracy",
        "wall_s",
    ]
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row.get(c, "-")) for c in columns))
    over = [r for r in rows if r.get("calls", 0) > r.get("budget", 0)]
    print(f"runs over budget: {len(over)} of {len(rows)}")
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=2), encoding="utf-8")
