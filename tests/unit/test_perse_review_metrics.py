"""Per-MPST metrics added for the paper's protocol: raw accuracy, BLEU, shuffles, levels.

Values come from hand-worked examples (the BLEU of a five-of-six-word match, the
correlations of three orderings of four predictions) and are checked against scipy
where a library has the definition.
"""

from __future__ import annotations

import asyncio
import math
import statistics
from typing import Any

import pytest
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Score, Target
from inspect_ai.solver import TaskState
from scipy.stats import kendalltau, pearsonr, spearmanr

from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.records import PersonalReview, ScoredReview
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.personal import (
    PERSONAL_PRESETS,
    REVIEW_ACCURACY,
    SHUFFLED_REVIEWS,
    review_metrics,
    review_scorer,
    review_summary,
)
from inspect_plural.scorers.personal._review_text import review_bleu
from inspect_plural.solvers.perse import SHUFFLED_REVIEWS as SOLVER_FLAG
from inspect_plural.tasks.perse._samples import review_record_to_sample

REFERENCE = "the cat is on the mat"


def _record(gold: float, reference: str = REFERENCE) -> PersonalReview:
    def scored(item: str, score: float, review: str) -> ScoredReview:
        return ScoredReview(item_id=item, plot=f"Plot of {item}.", review=review, score=score)

    return PersonalReview(
        id="critic/tt9",
        reviewer_id="critic",
        history=[scored("tt1", 6.0, "Fine."), scored("tt2", 9.0, "Superb.")],
        target=scored("tt9", gold, reference),
    )


def _score(prediction: Prediction, gold: float, epoch: int = 1) -> dict[str, float]:
    sample = review_record_to_sample(_record(gold))
    state = TaskState(
        model=ModelName("plural/random"),
        sample_id=sample.id or "s",
        epoch=epoch,
        input=sample.input,
        messages=[],
        target=Target(sample.target),
        metadata=sample.metadata,
    )
    prediction.write_to(state.store)
    score = asyncio.run(review_scorer()(state, Target(sample.target)))
    assert score is not None and isinstance(score.value, dict)
    return values_of(score)


def _prediction(score: float | None, review: str | None = None, **kw: Any) -> Prediction:
    answers = [ModelAnswer(raw="...", parse_ok=score is not None, review=review)]
    return Prediction.detached(
        method="perse_review", score=score, parse_ok=score is not None, answers=answers, **kw
    )


def _rows(values: list[dict[str, float]]) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v), sample_id=str(i)) for i, v in enumerate(values)]


# --------------------------------------------------------------------------- accuracy


def test_the_perse_preset_compares_the_raw_prediction() -> None:
    # prior-average-like predictions: 6.5 and 6.67 round to 7, only 7.0 equals 7 itself
    preds, golds = [6.5, 7.0, 20 / 3, 8.0], [7.0, 7.0, 7.0, 9.0]
    values = [_score(_prediction(p), g) for p, g in zip(preds, golds)]
    assert [v["exact"] for v in values] == [1.0, 1.0, 1.0, 0.0]
    assert [v["exact_raw"] for v in values] == [0.0, 1.0, 0.0, 0.0]
    rows = _rows(values)
    assert review_summary(rows)["accuracy"] == 0.75
    assert review_summary(rows, accuracy="raw")["accuracy"] == 0.25
    assert REVIEW_ACCURACY == {"default": "rounded", "perse": "raw"}
    assert PERSONAL_PRESETS["perse"] == ("drop", "drop")
    full = review_summary(rows, accuracy="raw")
    assert (full["accuracy_rounded"], full["accuracy_raw"]) == (0.75, 0.25)


def test_raw_accuracy_without_the_key_compares_pred_and_gold() -> None:
    rows = _rows([{"pred": 7.0, "gold": 7.0, "exact": 1.0}, {"pred": 6.5, "gold": 7.0}])
    assert review_summary(rows, accuracy="raw")["accuracy"] == 0.5
    with pytest.raises(ValueError, match="rounded or raw"):
        review_summary(rows, accuracy="exact")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- BLEU


def test_bleu_of_a_review_by_hand() -> None:
    # 1-4-gram matches of "the cat sat on the mat" against REFERENCE: 5/6, 3/5, 1/4 and
    # 0/3, which exponential smoothing makes 1/(2*3); brevity penalty 1 (6 words each)
    expected = 100 * (5 / 6 * 3 / 5 * 1 / 4 * 1 / 6) ** 0.25
    assert review_bleu(REFERENCE, "the cat sat on the mat") == pytest.approx(expected)
    assert review_bleu(REFERENCE, REFERENCE) == pytest.approx(100.0)
    assert review_bleu(REFERENCE, "nothing in common") == 0.0


def test_the_scorer_writes_bleu_beside_rouge_and_the_metric_is_their_mean() -> None:
    first = _score(_prediction(7.0, "the cat sat on the mat"), 7.0)
    second = _score(_prediction(3.0, REFERENCE), 7.0)
    assert first["review_bleu"] == pytest.approx(37.99, abs=0.01)
    assert second["review_bleu"] == pytest.approx(100.0)
    assert 0 < first["review_rouge1"] < second["review_rouge1"] == 1.0
    report = review_summary(_rows([first, second, {"pred": 5.0, "gold": 5.0}]))
    assert report["review_bleu"] == pytest.approx((first["review_bleu"] + 100.0) / 2)
    none = _score(_prediction(7.0), 7.0)
    assert "review_bleu" not in none and "review_rouge1" not in none


# --------------------------------------------------------------------------- shuffles

GOLDS = [2.0, 4.0, 6.0, 8.0]
SHUFFLED = {1: [1.0, 2.0, 3.0, 4.0], 2: [4.0, 3.0, 2.0, 1.0], 3: [1.0, 3.0, 2.0, 4.0]}
"""Predictions of four samples under three shuffles. By hand: r = rho = tau = 1 and -1
for the first two; the third swaps one adjacent pair: r = rho = 4/5, tau = (5-1)/6."""
BY_HAND = {
    "pearson": [1.0, -1.0, 0.8],
    "spearman": [1.0, -1.0, 0.8],
    "kendall": [1.0, -1.0, 4 / 6],
}


def _shuffled_rows(failed: tuple[int, int] | None = None) -> list[SampleScore]:
    """Each sample's epoch scores, reduced by the task's key-by-key epoch mean."""
    from inspect_plural.scorers.ratings import rating_mean

    reduce = rating_mean()
    rows = []
    for i, gold in enumerate(GOLDS):
        epochs = []
        for epoch, preds in SHUFFLED.items():
            usable = failed != (i, epoch)
            prediction = _prediction(preds[i] if usable else None, flags=[SHUFFLED_REVIEWS])
            epochs.append(Score(value=_score(prediction, gold, epoch)))
        rows.append(SampleScore(score=reduce(epochs), sample_id=str(i)))
    return rows


def test_each_shuffle_keeps_its_prediction_through_the_epoch_reduction() -> None:
    [first, *_] = _shuffled_rows()
    value = values_of(first.score)
    assert isinstance(value, dict)
    assert {k: value[k] for k in value if k.startswith("shuffle")} == {
        "shuffle1/pred": 1.0,
        "shuffle2/pred": 4.0,
        "shuffle3/pred": 1.0,
    }
    assert value["pred"] == 2.0  # the epoch mean
    assert SOLVER_FLAG == SHUFFLED_REVIEWS


def test_shuffle_correlations_their_mean_and_spread_by_hand() -> None:
    report = review_summary(_shuffled_rows(), shuffles=3)
    for name, values in BY_HAND.items():
        for epoch, expected in enumerate(values, start=1):
            assert report[f"{name}_shuffle{epoch}"] == pytest.approx(expected)
        assert report[f"{name}_shuffle_mean"] == pytest.approx(statistics.fmean(values))
        assert report[f"{name}_shuffle_std"] == pytest.approx(statistics.stdev(values))
    assert report["pearson_shuffle_std"] == pytest.approx(math.sqrt(2.426667 / 2), abs=1e-6)
    assert review_summary(_shuffled_rows()) == report  # the shuffles are found in the keys


def test_a_failed_shuffle_answer_is_midpoint_or_dropped() -> None:
    rows = _shuffled_rows(failed=(3, 3))  # sample 4 has no answer in shuffle 3
    midpoint = review_summary(rows, shuffles=3)
    preds = [1.0, 3.0, 2.0, 5.5]
    assert midpoint["pearson_shuffle3"] == pytest.approx(pearsonr(preds, GOLDS)[0])
    dropped = review_summary(rows, failures="drop", shuffles=3)
    assert dropped["kendall_shuffle3"] == pytest.approx(kendalltau(preds[:3], GOLDS[:3])[0])
    assert dropped["spearman_shuffle3"] == pytest.approx(spearmanr(preds[:3], GOLDS[:3])[0])
    assert dropped["pearson_shuffle1"] == pytest.approx(1.0)


def test_no_shuffle_no_shuffle_keys() -> None:
    value = _score(_prediction(7.0), 7.0, epoch=2)
    assert not any(k.startswith("shuffle") for k in value)
    assert not any("shuffle" in k for k in review_summary(_rows([value, value])))


# --------------------------------------------------------------------------- levels

HEADLINE = {
    "pearson",
    "spearman",
    "kendall",
    "accuracy",
    "mae",
    "n",
    "review_rouge1",
    "review_bleu",
    *(f"{c}_shuffle_{s}" for c in ("pearson", "spearman", "kendall") for s in ("mean", "std")),
}


def test_headline_and_full_keys() -> None:
    rows = _shuffled_rows()
    for row in rows:
        assert isinstance(row.score.value, dict)
        row.score.value.update({"review_rouge1": 0.5, "review_bleu": 3.0})
    headline = review_metrics(level="headline", shuffles=3)(rows)  # type: ignore[arg-type]
    full = review_metrics(level="full", shuffles=3)(rows)  # type: ignore[arg-type]
    assert isinstance(headline, dict) and isinstance(full, dict)
    assert set(headline) == HEADLINE
    assert set(full) - set(headline) == {
        "accuracy_rounded",
        "accuracy_raw",
        "cold_start",
        *(f"{c}_shuffle{e}" for c in ("pearson", "spearman", "kendall") for e in (1, 2, 3)),
    }
    assert len(headline) + 3 <= MAX_HEADLINE_METRICS  # + parse_failures and the cost pair
    with pytest.raises(ValueError, match="headline or full"):
        review_metrics(level="everything")


def test_cold_starts_and_undefined_correlations_stay_in_the_headline() -> None:
    rows = _rows([{"pred": 5.0, "gold": 4.0, "cold_start": 1.0}, {"pred": 5.0, "gold": 6.0}])
    headline = review_metrics()(rows)  # type: ignore[arg-type]
    assert isinstance(headline, dict)
    assert headline["cold_start"] == 1.0 and headline["pearson_undefined"] == 1.0
    assert math.isnan(headline["pearson"])


def _row(gold: float, pred: float | None) -> SampleScore:
    value = {"gold": gold, "parse_ok": float(pred is not None)}
    if pred is not None:
        value |= {"pred": pred, "exact": float(pred == gold)}
    return SampleScore(score=Score(value=value), sample_id=str(gold))


def test_a_failed_review_never_beats_a_random_score_in_the_mae() -> None:
    # worked example: gold 7 on 1-10; a uniform guess is off by
    # (6+5+4+3+2+1+0+1+2+3)/10 = 2.7 on average; the midpoint 5.5 only by 1.5
    rows = [_row(7.0, None), _row(3.0, 4.0)]
    report = review_summary(rows, failures="midpoint", low=1, high=10)
    assert report["mae"] == pytest.approx((2.7 + 1.0) / 2)
    assert report["accuracy"] == pytest.approx(0.0)
    assert review_summary(rows, failures="drop")["mae"] == pytest.approx(1.0)
