"""The measuring side of the loading benchmark: what a child process runs and reports.

Each job loads one generated dataset and times its steps (see :mod:`benchmarks.loading`,
which writes the files, starts the children and judges the results); peak RSS is read
from ``/proc/self/status`` (``VmHWM``) and ``ru_maxrss``.
"""

from __future__ import annotations

import gc
import json
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Job", "child_main", "measure_jobs"]


@dataclass(frozen=True)
class Job:
    """One dataset for a measuring child: its name, its folder and loader arguments."""

    dataset: str
    folder: str
    kwargs: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# Measuring (run in the child processes)
# --------------------------------------------------------------------------------------


def _vm_hwm_mb() -> float | None:
    """Peak RSS of this process image (``VmHWM``), unlike ``ru_maxrss`` not inherited.

    Linux carries a parent's ``ru_maxrss`` across fork and execve, so it can exceed what
    the child itself used.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _reset_peak() -> bool:
    """Reset ``VmHWM`` to the current RSS (Linux ``clear_refs``); False where unsupported."""
    gc.collect()
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        return False
    return True


def _ru_maxrss_mb() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def _timed(step: Any, *args: Any, **kwargs: Any) -> tuple[Any, float, float]:
    """The step's value, wall seconds and CPU seconds (of every thread of the process)."""
    start, cpu = time.perf_counter(), time.process_time()
    value = step(*args, **kwargs)
    return value, round(time.perf_counter() - start, 3), round(time.process_time() - cpu, 3)


def _measure_annotated(kind: str, folder: str, kwargs: dict[str, str]) -> dict[str, Any]:
    """Load, split and build the PersEval samples of MHS or DICES."""
    from inspect_plural.sources.dices import load_dices
    from inspect_plural.sources.mhs import load_mhs
    from inspect_plural.splits import cinemetric_split, perseval_split
    from inspect_plural.tasks.annotator._annotator_samples import build_samples

    load = load_mhs if kind == "mhs" else load_dices
    corpus, load_s, load_cpu = _timed(load, data_dir=folder, **kwargs)
    perseval, perseval_s, perseval_cpu = _timed(perseval_split, corpus)
    cinemetric, cinemetric_s, _ = _timed(cinemetric_split, corpus)
    samples, samples_s, samples_cpu = _timed(build_samples, corpus, perseval, named=True)
    return {
        "load_s": load_s,
        "perseval_split_s": perseval_s,
        "cinemetric_split_s": cinemetric_s,
        "split_s": round(perseval_s + cinemetric_s, 3),
        "samples_s": samples_s,
        "to_first_sample_s": round(load_s + perseval_s + samples_s, 3),
        "to_first_sample_cpu_s": round(load_cpu + perseval_cpu + samples_cpu, 3),
        "samples": len(samples),
        "judgments": int(len(corpus.judgments)),
        "items": len(corpus.items),
        "annotators": len(corpus.annotators),
        "perseval_test_judgments": int(len(perseval.test)),
        "perseval_test_users": int(perseval.summary["test_users"]),
        "cinemetric_test_judgments": int(len(cinemetric.test)),
    }


def _measure_lewidi(folder: str) -> dict[str, Any]:
    """Load MP, split it with the lewidi protocol, build the samples of both targets."""
    from inspect_plural.sources.lewidi import load_mp
    from inspect_plural.splits import lewidi_split
    from inspect_plural.tasks.annotator._annotator_samples import build_samples
    from inspect_plural.tasks.annotator._item_samples import build_item_samples

    corpus, load_s, load_cpu = _timed(load_mp, data_dir=folder)
    split, split_s, split_cpu = _timed(lewidi_split, corpus)
    samples, samples_s, samples_cpu = _timed(build_samples, corpus, split, named=True)
    items, items_s, _ = _timed(build_item_samples, corpus, split, named=True)
    return {
        "load_s": load_s,
        "split_s": split_s,
        "load_split_s": round(load_s + split_s, 3),
        "samples_s": samples_s,
        "to_first_sample_s": round(load_s + split_s + samples_s, 3),
        "to_first_sample_cpu_s": round(load_cpu + split_cpu + samples_cpu, 3),
        "samples": len(samples),
        "item_samples_s": items_s,
        "item_samples": len(items),
        "judgments": int(len(corpus.judgments)),
        "items": len(corpus.items),
        "annotators": len(corpus.annotators),
        "lewidi_test_judgments": int(len(split.test)),
        "lewidi_train_judgments": int(len(split.train)),
    }


def _measure_personaeval(folder: str) -> dict[str, Any]:
    """Read Literary.csv, build its samples, then build the task as a user runs it."""
    from inspect_plural.sources.personaeval import load_personaeval
    from inspect_plural.tasks.personaeval import personaeval_literary, record_to_sample

    def to_samples(items: list[Any]) -> list[Any]:
        return [record_to_sample(item) for item in items]

    (items, *_), load_s, _ = _timed(load_personaeval, "literary", data_dir=folder)
    samples, samples_s, _ = _timed(to_samples, items)
    n_items, n_samples = len(items), len(samples)
    del items, samples  # the task below loads its own copy
    task, task_s, task_cpu = _timed(personaeval_literary, data_dir=folder)
    return {
        "load_s": load_s,
        "samples_s": samples_s,
        "task_s": task_s,
        "to_first_sample_s": task_s,
        "to_first_sample_cpu_s": task_cpu,
        "samples": n_samples,
        "items": n_items,
        "task_samples": len(task.dataset),
    }


def measure_jobs(jobs: Sequence[Job], reset: bool) -> list[dict[str, Any]]:
    """Measure each job in turn in this process.

    Args:
        jobs: The datasets.
        reset: Reset the peak RSS before each job (when several share a process); the
            peak then also holds what the process held before the job
            (``vm_hwm_before_mb``).

    Returns:
        One result per job.
    """
    # imported up front, so that the imports are not timed
    import inspect_plural.sources.dices  # noqa: F401
    import inspect_plural.sources.lewidi  # noqa: F401
    import inspect_plural.sources.mhs  # noqa: F401
    import inspect_plural.splits  # noqa: F401
    import inspect_plural.tasks.annotator  # noqa: F401
    import inspect_plural.tasks.personaeval  # noqa: F401

    after_imports = _vm_hwm_mb()
    ru_after_imports = _ru_maxrss_mb()
    results = []
    for job in jobs:
        was_reset = reset and _reset_peak()
        before = _vm_hwm_mb()
        if job.dataset == "personaeval-literary":
            result = _measure_personaeval(job.folder)
        elif job.dataset == "mp":
            result = _measure_lewidi(job.folder)
        else:
            result = _measure_annotated(job.dataset, job.folder, job.kwargs)
        peak = _vm_hwm_mb()
        result.update(
            dataset=job.dataset,
            vm_hwm_peak_mb=peak,
            vm_hwm_before_mb=before,
            vm_hwm_growth_mb=None if peak is None or before is None else round(peak - before, 1),
            vm_hwm_after_imports_mb=after_imports,
            peak_reset=was_reset,
            rss_after_imports_mb=ru_after_imports,
            peak_rss_mb=_ru_maxrss_mb(),
        )
        results.append(result)
        gc.collect()
    return results


def child_main(jobs: Sequence[dict[str, Any]]) -> None:
    """Measure the jobs in this (child) process, printing one JSON line per job.

    Args:
        jobs: :class:`Job` fields per dataset.
    """
    for result in measure_jobs([Job(**fields) for fields in jobs], reset=len(jobs) > 1):
        print(json.dumps(result), flush=True)
