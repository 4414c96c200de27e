"""``python -m benchmarks [--quick] [--json FILE] [--only SECTION ...]``: the benchmark suite.

Sections, in order (each a module with ``run(quick) -> dict`` and ``summary(dict)``):

* ``calls``: model calls and tokens per sample of every method, from a counting model
  API, against the protocol minimum.
* ``overhead``: samples/s of a package task against a bare Inspect task.
* ``cost``: what one sample costs with a 0-call method (CPU, throughput, memory, log
  bytes) against a bare Inspect task over the same samples, and MHS run at full size.
* ``latency``: wall time against the concurrency ideal through a local
  OpenAI-compatible server, and against the official PersonaEval runner's pattern.
* ``loading``: load + split time and peak RSS of generated files at the real sizes.
* ``fuzz``: every parser on generated outputs; no exception may escape.
* ``faults``: seeded 500/429/timeouts and an interrupted run resumed with eval_retry.
* ``cache``: every method twice with Inspect's cache; the second run makes no call.
* ``report``: ``inspect-plural report`` on a directory of 100 demo logs (under 30 s).
* ``startup``: ``import inspect_plural._registry`` and ``inspect-plural --help`` against
  ``import inspect_ai`` and ``inspect --help``, as ratios of fresh processes.
* ``profile``: ``inspect-plural profile show`` on a full-budget run of one model (under
  a minute).
* ``real`` (only with ``--only real``; never in ``--quick``, the full run or CI): every
  method of every family against a real model on a local OpenAI-compatible server
  (``LOCAL_BASE_URL``), with and without structured output.
* ``real_latency`` (only with ``--only real_latency``): the same server's busy time over
  wall time at ``--max-connections`` 1, 2 and 4, for ``llm_judge`` and CINEMETRIC.

``--quick`` (under a minute on 2 cores) runs small versions and skips ``faults``,
``report`` and ``profile``; the
full run takes under 15 minutes. The sections print their own tables; a summary
follows, and ``--json`` writes every section's results. The older single benchmarks
stay available as ``python -m benchmarks throughput|loading|methods|panels|perse``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any

SECTIONS = [
    "calls",
    "overhead",
    "cost",
    "latency",
    "loading",
    "fuzz",
    "faults",
    "cache",
    "report",
    "startup",
    "profile",
    "real",
    "real_latency",
]
OPT_IN = {"real", "real_latency"}
"""Sections that run only when named with ``--only`` (they need a local model server)."""
MODULES = {
    "calls": "benchmarks.calls",
    "overhead": "benchmarks.throughput",
    "cost": "benchmarks.sample_cost",
    "latency": "benchmarks.latency",
    "loading": "benchmarks.loading",
    "fuzz": "benchmarks.fuzz",
    "faults": "benchmarks.faults",
    "cache": "benchmarks.cache",
    "report": "benchmarks.report",
    "startup": "benchmarks.startup",
    "profile": "benchmarks.profile",
    "real": "benchmarks.real",
    "real_latency": "benchmarks.real_latency",
}
LEGACY = ["throughput", "loading", "methods", "panels", "perse"]


def run_suite(quick: bool, sections: list[str], json_path: str | None) -> int:
    """Run the sections, print the summary, write the JSON; the exit status."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    started = time.perf_counter()
    results: dict[str, Any] = {}
    lines: list[tuple[str, str]] = []
    failed: list[str] = []
    for name in sections:
        module = importlib.import_module(MODULES[name])
        start = time.perf_counter()
        try:
            result = module.run(quick=quick)
        except Exception as ex:  # a broken section must not hide the others
            traceback.print_exc()
            failed.append(name)
            results[name] = {"error": f"{type(ex).__name__}: {ex}"}
            lines.append((name, f"FAILED: {type(ex).__name__}: {ex}"))
            continue
        elapsed = time.perf_counter() - start
        results[name] = {**result, "section_s": round(elapsed, 2)}
        lines.extend((name, line) for line in module.summary(result))
        print(f"({name}: {elapsed:.1f} s)\n", flush=True)
    total = time.perf_counter() - started
    print("=" * 78)
    print(f"summary ({'quick' if quick else 'full'} run, {total:.0f} s, {os.cpu_count()} CPUs)")
    for name, line in lines:
        print(f"  {name:<9} {line}")
    # the headline the issue asks for, on a line of its own
    overhead = results.get("overhead", {})
    if "overhead_ratio" in overhead:
        print(f"overhead ratio: {overhead['overhead_ratio']:.2f}")
    if json_path:
        document = {
            "quick": quick,
            "total_s": round(total, 1),
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "summary": [f"{name}: {line}" for name, line in lines],
            "sections": results,
        }
        Path(json_path).write_text(
            json.dumps(document, indent=2, default=str) + "\n", encoding="utf-8"
        )
        print(f"wrote {json_path}")
    return 1 if failed else 0


def _legacy(argv: list[str]) -> None:
    """The single benchmarks of earlier issues, with their own options."""
    from benchmarks._bigfiles import MHS_ROWS
    from benchmarks.loading import main as loading_main
    from benchmarks.methods import main as methods_main
    from benchmarks.panels import main as panels_main
    from benchmarks.perse import main as perse_main
    from benchmarks.throughput import main as throughput_main

    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("which", choices=LEGACY)
    parser.add_argument("--n", type=int, default=40, help="samples per run (throughput)")
    parser.add_argument(
        "--pairs", type=int, default=10, help="pairs of runs, median ratio kept (throughput)"
    )
    parser.add_argument("--rows", type=int, default=MHS_ROWS, help="MHS rows (loading)")
    parser.add_argument(
        "--limit", type=int, default=24, help="samples per demo run (methods; panels default 3)"
    )
    parser.add_argument(
        "--real-limit", type=int, default=None, help="samples of the real Brexit run (methods)"
    )
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args(argv)
    if args.which == "perse":
        perse_main(json_path=args.json)
    elif args.which == "panels":
        panels_main(limit=args.limit if args.limit != 24 else 3, json_path=args.json)
    elif args.which == "methods":
        methods_main(limit=args.limit, json_path=args.json, real_limit=args.real_limit)
    elif args.which == "loading":
        loading_main(rows=args.rows, json_path=args.json)
    else:
        throughput_main(n=args.n, pairs=args.pairs, json_path=args.json)


def main() -> None:
    """Parse the command line and run the suite (or one older benchmark)."""
    if len(sys.argv) > 1 and sys.argv[1] in LEGACY:
        _legacy(sys.argv[1:])
        return
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small versions, under a minute")
    parser.add_argument("--json", default=None, help="write every section's results here")
    parser.add_argument(
        "--only", nargs="+", choices=SECTIONS, default=None, help="run only these sections"
    )
    args = parser.parse_args()
    sections = [
        s for s in SECTIONS if (s in args.only if args.only is not None else s not in OPT_IN)
    ]
    for name in OPT_IN & set(sections) if args.quick else ():
        print(f"the {name} section never runs with --quick", file=sys.stderr)
        sections.remove(name)
    sys.exit(run_suite(args.quick, sections, args.json))


if __name__ == "__main__":
    main()
