"""Run metrics as an eval does: each sample's score per epoch, a real epoch reducer, the metrics.

A metric is given the score the epoch reducer leaves, not the one the scorer wrote, and a
unit test that calls a metric on hand-built scores skips that step. These helpers run a
real ``eval()`` (``mockllm/model``, no model call) whose scorer replays a table of
per-epoch scores, so Inspect's reducer, the metric registration and the sample metadata
the metrics read all go through the framework:

- :func:`run_metrics`: the metrics' values for given per-epoch scores and reducer;
- :func:`assert_agreeing_epochs_change_nothing`: repeating each score over several epochs
  leaves every metric as one epoch of the scorer's own scores gives it, under each
  reducer (Inspect's ``mean`` and ``mode``, and the task's own).
"""

from __future__ import annotations

import math
import random
import tempfile
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import Metric, Score, Scorer, ScoreReducer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

__all__ = ["MetricEvalError", "assert_agreeing_epochs_change_nothing", "run_metrics"]

Reducer = str | ScoreReducer
Metrics = Sequence[Metric | Mapping[str, Sequence[Metric]]] | Mapping[str, Sequence[Metric]]

REPLAY = "epoch_replay"
"""The replaying scorer's name (its metrics are logged under their own names)."""


class MetricEvalError(AssertionError):
    """The replaying eval did not succeed (usually: a metric raised)."""


@solver
def _nothing() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return state

    return solve


def _replay(table: Mapping[str, Sequence[Score]]) -> Scorer:
    @scorer(metrics=[], name=REPLAY)
    def epoch_replay() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return table[str(state.sample_id)][state.epoch - 1].model_copy(deep=True)

        return score

    return epoch_replay()


def run_metrics(
    metrics: Metrics,
    epochs: Sequence[Sequence[Score]],
    reducer: Reducer | None,
    metadata: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, float]:
    """The metrics' values when sample i scored ``epochs[i][e]`` in epoch e + 1.

    Args:
        metrics: The metrics, as a task or scorer registers them.
        epochs: Per sample, its score in each epoch (the same count for every sample).
        reducer: The epoch reducer (a name of Inspect's or a reducer); None: none (the
            metrics get every epoch's score).
        metadata: Per sample, the sample metadata the metrics read.

    Returns:
        Metric name (``<scorer>/<name>`` for a metric registered under a scorer key)
        -> value.

    Raises:
        MetricEvalError: The eval failed.
    """
    counts = {len(e) for e in epochs}
    if len(counts) != 1 or 0 in counts:
        raise ValueError(f"every sample needs the same number of epochs, not {sorted(counts)}")
    table = {f"s{i}": list(scores) for i, scores in enumerate(epochs)}
    dataset = MemoryDataset(
        [
            Sample(id=sid, input="-", metadata=dict(metadata[i]) if metadata else None)
            for i, sid in enumerate(table)
        ]
    )
    metric_list: Any = (
        {k: list(v) for k, v in metrics.items()} if isinstance(metrics, Mapping) else list(metrics)
    )
    task = Task(
        dataset=dataset,
        solver=_nothing(),
        scorer=_replay(table),
        metrics=metric_list,
        epochs=Epochs(counts.pop(), [] if reducer is None else reducer),
    )
    random.seed(0)
    np.random.seed(0)  # bootstrap-style metrics draw from the global generators
    with tempfile.TemporaryDirectory() as log_dir:
        [log] = eval(task, model="mockllm/model", display="none", log_dir=log_dir)
    if log.status != "success" or log.results is None:
        raise MetricEvalError(log.error.message if log.error else f"eval {log.status}")
    return {
        (name if result.name == REPLAY else f"{result.name}/{name}"): float(m.value)
        for result in log.results.scores
        for name, m in result.metrics.items()
        if isinstance(m.value, int | float)
    }


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def assert_agreeing_epochs_change_nothing(
    metrics: Metrics,
    scores: Sequence[Score],
    reducers: Sequence[Reducer],
    metadata: Sequence[Mapping[str, Any]] | None = None,
    epochs: int = 3,
) -> dict[str, float]:
    """Repeating each score over ``epochs`` epochs changes no metric, under each reducer.

    The reference is one epoch of the scorer's own scores, unreduced.

    Args:
        metrics: The metrics.
        scores: One score per sample, as the scorer writes it.
        reducers: The reducers to check.
        metadata: Per sample, its metadata.
        epochs: How many equal epochs.

    Returns:
        The reference values (so a caller can also check them).
    """
    reference = run_metrics(metrics, [[s] for s in scores], None, metadata)
    assert reference, "the metrics reported nothing; are the scores shaped as the scorer's?"
    for reducer in reducers:
        reduced = run_metrics(metrics, [[s] * epochs for s in scores], reducer, metadata)
        differ = {
            k: (reference.get(k), reduced.get(k))
            for k in reference.keys() | reduced.keys()
            if not _same(reference.get(k), reduced.get(k))
        }
        name = reducer if isinstance(reducer, str) else getattr(reducer, "__name__", reducer)
        assert not differ, f"{epochs} equal epochs under {name} changed {differ}"
    return reference
