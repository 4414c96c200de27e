"""Non-LLM baselines for annotator-level tasks: they set the ``Prediction`` without a model call.

They give honest reference rows for every table and let the whole pipeline run on real
data offline. Both read only what the split lets a method see: the annotator's own
training (or adaptation) judgments, and the training pool's vote counts.
"""

from __future__ import annotations

import random
from collections import Counter

from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.prediction import Prediction
from inspect_plural.records import annotator_sample
from inspect_plural.solvers._answers import AnswerMode, check_answer_format
from inspect_plural.solvers._pooling import pooled

__all__ = ["annotator_majority", "item_majority", "majority_label", "vote_shares"]


def majority_label(votes: dict[str, int], labels: list[str], rng: random.Random) -> str | None:
    """The most voted label; ties broken with ``rng`` (None when there are no votes).

    Args:
        votes: Label -> count.
        labels: The scale's labels (ties are drawn in this order, so draws are stable).
        rng: The seeded generator that breaks ties.

    Returns:
        The label, or None.

    """
    counts = {label: votes.get(label, 0) for label in labels}
    best = max(counts.values(), default=0)
    if best <= 0:
        return None
    tied = [label for label in labels if counts[label] == best]
    return tied[0] if len(tied) == 1 else rng.choice(tied)


def vote_shares(votes: dict[str, int], labels: list[str]) -> dict[str, float] | None:
    """The votes as a distribution over the labels (None when there are none)."""
    total = sum(votes.get(label, 0) for label in labels)
    if total <= 0:
        return None
    return {label: votes.get(label, 0) / total for label in labels}


def _write(
    state: TaskState,
    method: str,
    label: str | None,
    source: str,
    votes: dict[str, int],
    mode: AnswerMode,
    labels: list[str],
) -> None:
    shown = ", ".join(f"{k}: {v}" for k, v in votes.items() if v) or "none"
    Prediction.detached(
        method=method,
        label=label,
        distribution=vote_shares(votes, labels) if mode == "distribution" and label else None,
        parse_ok=label is not None,
        error=None if label is not None else "no votes to take a majority of",
        rationale=f"majority of {source} ({shown})",
        aggregate=source,
        model_calls=0,
    ).write_to(state.store)


@solver
def annotator_majority(seed: int = 42, answer_format: str = "label") -> Solver:
    """Predict the annotator's most frequent label among the judgments it may see.

    The counts are ``own_votes`` (all the annotator's example judgments, however many
    ``training`` shows), or the labels in ``training`` when a task does not provide them.

    Falls back to the item's majority among the training pool, then to the pool's
    overall majority, when the annotator has no training judgments (e.g. PersEval with
    ``adaptation=none``). Ties are broken by a generator seeded with ``seed`` and the
    annotator id. The fallback used is recorded in ``Prediction.aggregate``.

    Args:
        seed: Seed of the tie-breaking.
        answer_format: ``label``, or ``distribution`` (the vote shares behind the
            majority, so the calibration metrics apply).

    Returns:
        A solver that makes no model call.

    """
    mode = check_answer_format(answer_format)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = annotator_sample(state.metadata)
        labels = metadata.labels
        rng = random.Random(f"{seed}:annotator_majority:{metadata.annotator_id}")
        own = metadata.own_votes or dict(
            Counter(ex.label for ex in metadata.training if ex.label in labels)
        )
        for source, votes in (
            ("annotator", own),
            ("item", metadata.item_votes),
            ("pool", metadata.pool_votes),
        ):
            label = majority_label(votes, labels, rng)
            if label is not None:
                _write(state, "annotator_majority", label, source, votes, mode, labels)
                return state
        _write(state, "annotator_majority", None, "none", {}, mode, labels)
        return state

    return pooled("annotator_majority", solve)


@solver
def item_majority(seed: int = 42, answer_format: str = "label") -> Solver:
    """Predict the item's majority label among the training pool (other people's labels).

    In the PersEval split the pool is the training users' judgments (plus the adaptation
    set unless ``adaptation=none``); without ``extended`` it holds no judgment of a test
    item, so the prediction falls back to the pool's overall majority, which is recorded
    in ``Prediction.aggregate``. Ties are broken by a generator seeded with ``seed`` and
    the item id.

    Args:
        seed: Seed of the tie-breaking.
        answer_format: ``label``, or ``distribution`` (the vote shares behind the
            majority, so the calibration metrics apply).

    Returns:
        A solver that makes no model call.

    """
    mode = check_answer_format(answer_format)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = annotator_sample(state.metadata)
        labels = metadata.labels
        rng = random.Random(f"{seed}:item_majority:{metadata.item_id}")
        for source, votes in (("item", metadata.item_votes), ("pool", metadata.pool_votes)):
            label = majority_label(votes, labels, rng)
            if label is not None:
                _write(state, "item_majority", label, source, votes, mode, labels)
                return state
        _write(state, "item_majority", None, "none", {}, mode, labels)
        return state

    return pooled("item_majority", solve)
