from __future__ import annotations

import pytest

from inspect_plural.prediction import ModelAnswer
from inspect_plural.solvers import aggregate_answers

NAMES = ["A a", "B b", "C c"]


def _answer(*probs: float) -> ModelAnswer:
    dist = dict(zip(NAMES, probs))
    return ModelAnswer(raw="", parse_ok=True, distribution=dist, label=max(NAMES, key=dist.get))  # type: ignore[arg-type]


FAILED = ModelAnswer(raw="??", parse_ok=False, error="no JSON object found in the answer")


def test_mean_averages_parsed_answers_only() -> None:
    dist, label = aggregate_answers(
        [_answer(0.6, 0.3, 0.1), _answer(0.2, 0.7, 0.1), FAILED], NAMES, "mean"
    )
    assert dist == pytest.approx({"A a": 0.4, "B b": 0.5, "C c": 0.1})
    assert label == "B b"


def test_majority_gives_vote_shares_and_breaks_ties_by_mean() -> None:
    answers = [_answer(0.5, 0.4, 0.1), _answer(0.1, 0.8, 0.1), _answer(0.45, 0.1, 0.45), FAILED]
    dist, label = aggregate_answers(answers, NAMES, "majority")
    assert dist == pytest.approx({"A a": 2 / 3, "B b": 1 / 3, "C c": 0.0})
    assert label == "A a"
    tied = aggregate_answers([_answer(0.6, 0.4, 0.0), _answer(0.3, 0.7, 0.0)], NAMES, "majority")
    assert tied[0] == pytest.approx({"A a": 0.5, "B b": 0.5, "C c": 0.0})
    assert tied[1] == "B b"  # equal votes: higher mean probability (0.55 vs 0.45)


def test_all_failed_gives_no_prediction() -> None:
    assert aggregate_answers([FAILED, FAILED], NAMES, "mean") == (None, None)
