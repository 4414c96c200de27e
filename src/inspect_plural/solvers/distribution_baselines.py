"""No-call baselines of the distribution target: every table gets a floor.

- ``uniform``: the same share for every label of the item's scale;
- ``label_prior``: the training pool's label distribution (the share of each label over
  every judgment of the pool; on per-question scales, OpinionQA, the pool's answers to
  the item's own question);
- ``item_majority`` (in :mod:`inspect_plural.solvers.baselines`): run per annotator
  and pooled, it gives every annotator the item's training majority, so the item's
  distribution is that label's one-hot.

On VariErrNLI's label sets the distribution is over the seven sets, so ``uniform``
gives each base label the share 4/7 (four of the seven sets hold it).

The LeWiDi 2025 leaderboard's two baselines, for both its tasks (the soft label of an
item, and each annotator's label for the perspectivist metrics):

- ``lewidi_most_frequent``: the training pool's most frequent label, as a one-hot
  distribution for the soft-label task and as every annotator's label for the
  perspectivist task (a majority-class baseline; its soft prediction is not the label
  prior, which is the ``label_prior`` method);
- ``lewidi_random``: a random distribution per item (a flat Dirichlet draw) and an
  independent, uniformly random label per annotator, seeded by the task seed, the item
  and the annotator, so reruns are identical.

Provenance: the organisers list both rows on the official LeWiDi 2025 leaderboard (linked
from ``index.md`` of Le-Wi-Di/le-wi-di.github.io at commit
``45d7b06e4c36b59472d6bdf9281f7f1e395eb0e0``), but that repository (the data, the
readmes and the evaluation notebook) holds no baseline code, and the overview paper
(Leonardelli et al. 2025, arXiv 2510.08460) could not be read here: the definitions above
are the conventional majority-class and chance baselines, not a copy of theirs. On
VariErrNLI the labels are the seven label sets, so "most frequent" is the most frequent
set and a random label is a random non-empty set.
"""

from __future__ import annotations

import hashlib
import random

from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.item_records import (
    AnnotatorPredictions,
    AnnotatorRun,
    ItemSampleMetadata,
    is_item_sample,
    item_sample,
)
from inspect_plural.prediction import Prediction
from inspect_plural.solvers.baselines import vote_shares

__all__ = ["label_prior", "lewidi_most_frequent", "lewidi_random", "uniform"]


def _item(state: TaskState, method: str) -> ItemSampleMetadata:
    if not is_item_sample(state.metadata):
        raise ValueError(
            f"{method} predicts an item's label distribution: run the task with "
            "-T target=distribution"
        )
    return item_sample(state.metadata)


def _top(distribution: dict[str, float], labels: list[str]) -> str:
    """The most likely label, the first in scale order on ties."""
    return max(labels, key=lambda name: distribution[name])


@solver
def uniform() -> Solver:
    """The uniform distribution over the item's labels (no model call).

    Returns:
        A solver for item samples (``-T target=distribution``).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        labels = _item(state, "uniform").labels
        distribution = {label: 1.0 / len(labels) for label in labels}
        Prediction.detached(
            method="uniform",
            label=_top(distribution, labels),
            distribution=distribution,
            parse_ok=True,
            rationale=f"uniform over the {len(labels)} labels",
            aggregate="uniform",
            model_calls=0,
        ).write_to(state.store)
        return state

    return solve


@solver
def label_prior() -> Solver:
    """The training pool's label distribution (no model call).

    The pool is the split's training judgments (the ``lewidi`` split: the official train
    file, or dev where the release has no train file). Items with scales of their own
    (OpinionQA) take the pool's answers to the same question; an item whose scale the
    pool never labelled gets no prediction (a recorded failure, scored as uniform).

    Returns:
        A solver for item samples (``-T target=distribution``).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = _item(state, "label_prior")
        labels = metadata.labels
        source, votes = ("pool", metadata.pool_votes)
        if not votes:
            source, votes = ("item", metadata.item_votes)
        distribution = vote_shares(votes, labels)
        shown = ", ".join(f"{k}: {v}" for k, v in votes.items() if v) or "none"
        Prediction.detached(
            method="label_prior",
            label=_top(distribution, labels) if distribution else None,
            distribution=distribution,
            parse_ok=distribution is not None,
            error=None if distribution else "the training pool holds no label of this scale",
            rationale=f"training {source} labels ({shown})",
            aggregate=source,
            model_calls=0,
        ).write_to(state.store)
        return state

    return solve


def _write_with_annotators(
    state: TaskState,
    method: str,
    metadata: ItemSampleMetadata,
    distribution: dict[str, float] | None,
    annotator_labels: list[str | None],
    rationale: str,
    error: str | None = None,
) -> None:
    """The item's prediction and each annotator's label (the perspectivist task's)."""
    labels = metadata.labels
    Prediction.detached(
        method=method,
        label=_top(distribution, labels) if distribution else None,
        distribution=distribution,
        parse_ok=distribution is not None,
        error=error,
        rationale=rationale,
        aggregate=method,
        model_calls=0,
    ).write_to(state.store)
    runs = [
        AnnotatorRun(
            annotator_id=annotator.annotator_id,
            label=label,
            parse_ok=label is not None,
            error=None if label is not None else error,
        )
        for annotator, label in zip(metadata.annotators, annotator_labels, strict=True)
    ]
    AnnotatorPredictions.detached(method=method, runs=runs).write_to(state.store)


@solver
def lewidi_most_frequent() -> Solver:
    """LeWiDi 2025's most-frequent baseline: the pool's majority label (no model call).

    The soft label is the one-hot distribution of the training pool's most frequent
    label (the first in scale order on ties); every annotator is predicted that label.
    Items with scales of their own (OpinionQA) take the pool's answers to the same
    question; with no pool label of the scale the prediction fails (scored as uniform,
    every annotator wrong).

    Returns:
        A solver for item samples (``-T target=distribution``).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = _item(state, "lewidi_most_frequent")
        labels = metadata.labels
        source, votes = ("pool", metadata.pool_votes)
        if not any(votes.get(label, 0) for label in labels):
            source, votes = ("item", metadata.item_votes)
        shares = vote_shares(votes, labels)
        if shares is None:
            _write_with_annotators(
                state,
                "lewidi_most_frequent",
                metadata,
                None,
                [None] * len(metadata.annotators),
                "no training label",
                error="the training pool holds no label of this scale",
            )
            return state
        top = _top(shares, labels)
        _write_with_annotators(
            state,
            "lewidi_most_frequent",
            metadata,
            {label: float(label == top) for label in labels},
            [top] * len(metadata.annotators),
            f"the training {source}'s most frequent label: {top}",
        )
        return state

    return solve


def _rng(seed: int, *keys: str) -> random.Random:
    """A generator seeded by the task seed and the keys (stable across processes)."""
    digest = hashlib.sha256("\x00".join([str(seed), *keys]).encode("utf-8")).hexdigest()
    return random.Random(digest)


@solver
def lewidi_random(seed: int = 42) -> Solver:
    """LeWiDi 2025's random baseline: random soft labels and labels (no model call).

    Args:
        seed: The task seed; each item's distribution is a flat Dirichlet draw seeded by
            it and the item, each annotator's label a uniform draw seeded by it, the item
            and the annotator.

    Returns:
        A solver for item samples (``-T target=distribution``).
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = _item(state, "lewidi_random")
        labels = metadata.labels
        rng = _rng(seed, metadata.item_id)
        draws = [rng.gammavariate(1.0, 1.0) for _ in labels]
        total = sum(draws)
        distribution = {label: d / total for label, d in zip(labels, draws)}
        chosen: list[str | None] = [
            _rng(seed, metadata.item_id, a.annotator_id).choice(labels) for a in metadata.annotators
        ]
        _write_with_annotators(
            state,
            "lewidi_random",
            metadata,
            distribution,
            chosen,
            f"random (seed {seed}): a flat Dirichlet draw, a uniform label per annotator",
        )
        return state

    return solve
