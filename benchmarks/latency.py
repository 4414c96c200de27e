"""Wall time against the concurrency ideal, through Inspect's OpenAI-compatible provider.

A local OpenAI-compatible server (:mod:`benchmarks._server`, in a child process so it
shares no GIL with the client) answers every request after a fixed latency with the
package's chance model. ``personaeval_literary`` with ``role_identification`` (one call
per sample) runs on generated rows in the official CSV schema through Inspect's
``openai-api`` provider and the real ``openai`` SDK, with ``max_connections`` C of 10
and 50. The ideal wall time is ``calls x latency / C``; the table gives the whole
``eval()`` call (task loading, scoring and the log included) and the span the server
saw (first request in to last answer out), each against the ideal, and the peak number
of requests the server had in flight (which should be C). Inspect runs at most
``max_samples`` samples at once, C by default, so a sample's own CPU work (rendering,
parsing, logging) holds its connection slot idle; the full run therefore also runs
``role_identification`` with ``max_samples`` 2C, which lets samples prepare while
others wait. Either way a run cannot beat its client CPU time: ``wall/bound`` is the
wall time over ``max(ideal, CPU seconds)``. At 500 ms, C=50 asks for 100 calls a second,
more than Inspect's own client manages on two cores, so the full run also times C=50
with 4 s per call (bare Inspect, and role_identification with ``max_samples`` C and
2C), where the ideal is above the client's CPU time.

The same requests (the prompts, seeds and answer formats Inspect sent, read from the
log) are then sent in the concurrency pattern of the official PersonaEval runner
(``maple-zhou/PersonaEval``: ``ThreadPoolExecutor(max_workers=4)``, each worker sending
one request at a time and waiting for it), with the ``openai`` sync client against the
same server; its wall time is compared with ours. (The official runner posts with
``requests``; the client library does not matter at these latencies.)
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog

from benchmarks._latency_default import DEFAULT_C, _row, adaptive_row, print_default_block
from benchmarks._server import DUMMY_KEY, FakeOpenAIServer
from benchmarks.throughput import bare_task, write_benchmark_csv
from inspect_plural.tasks import personaeval_literary

CONNECTIONS = (10, 50)
K = 5
"""Calls per sample of the multi-call workload (self-consistency, concurrent calls)."""
OFFICIAL_WORKERS = 4
SAMPLES_PER_CONNECTION = 2
"""``max_samples`` per connection of the extra role_identification rows (full run)."""
TARGET = 1.25
SLOW_LATENCY = 4.0
"""Seconds per call of the full run's slow-API rows at C=50 (a long answer from a large
model). At 500 ms, C=50 asks for 100 calls a second, more than Inspect's own client CPU
per call allows on two cores (about 40 ms); at 2 s the ideal (10 s for 250 calls) still
equals that CPU time. At 4 s the ideal is twice the client's CPU time, so these rows show
whether the waits are hidden once CPU is not the bound."""
SLOW_CONNECTIONS = 50


def _requests_from_log(log: EvalLog) -> list[dict[str, Any]]:
    """The body of every model call Inspect sent (messages, seed, format...)."""
    bodies = []
    for sample in log.samples or []:
        for event in sample.events:
            if event.event == "model" and event.call is not None:
                request = event.call.request
                bodies.append(
                    {
                        "messages": request["messages"],
                        "temperature": request.get("temperature"),
                        "seed": request.get("seed"),
                        "extra_body": request.get("extra_body"),
                    }
                )
    return bodies


def official_pattern(url: str, bodies: list[dict[str, Any]], workers: int) -> float:
    """Send ``bodies`` from ``workers`` threads, one request at a time each; wall seconds."""
    from openai import OpenAI

    local = threading.local()

    def send(body: dict[str, Any]) -> str:
        if not hasattr(local, "client"):
            local.client = OpenAI(base_url=url, api_key=DUMMY_KEY)
        response = local.client.chat.completions.create(model="random", **body)
        return response.choices[0].message.content or ""

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        answers = list(pool.map(send, bodies))
    wall = time.perf_counter() - start
    assert all(answers), "an official-pattern request came back empty"
    return wall


def _workloads(data: Path) -> dict[str, Callable[[], Task]]:
    """Runner name -> task: bare Inspect, the package with 1 and with K=5 calls per sample."""
    return {
        "bare inspect": lambda: bare_task(personaeval_literary(data_dir=str(data))),
        "role_identification": lambda: personaeval_literary(data_dir=str(data)),
        f"self_consistency={K}": lambda: personaeval_literary(
            data_dir=str(data), self_consistency=K
        ),
    }


def _inspect_run(
    server: FakeOpenAIServer,
    name: str,
    task: Task,
    logs: str,
    connections: int,
    latency: float,
    **eval_args: Any,
) -> tuple[dict[str, Any], EvalLog]:
    server.configure(reset=True)
    cpu, start = time.process_time(), time.perf_counter()
    [log] = eval(
        task,
        model=server.model,
        model_base_url=server.url,
        max_connections=connections,
        log_dir=logs,
        display="none",
        **eval_args,
    )
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert log.status == "success", log.error
    row = _row(f"{name} C={connections}", connections, latency, wall, cpu, server.stats())
    return row, log


def _slow_api_rows(server: FakeOpenAIServer, data: Path, logs: str) -> list[dict[str, Any]]:
    """Bare Inspect and role_identification (max_samples C and 2C) at C=50 with
    :data:`SLOW_LATENCY` per call (the server is set back by the caller)."""
    server.configure(latency=SLOW_LATENCY)
    workloads = _workloads(data)
    c = SLOW_CONNECTIONS
    runs: list[tuple[str, Callable[[], Task], dict[str, Any]]] = [
        ("bare inspect", workloads["bare inspect"], {}),
        ("role_identification", workloads["role_identification"], {}),
        (
            "role_identification",
            workloads["role_identification"],
            {"max_samples": SAMPLES_PER_CONNECTION * c},
        ),
    ]
    rows = []
    for name, task, eval_args in runs:
        row, _ = _inspect_run(server, name, task(), logs, c, SLOW_LATENCY, **eval_args)
        row["runner"] = (
            f"{name} C={c}"
            + (f" S={eval_args['max_samples']}" if eval_args else "")
            + f" @{SLOW_LATENCY:g}s"
        )
        row["workload"] = name
        row.update(eval_args)
        rows.append(row)
    return rows


def run(quick: bool = False) -> dict[str, Any]:
    """The latency section of ``python -m benchmarks``."""
    print("== latency hiding through a local OpenAI-compatible server (openai-api provider)")
    return main(quick=quick)


def summary(result: dict[str, Any]) -> list[str]:
    """Wall time over the ideal per workload and C, and the official pattern's ratio."""
    by_workload: dict[str, list[str]] = {}
    for row in result["rows"][:-1]:
        by_workload.setdefault(row["workload"], []).append(
            f"C={row['concurrency']} {row['wall_ratio']:.2f}x ideal "
            f"({row['wall_over_bound']:.2f}x max(ideal, CPU))"
        )
    lines = [
        f"latency {result['latency_s'] * 1000:.0f} ms, {name}: " + ", ".join(parts)
        for name, parts in by_workload.items()
    ]
    official = ", ".join(f"{k} {v:.2f}" for k, v in result["official_over_inspect"].items())
    lines.append(f"official PersonaEval pattern (4 threads) wall / ours: {official}")
    if "default_c10" in result:
        lines.append(
            f"C={DEFAULT_C}, {result['latency_s'] * 1000:.0f} ms: "
            + ", ".join(f"{k} {v:.2f}x ideal" for k, v in result["default_c10"].items())
        )
    if "slow_api" in result:
        slow = result["slow_api"]
        lines.append(
            f"latency {slow['latency_s'] * 1000:.0f} ms, C={SLOW_CONNECTIONS}: "
            + ", ".join(
                row["workload"]
                + (f" S={row['max_samples']}" if "max_samples" in row else "")
                + f" {row['wall_ratio']:.2f}x ideal"
                for row in slow["rows"]
            )
        )
    return lines


def main(quick: bool = False, json_path: str | None = None) -> dict[str, Any]:
    """Run the latency benchmark and print its table.

    Args:
        quick: A smoke run (about 6 s): ``role_identification`` only, 100 ms latency,
            20 samples, the server in a thread of this process. At that latency
            Inspect's own CPU time per sample exceeds the ideal, so the ratios measure
            CPU, not concurrency. The full run (about 290 s) uses 500 ms, 250 samples
            (5 waves at C=50) and a server process, then the slow-API rows at 4 s and
            C=50.
        json_path: Also write the results to this JSON file.

    Returns:
        ``latency_s``, ``samples``, ``rows`` (one per runner: calls, ideal, wall and
        server span in seconds and against the ideal, this process's CPU seconds, wall
        against max(ideal, CPU), peak requests in flight) and ``official_over_inspect``
        (the official pattern's wall time over ours, per C); the full run adds
        ``slow_api`` (its latency and rows).

    """
    latency = 0.1 if quick else 0.5
    n = 20 if quick else 250
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        write_benchmark_csv(data, n)
        logs = f"{tmp}/logs"
        with FakeOpenAIServer(latency=latency, process=not quick) as server:
            # warm-up (lazy imports, the provider's client), not timed
            eval(
                personaeval_literary(data_dir=str(data)),
                model=server.model,
                model_base_url=server.url,
                limit=2,
                log_dir=logs,
                display="none",
            )
            bodies: list[dict[str, Any]] = []
            for name, task in _workloads(data).items():
                if quick and name != "role_identification":
                    continue  # the smoke run: one workload
                for connections in CONNECTIONS:
                    row, log = _inspect_run(server, name, task(), logs, connections, latency)
                    row["workload"] = name
                    rows.append(row)
                    if name == "role_identification":
                        bodies = bodies or _requests_from_log(log)
                        if not quick:
                            # Inspect's default max_samples is C: a sample's own CPU
                            # work (prompt, parsing, logging) then holds a connection
                            # slot idle, so also run with room for samples to prepare
                            samples = SAMPLES_PER_CONNECTION * connections
                            row, _ = _inspect_run(
                                server,
                                name,
                                task(),
                                logs,
                                connections,
                                latency,
                                max_samples=samples,
                            )
                            row["runner"] += f" S={samples}"
                            row["workload"] = f"{name}, max_samples={SAMPLES_PER_CONNECTION}C"
                            row["max_samples"] = samples
                            rows.append(row)
                            if connections == DEFAULT_C:  # Inspect's adaptive slack
                                rows.append(
                                    adaptive_row(server, task(), logs, connections, latency)
                                )
            slow_rows = [] if quick else _slow_api_rows(server, data, logs)
            server.configure(reset=True, latency=latency)
            cpu = time.process_time()
            wall = official_pattern(server.url, bodies, OFFICIAL_WORKERS)
            cpu = time.process_time() - cpu
            rows.append(
                _row(
                    f"official pattern ({OFFICIAL_WORKERS} thr.)",
                    OFFICIAL_WORKERS,
                    latency,
                    wall,
                    cpu,
                    server.stats(),
                )
            )
    official = rows[-1]["wall_s"]
    ours = [r for r in rows[:-1] if r["workload"].startswith("role_identification")]
    result: dict[str, Any] = {
        "latency_s": latency,
        "samples": n,
        "target_ratio": TARGET,
        "server": "thread" if quick else "process",
        "load_average": os.getloadavg()[0],
        "cpus": os.cpu_count(),
        "rows": rows,
        "official_over_inspect": {
            f"C={r['concurrency']}"
            + (f" S={r['max_samples']}" if "max_samples" in r else "")
            + (" adaptive" if "adaptive_connections" in r else ""): official / r["wall_s"]
            for r in ours
        },
    }
    if slow_rows:
        result["slow_api"] = {"latency_s": SLOW_LATENCY, "rows": slow_rows}
    print(
        f"latency {latency * 1000:.0f} ms, {n} samples, 1 call each (role_identification); "
        f"server in a {result['server']}; {result['cpus']} CPUs, load {result['load_average']:.1f}"
    )
    header = ["calls", "ideal s", "wall s", "wall/ideal", "span/ideal", "cpu s", "wall/bound"]
    print(f"{'runner':<36}" + "".join(f"{h:>11}" for h in header) + f"{'peak':>6}")
    for r in [*rows, *slow_rows]:
        print(
            f"{r['runner']:<36}{r['calls']:>11}{r['ideal_s']:>11.2f}{r['wall_s']:>11.2f}"
            f"{r['wall_ratio']:>11.2f}{r['span_ratio']:>11.2f}{r['cpu_s']:>11.2f}"
            f"{r['wall_over_bound']:>11.2f}{r['peak_in_flight']:>6}"
        )
    for key, ratio in result["official_over_inspect"].items():
        print(f"official pattern wall / inspect wall at {key}: {ratio:.2f}")
    if not quick:
        result["default_c10"] = print_default_block(rows, latency)
    print(
        f"target: wall <= {TARGET} x ideal (ideal = calls x latency / C); bound = max(ideal, "
        "this process's CPU seconds): a run whose CPU time exceeds the ideal is CPU-bound"
    )
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return result


if __name__ == "__main__":
    import sys

    main(quick="--quick" in sys.argv)
