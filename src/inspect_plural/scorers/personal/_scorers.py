"""Scorers of the PERSE tasks (Per-MPST scores, Per-DOC choices); their metrics re-exported.

Per-MPST (:func:`review_scorer`), per sample: ``gold``, and when the method gave a
score ``pred``, ``abs_error``, ``exact`` (the prediction rounded half up equals the gold
score) and ``exact_raw`` (the prediction itself equals it, the official script's
comparison); ``review_rouge1`` (ROUGE-1 F1) and ``review_bleu`` (sentence BLEU, 0–100)
of the written review against the reviewer's own (PERSE Table 3) when a review was
written; ``shuffle{e}/pred`` when the prior reviews were shuffled in epoch ``e``
(``-T shuffle_reviews=N``); ``cold_start``; ``parse_ok``, ``model_calls``, ``tokens``,
``n_answers``, ``failed_answers``. Metrics: :func:`review_metrics`.

Per-DOC (:func:`choice_scorer`), per sample: ``correct``, ``na`` (the answer was
``N/A``), ``parse_ok``, with ``both_orders`` also ``consistent`` (both orders parsed and
gave the same answer, N/A included) and ``first_shown`` (share of answers choosing the
plot shown first), and the cost keys. Metrics: :func:`choice_metrics`.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from inspect_plural.prediction import Prediction
from inspect_plural.records import PairSampleMetadata, ReviewSampleMetadata
from inspect_plural.scorers._cost import cost, cost_values
from inspect_plural.scorers._failures import answer_failures, failure_reasons, failure_values
from inspect_plural.scorers._values import make_score
from inspect_plural.scorers.personal._choice_metrics import (
    ChoiceFailures,
    choice_metrics,
    choice_summary,
)
from inspect_plural.scorers.personal._review_metrics import (
    REVIEW_ACCURACY,
    ReviewAccuracy,
    ReviewFailures,
    review_metrics,
    review_summary,
    shuffle_key,
)
from inspect_plural.scorers.personal._review_text import review_bleu, review_rouge1
from inspect_plural.scorers.role import failed_answers, parse_failures

__all__ = [
    "PERSONAL_PRESETS",
    "REVIEW_ACCURACY",
    "SHUFFLED_REVIEWS",
    "ChoiceFailures",
    "PersonalPreset",
    "ReviewAccuracy",
    "ReviewFailures",
    "choice_metrics",
    "choice_scorer",
    "choice_summary",
    "review_metrics",
    "review_scorer",
    "review_summary",
]

PersonalPreset = Literal["default", "perse"]

PERSONAL_PRESETS: dict[str, tuple[ReviewFailures, ChoiceFailures]] = {
    "default": ("midpoint", "wrong"),
    "perse": ("drop", "drop"),
}
"""``metrics_preset`` -> how Per-MPST and Per-DOC metrics treat answers that failed (the
Per-MPST accuracy rule of each preset: :data:`REVIEW_ACCURACY`)."""

REVIEW_SHOWN = ("gold", "pred", "abs_error", "exact")
"""Per-MPST numbers Inspect View shows per sample (the others are in the metadata)."""

CHOICE_SHOWN = ("correct", "consistent")
"""Per-DOC numbers Inspect View shows per sample (the others are in the metadata)."""

SHUFFLED_REVIEWS = "shuffled_reviews"
"""Prediction flag: the prior reviews were shown in the epoch's seeded shuffled order."""


def _cost(prediction: Prediction) -> dict[str, float]:
    return {
        "parse_ok": float(prediction.parse_ok),
        **cost_values(prediction),
        "n_answers": float(len(prediction.answers)),
        "failed_answers": float(sum(1 for a in prediction.answers if not a.parse_ok)),
        **failure_values(answer_failures(prediction)),
    }


def _failure(prediction: Prediction) -> dict[str, str | None]:
    return {} if prediction.parse_ok else {"failure": prediction.failure}


def _round_half_up(value: float) -> float:
    return float(math.floor(value + 0.5))


# --------------------------------------------------------------------------------------
# Per-MPST
# --------------------------------------------------------------------------------------


def _review_text(prediction: Prediction) -> str | None:
    return next((a.review for a in prediction.answers if a.review), None)


@scorer(metrics=[review_metrics(), parse_failures(), failed_answers(), failure_reasons(), cost()])
def review_scorer() -> Scorer:
    """Score a Per-MPST prediction against the reviewer's own score (and review).

    Returns:
        The scorer (the task attaches ``review_metrics`` with its preset).
    """

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(ReviewSampleMetadata)
        prediction = Prediction.read(state.store)
        value: dict[str, float] = {"gold": float(metadata.gold), **_cost(prediction)}
        pred = prediction.score
        usable = prediction.parse_ok and pred is not None and math.isfinite(pred)
        value["parse_ok"] = float(usable)
        if usable:
            assert pred is not None
            value["pred"] = float(pred)
            value["abs_error"] = abs(float(pred) - metadata.gold)
            value["exact"] = float(_round_half_up(float(pred)) == metadata.gold)
            value["exact_raw"] = float(float(pred) == metadata.gold)
            if SHUFFLED_REVIEWS in prediction.flags:
                value[shuffle_key(state.epoch)] = float(pred)
        if "cold_start" in prediction.flags:
            value["cold_start"] = 1.0
        review = _review_text(prediction)
        reference = metadata.review.target.review
        if review and reference.strip():
            value["review_rouge1"] = review_rouge1(reference, review)
            value["review_bleu"] = review_bleu(reference, review)
        return make_score(
            value,
            REVIEW_SHOWN,
            answer=None if not usable else f"{pred:g}",
            explanation=review or (prediction.rationale if usable else prediction.error),
            metadata={"flags": list(prediction.flags), **_failure(prediction)},
        )

    return score


# --------------------------------------------------------------------------------------
# Per-DOC
# --------------------------------------------------------------------------------------


def _first_shown(label: str | None, order: str | None) -> float | None:
    if label not in ("Plot A", "Plot B"):
        return None
    return float(label == ("Plot A" if order != "BA" else "Plot B"))


@scorer(metrics=[choice_metrics(), parse_failures(), failed_answers(), failure_reasons(), cost()])
def choice_scorer() -> Scorer:
    """Score a Per-DOC prediction against the annotator's choice.

    Returns:
        The scorer (the task attaches ``choice_metrics`` with its preset).
    """

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(PairSampleMetadata)
        prediction = Prediction.read(state.store)
        label = prediction.label if prediction.parse_ok else None
        value: dict[str, float] = {
            "correct": float(label == metadata.gold),
            "na": float(label == "N/A"),
            **_cost(prediction),
        }
        value["parse_ok"] = float(label is not None)
        ordered = [a for a in prediction.answers if a.order is not None]
        if len(ordered) == 2:
            parsed = [a.label for a in ordered if a.parse_ok and a.label is not None]
            if len(parsed) == 2:
                value["consistent"] = float(parsed[0] == parsed[1])
            shown = [_first_shown(a.label, a.order) for a in ordered if a.parse_ok]
            known = [s for s in shown if s is not None]
            if known:
                value["first_shown"] = float(np.mean(known))
        return make_score(
            value,
            CHOICE_SHOWN,
            answer=label,
            explanation=prediction.error if label is None else prediction.rationale,
            metadata={"flags": list(prediction.flags), **_failure(prediction)},
        )

    return score
