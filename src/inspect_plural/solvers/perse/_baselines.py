"""PERSE's baselines without a model call (§4.2): the prior average and matrix factorisation.

- :func:`prior_average`: on Per-MPST, the mean of the reviewer's k prior scores; at
  k = 0, a score drawn uniformly from the scale's integers with the seed, the sample and
  the epoch (PERSE §5.2: "we randomly selected a score between 1 to 10 for the simple
  baseline for k = 0"); on Per-DOC (k = 1), the annotator's earlier choice, as the
  paper does.
- :func:`matrix_factorization`: Per-MPST only. A reviewer x story factorisation fitted
  by the task on the training reviewers' full histories
  (:mod:`~inspect_plural.solvers.perse._factorization`), with the validation reviewer folded
  in from their k prior scores (at k = 0 from none: the global mean plus the story's
  bias, a non-personalised prediction). A story no training reviewer scored is a cold
  start: the prediction is the global mean plus the reviewer's bias, flagged
  ``cold_start``. The
  paper notes it cannot apply to Per-DOC, whose plots and annotators are all unseen;
  there it raises.
"""

from __future__ import annotations

import random
from statistics import fmean

from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.prediction import Prediction
from inspect_plural.records import PairSampleMetadata, ReviewSampleMetadata
from inspect_plural.solvers.perse._factorization import fold_in_predict

__all__ = ["COLD_START", "NO_TRAINING", "matrix_factorization", "prior_average"]

COLD_START = "cold_start"
"""Flag of a factorisation prediction for a story the fit never saw."""
NO_TRAINING = "no training reviewers: matrix factorisation cannot apply"
"""Error of a factorisation prediction when the task has no training reviewers."""
PAIRWISE_UNSUPPORTED = (
    "matrix_factorization cannot apply to pairwise comparisons: Per-DOC's plots and "
    "annotators are all unseen in training (PERSE §4.2); use prior_average or perse_aspect"
)


def _is_pairwise(state: TaskState) -> bool:
    return "preference" in state.metadata


def _bounds(metadata: ReviewSampleMetadata) -> tuple[float, float]:
    scale = metadata.scale
    low = scale.low if scale is not None and scale.low is not None else 1.0
    high = scale.high if scale is not None and scale.high is not None else 10.0
    return low, high


@solver
def prior_average(seed: int = 42) -> Solver:
    """The mean of the reviewer's prior scores (Per-DOC: their earlier choice); 0 calls.

    Args:
        seed: Seed of the random score drawn at k = 0 (no prior score).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if _is_pairwise(state):
            pair = state.metadata_as(PairSampleMetadata)
            choice = pair.preference.example.choice
            Prediction.detached(
                method="prior_average",
                label=choice,
                parse_ok=True,
                rationale=f"the annotator's earlier choice on this aspect: {choice}",
            ).write_to(state.store)
            return state
        metadata = state.metadata_as(ReviewSampleMetadata)
        scores = [item.score for item in metadata.review.history]
        if not scores:
            low, high = _bounds(metadata)
            rng = random.Random(f"{seed}:prior_average:{state.sample_id}:{state.epoch}")
            drawn = float(rng.randint(int(low), int(high)))
            Prediction.detached(
                method="prior_average",
                score=drawn,
                parse_ok=True,
                rationale=f"k = 0, no prior score: a random score of {low:g}-{high:g}: {drawn:g}",
            ).write_to(state.store)
            return state
        mean = fmean(scores)
        Prediction.detached(
            method="prior_average",
            score=mean,
            parse_ok=True,
            rationale=f"mean of {len(scores)} prior scores {[f'{s:g}' for s in scores]}",
        ).write_to(state.store)
        return state

    return solve


@solver
def matrix_factorization() -> Solver:
    """Reviewer x story factorisation with the reviewer folded in (Per-MPST); 0 calls.

    The fit (factors, regularisation) is configured on the task (``mf_factors``,
    ``mf_reg``) because it runs once per task, on the training reviewers.

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.

    Raises:
        ValueError: On a pairwise (Per-DOC) sample.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if _is_pairwise(state):
            raise ValueError(PAIRWISE_UNSUPPORTED)
        metadata = state.metadata_as(ReviewSampleMetadata)
        factors = metadata.training_factors
        if factors is None:
            Prediction.detached(
                method="matrix_factorization", parse_ok=False, error=NO_TRAINING
            ).write_to(state.store)
            return state
        low, high = _bounds(metadata)
        review = metadata.review
        prediction, cold = fold_in_predict(
            factors,
            [(item.item_id, item.score) for item in review.history],
            review.target.item_id,
            low,
            high,
        )
        Prediction.detached(
            method="matrix_factorization",
            score=prediction,
            parse_ok=True,
            rationale=(
                "cold start: no training reviewer scored this story; global mean plus the "
                "reviewer's bias"
                if cold
                else f"factorisation of {factors.reviewers} training reviewers' "
                f"{factors.ratings} scores, reviewer folded in from {len(review.history)}"
            ),
            flags=[COLD_START] if cold else [],
        ).write_to(state.store)
        return state

    return solve
