"""Per-stakeholder-group correlations, the metric sets (headline, full, ``maj_eval``
preset) and undefined-value warnings of the rating tasks.

The group correlations are worked by hand on five outputs (a permutation with one swapped
pair: rho = r = 0.9, tau = 0.8) and checked against scipy; the preset's cells are the
absolute values of the same numbers.
"""

from __future__ import annotations

import logging
import math
from typing import Any, cast

import pytest
from inspect_ai.scorer import MetricProtocol, SampleScore
from inspect_ai.util import Store
from scipy.stats import pearsonr, spearmanr
from tests.unit.rating_fixtures import corpus, rated_metadata, run_metric, score_prediction

from inspect_plural.prediction import PanelScores, Prediction
from inspect_plural.scorers import (
    RATING_PRESETS,
    group_correlations,
    rating_correlations,
    rating_metrics,
)
from inspect_plural.scorers._undefined import UndefinedWarnings, interim_recomputation
from inspect_plural.scorers._values import values_of

GOLD = [1.0, 2.0, 3.0, 4.0, 5.0]
TEACHERS = [1.0, 3.0, 2.0, 4.0, 5.0]  # one swapped pair: rho = r = 0.9, tau = 0.8
TEACHER_FLUENCY = [2.0, 1.0, 0.0, 1.0, 2.0]
MEMBER_A = [2.0, 2.0, 3.0, 3.0, 4.0]
MEMBER_B = [1.0, 3.0, 3.0, 5.0, 5.0]  # initial mean 1.5, 2.5, 3, 4, 4.5: increasing
DEVELOPERS = [5.0, 4.0, 3.0, 2.0, 1.0]  # reversed: rho = tau = r = -1
DEVELOPERS_GROUP = "AI/ML Developers"  # a "/" in a group name
FAILED = 3  # the developers failed on this output


def _sample(i: int) -> SampleScore:
    teachers = PanelScores(
        initial={"A": {"overall": MEMBER_A[i]}, "B": {"overall": MEMBER_B[i]}},
        final={"A": {"overall": TEACHERS[i]}, "B": {"overall": TEACHERS[i]}},
        scores={"overall": TEACHERS[i], "fluency": TEACHER_FLUENCY[i]},
    )
    developers = PanelScores(
        initial={"C": {"overall": DEVELOPERS[i]}},
        final={"C": {"overall": DEVELOPERS[i]}},
        scores={"overall": DEVELOPERS[i]},
    )
    panels = {"Teachers": teachers}
    if i != FAILED:
        panels[DEVELOPERS_GROUP] = developers
    prediction = Prediction(
        store=Store(),
        method="maj_eval",
        parse_ok=True,
        scores={"overall": TEACHERS[i]},
        initial_scores={"overall": (MEMBER_A[i] + MEMBER_B[i]) / 2},
        panels=panels,
        model_calls=4,
        tokens=100,
    )
    return score_prediction(
        rated_metadata(i, {"overall": GOLD[i], "fluency": 1.0 + i % 2}, None), prediction
    )


@pytest.fixture
def scores() -> list[SampleScore]:
    return [_sample(i) for i in range(5)]


def test_group_values_are_per_sample_keys(scores: list[SampleScore]) -> None:
    value = values_of(scores[0].score)
    assert value["group/Teachers/overall"] == 1.0
    assert value["group_initial/Teachers/overall"] == 1.5  # (2 + 1) / 2
    assert value[f"group/{DEVELOPERS_GROUP}/overall"] == 5.0
    assert f"group/{DEVELOPERS_GROUP}/overall" not in cast(
        dict[str, float], values_of(scores[FAILED].score)
    )


def test_group_correlations_worked_example(scores: list[SampleScore]) -> None:
    report = run_metric(group_correlations(), scores)
    assert report["group/Teachers/overall/spearman"] == pytest.approx(0.9)
    assert report["group/Teachers/overall/kendall"] == pytest.approx(0.8)
    assert report["group/Teachers/overall/pearson"] == pytest.approx(0.9)
    assert report["group/Teachers/overall/n"] == 5
    for coefficient in ("spearman", "kendall", "pearson"):
        assert report[f"group/{DEVELOPERS_GROUP}/overall/{coefficient}"] == pytest.approx(-1.0)
    assert report[f"group/{DEVELOPERS_GROUP}/overall/n"] == 4
    # fluency: only the teachers scored it; the gold alternates 1, 2
    gold_fluency = [1.0 + i % 2 for i in range(5)]
    assert report["group/Teachers/fluency/spearman"] == pytest.approx(
        spearmanr(TEACHER_FLUENCY, gold_fluency).statistic
    )
    assert f"group/{DEVELOPERS_GROUP}/fluency/spearman" not in report


def test_group_correlations_before_the_debate(scores: list[SampleScore]) -> None:
    report = run_metric(group_correlations(phase="initial"), scores)
    initial = [(a + b) / 2 for a, b in zip(MEMBER_A, MEMBER_B)]
    assert report["initial/group/Teachers/overall/spearman"] == pytest.approx(1.0)
    assert report["initial/group/Teachers/overall/kendall"] == pytest.approx(1.0)
    assert report["initial/group/Teachers/overall/pearson"] == pytest.approx(
        pearsonr(initial, GOLD).statistic
    )
    assert not [k for k in report if k.startswith("group/")]
    with pytest.raises(ValueError, match="unknown phase"):
        group_correlations(phase="middle")


def test_group_correlations_absolute_and_headline_keys(scores: list[SampleScore]) -> None:
    report = run_metric(group_correlations(None, "pooled", True, ["spearman"], False), scores)
    assert report == {
        "group/Teachers/overall/spearman": pytest.approx(0.9),
        "group/Teachers/fluency/spearman": pytest.approx(
            abs(spearmanr(TEACHER_FLUENCY, [1.0 + i % 2 for i in range(5)]).statistic)
        ),
        f"group/{DEVELOPERS_GROUP}/overall/spearman": pytest.approx(1.0),
    }


def _metric_values(metrics: list[Any], scores: list[SampleScore]) -> dict[str, float]:
    values: dict[str, float] = {}
    for metric in metrics:
        result = cast(MetricProtocol, metric)(scores)
        name = metric.__registry_info__.name.split("/")[-1]
        values.update(result if isinstance(result, dict) else {name: result})
    return values


def test_maj_eval_preset_is_the_paper_table(scores: list[SampleScore]) -> None:
    metrics = rating_metrics(preset="maj_eval", stakeholder_groups=True)
    values = _metric_values(metrics, scores)
    teachers = spearmanr(TEACHERS, GOLD).statistic
    assert values == {
        "overall/spearman": pytest.approx(abs(teachers)),
        "fluency/spearman": values["fluency/spearman"],  # NaN: no fluency prediction
        "group/Teachers/overall/spearman": pytest.approx(abs(teachers)),
        "group/Teachers/fluency/spearman": pytest.approx(
            abs(spearmanr(TEACHER_FLUENCY, [1.0 + i % 2 for i in range(5)]).statistic)
        ),
        f"group/{DEVELOPERS_GROUP}/overall/spearman": pytest.approx(1.0),  # |-1|
    }
    assert math.isnan(values["fluency/spearman"])
    # the preset fixes pooled, absolute correlations whatever the arguments say
    signed = rating_metrics("per_item", False, preset="maj_eval", stakeholder_groups=True)
    assert _metric_values(signed, scores)[f"group/{DEVELOPERS_GROUP}/overall/spearman"] == 1.0
    # without stakeholder groups (a baseline), the panel row only
    assert len(rating_metrics(preset="maj_eval")) == 1
    assert RATING_PRESETS["maj_eval"].absolute is True


def test_full_metrics_have_every_breakdown(scores: list[SampleScore]) -> None:
    values = _metric_values(rating_metrics(metrics="full", stakeholder_groups=True), scores)
    for key in (
        "overall/n",
        "initial/overall/spearman",
        "group/Teachers/overall/kendall",
        "initial/group/Teachers/overall/pearson",
        f"alpha/{DEVELOPERS_GROUP}/initial",
        "calls/Teachers",
        "calls_per_sample",
        "parse_failures",
    ):
        assert key in values, key
    # without stakeholder groups (ChatEval's referees), no per-group correlations
    plain = _metric_values(rating_metrics(metrics="full"), scores)
    assert not [k for k in plain if k.startswith(("group/", "initial/group/"))]


def test_headline_set_and_values_equal_the_full_ones() -> None:
    data, _ = corpus()
    headline = _metric_values(rating_metrics(), data)
    coefficients = ("spearman", "kendall", "pearson")
    assert set(headline) == {
        *(f"{dim}/{c}" for dim in ("overall", "fluency") for c in coefficients),
        "parse_failures",
        "failed_answers",
        "failed/any",
        "calls_per_sample",
        "tokens_per_sample",
    }
    full = _metric_values(rating_metrics(metrics="full"), data)
    for key, value in headline.items():
        assert full[key] == pytest.approx(value, nan_ok=True), key
    spearman_only = _metric_values(rating_metrics(coefficients=["spearman"]), data)
    correlations = {k for k in spearman_only if "/" in k and not k.startswith("failed/")}
    assert correlations == {"overall/spearman", "fluency/spearman"}


# --------------------------------------------------------------------------------------
# undefined values: warned once per key, never for Inspect's interim recomputation
# --------------------------------------------------------------------------------------


def _constant() -> list[SampleScore]:
    return [
        score_prediction(
            rated_metadata(i, {"overall": float(i), "fluency": 1.0}, None),
            Prediction(store=Store(), parse_ok=True, scores={"overall": 3.0, "fluency": 1.0}),
        )
        for i in range(4)
    ]


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "is undefined" in r.getMessage()]


def test_undefined_warned_once_per_key(caplog: pytest.LogCaptureFixture) -> None:
    metric = rating_correlations()
    with caplog.at_level(logging.WARNING):
        for _ in range(3):  # as Inspect recomputes metrics while a task runs
            report = run_metric(metric, _constant())
    assert math.isnan(report["overall/spearman"])
    assert report["overall/spearman_undefined"] == 1.0  # the flag is still logged
    messages = _warnings(caplog)
    assert len(messages) == len(set(messages)) == 6  # 2 dimensions x 3 coefficients
    assert "overall/spearman is undefined: constant_pred (n=4)" in messages
    # a new metric instance (a new task, a new run) warns again
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        run_metric(rating_correlations(), _constant())
    assert len(_warnings(caplog)) == 6


# Inspect's progress display recomputes metrics from a closure named
# ``update_metrics_display_fn.<locals>.compute`` in ``inspect_ai._eval.task.run``;
# this code object has the same module, name and qualified name.
_INTERIM = """
def update_metrics_display_fn(metric, scores):
    def compute():
        return metric(scores)
    return compute
"""


def _interim_caller() -> Any:
    namespace: dict[str, Any] = {"__name__": "inspect_ai._eval.task.run"}
    exec(compile(_INTERIM, "run.py", "exec"), namespace)
    return namespace["update_metrics_display_fn"]


def test_interim_recomputation_is_silent(caplog: pytest.LogCaptureFixture) -> None:
    metric = rating_correlations()
    with caplog.at_level(logging.WARNING):
        interim = _interim_caller()(cast(MetricProtocol, metric), _constant())()
    assert math.isnan(interim["overall/spearman"])
    assert _warnings(caplog) == []
    with caplog.at_level(logging.WARNING):  # the final computation still warns, once
        run_metric(metric, _constant())
        run_metric(metric, _constant())
    assert len(_warnings(caplog)) == 6


def test_interim_detection_matches_inspect() -> None:
    from inspect_ai._eval.task import run

    callback = run.update_metrics_display_fn(lambda metrics: None)
    assert callback.__module__ == "inspect_ai._eval.task.run"
    assert callback.__name__ == "compute"
    assert callback.__qualname__.startswith("update_metrics_display_fn")
    assert not interim_recomputation()


def test_undefined_warnings_helper(caplog: pytest.LogCaptureFixture) -> None:
    warnings = UndefinedWarnings(logging.getLogger("fixture"))
    with caplog.at_level(logging.WARNING):
        warnings.warn("alpha/G/final", "no_variation", "3 units")
        warnings.warn("alpha/G/final", "no_variation", "4 units")
    assert _warnings(caplog) == ["alpha/G/final is undefined: no_variation (3 units)"]
