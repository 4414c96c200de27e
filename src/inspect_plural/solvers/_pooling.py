"""Per-annotator methods on item samples: one run per annotator, pooled into a distribution.

Every per-annotator method (``llm_judge``, ``personalized_judge``, ``cinemetric``,
``trait_ensemble``, ``retrieval_examples``, the majority baselines) wraps its solve step
with :func:`pooled`. On an annotator sample nothing changes. On an item sample of the
distribution target (:func:`~inspect_plural.item_records.is_item_sample`) the method runs
once for each of the item's test annotators, *inside the item's sample*: each run gets
a sub-state holding that annotator's
:class:`~inspect_plural.records.AnnotatorSampleMetadata` (exactly what the annotator
target gives the method), a store of its own and a transcript span named for the
annotator. The runs go concurrently; each makes exactly the calls the method makes for
that annotator on the annotator target, so an item costs the sum of its annotators'
calls and nothing more (work a method shares, such as a CINEMETRIC panel or a
``trait_scope=all`` answer, is still done once and reused).

The item's distribution is the pool of the runs that gave a label: each annotator's
label counts once (their distribution, when the method answered with one), weighed by
their survey weight when the data ships weights. The runs are kept in the item's store
(:class:`~inspect_plural.item_records.AnnotatorPredictions`), so the perspectivist
metrics score each annotator's own prediction from the same run.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from inspect_ai.scorer import Target
from inspect_ai.solver import Generate, Solver, TaskState
from inspect_ai.util import span

from inspect_plural._concurrency import gather
from inspect_plural.item_records import (
    AnnotatorPredictions,
    AnnotatorRun,
    ItemAnnotator,
    is_item_sample,
    item_sample,
)
from inspect_plural.prediction import Prediction

__all__ = ["ANNOTATOR_SPAN", "pool_runs", "pooled"]

ANNOTATOR_SPAN = "annotator {}"
"""Name of the transcript span of one annotator's run inside an item sample."""

_PREDICTION_PREFIX = f"{Prediction.__name__}:"


def _run(annotator_id: str, state: TaskState, labels: Sequence[str]) -> AnnotatorRun:
    """What one annotator's run left in its store."""
    prediction = Prediction.read(state.store)
    ok = bool(prediction.parse_ok and prediction.label in labels)
    records = {k: v for k, v in state.store.items() if not k.startswith(_PREDICTION_PREFIX)}
    return AnnotatorRun(
        annotator_id=annotator_id,
        label=prediction.label if ok else None,
        distribution=prediction.distribution if ok else None,
        parse_ok=ok,
        error=None if ok else (prediction.error or "no label"),
        model_calls=prediction.model_calls,
        answers=list(prediction.answers),
        rationale=prediction.rationale,
        records=records,
    )


def pool_runs(
    runs: Sequence[AnnotatorRun], annotators: Sequence[ItemAnnotator], labels: Sequence[str]
) -> dict[str, float] | None:
    """The item's distribution pooled from its annotators' runs.

    Args:
        runs: One run per annotator, in the order of ``annotators``.
        annotators: The item's annotators (their survey weights).
        labels: The scale's labels.

    Returns:
        Label -> share: each run that gave a label adds its annotator's weight to that
        label (spread over its distribution, when it gave one); None when no run did.
    """
    totals = np.zeros(len(labels))
    for run, annotator in zip(runs, annotators):
        if not run.parse_ok or run.label is None:
            continue
        if run.distribution:
            vector = np.array([float(run.distribution.get(label, 0.0)) for label in labels])
            if vector.sum() <= 0:
                vector = np.array([float(label == run.label) for label in labels])
        else:
            vector = np.array([float(label == run.label) for label in labels])
        totals += annotator.weight * vector / vector.sum()
    mass = float(totals.sum())
    if mass <= 0:
        return None
    return dict(zip(labels, (totals / mass).tolist()))


async def _pool(method: str, solve: Solver, state: TaskState, generate: Generate) -> TaskState:
    metadata = item_sample(state.metadata)
    labels = metadata.labels

    async def one(annotator: ItemAnnotator) -> AnnotatorRun:
        sub = TaskState(
            model=state.model,
            sample_id=f"{annotator.annotator_id}:{metadata.item_id}",
            epoch=state.epoch,
            input=state.input,
            messages=list(state.messages),
            target=Target(annotator.label),
            metadata=metadata.annotator_metadata(annotator).sample_metadata(),
        )
        async with span(ANNOTATOR_SPAN.format(annotator.annotator_id), type="annotator"):
            sub = await solve(sub, generate)
        return _run(annotator.annotator_id, sub, labels)

    runs = await gather(*(one(a) for a in metadata.annotators))
    distribution = pool_runs(runs, metadata.annotators, labels)
    voted = ", ".join(f"{r.annotator_id}: {r.label or 'unparsed'}" for r in runs)
    label = max(labels, key=lambda name: distribution[name]) if distribution else None
    Prediction.detached(
        method=method,
        label=label,
        distribution=distribution,
        parse_ok=distribution is not None,
        error=None if distribution else "no annotator's run gave a label",
        rationale=f"pooled from {sum(r.parse_ok for r in runs)} of {len(runs)} annotators "
        f"({voted})",
        aggregate="pooled",
        model_calls=sum(r.model_calls for r in runs),
    ).write_to(state.store)
    AnnotatorPredictions.detached(
        method=method,
        runs=list(runs),
        weighted=any(a.weight != 1.0 for a in metadata.annotators),
    ).write_to(state.store)
    return state


def pooled(method: str, solve: Solver) -> Solver:
    """A per-annotator solve step that also runs on item samples, once per annotator.

    Args:
        method: The method's name (recorded in the item's prediction).
        solve: The method's solve step for one annotator sample.

    Returns:
        A solve step: ``solve`` itself on annotator samples; on item samples of the
        distribution target, ``solve`` for each of the item's annotators (concurrently,
        in sub-states), pooled into the item's
        :class:`~inspect_plural.prediction.Prediction` with the runs kept as
        :class:`~inspect_plural.item_records.AnnotatorPredictions`.
    """

    async def run(state: TaskState, generate: Generate) -> TaskState:
        if not is_item_sample(state.metadata):
            return await solve(state, generate)
        return await _pool(method, solve, state, generate)

    return run
