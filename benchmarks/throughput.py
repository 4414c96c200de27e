"""Samples/s of a PersonaEval task against a bare Inspect task of the same size.

Both run in this process with the same model (``plural/random``), the same samples and
prompts, and one model call per sample. The bare task is the minimum Inspect needs: the
prompt as input, its answer format declared (as the package's prompts carry it, so the
chance model answers alike), ``generate()`` and ``match()``. The package task adds
loading the official CSV schema, rendering the prompt, parsing the distribution, writing
the ``Prediction`` and the role metrics. Data is generated in the official schema
(benchmark rows, not real).

Measurement. Identical runs on this 2-vCPU VM vary by up to a third, in phases that last
seconds to tens of seconds, so one long run of each task (or a few long pairs) gives a
ratio anywhere from 0.75 to 1.05. The section therefore runs many short pairs back to
back (bare and package, alternating which goes first), so both runs of a pair share the
machine's phase, and reports the median of the per-pair ratios with their interquartile
range. Single pair ratios still range from about 0.7 to 1.3; the median of 10 pairs of
32 samples varied by about 0.05 (one standard deviation) between repeated runs of the
same code, where the median of 3 pairs of 100 samples ranged over 30 points. Each pair
starts after a full collection (outside the timing), so the garbage of earlier pairs
does not land in the next one; the full run also times pairs of 1,000 samples, where
Inspect's own full collections of the import heap fall inside the runs.
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessageUser
from inspect_ai.scorer import match
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from inspect_plural.answer_format import DistributionFormat, declare_answer_format
from inspect_plural.records import RoleCandidate, RoleItem, RoleSampleMetadata
from inspect_plural.solvers.role_identification import render_role_prompt
from inspect_plural.sources.personaeval import write_personaeval_csv
from inspect_plural.tasks import personaeval_literary

N_OPTIONS = 4


def write_benchmark_csv(folder: Path, n: int) -> Path:
    """n rows in the official Literary.csv schema (generated benchmark text)."""
    items = []
    for i in range(n):
        names = [f"Bench Person {i}-{j}" for j in range(N_OPTIONS)]
        conversation = (
            "[Character1: Bench Narrator]\n[Begin]\n"
            f"Benchmark opening {i}, long enough to look like a real turn of dialogue.\n"
            f"[End]\n\n[Character2]\n[Begin]\nBenchmark reply {i}.\n[End]"
        )
        items.append(
            RoleItem(
                id=f"literary-{i:05d}",
                track="literary",
                conversation=conversation,
                source_prompt=f"# Conversation\n\n{conversation}\n\n# Task\n",
                candidates=[
                    RoleCandidate(name=name, profile=f"Benchmark profile of {name}, a few words.")
                    for name in names
                ],
                true_role=names[i % N_OPTIONS],
            )
        )
    return write_personaeval_csv(folder / "Literary.csv", items)


@solver
def _declare_distribution() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        options = [c.value for c in state.choices] if state.choices else []
        message = state.messages[-1]
        assert isinstance(message, ChatMessageUser)
        declare_answer_format(message, DistributionFormat(options=options))
        return state

    return solve


def bare_task(package_task: Task) -> Task:
    """A plain Inspect task sending the package task's prompts: same samples, same calls.

    Its samples are the package task's (same ids, targets, choices and metadata: the
    dataset's content, which both tasks carry through Inspect alike), with the package's
    rendered prompt as input, so both tasks send the same text to the same model. What
    differs is the package's own work: prompt rendering, parsing, the Prediction store,
    the role scorer and its metrics against ``generate()`` and ``match()``.
    """
    samples = []
    for sample in package_task.dataset:
        metadata = RoleSampleMetadata.model_validate(sample.metadata)
        samples.append(
            Sample(
                id=sample.id,
                input=render_role_prompt(metadata),
                target=metadata.true_role,
                choices=metadata.candidate_names,
                metadata=sample.metadata,
            )
        )
    return Task(
        dataset=MemoryDataset(samples),
        solver=[_declare_distribution(), generate()],
        scorer=match(),
    )


def _timed(task: Task, log_dir: str) -> tuple[float, EvalLog]:
    """One timed run. Both tasks get the same options: no display, so no realtime
    metrics either (Inspect otherwise recomputes every metric for a display no one
    sees)."""
    start = time.perf_counter()
    [log] = eval(
        task,
        model="plural/random",
        log_dir=log_dir,
        display="log",
        score_display=False,
        max_connections=100,
    )
    elapsed = time.perf_counter() - start
    assert log.status == "success", log.error
    return elapsed, log


QUICK = (32, 10)
FULL = (200, 12)
"""(samples, pairs of runs) of the overhead section's headline."""
SCALE = (1000, 2)
"""(samples, pairs) of the full run's check at scale."""


def run(quick: bool = False) -> dict[str, float]:
    """The overhead section of ``python -m benchmarks`` (quick: 10 pairs of 32-sample
    runs; the full run: 12 pairs of 200 samples, then 2 pairs of 1,000)."""
    print("== harness overhead: package task vs bare Inspect task (same samples, calls, model)")
    n, pairs = QUICK if quick else FULL
    return main(n=n, pairs=pairs, scale=None if quick else SCALE)


def summary(result: dict[str, float]) -> list[str]:
    """The overhead line of the final summary."""
    lines = [
        f"overhead ratio: {result['overhead_ratio']:.2f} (interquartile "
        f"{result['overhead_ratio_q1']:.2f} to {result['overhead_ratio_q3']:.2f}) over "
        f"{result['pairs']:.0f} pairs of {result['samples']:.0f}-sample runs (package "
        f"{result['package_samples_per_s']:.1f} vs bare {result['bare_samples_per_s']:.1f} "
        "samples/s, medians; target >= 0.9)"
    ]
    if "overhead_ratio_at_scale" in result:
        lines.append(
            f"overhead ratio at {result['scale_samples']:.0f} samples: "
            f"{result['overhead_ratio_at_scale']:.2f} (median of "
            f"{result['scale_pairs']:.0f} pairs)"
        )
    return lines


def _make(data: Path) -> dict[str, Callable[[], Task]]:
    return {
        "bare": lambda: bare_task(personaeval_literary(data_dir=str(data))),
        "package": lambda: personaeval_literary(data_dir=str(data)),
    }


def _paired(
    tasks: dict[str, Callable[[], Task]], log_dir: str, pairs: int
) -> tuple[dict[str, list[float]], EvalLog]:
    """Wall seconds of ``pairs`` back-to-back pairs (bare and package, alternating which
    goes first), and a package log."""
    times: dict[str, list[float]] = {"bare": [], "package": []}
    log: EvalLog | None = None
    for pair in range(pairs):
        # the garbage of earlier pairs, collected outside the timing (a full collection
        # scans the half-million objects of the imports: about 0.4 s)
        gc.collect()
        order = ["bare", "package"] if pair % 2 == 0 else ["package", "bare"]
        for name in order:
            elapsed, run_log = _timed(tasks[name](), log_dir)
            times[name].append(elapsed)
            if name == "package":
                log = run_log
    assert log is not None
    return times, log


def pair_ratios(times: dict[str, list[float]]) -> list[float]:
    """Bare seconds / package seconds of each pair.

    The two runs of a pair run back to back, so a slow phase of the machine slows both
    alike and cancels out of their ratio.
    """
    return [b / p for b, p in zip(times["bare"], times["package"], strict=True)]


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    """First quartile, median and third quartile (the middle cut is the median)."""
    q1, median, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return float(q1), float(median), float(q3)


def main(
    n: int = 40,
    pairs: int = 10,
    json_path: str | None = None,
    scale: tuple[int, int] | None = None,
) -> dict[str, float]:
    """Run ``pairs`` pairs of the two tasks after an untimed warm-up and print the
    overhead ratio (the median of the pairs' ratios) with its interquartile range;
    with ``scale`` (samples, pairs), also time pairs of that many samples."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sizes = [n] + ([scale[0]] if scale else [])
    at_scale: dict[str, list[float]] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        folders = {}
        for size in sizes:
            folders[size] = Path(tmp) / f"data{size}"
            folders[size].mkdir()
            write_benchmark_csv(folders[size], size)
        tasks = _make(folders[n])
        # warm-up, not timed: the first eval of a process imports the providers' SDKs
        # and fills Inspect's registries, a one-off cost that would land on one task
        for make in tasks.values():
            eval(make(), model="plural/random", log_dir=f"{tmp}/warm", display="log", limit=4)
        times, log = _paired(tasks, f"{tmp}/logs", pairs)
        if scale:
            at_scale = _paired(_make(folders[scale[0]]), f"{tmp}/logs", scale[1])[0]
    assert log.results is not None
    chance = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    ratios = pair_ratios(times)
    q1, median, q3 = _quartiles(ratios)
    result = {
        "samples": float(n),
        "pairs": float(pairs),
        "package_samples_per_s": n / statistics.median(times["package"]),
        "bare_samples_per_s": n / statistics.median(times["bare"]),
        "overhead_ratio": median,
        "overhead_ratio_q1": q1,
        "overhead_ratio_q3": q3,
    }
    rows = [("bare inspect", times["bare"]), ("personaeval_literary", times["package"])]
    print(f"{n} samples, {pairs} pairs of runs; wall seconds per run:")
    for label, seconds in rows:
        print(f"  {label:<22}" + " ".join(f"{t:5.2f}" for t in seconds))
    print("  bare / package per pair " + " ".join(f"{r:5.2f}" for r in ratios))
    if at_scale is not None and scale is not None:
        result["scale_samples"], result["scale_pairs"] = float(scale[0]), float(scale[1])
        result["overhead_ratio_at_scale"] = float(statistics.median(pair_ratios(at_scale)))
        print(f"{scale[0]} samples, {scale[1]} pairs of runs; wall seconds per run:")
        for label, key in [("bare inspect", "bare"), ("personaeval_literary", "package")]:
            print(f"  {label:<22}" + " ".join(f"{t:6.2f}" for t in at_scale[key]))
        print(f"overhead ratio at {scale[0]} samples: {result['overhead_ratio_at_scale']:.2f}")
    print(f"overhead ratio: {median:.2f} (interquartile range {q1:.2f} to {q3:.2f})")
    print(
        "chance level (plural/random, K=4): " + ", ".join(f"{k} {v:.3f}" for k, v in chance.items())
    )
    result.update({f"chance_{k}": float(v) for k, v in chance.items()})
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2), encoding="utf-8")
    return result
