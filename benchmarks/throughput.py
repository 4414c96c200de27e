"""Samples/s of a PersonaEval task against a bare Inspect task of the same size.

Both run in this process with the same model (``plural/random``), the same samples and
prompts, and one model call per sample. The bare task is the minimum Inspect needs: the
prompt as input, ``generate()`` and ``match()``. The package task adds loading the official CSV
schema, rendering the prompt, parsing the distribution, writing the ``Prediction`` and
the role metrics. Data is generated in the official schema (benchmark rows, not real).

Garbage collection. After imports and the warm-up the process holds about half a
million objects (Inspect, the providers' SDKs, scikit-learn, scipy), none of them the
run's. A full collection scans them all (about 0.4 s here), and whether one falls
inside a 3-second run or not moves the ratio (from 0.75 to 1.0 between identical
150-sample runs). The headline ratio runs under Python's default collection, as users
run, and is the median over back-to-back pairs; the full run also reports the ratio
with that heap collected and frozen (``gc.freeze()``) before each run, for both tasks,
as a diagnostic: it moves collections, it does not remove the package's objects.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
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


@contextlib.contextmanager
def heap_frozen(frozen: bool) -> Iterator[None]:
    """Collect the garbage of earlier runs, then (if ``frozen``) freeze what survives."""
    gc.collect()
    if frozen:
        gc.freeze()
    try:
        yield
    finally:
        if frozen:
            gc.unfreeze()


def _timed(task: Task, log_dir: str, frozen: bool = True) -> tuple[float, EvalLog]:
    """One timed run. Both tasks get the same options: no display, so no realtime
    metrics either (Inspect otherwise recomputes every metric for a display no one
    sees); the garbage of earlier runs is collected first, outside the timing, and the
    heap of imports and earlier runs is frozen unless ``frozen`` is False."""
    with heap_frozen(frozen):
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


QUICK = (100, 3)
FULL = (1000, 3)
"""(samples, pairs of runs) of the overhead section."""


def run(quick: bool = False) -> dict[str, float]:
    """The overhead section of ``python -m benchmarks`` (quick: 100 samples, three pairs of
    runs; the full run: 1,000 samples, and the ratio with the import heap frozen too)."""
    print("== harness overhead: package task vs bare Inspect task (same samples, calls, model)")
    n, repeats = QUICK if quick else FULL
    return main(n=n, repeats=repeats, frozen_too=not quick)


def summary(result: dict[str, float]) -> list[str]:
    """The overhead line of the final summary."""
    lines = [
        f"overhead ratio: {result['overhead_ratio']:.2f} at {result['samples']:.0f} samples "
        f"(package {result['package_samples_per_s']:.1f} vs bare "
        f"{result['bare_samples_per_s']:.1f} samples/s at best; median of "
        f"{result['pairs']:.0f} pairs; target >= 0.9)"
    ]
    if "overhead_ratio_frozen_heap" in result:
        frozen = result["overhead_ratio_frozen_heap"]
        lines.append(f"overhead ratio with the import heap frozen: {frozen:.2f}")
    return lines


def _make(data: Path) -> dict[str, Callable[[], Task]]:
    return {
        "bare": lambda: bare_task(personaeval_literary(data_dir=str(data))),
        "package": lambda: personaeval_literary(data_dir=str(data)),
    }


def _paired(
    tasks: dict[str, Callable[[], Task]], log_dir: str, repeats: int, frozen: bool
) -> tuple[dict[str, list[float]], EvalLog]:
    """Wall seconds of ``repeats`` back-to-back pairs (bare and package, alternating which
    goes first), and a package log."""
    times: dict[str, list[float]] = {"bare": [], "package": []}
    log: EvalLog | None = None
    for repeat in range(repeats):
        order = ["bare", "package"] if repeat % 2 == 0 else ["package", "bare"]
        for name in order:
            elapsed, run_log = _timed(tasks[name](), log_dir, frozen)
            times[name].append(elapsed)
            if name == "package":
                log = run_log
    assert log is not None
    return times, log


def _pair_ratio(times: dict[str, list[float]]) -> float:
    """The median over pairs of bare seconds / package seconds.

    The two runs of a pair run back to back, so a slow phase of the machine (the run
    time of identical runs varies by up to a third here) slows both alike and cancels.
    """
    return float(statistics.median(b / p for b, p in zip(times["bare"], times["package"])))


def main(
    n: int = 2000, repeats: int = 3, json_path: str | None = None, frozen_too: bool = False
) -> dict[str, float]:
    """Run ``repeats`` pairs of the two tasks after an untimed warm-up and print the
    overhead ratio (the median over pairs); with ``frozen_too``, as many pairs again with
    the import heap frozen."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data"
        data.mkdir()
        write_benchmark_csv(data, n)
        tasks = _make(data)
        # warm-up, not timed: the first eval of a process imports the providers' SDKs
        # and fills Inspect's registries, a one-off cost that would land on one task
        for make in tasks.values():
            eval(make(), model="plural/random", log_dir=f"{tmp}/warm", display="log", limit=10)
        times, log = _paired(tasks, f"{tmp}/logs", repeats, frozen=False)
        frozen = _paired(tasks, f"{tmp}/logs", repeats, frozen=True)[0] if frozen_too else None
    assert log.results is not None
    chance = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    result = {
        "samples": float(n),
        "pairs": float(repeats),
        "package_samples_per_s": n / min(times["package"]),
        "bare_samples_per_s": n / min(times["bare"]),
        "overhead_ratio": _pair_ratio(times),
    }
    print(f"{'task':<30}" + "".join(f"{'run ' + str(i + 1) + ' s':>9}" for i in range(repeats)))
    rows = [("bare inspect", times["bare"]), ("personaeval_literary", times["package"])]
    if frozen is not None:
        rows += [
            ("bare inspect, heap frozen", frozen["bare"]),
            ("personaeval_literary, frozen", frozen["package"]),
        ]
        result["overhead_ratio_frozen_heap"] = _pair_ratio(frozen)
    for label, seconds in rows:
        print(f"{label:<30}" + "".join(f"{t:>9.2f}" for t in seconds))
    print(f"overhead ratio: {result['overhead_ratio']:.2f}")
    if frozen is not None:
        ratio = result["overhead_ratio_frozen_heap"]
        print(f"overhead ratio with the import heap frozen (diagnostic): {ratio:.2f}")
    print(
        "chance level (plural/random, K=4): " + ", ".join(f"{k} {v:.3f}" for k, v in chance.items())
    )
    result.update({f"chance_{k}": float(v) for k, v in chance.items()})
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2))
    return result
