"""The rating scorer on hand-built TaskStates, and the corpus metrics on its scores.

Values are checked against scipy on a random corpus with failures and gaps; the per-group
correlations and the metric sets (headline, full, presets) are in ``test_rating_groups.py``.
"""

from __future__ import annotations

import logging
import math
from typing import Any, cast

import numpy as np
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import MetricProtocol, SampleScore, Score
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import Store
from scipy.stats import kendalltau, pearsonr, spearmanr
from tests.unit.rating_fixtures import (
    CANONICAL,
    MEMBERS,
    NAN,
    UNITS,
    complete,
    corpus,
    rated_metadata,
    run_metric,
    score_prediction,
)

from inspect_plural.prediction import ModelAnswer, PanelScores, Prediction
from inspect_plural.scorers import (
    group_alpha,
    initial_correlations,
    rating_correlations,
    rating_cost,
    rating_mean,
    rating_metrics,
    rating_scorer,
)
from inspect_plural.scorers._values import values_of

# --------------------------------------------------------------------------------------
# 5. The scorer on hand-built TaskStates
# --------------------------------------------------------------------------------------


def test_scorer_values_and_metadata() -> None:
    panel = PanelScores(
        initial={"Ann": {"overall": 3.0, "fluency": 2.0}, "Bo": {"overall": 5.0}},
        final={"Ann": {"overall": 4.0, "fluency": 2.0}, "Bo": {"overall": 4.0}},
        scores={"overall": 4.0, "fluency": 2.0},
        model_calls=7,
        tokens=900,
    )
    prediction = Prediction(
        store=Store(),
        method="maj_eval",
        parse_ok=True,
        scores={"overall": 4.0, "fluency": 2.0, "extra": NAN},
        initial_scores={"overall": 3.5},
        panels={"Clinicians": panel},
        model_calls=7,
        tokens=900,
        answers=[ModelAnswer(raw="x", parse_ok=False), ModelAnswer(raw="{}", parse_ok=True)],
    )
    sample = score_prediction(rated_metadata(1, {"overall": 3.5}, "CD001"), prediction)
    assert values_of(sample.score) == {
        "pred/overall": 4.0,
        "pred/fluency": 2.0,
        "gold/overall": 3.5,
        "pred_initial/overall": 3.5,
        "group/Clinicians/overall": 4.0,
        "group/Clinicians/fluency": 2.0,
        "group_initial/Clinicians/overall": 4.0,  # (3 + 5) / 2: the members' initial mean
        "group_initial/Clinicians/fluency": 2.0,  # Bo had no initial fluency
        "parse_ok": 1.0,
        "n_scored": 2.0,
        "model_calls": 7.0,
        "tokens": 900.0,
        "n_answers": 2.0,
        "failed_answers": 1.0,
        "failed/no_answer": 1.0,  # an answer recorded without a reason
    }
    assert sample.score.answer == "4"
    metadata = sample.score.metadata or {}
    assert metadata["group"] == "CD001"
    assert metadata["panels"] == {"Clinicians": panel.model_dump()}
    assert metadata["scales"] == {
        "overall": "pred 1–5, human 1–5",
        "fluency": "pred 1–5, human 0–2",
    }


def test_scorer_failed_prediction_has_no_pred_keys() -> None:
    prediction = Prediction(store=Store(), method="geval", parse_ok=False, error="no JSON")
    sample = score_prediction(rated_metadata(2, {"overall": 2.0, "fluency": 1.0}, None), prediction)
    value = values_of(sample.score)
    assert not [k for k in value if k.startswith("pred")]
    assert value["gold/overall"] == 2.0
    assert value["parse_ok"] == 0.0
    assert value["n_scored"] == 0.0
    assert sample.score.answer is None
    assert sample.score.explanation == "no JSON"
    assert all(isinstance(v, float) and math.isfinite(v) for v in value.values())


# --------------------------------------------------------------------------------------
# 6. Metrics end to end on SampleScore lists
# --------------------------------------------------------------------------------------


def test_rating_correlations_pooled_match_scipy() -> None:
    scores, a = corpus()
    report = run_metric(rating_correlations(), scores)
    for dim, pred, gold in (("overall", "pred_o", "gold_o"), ("fluency", "pred_f", "gold_f")):
        x, y = complete(a[pred], a[gold])
        assert report[f"{dim}/spearman"] == pytest.approx(spearmanr(x, y).statistic)
        assert report[f"{dim}/kendall"] == pytest.approx(kendalltau(x, y, variant="b").statistic)
        assert report[f"{dim}/pearson"] == pytest.approx(pearsonr(x, y).statistic)
        assert report[f"{dim}/n"] == len(x)
    assert report["overall/n"] == 28  # two failures
    assert report["fluency/n"] == 26  # two failures, one unrated, one unscored
    assert not [k for k in report if k.endswith("_undefined") or k.endswith("n_groups")]
    assert list(report)[:4] == [
        "overall/spearman",
        "overall/kendall",
        "overall/pearson",
        "overall/n",
    ]


def test_rating_correlations_per_item_match_scipy() -> None:
    scores, a = corpus()
    report = run_metric(rating_correlations(["overall"], "per_item"), scores)
    values = []
    for group in sorted(set(a["group"])):
        rows = a["group"] == group
        x, y = complete(a["pred_o"][rows], a["gold_o"][rows])
        if len(x) >= 2 and np.ptp(x) > 0 and np.ptp(y) > 0:
            values.append(spearmanr(x, y).statistic)
    assert report["overall/spearman"] == pytest.approx(np.mean(values))
    assert report["overall/n_groups"] == len(values)
    assert "overall/skipped_groups" in report
    assert not [k for k in report if k.startswith("fluency/")]


def test_initial_correlations() -> None:
    scores, a = corpus()
    report = run_metric(initial_correlations(), scores)
    x, y = complete(a["init_o"], a["gold_o"])
    assert report["initial/overall/spearman"] == pytest.approx(spearmanr(x, y).statistic)
    assert report["initial/overall/n"] == 28
    assert not [k for k in report if k.startswith("initial/fluency")]  # no initial fluency
    # a method without a discussion has no initial keys at all
    plain = [
        score_prediction(
            rated_metadata(i, {"overall": float(i)}, None),
            Prediction(store=Store(), parse_ok=True, scores={"overall": float(i % 3)}),
        )
        for i in range(4)
    ]
    assert run_metric(initial_correlations(), plain) == {}


def test_rating_correlations_undefined_flags(caplog: pytest.LogCaptureFixture) -> None:
    constant = [
        score_prediction(
            rated_metadata(i, {"overall": float(i), "fluency": 1.0}, None),
            Prediction(store=Store(), parse_ok=True, scores={"overall": 3.0, "fluency": 1.0}),
        )
        for i in range(4)
    ]
    with caplog.at_level(logging.WARNING):
        report = run_metric(rating_correlations(absolute=True), constant)
    assert math.isnan(report["overall/spearman"])
    assert report["overall/spearman_undefined"] == 1.0
    assert report["overall/kendall_undefined"] == 1.0
    assert report["overall/pearson_undefined"] == 1.0
    assert report["overall/n"] == 4
    assert "constant_pred" in caplog.text
    assert "fluency/pearson is undefined: constant_pred" in caplog.text


def test_group_alpha() -> None:
    # the canonical matrix as a panel's initial scores, one sample per unit
    scores: list[SampleScore] = []
    for i, unit in enumerate(UNITS):
        initial = {
            m: {"overall": v, "fluency": float(i % 3)}
            for m, v in zip(MEMBERS, unit)
            if v is not None
        }
        final = {m: {"overall": 4.0} for m in initial}
        panel = PanelScores(initial=initial, final=final, scores={"overall": 4.0})
        prediction = Prediction(store=Store(), parse_ok=True, panels={"Teachers": panel})
        scores.append(score_prediction(rated_metadata(i, {"overall": 3.0}, None), prediction))
    report = run_metric(group_alpha(), scores)
    assert report["alpha/Teachers/initial"] == pytest.approx(CANONICAL["interval"])
    assert math.isnan(report["alpha/Teachers/final"])
    assert report["alpha/Teachers/final_undefined"] == 1.0
    assert "alpha/Teachers/initial/overall" not in report
    ordinal = run_metric(group_alpha("ordinal", "all"), scores)
    assert ordinal["alpha/Teachers/initial"] == pytest.approx(CANONICAL["ordinal"])
    assert ordinal["alpha/Teachers/initial/overall"] == pytest.approx(CANONICAL["ordinal"])
    assert ordinal["alpha/Teachers/initial/fluency"] == pytest.approx(1.0)  # members agree
    assert ordinal["alpha/Teachers/final/overall_undefined"] == 1.0
    with pytest.raises(ValueError, match="unknown alpha level"):
        group_alpha("ratio")
    with pytest.raises(ValueError, match="unknown alpha dimensions"):
        group_alpha("interval", "some")


def test_rating_cost_and_full_metric_list() -> None:
    scores, a = corpus()
    cost = run_metric(rating_cost(), scores)
    assert cost["model_calls"] == pytest.approx(a["calls"].mean())
    assert cost["tokens"] == pytest.approx(a["tokens"].mean())
    ok = a["calls"] > 0  # the panel exists only on the samples that did not fail
    assert cost["calls/Parents"] == pytest.approx(a["calls"][ok].mean())
    assert cost["tokens/Parents"] == pytest.approx(a["tokens"][ok].mean())

    metrics = rating_metrics("per_item", True, "interval", "all", metrics="full")
    # correlations (final, initial), alpha, parse failures, failed answers and their
    # reasons, cost, cost per panel
    assert len(metrics) == 8
    results = [cast(MetricProtocol, m)(scores) for m in metrics]
    assert results[3] == 2.0  # parse_failures
    alpha = cast(dict[str, float], results[2])
    assert "alpha/Parents/initial/overall" in alpha
    assert alpha["alpha/Parents/final_undefined"] == 1.0  # everybody said 3
    assert math.isnan(results[4])  # failed_answers: these samples record no answers
    assert results[5] == {"failed/any": 0.0}
    assert results[6] == {  # cost: the per-sample model_calls and tokens, means
        "calls_per_sample": pytest.approx(a["calls"].mean()),
        "tokens_per_sample": pytest.approx(a["tokens"].mean()),
    }
    assert results[7] == {
        "calls/Parents": pytest.approx(a["calls"][ok].mean()),
        "tokens/Parents": pytest.approx(a["tokens"][ok].mean()),
    }
    with pytest.raises(ValueError, match="unknown correlation"):
        rating_metrics("summary")
    with pytest.raises(ValueError, match="unknown metrics level"):
        rating_metrics(metrics="all")
    with pytest.raises(ValueError, match="unknown metrics preset"):
        rating_metrics(preset="geval")


def test_rating_mean_reduces_epochs_with_different_keys() -> None:
    first = Score(value={"pred/overall": 2.0, "gold/overall": 3.0, "parse_ok": 1.0})
    second = Score(value={"gold/overall": 3.0, "parse_ok": 0.0}, metadata={"group": "x"})
    third = Score(
        value={"pred/overall": 4.0, "pred/fluency": 1.0, "gold/overall": 3.0, "parse_ok": 1.0},
        metadata={"group": "y"},
    )
    reduced = rating_mean()([first, second, third])
    assert values_of(reduced) == {
        "pred/overall": 3.0,
        "gold/overall": 3.0,
        "parse_ok": pytest.approx(2 / 3),
        "pred/fluency": 1.0,
    }
    # the first epoch's metadata (none here), with the reduced numbers
    assert reduced.metadata is not None and set(reduced.metadata) == {"values"}


# --------------------------------------------------------------------------------------
# 7. Inside a real Inspect eval (dict metrics are flattened into named results)
# --------------------------------------------------------------------------------------


@solver
def _write_prediction() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        index = int(str(state.sample_id)[1:])
        Prediction(
            store=Store(),
            method="fixture",
            parse_ok=True,
            scores={"overall": float(index % 4), "fluency": float(index % 3)},
            panels={"G": PanelScores(final={"a": {"overall": 1.0}, "b": {"overall": 2.0}})},
            model_calls=2,
        ).write_to(state.store)
        return state

    return solve


@pytest.mark.e2e
def test_metrics_in_an_eval(tmp_path: Any) -> None:
    samples = [
        Sample(
            id=f"o{i}",
            input="x",
            metadata=rated_metadata(
                i, {"overall": float(i % 5), "fluency": 1.0}, f"g{i % 2}"
            ).model_dump(),
        )
        for i in range(8)
    ]
    task = Task(
        dataset=MemoryDataset(samples),
        solver=_write_prediction(),
        scorer=rating_scorer(),
        metrics=rating_metrics(correlation="pooled", metrics="full"),
    )
    log = eval(task, model="plural/random", log_dir=str(tmp_path), display="none")[0]
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    x = [float(i % 4) for i in range(8)]
    y = [float(i % 5) for i in range(8)]
    assert metrics["overall/spearman"].value == pytest.approx(spearmanr(x, y).statistic)
    assert metrics["overall/n"].value == 8
    assert metrics["fluency/spearman_undefined"].value == 1.0  # gold is constant
    assert metrics["calls_per_sample"].value == 2.0
    # every unit is (1, 2): D_o = 1, D_e = 8/15, alpha = 1 - 15/8
    assert metrics["alpha/G/final"].value == pytest.approx(-0.875)
    assert metrics["parse_failures"].value == 0.0
