"""The measuring side of the sample-cost benchmark: one eval in a fresh process, reported.

A child builds one task, resets the peak RSS (Linux ``clear_refs``), runs ``eval()`` and
reports the eval's wall and CPU seconds, its peak RSS over the RSS before it, the whole
process's peak, and the log's bytes (see :mod:`benchmarks.sample_cost`, which starts the
children). Kinds:

* ``package``: a package task (``mp`` or ``mhs``) on generated files;
* ``bare``: a bare Inspect task over the same samples, read from a JSONL file the parent
  wrote (``json_dataset``), answered by a 0-call solver and scored with ``match()``;
* ``floor``: the bare task whose solver also writes the package's ``Prediction`` (what
  every method must write): Inspect logs a store write as one ``state`` and two ``store``
  events, so this is the least a package sample can cost.
* ``data``: the floor over a JSONL whose samples carry the package's whole sample
  metadata (the *data floor*): what Inspect charges for the data a method reads.

Inspect loads every installed ``inspect_ai`` entry point when an eval starts (the package
among them), so both kinds load them before anything is measured.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, solver

from benchmarks._loading_measure import _reset_peak, _ru_maxrss_mb, _vm_hwm_mb

__all__ = ["bare_task", "child_main", "first_label", "package_task", "run_eval"]


@solver
def first_label(label: str = "0", record: bool = False) -> Solver:
    """A 0-call solver: every sample's answer is one fixed label (the bare side).

    Args:
        label: The answer.
        record: Also write a ``Prediction`` of that label, as a package method does.
    """
    from inspect_plural.prediction import Prediction

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content("none", label)
        if record:
            Prediction.detached(
                method="first_label",
                label=label,
                distribution=None,
                parse_ok=True,
                error=None,
                rationale=f"majority of annotator ({label}: 1)",
                aggregate="annotator",
                model_calls=0,
            ).write_to(state.store)
        return state

    return solve


def bare_task(samples_file: str, label: str, record: bool = False) -> Task:
    """The minimum Inspect task over the samples in a JSONL file: a fixed answer, ``match()``.

    Args:
        samples_file: The JSONL.
        label: Every sample's answer.
        record: Also write the package's ``Prediction`` (the ``floor`` kind).
    """
    from inspect_ai.dataset import json_dataset

    return Task(
        dataset=json_dataset(samples_file), solver=first_label(label, record), scorer=match()
    )


def package_task(dataset: str, folder: str, method: str, target: str) -> Task:
    """A package task on generated files (``mp`` or ``mhs``) with a method and a target."""
    import inspect_plural.tasks as tasks

    factory = getattr(tasks, dataset)
    task: Task = factory(data_dir=folder, method=method, target=target)
    return task


def run_eval(task: Task, n: int | None, log_dir: str) -> EvalLog:
    """One eval of the section: ``n`` samples (None: all) on ``plural/random``, checked.

    Raises:
        AssertionError: The eval did not succeed.
    """
    [log] = eval(
        task,
        model="plural/random",
        limit=n,
        log_dir=log_dir,
        display="log",
        score_display=False,
    )
    assert log.status == "success", log.error
    return log


def _rss_mb() -> float:
    """The current RSS (``VmRSS``) in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    return 0.0


def measure(spec: dict[str, Any]) -> dict[str, Any]:
    """Build the task of ``spec``, run it once, report what it cost.

    Args:
        spec: ``kind`` (``package``, ``bare``, ``floor`` or ``data``), ``n`` (samples;
            None: all), ``log_dir``, and for a package task ``dataset``, ``folder``,
            ``method``, ``target``; for the others ``samples_file`` and ``label``.

    Returns:
        Seconds, CPU seconds and peak RSS of the build and of the eval, the log's path
        and bytes.
    """
    after_imports = _rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    if spec["kind"] in ("bare", "floor", "data"):
        record = spec["kind"] != "bare"
        task = bare_task(spec["samples_file"], spec["label"], record=record)
    else:
        task = package_task(spec["dataset"], spec["folder"], spec["method"], spec["target"])
    build_s, build_cpu = time.perf_counter() - start, time.process_time() - cpu
    build_peak = _vm_hwm_mb()
    _reset_peak()  # the eval's own peak from here (the build's is above)
    before_eval = _rss_mb()
    start, cpu = time.perf_counter(), time.process_time()
    log = run_eval(task, spec["n"], spec["log_dir"])
    eval_s, eval_cpu = time.perf_counter() - start, time.process_time() - cpu
    samples = log.results.completed_samples if log.results else 0
    return {
        "kind": spec["kind"],
        "samples": samples,
        "build_s": round(build_s, 2),
        "build_cpu_s": round(build_cpu, 2),
        "eval_s": round(eval_s, 3),
        "eval_cpu_s": round(eval_cpu, 3),
        "rss_after_imports_mb": after_imports,
        "build_peak_mb": build_peak,
        "rss_before_eval_mb": before_eval,
        "eval_peak_mb": _vm_hwm_mb(),
        "peak_rss_mb": _ru_maxrss_mb(),
        "log": log.location,
        "log_bytes": os.path.getsize(log.location),
        "cpus": len(os.sched_getaffinity(0)),
    }


def child_main(spec_json: str) -> None:
    """Measure one spec in this (child) process and print its result as one JSON line."""
    from inspect_ai._util.entrypoints import ensure_entry_points

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    ensure_entry_points()  # what every eval loads first, outside the measurement
    result = measure(json.loads(spec_json))
    print(json.dumps(result), flush=True)


def write_samples(path: Path, samples: list[dict[str, Any]]) -> Path:
    """Write samples (id, input, target, metadata) as JSONL for a bare child."""
    with path.open("w", encoding="utf-8") as out:
        for sample in samples:
            out.write(json.dumps(sample) + "\n")
    return path
