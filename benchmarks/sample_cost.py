"""What one sample costs: the 0-call methods against a bare Inspect task over the same samples.

The ``overhead`` section compares tasks whose samples each make a model call, which
hides a sample's own cost behind the call. Here nothing is called: MP (generated in the
LeWiDi 2025 schema at the real size, 33,871 judgments) with ``annotator_majority`` (one
sample per judgment) and ``uniform`` (``-T target=distribution``, one sample per item),
each against a bare Inspect task over the same samples (same ids, inputs and targets,
the annotator and item ids as metadata), answered by a 0-call solver and scored with
``match()``, and against a *floor*: the bare task whose solver also writes the
``Prediction`` every package method must write (Inspect logs each store write as a
``state`` and two ``store`` events), the least a package sample can cost; and, in the
call counts and the fresh-process runs, against a *data floor*: the floor over samples
that carry the package's own sample metadata, so the package / data-floor ratio is what
the package's code and scores add over what Inspect charges for the data a method reads.
Three measurements:

* **throughput and CPU** (this process): pairs of runs of N samples back to back, which
  goes first alternating, after a warm-up; per pair the package's samples/s over the
  bare task's and its CPU seconds over the bare task's, reported as the median and
  interquartile range of the pairs (the machine's load changes both runs of a pair
  alike); the full run adds rounds at a larger size, so the CPU and the wall time per
  sample *marginal* to the first size (the eval's fixed costs cancel: start-up,
  Inspect's passes over the whole dataset, the log header, the metrics) are reported
  too, the latter as a marginal throughput ratio;
* **memory and log bytes** (a fresh process per run, :mod:`benchmarks._cost_child`):
  the eval's peak RSS over the RSS before it (the peak reset with ``clear_refs``) and the
  ``.eval`` file's bytes, per sample, at N and (full run) the larger size, and the
  marginal between them; ``samples_df`` on each package log, timed, to show it scales
  linearly;
* **at scale**: MHS generated at its full size (135,556 judgments in the 131 official
  columns) run with ``annotator_majority`` over its whole PersEval test split in a
  fresh process: wall and CPU time, the process's peak RSS against 8 GiB, the CPUs it
  may use, log bytes.

Beside them, Python function calls per sample (:mod:`benchmarks._cost_calls`: the same on
every run), with the share of them inside Inspect's per-value passes and a what-if, the
package with Inspect's store events suspended: how much of each ratio is Inspect's own
per-sample work.

Targets (issue 32), package / bare: CPU per sample <= 1.2, in-eval throughput >= 0.85,
peak memory per sample <= 1.5, log bytes per sample <= 1.5; MHS at scale within 8 GiB.
Full run: 500 samples, 4 rounds, the larger size 1,500 (4 rounds), MHS at full size;
``--quick``: 100 samples, 3 rounds, no larger size, MHS at a fiftieth (2,711 judgments).
"""

from __future__ import annotations

import gc
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspect_ai import Task

from benchmarks._bigfiles import MHS_ROWS, write_mp_json
from benchmarks._cost_calls import STORE_EVENTS_OFF, call_counts, calls_line, inspect_share
from benchmarks._cost_child import bare_task, package_task, run_eval, write_samples
from benchmarks._cost_memory import memory_pairs, scale_run
from benchmarks.throughput import _quartiles

__all__ = ["MEMORY_TARGET_GIB", "TARGETS", "run", "summary"]

METHODS = (("annotator_majority", "annotator"), ("uniform", "distribution"))
"""The 0-call methods measured, with their target."""


@dataclass(frozen=True)
class Size:
    """The section's sizes: samples per pair, pairs, the larger size, MHS's judgments.

    ``large_pairs`` rounds at the larger size give the marginal CPU per sample (one round
    of three runs moved the floor's marginal ratio from 0.86 to 1.38 between two runs;
    six rounds gave annotator_majority's per-round ratios of 1.34-1.59 and `uniform`'s
    of 1.26-1.78, so two rounds' median moves by a tenth or more).
    """

    n: int
    pairs: int
    large: int | None
    mhs_rows: int
    large_pairs: int = 4


QUICK = Size(n=100, pairs=3, large=None, mhs_rows=MHS_ROWS // 50)
FULL = Size(n=500, pairs=4, large=1500, mhs_rows=MHS_ROWS)
TARGETS = {"cpu": 1.2, "throughput": 0.85, "memory": 1.5, "log_bytes": 1.5}
"""Package / bare: the most CPU, memory and log bytes per sample, the least throughput."""
MEMORY_TARGET_GIB = 8.0


def _label(task: Task) -> str:
    """The first label of the task's first sample's scale (the bare side's fixed answer)."""
    metadata = task.dataset[0].metadata or {}
    return str((metadata.get("scale") or {}).get("labels", ["0"])[0])


def bare_samples(task: Task, n: int, with_metadata: bool = False) -> list[dict[str, Any]]:
    """The first ``n`` samples of a package task as a bare task's: ids, input, target.

    Args:
        task: The package task.
        n: How many samples.
        with_metadata: Keep each sample's whole metadata (the *data floor*'s samples)
            instead of only its annotator and item ids.
    """
    rows = []
    for sample in task.dataset[:n]:
        metadata = sample.metadata or {}
        if not with_metadata:
            metadata = {k: metadata[k] for k in ("annotator_id", "item_id") if metadata.get(k)}
        rows.append(
            {"id": sample.id, "input": sample.input, "target": sample.target, "metadata": metadata}
        )
    return rows


def _eval(task: Task, n: int, log_dir: str) -> tuple[float, float]:
    """Wall and CPU seconds of one eval of ``n`` samples."""
    start, cpu = time.perf_counter(), time.process_time()
    run_eval(task, n, log_dir)
    return time.perf_counter() - start, time.process_time() - cpu


def _pairs(
    make: dict[str, Callable[[], Task]], n: int, pairs: int, log_dir: str
) -> dict[str, list[tuple[float, float]]]:
    """(wall, CPU) of ``pairs`` back-to-back rounds of runs, reversing the order each round."""
    runs: dict[str, list[tuple[float, float]]] = {kind: [] for kind in make}
    for pair in range(pairs):
        gc.collect()  # the garbage of earlier pairs, outside the timing
        for kind in list(make) if pair % 2 == 0 else list(make)[::-1]:
            runs[kind].append(_eval(make[kind](), n, log_dir))
    return runs


def _makers(
    folder: Path, method: str, target: str, file: Path, data_file: Path | None = None
) -> dict[str, Callable[[], Task]]:
    """The tasks of a round: bare over the package's samples, the floor, the package's.

    With ``data_file`` (the samples with the package's metadata) also the data floor.
    """
    label = _label(package_task("mp", str(folder), method, target))
    make: dict[str, Callable[[], Task]] = {
        "bare": lambda: bare_task(str(file), label),
        "floor": lambda: bare_task(str(file), label, record=True),
    }
    if data_file is not None:
        make["data"] = lambda: bare_task(str(data_file), label, record=True)
    make["package"] = lambda: package_task("mp", str(folder), method, target)
    return make


def _throughput(folder: Path, size: Size, files: dict[str, Path]) -> dict[str, Any]:
    """The in-process pairs of each method: throughput and CPU ratios."""
    n, large = size.n, size.large
    tmp = folder / "pairs"
    out: dict[str, Any] = {}
    for method, target in METHODS:
        make = _makers(folder, method, target, files[method])
        for kind in make:  # warm-up, not timed: imports and registries
            _eval(make[kind](), 4, str(tmp / "warm"))
        runs = _pairs(make, n, size.pairs, str(tmp / "logs"))
        speed = [b[0] / p[0] for b, p in zip(runs["bare"], runs["package"])]
        cpu = [p[1] / b[1] for b, p in zip(runs["bare"], runs["package"])]
        floor = [f[1] / b[1] for b, f in zip(runs["bare"], runs["floor"])]
        row: dict[str, Any] = {
            "samples": n,
            "pairs": size.pairs,
            "throughput_ratio": _quartiles(speed),
            "cpu_ratio": _quartiles(cpu),
            "floor_cpu_ratio": _quartiles(floor),
            "floor_cpu_ms": 1000 * statistics.median(r[1] for r in runs["floor"]) / n,
            "package_samples_per_s": n / statistics.median(r[0] for r in runs["package"]),
            "bare_samples_per_s": n / statistics.median(r[0] for r in runs["bare"]),
            "package_cpu_ms": 1000 * statistics.median(r[1] for r in runs["package"]) / n,
            "bare_cpu_ms": 1000 * statistics.median(r[1] for r in runs["bare"]) / n,
        }
        if large:
            big = _pairs(make, large, size.large_pairs, str(tmp / "logs"))
            marginal = _marginal_ms(runs, big, n, large, CPU)
            wall = _marginal_ms(runs, big, n, large, WALL)
            row |= {
                "large": large,
                "large_pairs": size.large_pairs,
                "package_marginal_cpu_ms": marginal["package"],
                "bare_marginal_cpu_ms": marginal["bare"],
                "floor_marginal_cpu_ms": marginal["floor"],
                "marginal_cpu_ratio": marginal["package"] / marginal["bare"],
                "floor_marginal_cpu_ratio": marginal["floor"] / marginal["bare"],
                "package_marginal_wall_ms": wall["package"],
                "bare_marginal_wall_ms": wall["bare"],
                "marginal_throughput_ratio": wall["bare"] / wall["package"],
            }
        out[method] = row
        print(_throughput_line(method, row), flush=True)
    return out


WALL, CPU = 0, 1
"""Index of the wall and of the CPU seconds in a run's ``(wall, CPU)``."""


def _marginal_ms(
    small: dict[str, list[tuple[float, float]]],
    large: dict[str, list[tuple[float, float]]],
    n: int,
    m: int,
    index: int,
) -> dict[str, float]:
    """Each kind's milliseconds per sample from ``n`` to ``m`` samples (medians of rounds).

    The eval's fixed work (start-up, Inspect's passes over the whole dataset, the log's
    header, the metrics) cancels, leaving what each further sample costs.
    """
    return {
        kind: 1000
        * (
            statistics.median(r[index] for r in large[kind])
            - statistics.median(r[index] for r in small[kind])
        )
        / (m - n)
        for kind in small
    }


def _throughput_line(method: str, row: dict[str, Any]) -> str:
    q1, median, q3 = row["cpu_ratio"]
    t1, speed, t3 = row["throughput_ratio"]
    line = (
        f"  {method:<19} {row['samples']} samples x {row['pairs']} pairs: throughput "
        f"{row['package_samples_per_s']:.0f} vs {row['bare_samples_per_s']:.0f}/s, ratio "
        f"{speed:.2f} ({t1:.2f}-{t3:.2f}); CPU {row['package_cpu_ms']:.1f} vs "
        f"{row['bare_cpu_ms']:.1f} ms/sample, ratio {median:.2f} ({q1:.2f}-{q3:.2f}); "
        f"floor (bare + Prediction) {row['floor_cpu_ms']:.1f} ms, ratio "
        f"{row['floor_cpu_ratio'][1]:.2f}"
    )
    if "marginal_cpu_ratio" in row:
        line += (
            f"; marginal to {row['large']} (x {row['large_pairs']}): "
            f"{row['package_marginal_cpu_ms']:.1f} vs "
            f"{row['bare_marginal_cpu_ms']:.1f} ms, ratio {row['marginal_cpu_ratio']:.2f} "
            f"(floor {row['floor_marginal_cpu_ratio']:.2f}); wall "
            f"{row['package_marginal_wall_ms']:.1f} vs {row['bare_marginal_wall_ms']:.1f} ms, "
            "throughput ratio "
            f"{row['marginal_throughput_ratio']:.2f}"
        )
    return line


def _bare_files(folder: Path, count: int) -> tuple[dict[str, Path], dict[str, Path]]:
    """Each method's first ``count`` samples as JSONL: the bare task's, the data floor's.

    Each package task is built once for both files.
    """
    files, data_files = {}, {}
    for method, target in METHODS:
        task = package_task("mp", str(folder), method, target)
        files[method] = write_samples(folder / f"{method}.jsonl", bare_samples(task, count))
        data_files[method] = write_samples(
            folder / f"{method}-data.jsonl", bare_samples(task, count, with_metadata=True)
        )
    return files, data_files


def run(quick: bool = False) -> dict[str, Any]:
    """The ``cost`` section of ``python -m benchmarks``."""
    print("== sample cost: 0-call methods vs a bare Inspect task over the same samples")
    size = QUICK if quick else FULL
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory(prefix="bench-cost-") as tmp:
        folder = write_mp_json(Path(tmp) / "mp")
        sizes = [size.n] + ([size.large] if size.large is not None else [])
        files, data_files = _bare_files(folder, max(sizes))
        print("throughput and CPU (one process, interleaved pairs):", flush=True)
        throughput = _throughput(folder, size, files)
        print("Python calls per sample (cProfile; the same on every run):", flush=True)
        calls = {}
        for method, target in METHODS:
            make = _makers(folder, method, target, files[method], data_files[method])
            make[STORE_EVENTS_OFF] = make["package"]  # the what-if: Inspect logs a write once
            calls[method] = call_counts(make, size.n, size.large, str(folder / "calls"))
            print(calls_line(method, calls[method]), flush=True)
        print("memory and log bytes (a fresh process per run):", flush=True)
        memory = memory_pairs(folder, METHODS, sizes, files, data_files)
        print("at scale (a fresh process):", flush=True)
        scale = scale_run(Path(tmp) / "mhs", size.mhs_rows)
    return {
        "throughput": throughput,
        "calls": calls,
        "memory": memory,
        "scale": scale,
        "targets": TARGETS,
    }


def _verdict(value: float, target: float, most: bool = True) -> str:
    return "ok" if (value <= target if most else value >= target) else "MISSED"


def _data_floor_line(method: str, key: str, calls: dict[str, Any], memory: dict[str, float]) -> str:
    """What the sample's data costs in Inspect, and what the package adds to it."""
    nan = float("nan")
    data_calls = calls.get("marginal_data_ratio", calls["data_ratio"])
    over_calls = calls.get("marginal_over_data", calls["over_data"])
    return (
        f"{method}: data floor (bare + Prediction + the package's sample metadata) calls "
        f"x{data_calls:.2f}, memory x{memory.get(f'data_memory_kb_{key}', nan):.2f}, log "
        f"bytes x{memory.get(f'data_log_bytes_{key}', nan):.2f} of bare Inspect; the "
        f"package over it: calls x{over_calls:.2f}, memory "
        f"x{memory.get(f'over_data_memory_kb_{key}', nan):.2f}, log bytes "
        f"x{memory.get(f'over_data_log_bytes_{key}', nan):.2f}"
    )


def _upstream_line(method: str, calls: dict[str, Any]) -> str:
    """How much of the package's calls is Inspect's own per-sample work."""
    share = inspect_share(calls)
    per, passes, off = share["calls"], share["pass_calls"], share["store_events_off"]
    line = (
        f"{method}: Inspect's per-value passes make {passes['package']:,.0f} of the "
        f"package's {per['package']:,.0f} calls/sample ({passes['bare']:,.0f} of bare's "
        f"{per['bare']:,.0f})"
    )
    if off is not None:
        line += f"; with Inspect's store events off, the package's calls x{off:.2f} of bare"
    return line


def summary(result: dict[str, Any]) -> list[str]:
    """The section's lines of the final summary: each ratio against its target."""
    lines = []
    for method, row in result["throughput"].items():
        cpu = row.get("marginal_cpu_ratio", row["cpu_ratio"][1])
        floor = row.get("floor_marginal_cpu_ratio", row["floor_cpu_ratio"][1])
        speed = row["throughput_ratio"][1]
        throughput = (
            f"x{speed:.2f} at {row['samples']} "
            f"({_verdict(speed, TARGETS['throughput'], most=False)})"
        )
        if "marginal_throughput_ratio" in row:
            marginal = row["marginal_throughput_ratio"]
            throughput += (
                f", x{marginal:.2f} marginal "
                f"({_verdict(marginal, TARGETS['throughput'], most=False)})"
            )
        memory = result["memory"][method]["ratios"]
        key = "marginal" if "memory_kb_marginal" in memory else str(row["samples"])
        lines.append(
            f"{method}: CPU/sample x{cpu:.2f} ({_verdict(cpu, TARGETS['cpu'])}), throughput "
            f"{throughput}, memory "
            f"x{memory[f'memory_kb_{key}']:.2f} "
            f"({_verdict(memory[f'memory_kb_{key}'], TARGETS['memory'])}), log bytes "
            f"x{memory[f'log_bytes_{key}']:.2f} "
            f"({_verdict(memory[f'log_bytes_{key}'], TARGETS['log_bytes'])}) of bare Inspect; "
            f"floor (bare + Prediction): CPU x{floor:.2f}, log bytes "
            f"x{memory.get(f'floor_log_bytes_{key}', float('nan')):.2f}"
        )
        if method in result.get("calls", {}):
            calls = result["calls"][method]
            ratio = calls.get("marginal_ratio", calls["ratio"])
            floor_calls = calls.get("marginal_floor_ratio", calls["floor_ratio"])
            lines.append(
                f"{method}: Python calls/sample x{ratio:.2f} of bare Inspect, floor "
                f"x{floor_calls:.2f} (deterministic; what the CPU ratio measures with noise)"
            )
            if "over_data" in calls:
                lines.append(_data_floor_line(method, key, calls, memory))
            if "pass_calls_per_sample" in calls:
                lines.append(_upstream_line(method, calls))
    scale = result["scale"]
    lines.append(
        f"MHS {scale['rows']:,} judgments, {scale['method']} on {scale['samples']:,} samples: "
        f"peak {scale['peak_gib']:.2f} GiB on {scale['cpus']} CPUs "
        f"({_verdict(scale['peak_gib'], MEMORY_TARGET_GIB)}), {scale['samples_per_s']:.0f} "
        "samples/s"
    )
    return lines
