"""Scorers and corpus metrics of the PERSE tasks (Per-MPST scores, Per-DOC choices).

Per-MPST (:func:`review_scorer`), per sample: ``gold``, and when the method gave a
score ``pred``, ``abs_error`` and ``exact`` (the prediction rounded half up equals the
gold score); ``review_rouge1`` (ROUGE-1 F1 of the written review against the
reviewer's own, PERSE Table 3) when a review was written; ``cold_start``; ``parse_ok``,
``model_calls``, ``tokens``, ``n_answers``, ``failed_answers``.

:func:`review_metrics` are pooled over every (story, reviewer) row, as the official
``get_score.py`` computes them: Pearson, Spearman, Kendall tau-b (scipy), exact-match
``accuracy`` and ``mae``. ``failures="midpoint"`` (default) keeps a row without a score,
predicting the middle of the scale (5.5) for the correlations and MAE and counting it
wrong for accuracy; ``failures="drop"`` (``metrics_preset=perse``) leaves it out, as the
official code does. ``parse_failures`` counts such rows either way.

Per-DOC (:func:`choice_scorer`), per sample: ``correct``, ``na`` (the answer was
``N/A``), ``parse_ok``, with ``both_orders`` also ``consistent`` (both orders parsed and
gave the same answer, N/A included) and ``first_shown`` (share of answers choosing the plot shown
first), and the cost keys. :func:`choice_metrics` gives ``accuracy/{aspect}``,
``n/{aspect}``, ``accuracy`` (the mean over aspects, the paper's Average column),
``accuracy_micro``, ``na_answers``, ``position_consistency`` and ``first_shown_rate``.
A failed parse counts as wrong (``failures="wrong"``) or is left out (``drop``, the
official rule: rows whose prediction is -1 are filtered; N/A stays and is wrong).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, Literal, cast

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState
from rouge_score import rouge_scorer

from inspect_plural.prediction import Prediction
from inspect_plural.records import PairSampleMetadata, ReviewSampleMetadata
from inspect_plural.scorers._correlation import COEFFICIENTS, correlations
from inspect_plural.scorers.ratings import rating_cost
from inspect_plural.scorers.role import parse_failures

__all__ = [
    "ChoiceFailures",
    "PERSONAL_PRESETS",
    "ReviewFailures",
    "choice_metrics",
    "choice_scorer",
    "choice_summary",
    "review_metrics",
    "review_scorer",
    "review_summary",
]

ReviewFailures = Literal["midpoint", "drop"]
ChoiceFailures = Literal["wrong", "drop"]

PERSONAL_PRESETS: dict[str, tuple[ReviewFailures, ChoiceFailures]] = {
    "default": ("midpoint", "wrong"),
    "perse": ("drop", "drop"),
}
"""``metrics_preset`` -> how Per-MPST and Per-DOC metrics treat answers that failed."""

_ROUGE = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)


def _values(scores: list[SampleScore]) -> Iterator[tuple[dict[str, float], dict[str, Any]]]:
    for sample_score in scores:
        value = sample_score.score.value
        if isinstance(value, dict):
            yield cast(dict[str, float], value), dict(sample_score.sample_metadata or {})


def _cost(prediction: Prediction) -> dict[str, float]:
    return {
        "parse_ok": float(prediction.parse_ok),
        "model_calls": float(prediction.model_calls),
        "tokens": float(prediction.tokens),
        "n_answers": float(len(prediction.answers)),
        "failed_answers": float(sum(1 for a in prediction.answers if not a.parse_ok)),
    }


def _round_half_up(value: float) -> float:
    return float(math.floor(value + 0.5))


# --------------------------------------------------------------------------------------
# Per-MPST
# --------------------------------------------------------------------------------------


def review_summary(
    scores: list[SampleScore],
    failures: ReviewFailures = "midpoint",
    low: float = 1,
    high: float = 10,
) -> dict[str, float]:
    """The pooled Per-MPST metrics of a list of sample scores.

    Args:
        scores: The ``review_scorer`` scores.
        failures: ``midpoint`` or ``drop`` (module docstring).
        low: Lowest score of the scale.
        high: Highest score of the scale.

    Returns:
        ``pearson``, ``spearman``, ``kendall`` (with ``{coef}_undefined = 1`` when NaN),
        ``accuracy``, ``mae``, ``n`` (rows behind them), ``cold_start`` (rows) and
        ``review_rouge1`` (mean over the rows with a written review).
    """
    if failures not in ("midpoint", "drop"):
        raise ValueError(f"failures must be midpoint or drop, not {failures!r}")
    middle = (low + high) / 2
    preds: list[float] = []
    golds: list[float] = []
    exact: list[float] = []
    rouge: list[float] = []
    cold = 0.0
    for value, _ in _values(scores):
        if "gold" not in value:
            continue
        cold += value.get("cold_start", 0.0)
        if "review_rouge1" in value:
            rouge.append(float(value["review_rouge1"]))
        if "pred" in value:
            preds.append(float(value["pred"]))
            exact.append(float(value.get("exact", 0.0)))
        elif failures == "midpoint":
            preds.append(middle)
            exact.append(0.0)
        else:
            continue
        golds.append(float(value["gold"]))
    result = correlations(preds, golds, mode="pooled")
    report: dict[str, float] = {name: result.coefficient(name) for name in COEFFICIENTS}
    for name in COEFFICIENTS:
        if name in result.reasons:
            report[f"{name}_undefined"] = 1.0
    pred_array, gold_array = np.asarray(preds), np.asarray(golds)
    report.update(
        {
            "accuracy": float(np.mean(exact)) if exact else math.nan,
            "mae": float(np.mean(np.abs(pred_array - gold_array))) if preds else math.nan,
            "n": float(len(preds)),
            "cold_start": cold,
        }
    )
    if rouge:
        report["review_rouge1"] = float(np.mean(rouge))
    return report


@metric
def review_metrics(failures: str = "midpoint", low: float = 1.0, high: float = 10.0) -> Metric:
    """Pooled correlations, exact-match accuracy and MAE of Per-MPST scores.

    Args:
        failures: ``midpoint`` (a row without a score predicts the scale's middle and is
            wrong for accuracy) or ``drop`` (left out, as the official code does).
        low: Lowest score of the scale.
        high: Highest score of the scale.

    Returns:
        The metric (keys of :func:`review_summary`).
    """
    mode = cast(ReviewFailures, failures)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return review_summary(scores, mode, low, high)

    return compute


def _review_text(prediction: Prediction) -> str | None:
    return next((a.review for a in prediction.answers if a.review), None)


@scorer(metrics=[review_metrics(), parse_failures(), rating_cost()])
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
        if "cold_start" in prediction.flags:
            value["cold_start"] = 1.0
        review = _review_text(prediction)
        reference = metadata.review.target.review
        if review and reference.strip():
            value["review_rouge1"] = float(_ROUGE.score(reference, review)["rouge1"].fmeasure)
        return Score(
            value=value,
            answer=None if not usable else f"{pred:g}",
            explanation=review or (prediction.rationale if usable else prediction.error),
            metadata={"flags": list(prediction.flags)},
        )

    return score


# --------------------------------------------------------------------------------------
# Per-DOC
# --------------------------------------------------------------------------------------


def choice_summary(
    scores: list[SampleScore], failures: ChoiceFailures = "wrong"
) -> dict[str, float]:
    """Per-aspect and averaged accuracy of Per-DOC choices.

    Args:
        scores: The ``choice_scorer`` scores.
        failures: ``wrong`` or ``drop`` (module docstring).

    Returns:
        ``accuracy/{aspect}`` and ``n/{aspect}`` per aspect, ``accuracy`` (mean over the
        aspects), ``accuracy_micro``, ``na_answers`` (count), ``position_consistency``
        and ``first_shown_rate`` (NaN without ``both_orders``).
    """
    if failures not in ("wrong", "drop"):
        raise ValueError(f"failures must be wrong or drop, not {failures!r}")
    by_aspect: dict[str, list[float]] = {}
    na = 0.0
    consistent: list[float] = []
    first: list[float] = []
    for value, sample_metadata in _values(scores):
        if "consistent" in value:
            consistent.append(float(value["consistent"]))
        if "first_shown" in value:
            first.append(float(value["first_shown"]))
        na += value.get("na", 0.0)
        if failures == "drop" and value.get("parse_ok", 1.0) < 1.0:
            continue
        aspect = str(sample_metadata.get("aspect", "all"))
        by_aspect.setdefault(aspect, []).append(float(value.get("correct", 0.0)))
    report: dict[str, float] = {}
    for aspect, values in by_aspect.items():
        report[f"accuracy/{aspect}"] = float(np.mean(values))
        report[f"n/{aspect}"] = float(len(values))
    every = [v for values in by_aspect.values() for v in values]
    report["accuracy"] = (
        float(np.mean([report[f"accuracy/{a}"] for a in by_aspect])) if by_aspect else math.nan
    )
    report["accuracy_micro"] = float(np.mean(every)) if every else math.nan
    report["na_answers"] = na
    report["position_consistency"] = float(np.mean(consistent)) if consistent else math.nan
    report["first_shown_rate"] = float(np.mean(first)) if first else math.nan
    return report


@metric
def choice_metrics(failures: str = "wrong") -> Metric:
    """Per-aspect and averaged accuracy of Per-DOC choices, N/A answers, position effects.

    Args:
        failures: ``wrong`` (a failed parse is a wrong answer) or ``drop`` (left out, as
            the official code does).

    Returns:
        The metric (keys of :func:`choice_summary`).
    """
    mode = cast(ChoiceFailures, failures)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return choice_summary(scores, mode)

    return compute


def _first_shown(label: str | None, order: str | None) -> float | None:
    if label not in ("Plot A", "Plot B"):
        return None
    return float(label == ("Plot A" if order != "BA" else "Plot B"))


@scorer(metrics=[choice_metrics(), parse_failures(), rating_cost()])
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
        return Score(
            value=value,
            answer=label,
            explanation=prediction.error if label is None else prediction.rationale,
            metadata={"flags": list(prediction.flags)},
        )

    return score
