"""The sample-cost benchmark's fresh-process runs: memory and log bytes per sample, and scale.

Each run is a child process (:mod:`benchmarks._cost_child`) started from this one; see
:mod:`benchmarks.sample_cost` for what is measured and the targets.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.loading import _child_env

__all__ = ["child", "memory_pairs", "scale_run"]


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one measuring child (:mod:`benchmarks._cost_child`); its result."""
    code = "import sys; from benchmarks._cost_child import child_main; child_main(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
        env=_child_env(),
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"sample-cost child failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(lines[-1])
    return result


def samples_df_s(log: str) -> float:
    """Seconds the package's ``samples_df`` takes to read a log (what the report reads)."""
    from inspect_plural.analysis import samples_df

    start = time.perf_counter()
    samples_df(log)
    return time.perf_counter() - start


def _per_sample(runs: dict[int, dict[str, Any]]) -> dict[str, float]:
    """Eval memory (KB) and log bytes per sample at each size, and marginal between sizes."""
    out: dict[str, float] = {}
    for n, run in runs.items():
        out[f"memory_kb_{n}"] = 1024 * (run["eval_peak_mb"] - run["rss_before_eval_mb"]) / n
        out[f"log_bytes_{n}"] = run["log_bytes"] / n
    if len(runs) > 1:
        small, large = sorted(runs)
        growth = {n: runs[n]["eval_peak_mb"] - runs[n]["rss_before_eval_mb"] for n in runs}
        out["memory_kb_marginal"] = 1024 * (growth[large] - growth[small]) / (large - small)
        out["log_bytes_marginal"] = (runs[large]["log_bytes"] - runs[small]["log_bytes"]) / (
            large - small
        )
    return out


def memory_pairs(
    folder: Path,
    methods: tuple[tuple[str, str], ...],
    sizes: list[int],
    files: dict[str, Path],
    data_files: dict[str, Path] | None = None,
) -> dict[str, Any]:
    """Each method's package, bare and floor runs at each size, each in a fresh process.

    Args:
        folder: The generated MP files.
        methods: (method, target) pairs.
        sizes: Sample counts.
        files: Method -> the bare samples' JSONL (at least ``max(sizes)`` rows).
        data_files: Method -> the same samples with the package's metadata (the data
            floor's); None: no data floor.

    Returns:
        Method -> per-sample memory and log bytes of each kind, their ratios to bare
        (``floor_*``, ``data_*`` for the floors) and the package's to the data floor
        (``over_data_*``), and the ``samples_df`` seconds of each package log.
    """
    out: dict[str, Any] = {}
    for method, target in methods:
        kinds = ["bare", "floor", *(["data"] if data_files else []), "package"]
        runs: dict[str, dict[int, dict[str, Any]]] = {kind: {} for kind in kinds}
        label = json.loads(files[method].read_text().splitlines()[0])["target"]
        for n in sizes:
            for kind in runs:
                spec: dict[str, Any] = {"kind": kind, "n": n, "log_dir": str(folder / "logs")}
                if kind == "package":
                    spec |= {"dataset": "mp", "folder": str(folder), "method": method}
                    spec["target"] = target
                else:
                    samples = data_files[method] if data_files and kind == "data" else files[method]
                    spec |= {"samples_file": str(samples), "label": label}
                runs[kind][n] = child(spec)
        per = {kind: _per_sample(runs[kind]) for kind in runs}
        ratios = _ratios(per["package"], per["bare"])
        ratios |= {f"floor_{k}": v for k, v in _ratios(per["floor"], per["bare"]).items()}
        if "data" in per:
            ratios |= {f"data_{k}": v for k, v in _ratios(per["data"], per["bare"]).items()}
            ratios |= {f"over_data_{k}": v for k, v in _ratios(per["package"], per["data"]).items()}
        out[method] = {
            **per,
            "ratios": ratios,
            "samples_df_s": {n: samples_df_s(runs["package"][n]["log"]) for n in sizes},
            "runs": runs,
        }
        print(_memory_line(method, sizes, per, ratios, out[method]["samples_df_s"]), flush=True)
    return out


def _ratios(top: dict[str, float], bottom: dict[str, float]) -> dict[str, float]:
    """Each per-sample number of one kind over another's (where the other's is not 0)."""
    return {key: top[key] / bottom[key] for key in top if bottom.get(key)}


def _memory_line(
    method: str,
    sizes: list[int],
    per: dict[str, dict[str, float]],
    ratios: dict[str, float],
    frames: dict[int, float],
) -> str:
    key = "marginal" if len(sizes) > 1 else str(sizes[0])
    memory, log = f"memory_kb_{key}", f"log_bytes_{key}"
    return (
        f"  {method:<19} memory {per['package'][memory]:.1f} vs {per['bare'][memory]:.1f} "
        f"KB/sample ({key}), ratio {ratios.get(memory, float('nan')):.2f}; log "
        f"{per['package'][log]:.0f} vs {per['bare'][log]:.0f} bytes/sample, ratio "
        f"{ratios.get(log, float('nan')):.2f} (floor {per['floor'][log]:.0f}, ratio "
        f"{ratios.get('floor_' + log, float('nan')):.2f})"
        + (
            f"; data floor memory {per['data'][memory]:.1f} KB, log {per['data'][log]:.0f} "
            f"bytes, ratios {ratios.get('data_' + memory, float('nan')):.2f} / "
            f"{ratios.get('data_' + log, float('nan')):.2f}; package / data floor "
            f"{ratios.get('over_data_' + memory, float('nan')):.2f} / "
            f"{ratios.get('over_data_' + log, float('nan')):.2f}"
            if "data" in per
            else ""
        )
        + "; samples_df "
        + ", ".join(f"{n}: {s:.2f} s" for n, s in frames.items())
    )


def scale_run(folder: Path, rows: int, method: str = "annotator_majority") -> dict[str, Any]:
    """MHS generated at ``rows`` judgments, ``method`` over its whole test split, in a child.

    Returns:
        The child's result with the rows, samples/s and the process's peak in GiB.
    """
    from benchmarks._bigfiles import write_mhs_parquet

    folder.mkdir(parents=True, exist_ok=True)
    write_mhs_parquet(folder, rows)
    result = child(
        {
            "kind": "package",
            "dataset": "mhs",
            "folder": str(folder),
            "method": method,
            "target": "annotator",
            "n": None,
            "log_dir": str(folder / "logs"),
        }
    )
    peak = max(result["build_peak_mb"] or 0.0, result["eval_peak_mb"] or 0.0)
    result |= {
        "rows": rows,
        "method": method,
        "samples_per_s": result["samples"] / result["eval_s"],
        "peak_gib": peak / 1024,
    }
    print(
        f"  MHS at {rows:,} judgments, {method} on all {result['samples']:,} test samples "
        f"({result['cpus']} CPUs): build {result['build_s']:.0f} s, eval {result['eval_s']:.0f} s "
        f"({result['samples_per_s']:.0f}/s, {result['eval_cpu_s']:.0f} CPU s), peak "
        f"{result['peak_gib']:.2f} GiB, log {result['log_bytes'] / 2**20:.1f} MB",
        flush=True,
    )
    return result
