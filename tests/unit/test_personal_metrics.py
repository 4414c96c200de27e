"""PERSE scorers and corpus metrics: Per-MPST scores (pooled) and Per-DOC choices (per aspect)."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import numpy as np
import pytest
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState
from inspect_ai.util import Store
from rouge_score import rouge_scorer
from scipy.stats import kendalltau, pearsonr, spearmanr

from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.records import (
    PairExample,
    PairwisePreference,
    PersonalReview,
    PlotPair,
    ScoredReview,
)
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.personal import (
    PERSONAL_PRESETS,
    choice_metrics,
    choice_scorer,
    choice_summary,
    review_metrics,
    review_scorer,
    review_summary,
)
from inspect_plural.tasks.perse import preference_record_to_sample, review_record_to_sample


def _sample(value: dict[str, float], metadata: dict[str, Any] | None = None) -> SampleScore:
    return SampleScore(score=Score(value=value), sample_id="s", sample_metadata=metadata or {})


def _row(pred: float | None, gold: float, **extra: float) -> SampleScore:
    value: dict[str, float] = {"gold": gold, **extra}
    if pred is not None:
        value["pred"] = pred
        value["exact"] = float(math.floor(pred + 0.5) == gold)
        value["abs_error"] = abs(pred - gold)
    return _sample(value)


# Ties on both sides (7, 7 and 8, 8), one failed row (gold 6) and two exact hits.
ROWS: list[tuple[float | None, float]] = [
    (7.0, 8.0),
    (7.0, 7.0),
    (5.0, 4.0),
    (9.0, 8.0),
    (3.0, 3.0),
    (None, 6.0),
]


def _rows() -> list[SampleScore]:
    return [_row(p, g) for p, g in ROWS]


# --------------------------------------------------------------------------------------
# review_summary
# --------------------------------------------------------------------------------------


def test_review_summary_drop_matches_scipy() -> None:
    """The official rule: a row without a score is left out."""
    report = review_summary(_rows(), failures="drop")
    preds = [p for p, _ in ROWS if p is not None]
    golds = [g for p, g in ROWS if p is not None]
    assert report["pearson"] == pytest.approx(pearsonr(preds, golds).statistic)
    assert report["spearman"] == pytest.approx(spearmanr(preds, golds).statistic)
    assert report["kendall"] == pytest.approx(kendalltau(preds, golds, variant="b").statistic)
    # tau-b, not tau-c: the two differ with these ties
    tau_c = kendalltau(preds, golds, variant="c").statistic
    assert report["kendall"] != pytest.approx(tau_c)
    assert report["accuracy"] == pytest.approx(2 / 5)
    assert report["mae"] == pytest.approx((1 + 0 + 1 + 1 + 0) / 5)
    assert report["n"] == 5
    assert not any(k.endswith("_undefined") for k in report)


def test_review_summary_midpoint_substitutes_5_5_and_counts_the_row_wrong() -> None:
    report = review_summary(_rows())  # default: midpoint
    preds = [5.5 if p is None else p for p, _ in ROWS]
    golds = [g for _, g in ROWS]
    assert report["pearson"] == pytest.approx(pearsonr(preds, golds).statistic)
    assert report["spearman"] == pytest.approx(spearmanr(preds, golds).statistic)
    assert report["kendall"] == pytest.approx(kendalltau(preds, golds, variant="b").statistic)
    assert report["accuracy"] == pytest.approx(2 / 6)
    # the failed row (gold 6) adds a random score's expected error, (5+4+3+2+1+0+1+2+3+4)/10
    # = 2.5, not the midpoint's 0.5: a failure never beats chance
    assert report["mae"] == pytest.approx((1 + 0 + 1 + 1 + 0 + 2.5) / 6)
    assert report["n"] == 6
    assert report["pearson"] != pytest.approx(review_summary(_rows(), "drop")["pearson"])


def test_review_summary_midpoint_follows_the_scale() -> None:
    rows = [_row(2.0, 2.0), _row(4.0, 5.0), _row(None, 1.0)]
    report = review_summary(rows, failures="midpoint", low=1, high=5)
    # the failure (gold 1 on 1-5) adds a random score's expected error (0+1+2+3+4)/5 = 2
    assert report["mae"] == pytest.approx((0 + 1 + 2) / 3)


def test_review_summary_constant_predictions_are_undefined() -> None:
    rows = [_row(6.0, 3.0), _row(6.0, 8.0), _row(6.0, 6.0)]
    report = review_summary(rows)
    for name in ("pearson", "spearman", "kendall"):
        assert math.isnan(report[name])
        assert report[f"{name}_undefined"] == 1.0
    assert report["accuracy"] == pytest.approx(1 / 3)
    assert report["mae"] == pytest.approx(5 / 3)


def test_review_summary_all_failed_and_dropped_is_nan() -> None:
    report = review_summary([_row(None, 4.0), _row(None, 7.0)], failures="drop")
    assert report["n"] == 0
    assert math.isnan(report["accuracy"]) and math.isnan(report["mae"])
    assert report["pearson_undefined"] == 1.0


def test_review_summary_cold_start_rouge_and_rows_without_gold() -> None:
    rows = [
        _row(7.0, 8.0, cold_start=1.0, review_rouge1=0.5),
        _row(3.0, 2.0, review_rouge1=0.2),
        _row(None, 5.0, cold_start=1.0),
        _row(9.0, 9.0),
        _sample({"pred": 1.0, "exact": 1.0, "cold_start": 1.0}),  # no gold: ignored
        SampleScore(score=Score(value=4.0), sample_id="x"),  # not a dict: ignored
    ]
    report = review_summary(rows)
    assert report["cold_start"] == 2.0
    assert report["review_rouge1"] == pytest.approx(0.35)
    assert report["n"] == 4
    assert report["accuracy"] == pytest.approx(1 / 4)
    assert "review_rouge1" not in review_summary([_row(7.0, 8.0)])


def test_review_summary_bad_failures_value() -> None:
    with pytest.raises(ValueError, match="midpoint or drop"):
        review_summary(_rows(), failures="wrong")  # type: ignore[arg-type]


def test_review_metric_passes_its_options() -> None:
    rows = _rows()
    full = review_metrics(failures="drop", level="full")(rows)  # type: ignore[arg-type]
    assert full == review_summary(rows, "drop")
    assert review_metrics()(rows)["n"] == 6  # type: ignore[arg-type,index]
    assert PERSONAL_PRESETS["perse"] == ("drop", "drop")


# --------------------------------------------------------------------------------------
# choice_summary
# --------------------------------------------------------------------------------------


def _choice(aspect: str | None, correct: bool, **extra: float) -> SampleScore:
    value = {"correct": float(correct), "na": 0.0, "parse_ok": 1.0, **extra}
    return _sample(value, {"aspect": aspect} if aspect else {})


def test_choice_summary_accuracy_is_the_mean_over_aspects() -> None:
    rows = [
        _choice("x", True),
        _choice("x", True),
        _choice("y", True),
        _choice("y", False),
        _choice("y", False),
        _choice("y", False),
    ]
    report = choice_summary(rows)
    assert report["accuracy/x"] == 1.0 and report["n/x"] == 2
    assert report["accuracy/y"] == 0.25 and report["n/y"] == 4
    assert report["accuracy"] == pytest.approx(0.625)
    assert report["accuracy_micro"] == pytest.approx(0.5)
    assert report["na_answers"] == 0
    assert "position_consistency" not in report  # inapplicable: absent, not NaN
    assert "first_shown_rate" not in report


def test_choice_summary_na_answers_are_wrong_and_counted() -> None:
    rows = [_choice("x", True), _choice("x", False, na=1.0), _choice("x", False, na=1.0)]
    for failures in ("wrong", "drop"):
        report = choice_summary(rows, failures)  # type: ignore[arg-type]
        assert report["na_answers"] == 2
        assert report["accuracy/x"] == pytest.approx(1 / 3)
        assert report["n/x"] == 3


def test_choice_summary_failures_wrong_or_drop() -> None:
    rows = [
        _choice("x", True),
        _choice("x", False, parse_ok=0.0),
        _choice("y", True),
        _choice("y", False),
        _choice("y", False, parse_ok=0.0),
    ]
    wrong = choice_summary(rows, "wrong")
    assert (wrong["accuracy/x"], wrong["n/x"]) == (0.5, 2)
    assert wrong["accuracy/y"] == pytest.approx(1 / 3)
    assert wrong["accuracy_micro"] == pytest.approx(2 / 5)
    drop = choice_summary(rows, "drop")
    assert (drop["accuracy/x"], drop["n/x"]) == (1.0, 1)
    assert (drop["accuracy/y"], drop["n/y"]) == (0.5, 2)
    assert drop["accuracy"] == pytest.approx(0.75)
    assert drop["accuracy_micro"] == pytest.approx(2 / 3)
    assert choice_metrics(failures="drop", level="full")(rows) == drop  # type: ignore[arg-type]


def test_choice_summary_only_failures_dropped_is_nan() -> None:
    report = choice_summary([_choice("x", False, parse_ok=0.0)], "drop")
    assert "accuracy/x" not in report
    assert math.isnan(report["accuracy"]) and math.isnan(report["accuracy_micro"])


def test_choice_summary_position_effects_over_rows_that_have_them() -> None:
    rows = [
        _choice("x", True, consistent=1.0, first_shown=0.5),
        _choice("x", True, consistent=0.0, first_shown=1.0),
        _choice("x", False, first_shown=0.0),  # one order failed: no consistent
        _choice("x", False),  # single order: neither
    ]
    report = choice_summary(rows)
    assert report["position_consistency"] == pytest.approx(0.5)
    assert report["first_shown_rate"] == pytest.approx(0.5)


def test_choice_summary_defaults_aspect_and_rejects_bad_failures() -> None:
    report = choice_summary([_choice(None, True), _choice(None, False)])
    assert report["accuracy/all"] == 0.5 and report["n/all"] == 2
    with pytest.raises(ValueError, match="wrong or drop"):
        choice_summary([], failures="midpoint")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# review_scorer end to end
# --------------------------------------------------------------------------------------

REFERENCE = "A tense and clever thriller with a great cast and a twist ending."


def _review_record(gold: float = 8.0, reference: str = REFERENCE) -> PersonalReview:
    def scored(item: str, score: float, review: str) -> ScoredReview:
        return ScoredReview(
            item_id=item, title=item, plot=f"Plot of {item}.", review=review, score=score
        )

    return PersonalReview(
        id="critic/tt3",
        reviewer_id="critic",
        history=[scored("tt1", 6.0, "Fine."), scored("tt2", 9.0, "Superb.")],
        target=scored("tt3", gold, reference),
    )


def _state(sample: Any, prediction: Prediction) -> TaskState:
    state = TaskState(
        model=ModelName("plural/random"),
        sample_id=sample.id,
        epoch=1,
        input=sample.input,
        messages=[],
        target=Target(sample.target),
        metadata=sample.metadata,
    )
    prediction.write_to(state.store)
    return state


def _score_review(prediction: Prediction, record: PersonalReview | None = None) -> Score:
    sample = review_record_to_sample(record or _review_record())
    state = _state(sample, prediction)
    score = asyncio.run(review_scorer()(state, Target(sample.target)))
    assert score is not None
    return score


def _review_prediction(score: float | None, review: str | None = None, **kw: Any) -> Prediction:
    answers = [ModelAnswer(raw="...", parse_ok=score is not None, review=review)]
    fields: dict[str, Any] = {"parse_ok": score is not None, "answers": answers}
    fields.update(kw)
    return Prediction(store=Store(), method="perse_review", score=score, **fields)


def test_review_scorer_half_up_exact_abs_error_and_rouge() -> None:
    review = "A clever thriller, tense but with a weak twist."
    score = _review_prediction(7.5, review, model_calls=1, tokens=321)
    value = values_of(_score_review(score))
    assert isinstance(value, dict)
    assert value["gold"] == 8.0
    assert value["pred"] == 7.5
    assert value["exact"] == 1.0  # 7.5 rounds half up to 8
    assert value["abs_error"] == pytest.approx(0.5)
    expected = rouge_scorer.RougeScorer(["rouge1"]).score(REFERENCE, review)["rouge1"].fmeasure
    assert value["review_rouge1"] == pytest.approx(expected)
    assert 0 < value["review_rouge1"] < 1
    assert value["parse_ok"] == 1.0
    assert (value["model_calls"], value["tokens"], value["n_answers"]) == (1.0, 321.0, 1.0)
    assert value["failed_answers"] == 0.0
    assert "cold_start" not in value


@pytest.mark.parametrize(
    ("pred", "gold", "exact"),
    [(6.5, 7.0, 1.0), (6.49, 7.0, 0.0), (8.5, 8.0, 0.0), (7.0, 7.0, 1.0), (2.5, 3.0, 1.0)],
)
def test_review_scorer_rounds_half_up_not_to_even(pred: float, gold: float, exact: float) -> None:
    value = values_of(_score_review(_review_prediction(pred), _review_record(gold)))
    assert isinstance(value, dict)
    assert value["exact"] == exact
    assert value["abs_error"] == pytest.approx(abs(pred - gold))


def test_review_scorer_failed_parse_has_no_pred() -> None:
    prediction = _review_prediction(None, error="no score found in the answer")
    score = _score_review(prediction)
    value = values_of(score)
    assert isinstance(value, dict)
    assert value["gold"] == 8.0 and value["parse_ok"] == 0.0
    assert not {"pred", "exact", "abs_error", "review_rouge1"} & set(value)
    assert value["failed_answers"] == 1.0
    assert score.answer is None


@pytest.mark.parametrize(
    "prediction",
    [
        Prediction(store=Store(), method="m", score=7.0, parse_ok=False, error="x"),
        Prediction(store=Store(), method="m", score=math.nan, parse_ok=True),
        Prediction(store=Store(), method="m", score=None, parse_ok=True),
    ],
)
def test_review_scorer_unusable_scores_have_no_pred(prediction: Prediction) -> None:
    value = values_of(_score_review(prediction))
    assert isinstance(value, dict)
    assert "pred" not in value and value["parse_ok"] == 0.0


def test_review_scorer_cold_start_flag_and_no_review() -> None:
    prediction = Prediction(
        store=Store(),
        method="matrix_factorization",
        score=6.0,
        parse_ok=True,
        flags=["cold_start"],
    )
    value = values_of(_score_review(prediction))
    assert isinstance(value, dict)
    assert value["cold_start"] == 1.0
    assert "review_rouge1" not in value
    assert value["exact"] == 0.0 and value["abs_error"] == 2.0


def test_review_scorer_feeds_review_summary() -> None:
    """Scorer values of three samples, pooled as the task's metric pools them."""
    cases = [(7.5, 8.0), (3.0, 2.0), (None, 6.0)]
    scores = []
    for pred, gold in cases:
        record = _review_record(gold)
        score = _score_review(_review_prediction(pred, "Good."), record)
        scores.append(SampleScore(score=score, sample_id=record.id))
    report = review_summary(scores, "midpoint")
    assert report["n"] == 3
    assert report["accuracy"] == pytest.approx(1 / 3)
    assert report["mae"] == pytest.approx((0.5 + 1.0 + 2.5) / 3)  # the failure: chance error
    assert report["pearson"] == pytest.approx(pearsonr([7.5, 3.0, 5.5], [8, 2, 6]).statistic)


# --------------------------------------------------------------------------------------
# choice_scorer end to end
# --------------------------------------------------------------------------------------


def _preference(choice: str = "Plot A") -> PairwisePreference:
    return PairwisePreference(
        id="interestingness/ann/0",
        annotator_id="ann",
        aspect="interestingness",
        pair=PlotPair(premise="A heist.", plot_a="The crew fails.", plot_b="The crew wins."),
        choice=choice,  # type: ignore[arg-type]
        example=PairExample(pair=PlotPair(plot_a="One.", plot_b="Two."), choice="Plot B"),
    )


def _score_choice(prediction: Prediction, choice: str = "Plot A") -> dict[str, float]:
    sample = preference_record_to_sample(_preference(choice))
    state = _state(sample, prediction)
    score = asyncio.run(choice_scorer()(state, Target(sample.target)))
    assert score is not None and isinstance(score.value, dict)
    return values_of(score)


def _both_orders(first: str | None, second: str | None) -> Prediction:
    """Answers under AB and BA, labels already in the data's order."""
    answers = [
        ModelAnswer(raw="r", parse_ok=label is not None, label=label, order=order)
        for order, label in (("AB", first), ("BA", second))
    ]
    labels = {first, second} - {None}
    final = next(iter(labels)) if len(labels) == 1 else None
    return Prediction(
        store=Store(),
        method="perse_aspect",
        label=final,
        parse_ok=final is not None,
        answers=answers,
        model_calls=2,
    )


def test_choice_scorer_single_answer() -> None:
    prediction = Prediction(
        store=Store(),
        method="perse_aspect",
        label="Plot A",
        parse_ok=True,
        answers=[ModelAnswer(raw="Plot A", parse_ok=True, label="Plot A")],
    )
    value = _score_choice(prediction, "Plot A")
    assert value["correct"] == 1.0 and value["na"] == 0.0 and value["parse_ok"] == 1.0
    assert "consistent" not in value and "first_shown" not in value
    assert _score_choice(prediction, "Plot B")["correct"] == 0.0


def test_choice_scorer_na_is_wrong() -> None:
    prediction = Prediction(store=Store(), method="m", label="N/A", parse_ok=True)
    value = _score_choice(prediction)
    assert (value["correct"], value["na"], value["parse_ok"]) == (0.0, 1.0, 1.0)


def test_choice_scorer_failed_parse() -> None:
    prediction = Prediction(store=Store(), method="m", label="Plot A", parse_ok=False, error="x")
    value = _score_choice(prediction, "Plot A")
    assert value["correct"] == 0.0 and value["parse_ok"] == 0.0 and value["na"] == 0.0


@pytest.mark.parametrize(
    ("ab", "ba", "consistent", "first_shown"),
    [
        ("Plot A", "Plot A", 1.0, 0.5),  # same plot; under BA the first shown is Plot B
        ("Plot B", "Plot B", 1.0, 0.5),
        ("Plot A", "Plot B", 0.0, 1.0),  # always the plot shown first
        ("Plot B", "Plot A", 0.0, 0.0),  # always the plot shown second
        ("Plot A", None, None, 1.0),  # BA failed: no consistency, first_shown from AB
        (None, "Plot B", None, 1.0),
        ("N/A", "Plot B", 0.0, 1.0),  # N/A is no shown plot
        ("N/A", "N/A", 1.0, None),
        (None, None, None, None),
    ],
)
def test_choice_scorer_both_orders(
    ab: str | None, ba: str | None, consistent: float | None, first_shown: float | None
) -> None:
    value = _score_choice(_both_orders(ab, ba))
    if consistent is None:
        assert "consistent" not in value
    else:
        assert value["consistent"] == consistent
    if first_shown is None:
        assert "first_shown" not in value
    else:
        assert value["first_shown"] == first_shown
    assert value["n_answers"] == 2.0
    assert value["failed_answers"] == float((ab is None) + (ba is None))


def test_choice_scorer_feeds_choice_summary() -> None:
    """Two samples through the scorer, then the metric: positions and per-aspect accuracy."""
    scores = []
    for ab, ba, gold in (("Plot A", "Plot A", "Plot A"), ("Plot A", "Plot B", "Plot B")):
        sample = preference_record_to_sample(_preference(gold))
        state = _state(sample, _both_orders(ab, ba))
        score = asyncio.run(choice_scorer()(state, Target(sample.target)))
        assert score is not None
        scores.append(SampleScore(score=score, sample_id=sample.id, sample_metadata=state.metadata))
    report = choice_summary(scores, "wrong")
    assert report["accuracy/interestingness"] == 0.5  # the second is inconsistent: no label
    assert report["n/interestingness"] == 2
    assert report["position_consistency"] == 0.5
    assert report["first_shown_rate"] == pytest.approx(np.mean([0.5, 1.0]))
