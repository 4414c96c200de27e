"""The C=10 rows of the latency benchmark: the default invocation against the documented one.

At ``--max-connections C`` Inspect runs at most C samples at once (``max_samples``
defaults to ``max_connections`` on its static path, ``inspect_ai/_eval/task/run.py``,
``create_sample_semaphore``), so while a sample renders, parses, scores and logs, its
connection waits. The README documents ``--max-samples 2C``. Inspect's adaptive
concurrency (on by default when no ``--max-connections`` is given) instead runs
``connections + 5`` samples (``DynamicSampleLimiter.BUFFER``,
``inspect_ai/util/_concurrency.py``); ``--adaptive-connections C`` pins the connections
at C (for C <= 10: its minimum is then C) and so gets that slack with no sample flag.

Rows (500 ms per call, 250 one-call samples of ``role_identification``):

* ``default``: ``--max-connections 10`` (10 samples at once);
* ``documented``: ``--max-connections 10 --max-samples 20``;
* ``adaptive``: ``--adaptive-connections 10`` (10 connections, 15 samples).
"""

from __future__ import annotations

import time
from typing import Any

from inspect_ai import Task, eval

__all__ = ["DEFAULT_C", "adaptive_row", "print_default_block"]

DEFAULT_C = 10
"""The connections of the comparison (issue 24: 1.39x ideal by default, 1.25x documented)."""


def _span(stats: dict[str, Any]) -> float:
    return float(stats["last_end"] - stats["first_start"])


def _row(
    runner: str, connections: int, latency: float, wall: float, cpu: float, stats: dict[str, Any]
) -> dict[str, Any]:
    calls = int(stats["answered"])
    ideal = calls * latency / connections
    bound = max(ideal, cpu)
    return {
        "runner": runner,
        "concurrency": connections,
        "calls": calls,
        "ideal_s": ideal,
        "wall_s": wall,
        "span_s": _span(stats),
        "cpu_s": cpu,
        "wall_ratio": wall / ideal,
        "span_ratio": _span(stats) / ideal,
        "wall_over_bound": wall / bound,
        "peak_in_flight": stats["peak_in_flight"],
        "tokens": stats["prompt_tokens"] + stats["completion_tokens"],
    }


def adaptive_row(
    server: Any, task: Task, logs: str, connections: int, latency: float
) -> dict[str, Any]:
    """``role_identification`` with ``adaptive_connections=C`` and no ``max_connections``.

    Args:
        server: The running :class:`~benchmarks._server.FakeOpenAIServer`.
        task: The task.
        logs: The log folder.
        connections: C.
        latency: Seconds per call.

    Returns:
        The row, as :func:`benchmarks.latency._row` writes it.
    """
    server.configure(reset=True)
    cpu, start = time.process_time(), time.perf_counter()
    [log] = eval(
        task,
        model=server.model,
        model_base_url=server.url,
        adaptive_connections=connections,
        log_dir=logs,
        display="none",
    )
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert log.status == "success", log.error
    name = f"role_identification A={connections}"
    row = _row(name, connections, latency, wall, cpu, server.stats())
    row["workload"] = "role_identification, adaptive_connections=C"
    row["adaptive_connections"] = connections
    return row


def print_default_block(rows: list[dict[str, Any]], latency: float) -> dict[str, float]:
    """Print the C=10 comparison and return its wall/ideal ratios by invocation.

    Args:
        rows: Every row of the run.
        latency: Seconds per call.

    Returns:
        ``default``, ``documented``, ``adaptive`` and ``bare inspect`` -> wall / ideal.
    """
    c10 = [r for r in rows if r.get("concurrency") == DEFAULT_C]
    picked: dict[str, dict[str, Any]] = {}
    for row in c10:
        if row["workload"] == "role_identification":
            picked["default (--max-connections 10)"] = row
        elif row["workload"].startswith("role_identification, max_samples"):
            picked[f"documented (--max-connections 10 --max-samples {row['max_samples']})"] = row
        elif row["workload"].startswith("role_identification, adaptive"):
            picked["adaptive (--adaptive-connections 10)"] = row
        elif row["workload"] == "bare inspect":
            picked["bare inspect (--max-connections 10)"] = row
    print(f"C={DEFAULT_C}, {latency * 1000:.0f} ms per call, role_identification:")
    for name, row in picked.items():
        print(
            f"  {name:<52} {row['wall_ratio']:.2f}x ideal, "
            f"{row['wall_over_bound']:.2f}x max(ideal, CPU), peak {row['peak_in_flight']}"
        )
    return {name.split(" (")[0]: row["wall_ratio"] for name, row in picked.items()}
