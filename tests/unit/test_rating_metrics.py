"""Rating-task correlations, panel alpha, scorer and corpus metrics (issue 5 spec §4)."""

from __future__ import annotations

import asyncio
import logging
import math
from typing import Any, cast

import numpy as np
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ModelName
from inspect_ai.scorer import MetricProtocol, SampleScore, Score, Target
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import Store
from scipy.stats import kendalltau, pearsonr, spearmanr

from inspect_plural.prediction import ModelAnswer, PanelScores, Prediction
from inspect_plural.records import RatedOutput, RatedSampleMetadata, RatingDimension
from inspect_plural.scorers import (
    group_alpha,
    initial_correlations,
    panel_alpha,
    rating_correlations,
    rating_cost,
    rating_mean,
    rating_metrics,
    rating_scorer,
    units_alpha,
)
from inspect_plural.scorers._correlation import correlations

NAN = math.nan

STRICT_WARNINGS = pytest.mark.filterwarnings(
    "error",
    # the metric code must not warn, but an anyio stream that Inspect leaves open (in an
    # earlier test's eval) is finalised whenever the GC gets to it, and pytest reports
    # that against the test running then: ignored here as in pyproject's filters
    "ignore:Exception ignored in.*MemoryObject(Send|Receive)Stream"
    ":pytest.PytestUnraisableExceptionWarning",
)


def _run(metric: Any, scores: list[SampleScore]) -> dict[str, float]:
    return cast(dict[str, float], cast(MetricProtocol, metric)(scores))


# --------------------------------------------------------------------------------------
# 1. correlations: worked examples
# --------------------------------------------------------------------------------------


@STRICT_WARNINGS
def test_correlations_worked_example() -> None:
    result = correlations([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    assert result.spearman == pytest.approx(0.8)
    assert result.kendall == pytest.approx(0.6)
    assert result.pearson == pytest.approx(0.8)
    assert result.n == 5
    assert result.n_groups is None
    assert result.reasons == {}


@STRICT_WARNINGS
def test_correlations_with_ties_use_tau_b() -> None:
    x, y = [1, 1, 2, 2, 3, 3], [1, 2, 1, 3, 3, 3]
    result = correlations(x, y)
    assert result.spearman == pytest.approx(0.7100469, abs=1e-7)
    assert result.kendall == pytest.approx(0.6092718, abs=1e-7)
    assert result.pearson == pytest.approx(0.6822882, abs=1e-7)
    # tau-c differs on ties (0.5833), so the variant must be b
    assert kendalltau(x, y, variant="c").statistic == pytest.approx(0.5833333, abs=1e-7)
    assert result.kendall != pytest.approx(kendalltau(x, y, variant="c").statistic)


@STRICT_WARNINGS
def test_correlations_match_scipy_on_random_data() -> None:
    rng = np.random.default_rng(5)
    x = rng.integers(1, 6, size=40).astype(float)
    y = x + rng.normal(0, 1.5, size=40)
    result = correlations(x, y)
    assert result.spearman == pytest.approx(spearmanr(x, y).statistic)
    assert result.kendall == pytest.approx(kendalltau(x, y, variant="b").statistic)
    assert result.pearson == pytest.approx(pearsonr(x, y).statistic)


# --------------------------------------------------------------------------------------
# 2. correlations: undefined cases, never a crash or a leaking warning
# --------------------------------------------------------------------------------------


@STRICT_WARNINGS
@pytest.mark.parametrize(
    ("pred", "gold", "reason", "n"),
    [
        ([3, 3, 3, 3], [1, 2, 3, 4], "constant_pred", 4),
        ([1, 2, 3, 4], [2, 2, 2, 2], "constant_gold", 4),
        ([1], [5], "too_few_pairs", 1),
        ([], [], "too_few_pairs", 0),
        ([1, NAN, 3], [NAN, 2, NAN], "too_few_pairs", 0),
        ([1, 2, NAN, 4], [NAN, NAN, 3, 4], "too_few_pairs", 1),
    ],
)
def test_correlations_undefined(pred: list[float], gold: list[float], reason: str, n: int) -> None:
    result = correlations(pred, gold)
    assert math.isnan(result.spearman)
    assert math.isnan(result.kendall)
    assert math.isnan(result.pearson)
    assert result.reasons == {"spearman": reason, "kendall": reason, "pearson": reason}
    assert result.n == n


@STRICT_WARNINGS
def test_correlations_drop_incomplete_pairs() -> None:
    pred: list[float | None] = [1, 2, None, 4, 5, NAN, 3]
    gold: list[float | None] = [2, 1, 4, None, 5, 2, 3]
    result = correlations(pred, gold)
    x, y = [1, 2, 5, 3], [2, 1, 5, 3]
    assert result.n == 4
    assert result.spearman == pytest.approx(spearmanr(x, y).statistic)
    assert result.kendall == pytest.approx(kendalltau(x, y, variant="b").statistic)
    assert result.pearson == pytest.approx(pearsonr(x, y).statistic)
    # infinities are missing values too
    assert correlations([1, 2, math.inf, 3], [1, 2, 3, 3]).n == 3


def test_correlations_absolute() -> None:
    signed = correlations([1, 2, 3, 4, 5], [5, 3, 4, 2, 1])
    absolute = correlations([1, 2, 3, 4, 5], [5, 3, 4, 2, 1], absolute=True)
    assert signed.spearman < 0
    assert absolute.spearman == pytest.approx(-signed.spearman)
    assert absolute.kendall == pytest.approx(-signed.kendall)
    assert absolute.pearson == pytest.approx(-signed.pearson)
    undefined = correlations([1, 1], [1, 2], absolute=True)
    assert math.isnan(undefined.spearman)


def test_correlations_bad_input() -> None:
    with pytest.raises(ValueError, match="pred has 2 values, gold 3"):
        correlations([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="1-D"):
        correlations(np.ones((2, 2)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="unknown correlation mode"):
        correlations([1, 2], [1, 2], mode="summary")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="need a group"):
        correlations([1, 2], [1, 2], mode="per_item")


# --------------------------------------------------------------------------------------
# 3. per-item correlations (G-Eval / ChatEval summary level)
# --------------------------------------------------------------------------------------


@STRICT_WARNINGS
def test_per_item_skips_constant_groups() -> None:
    pred = [1, 2, 3, 1, 2, 3, 1, 2, 3]
    gold = [1, 2, 3, 3, 2, 1, 4, 4, 4]
    groups = ["a"] * 3 + ["b"] * 3 + ["c"] * 3
    result = correlations(pred, gold, groups, mode="per_item")
    assert result.spearman == pytest.approx(0.0)
    assert result.kendall == pytest.approx(0.0)
    assert result.pearson == pytest.approx(0.0)
    assert result.n_groups == 2
    assert result.skipped == 1
    assert result.n == 6
    assert result.reasons == {}


@STRICT_WARNINGS
def test_per_item_small_and_ungrouped() -> None:
    pred: list[float] = [1, 2, 3, 4, 9, 7, NAN]
    gold: list[float] = [1, 3, 2, 4, 1, 2, 5]
    groups: list[str | None] = ["a", "a", "a", "a", "b", None, "c"]
    result = correlations(pred, gold, groups, mode="per_item")
    x, y = [1, 2, 3, 4], [1, 3, 2, 4]
    assert result.spearman == pytest.approx(spearmanr(x, y).statistic)
    assert result.n_groups == 1
    assert result.too_small == 1  # b has one pair; c has none (its only pair is incomplete)
    assert result.skipped == 0
    assert result.ungrouped == 1


@STRICT_WARNINGS
def test_per_item_mean_is_unweighted_and_absolute_after_the_mean() -> None:
    # group a (5 pairs): rho 0.8; group b (3 pairs): rho -1
    pred = [1, 2, 3, 4, 5, 1, 2, 3]
    gold = [2, 1, 4, 3, 5, 3, 2, 1]
    groups = ["a"] * 5 + ["b"] * 3
    result = correlations(pred, gold, groups, mode="per_item")
    assert result.spearman == pytest.approx((0.8 - 1.0) / 2)
    assert result.kendall == pytest.approx((0.6 - 1.0) / 2)
    assert correlations(pred, gold, groups, "per_item", absolute=True).spearman == pytest.approx(
        0.1
    )


@STRICT_WARNINGS
def test_per_item_without_usable_groups() -> None:
    result = correlations([1, 2, 3, 4], [1, 1, 2, 2], ["a", "a", "b", "b"], mode="per_item")
    assert math.isnan(result.spearman)
    assert result.reasons["pearson"] == "no_groups"
    assert result.n_groups == 0
    assert result.skipped == 2


# --------------------------------------------------------------------------------------
# 4. Krippendorff's alpha (Inspect's implementation, explicit level)
# --------------------------------------------------------------------------------------

# Krippendorff's reliability data matrix: 4 coders x 12 units, None = missing
CODERS: dict[str, list[float | None]] = {
    "A": [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    "B": [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    "C": [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    "D": [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
}
UNITS: list[list[float | None]] = [[CODERS[c][i] for c in CODERS] for i in range(12)]

# values of the `krippendorff` 0.9.0 package (checked in a scratch environment)
CANONICAL = {
    "nominal": 0.743421052631579,
    "ordinal": 0.8153875037548814,
    "interval": 0.8491071428571428,
}


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_canonical_example(level: str) -> None:
    result = units_alpha(UNITS, level)  # type: ignore[arg-type]
    assert result.alpha == pytest.approx(CANONICAL[level], abs=1e-12)
    assert round(result.alpha, 3) == {"nominal": 0.743, "ordinal": 0.815, "interval": 0.849}[level]
    assert result.n_units == 11  # unit 12 has a single value
    assert result.skipped_units == 1
    assert result.n_values == 40
    assert result.reason is None


def test_alpha_nominal_logs_no_inspect_nudge(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        units_alpha(UNITS, "nominal")
    assert not [r for r in caplog.records if "nominal level applied" in r.getMessage()]


def test_alpha_units_as_mappings() -> None:
    mapped = [{c: v for c, v in zip(CODERS, unit) if v is not None} for unit in UNITS]
    assert units_alpha(mapped).alpha == pytest.approx(CANONICAL["interval"])


def test_alpha_undefined() -> None:
    constant = units_alpha([[3, 3, 3], [3, 3], [3, None]])
    assert math.isnan(constant.alpha)
    assert constant.reason == "no_variation"
    assert constant.skipped_units == 1
    empty = units_alpha([[1], [None, 2], []])
    assert math.isnan(empty.alpha)
    assert empty.reason == "too_few_units"
    assert empty.skipped_units == 3
    with pytest.raises(ValueError, match="unknown alpha level"):
        units_alpha(UNITS, "ratio")  # type: ignore[arg-type]


def test_panel_alpha_leaves_failed_members_out() -> None:
    samples = [
        {c: {"overall": v, "fluency": 1.0} for c, v in zip(CODERS, unit) if v is not None}
        for unit in UNITS
    ]
    assert panel_alpha(samples, "overall").alpha == pytest.approx(CANONICAL["interval"])
    assert panel_alpha(samples, "overall", "ordinal").alpha == pytest.approx(CANONICAL["ordinal"])
    assert panel_alpha(samples, "fluency").reason == "no_variation"
    assert panel_alpha(samples, "missing").reason == "too_few_units"


# --------------------------------------------------------------------------------------
# 5. The scorer on hand-built TaskStates
# --------------------------------------------------------------------------------------

DIMENSIONS = [
    RatingDimension(name="overall", title="Overall", description="Overall quality", low=1, high=5),
    RatingDimension(name="fluency", title="Fluency", description="Fluent text", low=0, high=2),
]


def _metadata(index: int, gold: dict[str, float], group: str | None) -> RatedSampleMetadata:
    ratings = {dim: {"r1": v} for dim, v in gold.items()}
    output = RatedOutput(id=f"o{index}", content="text", ratings=ratings, group=group)
    return RatedSampleMetadata(
        dataset="fixture",
        item_id=f"o{index}",
        output=output,
        dimensions=DIMENSIONS,
        task_description="Rate the text.",
        gold=output.gold(),
    )


def _state(metadata: RatedSampleMetadata, prediction: Prediction) -> TaskState:
    state = TaskState(
        model=ModelName("plural/random"),
        sample_id=metadata.item_id,
        epoch=1,
        input="fixture",
        messages=[],
        target=Target(""),
        metadata=metadata.model_dump(),
    )
    prediction.write_to(state.store)
    return state


def _score(metadata: RatedSampleMetadata, prediction: Prediction) -> SampleScore:
    state = _state(metadata, prediction)
    score = asyncio.run(rating_scorer()(state, Target("")))
    assert score is not None
    return SampleScore(score=score, sample_id=state.sample_id, sample_metadata=state.metadata)


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
    sample = _score(_metadata(1, {"overall": 3.5}, "CD001"), prediction)
    assert sample.score.value == {
        "pred/overall": 4.0,
        "pred/fluency": 2.0,
        "gold/overall": 3.5,
        "pred_initial/overall": 3.5,
        "group/Clinicians/overall": 4.0,
        "group/Clinicians/fluency": 2.0,
        "parse_ok": 1.0,
        "n_scored": 2.0,
        "model_calls": 7.0,
        "tokens": 900.0,
        "n_answers": 2.0,
        "failed_answers": 1.0,
    }
    assert sample.score.answer == "4"
    metadata = sample.score.metadata or {}
    assert metadata["group"] == "CD001"
    assert metadata["panels"] == {"Clinicians": panel.model_dump()}


def test_scorer_failed_prediction_has_no_pred_keys() -> None:
    prediction = Prediction(store=Store(), method="geval", parse_ok=False, error="no JSON")
    sample = _score(_metadata(2, {"overall": 2.0, "fluency": 1.0}, None), prediction)
    value = cast(dict[str, float], sample.score.value)
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

MEMBERS = list(CODERS)


def _corpus(n: int = 30, seed: int = 3) -> tuple[list[SampleScore], dict[str, np.ndarray]]:
    """Random predictions against random gold, with failures and gaps (arrays: NaN)."""
    rng = np.random.default_rng(seed)
    arrays: dict[str, list[float]] = {
        k: [] for k in ("pred_o", "pred_f", "gold_o", "gold_f", "init_o", "calls", "tokens")
    }
    groups: list[str] = []
    scores: list[SampleScore] = []
    for i in range(n):
        group = f"review{i % 6}"
        gold = {"overall": float(rng.integers(1, 6)), "fluency": float(rng.integers(0, 3))}
        if i == 4:
            del gold["fluency"]  # nobody rated fluency here
        failed = i in (7, 19)
        pred = {"overall": float(rng.uniform(1, 5)), "fluency": float(rng.uniform(0, 2))}
        if i == 11:
            del pred["fluency"]  # the method could not score fluency here
        members = {m: {"overall": float(rng.integers(1, 6))} for m in MEMBERS}
        panel = PanelScores(
            initial=members,
            final={m: {"overall": 3.0} for m in MEMBERS},  # everybody converged
            scores={"overall": 3.0},
            model_calls=int(rng.integers(5, 10)),
            tokens=int(rng.integers(100, 1000)),
        )
        prediction = Prediction(
            store=Store(),
            method="fixture",
            parse_ok=not failed,
            scores={} if failed else pred,
            initial_scores={} if failed else {"overall": pred["overall"] - 0.5},
            panels={} if failed else {"Parents": panel},
            model_calls=0 if failed else panel.model_calls,
            tokens=0 if failed else panel.tokens,
        )
        scores.append(_score(_metadata(i, gold, group), prediction))
        arrays["pred_o"].append(NAN if failed else pred["overall"])
        arrays["pred_f"].append(NAN if failed else pred.get("fluency", NAN))
        arrays["gold_o"].append(gold["overall"])
        arrays["gold_f"].append(gold.get("fluency", NAN))
        arrays["init_o"].append(NAN if failed else pred["overall"] - 0.5)
        arrays["calls"].append(0.0 if failed else panel.model_calls)
        arrays["tokens"].append(0.0 if failed else panel.tokens)
        groups.append(group)
    out = {k: np.asarray(v, dtype=float) for k, v in arrays.items()}
    out["group"] = np.asarray(groups)
    return scores, out


def _complete(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    keep = ~np.isnan(x) & ~np.isnan(y)
    return x[keep], y[keep]


def test_rating_correlations_pooled_match_scipy() -> None:
    scores, a = _corpus()
    report = _run(rating_correlations(), scores)
    for dim, pred, gold in (("overall", "pred_o", "gold_o"), ("fluency", "pred_f", "gold_f")):
        x, y = _complete(a[pred], a[gold])
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
    scores, a = _corpus()
    report = _run(rating_correlations(["overall"], "per_item"), scores)
    values = []
    for group in sorted(set(a["group"])):
        rows = a["group"] == group
        x, y = _complete(a["pred_o"][rows], a["gold_o"][rows])
        if len(x) >= 2 and np.ptp(x) > 0 and np.ptp(y) > 0:
            values.append(spearmanr(x, y).statistic)
    assert report["overall/spearman"] == pytest.approx(np.mean(values))
    assert report["overall/n_groups"] == len(values)
    assert "overall/skipped_groups" in report
    assert not [k for k in report if k.startswith("fluency/")]


def test_initial_correlations() -> None:
    scores, a = _corpus()
    report = _run(initial_correlations(), scores)
    x, y = _complete(a["init_o"], a["gold_o"])
    assert report["initial/overall/spearman"] == pytest.approx(spearmanr(x, y).statistic)
    assert report["initial/overall/n"] == 28
    assert not [k for k in report if k.startswith("initial/fluency")]  # no initial fluency
    # a method without a discussion has no initial keys at all
    plain = [
        _score(
            _metadata(i, {"overall": float(i)}, None),
            Prediction(store=Store(), parse_ok=True, scores={"overall": float(i % 3)}),
        )
        for i in range(4)
    ]
    assert _run(initial_correlations(), plain) == {}


def test_rating_correlations_undefined_flags(caplog: pytest.LogCaptureFixture) -> None:
    constant = [
        _score(
            _metadata(i, {"overall": float(i), "fluency": 1.0}, None),
            Prediction(store=Store(), parse_ok=True, scores={"overall": 3.0, "fluency": 1.0}),
        )
        for i in range(4)
    ]
    with caplog.at_level(logging.WARNING):
        report = _run(rating_correlations(absolute=True), constant)
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
        scores.append(_score(_metadata(i, {"overall": 3.0}, None), prediction))
    report = _run(group_alpha(), scores)
    assert report["alpha/Teachers/initial"] == pytest.approx(CANONICAL["interval"])
    assert math.isnan(report["alpha/Teachers/final"])
    assert report["alpha/Teachers/final_undefined"] == 1.0
    assert "alpha/Teachers/initial/overall" not in report
    ordinal = _run(group_alpha("ordinal", "all"), scores)
    assert ordinal["alpha/Teachers/initial"] == pytest.approx(CANONICAL["ordinal"])
    assert ordinal["alpha/Teachers/initial/overall"] == pytest.approx(CANONICAL["ordinal"])
    assert ordinal["alpha/Teachers/initial/fluency"] == pytest.approx(1.0)  # members agree
    assert ordinal["alpha/Teachers/final/overall_undefined"] == 1.0
    with pytest.raises(ValueError, match="unknown alpha level"):
        group_alpha("ratio")
    with pytest.raises(ValueError, match="unknown alpha dimensions"):
        group_alpha("interval", "some")


def test_rating_cost_and_full_metric_list() -> None:
    scores, a = _corpus()
    cost = _run(rating_cost(), scores)
    assert cost["model_calls"] == pytest.approx(a["calls"].mean())
    assert cost["tokens"] == pytest.approx(a["tokens"].mean())
    ok = a["calls"] > 0  # the panel exists only on the samples that did not fail
    assert cost["calls/Parents"] == pytest.approx(a["calls"][ok].mean())
    assert cost["tokens/Parents"] == pytest.approx(a["tokens"][ok].mean())

    metrics = rating_metrics("per_item", True, "interval", "all")
    assert len(metrics) == 5
    results = [cast(MetricProtocol, m)(scores) for m in metrics]
    assert results[-1] == 2.0  # parse_failures
    alpha = cast(dict[str, float], results[2])
    assert "alpha/Parents/initial/overall" in alpha
    assert alpha["alpha/Parents/final_undefined"] == 1.0  # everybody said 3
    with pytest.raises(ValueError, match="unknown correlation"):
        rating_metrics("summary")


def test_rating_mean_reduces_epochs_with_different_keys() -> None:
    first = Score(value={"pred/overall": 2.0, "gold/overall": 3.0, "parse_ok": 1.0})
    second = Score(value={"gold/overall": 3.0, "parse_ok": 0.0}, metadata={"group": "x"})
    third = Score(
        value={"pred/overall": 4.0, "pred/fluency": 1.0, "gold/overall": 3.0, "parse_ok": 1.0},
        metadata={"group": "y"},
    )
    reduced = rating_mean()([first, second, third])
    assert reduced.value == {
        "pred/overall": 3.0,
        "gold/overall": 3.0,
        "parse_ok": pytest.approx(2 / 3),
        "pred/fluency": 1.0,
    }
    assert reduced.metadata is None  # the first epoch's


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
            metadata=_metadata(
                i, {"overall": float(i % 5), "fluency": 1.0}, f"g{i % 2}"
            ).model_dump(),
        )
        for i in range(8)
    ]
    task = Task(
        dataset=MemoryDataset(samples),
        solver=_write_prediction(),
        scorer=rating_scorer(),
        metrics=rating_metrics(correlation="pooled"),
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
    assert metrics["model_calls"].value == 2.0
    # every unit is (1, 2): D_o = 1, D_e = 8/15, alpha = 1 - 15/8
    assert metrics["alpha/G/final"].value == pytest.approx(-0.875)
    assert metrics["parse_failures"].value == 0.0
