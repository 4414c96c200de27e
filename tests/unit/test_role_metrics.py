"""Role-identification numerics and corpus metrics (PersonaEval semantics, METRICS.md B/C)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from inspect_ai.scorer import SampleScore, Score, mean_score
from scipy.stats import rankdata
from sklearn.metrics import brier_score_loss, top_k_accuracy_score

from inspect_plural.scorers._calibration import (
    brier,
    expected_calibration_error,
    gold_rank,
    top1_correct,
    top_k_correct,
    top_ks_correct,
)
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.role import (
    ROLE_PRESETS,
    RoleMetricConfig,
    brier_score,
    ece,
    mean_rank,
    parse_failures,
    resolve_role_config,
    role_mean,
    role_metrics,
    score_distribution,
    top1,
    top2,
)

TIE_BREAKS = ["strict", "first", "personaeval"]
RANK_METHODS = ["average", "min", "max", "ordinal", "personaeval"]


def _random_probs(k: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.ones(k), size=n)
    gold = rng.integers(0, k, size=n)
    return probs, gold


def _onehot(gold: np.ndarray, k: int) -> np.ndarray:
    return np.eye(k)[gold]


def _official_rank(p: list[float] | np.ndarray, gold: int) -> int:
    """PersonaEval's mean-rank code, by hand: 1-based position in argsort(p)[::-1]."""
    order = list(np.argsort(np.asarray(p, dtype=float))[::-1])
    return order.index(gold) + 1


# --------------------------------------------------------------------------------------
# 1. expected_calibration_error
# --------------------------------------------------------------------------------------

ECE_CONF = [0.1, 0.2, 0.35, 0.55, 0.8, 0.95]
ECE_CORRECT = [False, True, False, True, True, True]


def test_ece_worked_example_5_bins() -> None:
    # bins (0,.2] (.2,.4] (.4,.6] (.6,.8] (.8,1]
    # (0,.2]:  {0.1, 0.2}  conf .15, acc .5 -> |.15-.5| = .35, weight 2/6 -> .70/6
    # (.2,.4]: {0.35}      conf .35, acc 0  -> .35/6
    # (.4,.6]: {0.55}      conf .55, acc 1  -> .45/6
    # (.6,.8]: {0.8}       conf .80, acc 1  -> .20/6
    # (.8,1]:  {0.95}      conf .95, acc 1  -> .05/6
    # ECE = (.70 + .35 + .45 + .20 + .05) / 6 = 1.75 / 6
    value = expected_calibration_error(np.array(ECE_CONF), np.array(ECE_CORRECT), n_bins=5)
    assert value == pytest.approx(1.75 / 6)


def test_ece_worked_example_20_bins() -> None:
    # width .05: 0.1 in (.05,.1], 0.2 in (.15,.2], 0.35 in (.30,.35], 0.55 in (.50,.55],
    # 0.8 in (.75,.8], 0.95 in (.90,.95]: every item alone in its bin, so
    # ECE = mean |conf - correct| = (.1 + .8 + .35 + .45 + .2 + .05) / 6 = 1.95 / 6
    value = expected_calibration_error(np.array(ECE_CONF), np.array(ECE_CORRECT), n_bins=20)
    assert value == pytest.approx(1.95 / 6)


def test_ece_upper_edge_belongs_to_lower_bin() -> None:
    # 0.2 is in (0, .2] (alone): |.2 - 1| = .8 ; 0.3 is in (.2, .4] (alone): |.3 - 0| = .3
    # -> (.8 + .3) / 2 = .55.  Were 0.2 put in (.2, .4] with 0.3: |.25 - .5| = .25.
    value = expected_calibration_error(np.array([0.2, 0.3]), np.array([True, False]), n_bins=5)
    assert value == pytest.approx(0.55)


def test_ece_zero_confidence_falls_in_first_bin() -> None:
    # 0.0 and 0.1 share (0, .2]: conf .05, acc .5 -> .45 (not dropped, not a bin of its own:
    # a separate bin would give (|0 - 1| + |.1 - 0|) / 2 = .55).
    value = expected_calibration_error(np.array([0.0, 0.1]), np.array([True, False]), n_bins=5)
    assert value == pytest.approx(0.45)


def test_ece_confidence_one_falls_in_last_bin() -> None:
    # 0.8 in (.6,.8] -> |.8 - 1| = .2 ; 1.0 in (.8, 1] -> 0 ; ECE = .1
    value = expected_calibration_error(np.array([0.8, 1.0]), np.array([True, True]), n_bins=5)
    assert value == pytest.approx(0.1)


@pytest.mark.parametrize("i", range(1, 20))
def test_ece_every_20_bin_edge_is_closed_above(i: int) -> None:
    # c = i/20 must share no bin with c + .01 (which is in (c, c + .05]).
    # Separate bins: (|c - 1| + |c + .01 - 0|) / 2 = .505
    c = i / 20
    value = expected_calibration_error(np.array([c, c + 0.01]), np.array([True, False]), 20)
    assert value == pytest.approx(0.505)


@pytest.mark.parametrize(
    ("conf", "correct"),
    [
        # one bin, conf .25, accuracy 1/4
        ([0.25, 0.25, 0.25, 0.25], [True, False, False, False]),
        # one bin, conf .8, accuracy 4/5
        ([0.8] * 5, [True, True, True, True, False]),
        ([1.0, 1.0, 1.0], [True, True, True]),
        # two bins: .5 with accuracy 2/4, .9 with accuracy 9/10
        ([0.5] * 4 + [0.9] * 10, [True, False, True, False] + [True] * 9 + [False]),
    ],
)
def test_ece_perfect_calibration_is_zero(conf: list[float], correct: list[bool]) -> None:
    for n_bins in (5, 10, 15, 20):
        value = expected_calibration_error(np.array(conf), np.array(correct), n_bins=n_bins)
        assert value == pytest.approx(0.0, abs=1e-12)


def test_ece_empty_is_nan() -> None:
    assert np.isnan(expected_calibration_error(np.zeros(0), np.zeros(0, dtype=bool)))


# --------------------------------------------------------------------------------------
# 2. brier
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_brier_matches_sklearn_and_hand_formula(k: int) -> None:
    probs, gold = _random_probs(k, 300, seed=10 + k)
    expected_sklearn = brier_score_loss(gold, probs, labels=list(range(k)), scale_by_half=False)
    hand = ((probs - _onehot(gold, k)) ** 2).sum(axis=1).mean()
    assert brier(probs, gold) == pytest.approx(expected_sklearn)
    assert brier(probs, gold, "sum") == pytest.approx(hand)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_brier_mean_over_classes_is_personaeval_formula(k: int) -> None:
    probs, gold = _random_probs(k, 300, seed=20 + k)
    # PersonaEval: (1 / (N*K)) sum_i sum_k (p_ik - y_ik)^2
    personaeval = ((probs - _onehot(gold, k)) ** 2).mean()
    assert brier(probs, gold, "mean_over_classes") == pytest.approx(personaeval)
    assert brier(probs, gold, "mean_over_classes") == pytest.approx(brier(probs, gold) / k)


def test_brier_hand_example_and_gold_classes_missing() -> None:
    # every gold is option 2, so the labels must come from K, not from gold
    probs = np.array([[0.1, 0.2, 0.7, 0.0], [0.25, 0.25, 0.25, 0.25]])
    gold = np.array([2, 2])
    # row 1: .01 + .04 + .09 + 0 = .14 ; row 2: 3 * .0625 + .5625 = .75 ; mean = .445
    assert brier(probs, gold) == pytest.approx(0.445)
    assert brier(probs, gold, "mean_over_classes") == pytest.approx(0.445 / 4)


def test_brier_empty_is_nan() -> None:
    assert np.isnan(brier(np.zeros((0, 4)), np.zeros(0, dtype=np.int64)))


# --------------------------------------------------------------------------------------
# 3. top_k_correct
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
@pytest.mark.parametrize("k_opts", [4, 5])
@pytest.mark.parametrize("k", [1, 2])
def test_top_k_matches_sklearn_without_ties(tie_break: str, k_opts: int, k: int) -> None:
    probs, gold = _random_probs(k_opts, 500, seed=100 * k_opts + k)
    # tie-free: every row has K distinct values
    assert all(len(np.unique(row)) == k_opts for row in probs)
    expected = top_k_accuracy_score(gold, probs, k=k, labels=list(range(k_opts)))
    got = top_k_correct(probs, gold, k, tie_break)  # type: ignore[arg-type]
    assert got.dtype == bool and got.shape == (500,)
    assert got.mean() == pytest.approx(expected)
    if k == 1:
        assert np.array_equal(top1_correct(probs, gold, tie_break), got)  # type: ignore[arg-type]


@pytest.mark.parametrize("tie_break", TIE_BREAKS)
def test_top_ks_equals_top_k_per_k_with_ties(tie_break: str) -> None:
    rng = np.random.default_rng(7)
    probs = rng.integers(0, 3, size=(300, 4)).astype(float) + 1.0  # many ties
    probs /= probs.sum(axis=1, keepdims=True)
    gold = rng.integers(0, 4, size=300)
    many = top_ks_correct(probs, gold, (1, 2, 3), tie_break)  # type: ignore[arg-type]
    for k in (1, 2, 3):
        assert np.array_equal(many[k], top_k_correct(probs, gold, k, tie_break))  # type: ignore[arg-type]


def test_top_k_uniform_row_ties() -> None:
    probs = np.array([[0.25, 0.25, 0.25, 0.25]])
    gold = np.array([0])
    assert not top_k_correct(probs, gold, 1, "strict")[0]  # a tie is never credited
    assert top_k_correct(probs, gold, 1, "first")[0]  # ties to the first option
    assert top_k_correct(probs, gold, 1, "personaeval")[0]  # np.argmax picks the first
    # any other gold: never top-1
    for tie_break in TIE_BREAKS:
        assert not top_k_correct(probs, np.array([2]), 1, tie_break)[0]  # type: ignore[arg-type]


def test_top_k_two_way_tie_at_the_top() -> None:
    probs = np.array([[0.4, 0.4, 0.1, 0.1]])
    gold = np.array([1])
    assert not top_k_correct(probs, gold, 1, "strict")[0]
    assert top_k_correct(probs, gold, 2, "strict")[0]
    assert not top_k_correct(probs, gold, 1, "first")[0]  # option 0 is listed first
    assert top_k_correct(probs, np.array([0]), 1, "first")[0]
    assert top_k_correct(probs, gold, 2, "first")[0]
    assert not top_k_correct(probs, gold, 1, "personaeval")[0]  # argmax -> 0
    assert top_k_correct(probs, gold, 2, "personaeval")[0]  # {0, 1} are the 2 largest


def test_top_k_personaeval_top2_is_argsort_membership() -> None:
    # replicate the official code on rows with ties: gold in np.argsort(p)[-2:]
    rows = [[0.25] * 4, [0.4, 0.4, 0.1, 0.1], [0.1, 0.3, 0.3, 0.3], [0.2] * 5]
    for row in rows:
        p = np.array([row])
        for g in range(len(row)):
            official = g in np.argsort(np.array(row))[-2:]
            assert top_k_correct(p, np.array([g]), 2, "personaeval")[0] == official


def test_top_k_strict_counts_ties_against_gold() -> None:
    # gold has .3, one option above and one tied: 2 others >= .3 -> not top-2 under strict
    probs = np.array([[0.4, 0.3, 0.3, 0.0]])
    assert not top_k_correct(probs, np.array([1]), 2, "strict")[0]
    assert top_k_correct(probs, np.array([1]), 2, "first")[0]
    assert not top_k_correct(probs, np.array([2]), 2, "first")[0]


# --------------------------------------------------------------------------------------
# 4. gold_rank
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("g", range(4))
def test_gold_rank_uniform_row_average_is_2_5(g: int) -> None:
    probs = np.array([[0.25] * 4])
    assert gold_rank(probs, np.array([g]))[0] == pytest.approx(2.5)
    assert gold_rank(probs, np.array([g]), "average")[0] == pytest.approx(2.5)
    assert gold_rank(probs, np.array([g]), "min")[0] == 1.0
    assert gold_rank(probs, np.array([g]), "max")[0] == 4.0
    assert gold_rank(probs, np.array([g]), "ordinal")[0] == g + 1


def test_gold_rank_matches_scipy_rankdata_with_ties() -> None:
    probs = np.array([[0.4, 0.4, 0.1, 0.1], [0.1, 0.3, 0.3, 0.3], [0.5, 0.2, 0.2, 0.1]])
    for method in ["average", "min", "max", "ordinal"]:
        for g in range(4):
            gold = np.full(len(probs), g)
            expected = [rankdata(-row, method=method)[g] for row in probs]
            got = gold_rank(probs, gold, method)  # type: ignore[arg-type]
            assert got == pytest.approx(expected)
    # hand: [0.4, 0.4, ...] gold 0 -> average 1.5 ; [0.1, .3, .3, .3] gold 0 -> 4
    assert gold_rank(probs, np.array([0, 0, 1]))[:2] == pytest.approx([1.5, 4.0])
    assert gold_rank(probs, np.array([0, 0, 1]))[2] == pytest.approx(2.5)


@pytest.mark.parametrize("method", ["average", "min", "max", "ordinal"])
def test_gold_rank_matches_scipy_rankdata_on_random_rows_with_many_ties(method: str) -> None:
    rng = np.random.default_rng(0)
    for k in (1, 2, 4, 7):
        probs = rng.choice([0.0, 0.1, 0.25, 0.5], size=(200, k))  # ties in most rows
        gold = rng.integers(0, k, size=200)
        expected = rankdata(-probs, method=method, axis=1)[np.arange(200), gold]  # type: ignore[call-overload]
        assert gold_rank(probs, gold, method) == pytest.approx(expected)  # type: ignore[arg-type]


@pytest.mark.parametrize("rows", [[[0.25] * 4], [[0.4, 0.4, 0.1, 0.1]], [[0.2] * 5]])
def test_gold_rank_personaeval_replicates_official_code(rows: list[list[float]]) -> None:
    probs = np.array(rows)
    k = probs.shape[1]
    for g in range(k):
        got = gold_rank(probs, np.array([g]), "personaeval")[0]
        assert got == _official_rank(rows[0], g)
    # the ranks of all options are a permutation of 1..K
    ranks = [gold_rank(probs, np.array([g]), "personaeval")[0] for g in range(k)]
    assert sorted(ranks) == list(range(1, k + 1))


@pytest.mark.parametrize("k_opts", [4, 5])
def test_gold_rank_methods_agree_without_ties(k_opts: int) -> None:
    probs, gold = _random_probs(k_opts, 500, seed=7 * k_opts)
    # 1 + number of options strictly more probable than gold
    expected = 1 + (probs > probs[np.arange(500), gold][:, None]).sum(axis=1)
    for method in RANK_METHODS:
        got = gold_rank(probs, gold, method)  # type: ignore[arg-type]
        assert np.array_equal(got, expected.astype(float)), method
    official = [_official_rank(p, g) for p, g in zip(probs, gold, strict=True)]
    assert np.array_equal(gold_rank(probs, gold, "personaeval"), official)


# --------------------------------------------------------------------------------------
# 5. corpus metrics through Inspect's metric protocol
# --------------------------------------------------------------------------------------


def _sample_score(
    probs: list[float] | None, gold_index: int, n_options: int, config: RoleMetricConfig
) -> SampleScore:
    """What role_scorer's ``score`` stores; ``probs=None`` is a parse failure."""
    ok = probs is not None
    if probs is None:
        probs = [1.0 / n_options] * n_options
    value = score_distribution(probs, gold_index, config)
    value["parse_ok"] = float(ok)
    value["renormalised"] = 0.0
    value["n_answers"] = 1.0
    value["failed_answers"] = 0.0 if ok else 1.0
    return SampleScore(score=Score(value=value))  # type: ignore[arg-type]


# A: gold 0, clear top-1          brier .09 + 3 * .01           = .12
# B: gold 2, second most probable brier .01 + .36 + .64 + .01    = 1.02
# C: gold 0, tied at the top      brier .36 + .16 + .01 + .01    = .54
# D: parse failure, gold 3        uniform: brier .5625 + 3*.0625 = .75
CORPUS = [
    ([0.7, 0.1, 0.1, 0.1], 0),
    ([0.1, 0.6, 0.2, 0.1], 2),
    ([0.4, 0.4, 0.1, 0.1], 0),
    (None, 3),
]


def _corpus(config: RoleMetricConfig) -> list[SampleScore]:
    return [_sample_score(p, g, 4, config) for p, g in CORPUS]


# default: failures as uniform, strict ties, average ranks, 15 bins, sklearn Brier
# top1:  A T, B F, C F (tie, strict), D F                       -> 1/4
# top2:  A T, B T (max rank 2), C T (max rank 2), D F (rank 4)  -> 3/4
# rank:  1 + 2 + 1.5 + 2.5                                      -> 7/4
# brier: (.12 + 1.02 + .54 + .75) / 4                           -> .6075
# ece (15 bins, width 1/15): conf .7, .6, .4, .25 each alone in its bin, correct T F F F
#        (|.7-1| + .6 + .4 + .25) / 4 = 1.55 / 4                -> .3875
DEFAULT_EXPECTED = {
    "top1": 0.25,
    "top2": 0.75,
    "mean_rank": 1.75,
    "ece": 0.3875,
    "brier_score": 0.6075,
    "parse_failures": 1.0,
    "failed_answers": 0.25,  # one answer of four failed
}


def _personaeval_expected() -> dict[str, float]:
    # personaeval: D dropped from every denominator (n = 3)
    # top1:  argmax: A T, B F, C T (tie to first)                -> 2/3
    # top2:  argsort[-2:]: A T, B T ({1, 2}), C T ({0, 1})       -> 1
    # rank:  A 1, B 2, C = position of 0 in argsort(p)[::-1], which is numpy's
    #        (unstable) tie order: replicate the official code
    # brier: (.12 + 1.02 + .54) / 3 / 4 = 1.68 / 12              -> .14
    # ece (20 bins): .7 in (.65,.7] T, .6 in (.55,.6] F, .4 in (.35,.4] T
    #        (.3 + .6 + .6) / 3                                  -> .5
    rank_c = _official_rank([0.4, 0.4, 0.1, 0.1], 0)
    assert rank_c in (1, 2)
    return {
        "top1": 2 / 3,
        "top2": 1.0,
        "mean_rank": (1 + 2 + rank_c) / 3,
        "ece": 0.5,
        "brier_score": 0.14,
        "parse_failures": 1.0,
        "failed_answers": 0.25,
    }


def test_corpus_default_metric_factories() -> None:
    config = resolve_role_config("default")
    scores = _corpus(config)
    assert top1()(scores) == pytest.approx(0.25)
    assert top2()(scores) == pytest.approx(0.75)
    assert mean_rank()(scores) == pytest.approx(1.75)
    assert brier_score()(scores) == pytest.approx(0.6075)
    assert ece()(scores) == pytest.approx(0.3875)
    assert parse_failures()(scores) == 1.0
    # explicit arguments equal the defaults
    assert top1("strict", "uniform")(scores) == pytest.approx(0.25)
    assert ece(15, "strict", "uniform")(scores) == pytest.approx(0.3875)
    assert brier_score("sum", "uniform")(scores) == pytest.approx(0.6075)


def test_corpus_default_per_sample_values_agree_with_metrics() -> None:
    scores = _corpus(resolve_role_config("default"))
    values = [s.score.value for s in scores]
    assert [v["correct"] for v in values] == [1.0, 0.0, 0.0, 0.0]  # type: ignore[index]
    assert [v["top2"] for v in values] == [1.0, 1.0, 1.0, 0.0]  # type: ignore[index]
    assert [v["rank"] for v in values] == pytest.approx([1.0, 2.0, 1.5, 2.5])  # type: ignore[index]
    assert [v["brier"] for v in values] == pytest.approx([0.12, 1.02, 0.54, 0.75])  # type: ignore[index]
    assert [v["parse_ok"] for v in values] == [1.0, 1.0, 1.0, 0.0]  # type: ignore[index]


def test_corpus_default_via_role_metrics() -> None:
    config = resolve_role_config("default")
    assert config == ROLE_PRESETS["default"] == RoleMetricConfig()
    metrics = role_metrics(config)
    # and the failures by reason, and calls and tokens per sample
    assert len(metrics) == len(DEFAULT_EXPECTED) + 2
    scores = _corpus(config)
    got = [m(scores) for m in metrics]
    assert got[:-2] == pytest.approx(list(DEFAULT_EXPECTED.values()))
    assert got[-2] == {"failed/any": 0.0}  # the corpus's failed sample records no answers
    assert set(got[-1]) == {"calls_per_sample", "tokens_per_sample"}


def test_corpus_personaeval_metric_factories() -> None:
    config = resolve_role_config("personaeval")
    scores = _corpus(config)
    expected = _personaeval_expected()
    assert top1("personaeval", "drop")(scores) == pytest.approx(expected["top1"])
    assert top2("personaeval", "drop")(scores) == pytest.approx(expected["top2"])
    assert mean_rank("personaeval", "drop")(scores) == pytest.approx(expected["mean_rank"])
    assert ece(20, "personaeval", "drop")(scores) == pytest.approx(0.5)
    assert brier_score("mean_over_classes", "drop")(scores) == pytest.approx(0.14)
    assert parse_failures()(scores) == 1.0


def test_corpus_personaeval_via_role_metrics() -> None:
    config = resolve_role_config("personaeval")
    assert config.failures == "drop" and config.n_bins == 20
    assert config.tie_break == "personaeval" and config.rank_method == "personaeval"
    assert config.brier_normalize == "mean_over_classes"
    scores = _corpus(config)
    # the last two: the failures by reason, and calls and tokens
    got = [m(scores) for m in role_metrics(config)][:-2]
    assert got == pytest.approx(list(_personaeval_expected().values()))


def test_corpus_failures_drop_vs_uniform_differ_only_in_denominator() -> None:
    # the same stored scores, failures scored as uniform instead of dropped
    scores = _corpus(resolve_role_config("personaeval"))
    # top1 with D kept (uniform, gold 3 -> argmax 0 is wrong): 2/4
    assert top1("personaeval", "uniform")(scores) == pytest.approx(0.5)
    # brier /K with D kept: (.12 + 1.02 + .54 + .75) / 4 / 4
    assert brier_score("mean_over_classes", "uniform")(scores) == pytest.approx(2.43 / 16)


def test_corpus_all_failures_dropped_gives_nan() -> None:
    config = resolve_role_config("personaeval")
    scores = [_sample_score(None, 1, 4, config), _sample_score(None, 0, 4, config)]
    for m in role_metrics(config)[:5]:
        assert np.isnan(m(scores))
    assert parse_failures()(scores) == 2.0


# Mixed K (rows grouped by n_options), interleaved in the list:
# A4: [.7, .1, .1, .1]      gold 0  brier .12   top1 T  rank 1
# E5: [.6, .1, .1, .1, .1]  gold 0  brier .16 + 4 * .01 = .20  top1 T  rank 1
# B4: [.1, .6, .2, .1]      gold 2  brier 1.02  top1 F  rank 2
# F5: [.2] * 5              gold 4  brier .64 + 4 * .04 = .80  top1 F  rank 3 (average)
MIXED = [
    ([0.7, 0.1, 0.1, 0.1], 0),
    ([0.6, 0.1, 0.1, 0.1, 0.1], 0),
    ([0.1, 0.6, 0.2, 0.1], 2),
    ([0.2, 0.2, 0.2, 0.2, 0.2], 4),
]


def _mixed(config: RoleMetricConfig) -> list[SampleScore]:
    return [_sample_score(p, g, len(p), config) for p, g in MIXED]


def test_corpus_mixed_option_counts() -> None:
    scores = _mixed(resolve_role_config("default"))
    # sum: (.12 + .20 + 1.02 + .80) / 4 = 2.14 / 4
    assert brier_score()(scores) == pytest.approx(0.535)
    # mean over classes: (.12/4 + .20/5 + 1.02/4 + .80/5) / 4 = .485 / 4
    assert brier_score("mean_over_classes")(scores) == pytest.approx(0.12125)
    assert top1()(scores) == pytest.approx(0.5)
    assert top1("personaeval", "drop")(scores) == pytest.approx(0.5)
    assert mean_rank()(scores) == pytest.approx((1 + 1 + 2 + 3) / 4)
    # ece 15 bins: .6 (E5, T) and .6 (B4, F) share a bin: |.6 - .5| * 2/4 = .05 ;
    # .7 (T) alone: .3/4 ; .2 (F) alone: .2/4  -> .05 + .075 + .05
    assert ece()(scores) == pytest.approx(0.175)


def test_corpus_mixed_option_counts_with_a_five_option_failure() -> None:
    config = resolve_role_config("default")
    scores = _mixed(config) + [_sample_score(None, 1, 5, config)]
    # the failure is uniform over 5: brier .64 + 4 * .04 = .80 ; never top-1 (strict)
    assert brier_score()(scores) == pytest.approx((2.14 + 0.80) / 5)
    assert top1()(scores) == pytest.approx(2 / 5)
    assert parse_failures()(scores) == 1.0
    # dropped: back to the four parsed rows
    assert brier_score("sum", "drop")(scores) == pytest.approx(0.535)
    assert top1("strict", "drop")(scores) == pytest.approx(0.5)


# --------------------------------------------------------------------------------------
# 6. resolve_role_config
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["PersonaEval", "personaeval ", "", "sklearn"])
def test_resolve_unknown_preset_raises(preset: str) -> None:
    with pytest.raises(ValueError, match="unknown metrics preset"):
        resolve_role_config(preset)


def test_resolve_presets_without_overrides() -> None:
    assert resolve_role_config("default") == RoleMetricConfig()
    assert resolve_role_config("personaeval") == ROLE_PRESETS["personaeval"]


def test_resolve_overrides_beat_the_preset() -> None:
    config = resolve_role_config("personaeval", n_bins=10, failures="uniform")
    assert config.n_bins == 10
    assert config.failures == "uniform"
    # untouched fields keep the preset's values
    assert config.tie_break == "personaeval"
    assert config.rank_method == "personaeval"
    assert config.brier_normalize == "mean_over_classes"
    # the preset itself is unchanged
    assert ROLE_PRESETS["personaeval"].n_bins == 20
    assert ROLE_PRESETS["personaeval"].failures == "drop"

    config = resolve_role_config(
        "default",
        tie_break="first",
        rank_method="min",
        n_bins=20,
        brier_normalize="mean_over_classes",
        failures="drop",
    )
    assert config == RoleMetricConfig(
        tie_break="first",
        rank_method="min",
        n_bins=20,
        brier_normalize="mean_over_classes",
        failures="drop",
    )
    assert ROLE_PRESETS["default"] == RoleMetricConfig()


def test_resolve_override_changes_the_metrics() -> None:
    # the default preset with PersonaEval's top-1 tie-break credits row C (tie to first)
    config = resolve_role_config("default", tie_break="personaeval")
    scores = _corpus(config)
    assert role_metrics(config)[0](scores) == pytest.approx(2 / 4)


def test_per_sample_brier_follows_the_preset() -> None:
    # A: p = (.7, .1, .1, .1), gold 0: sum form .09 + 3 * .01 = .12; PersonaEval form .12 / 4
    personaeval = _corpus(resolve_role_config("personaeval"))
    assert personaeval[0].score.value["brier"] == pytest.approx(0.12 / 4)  # type: ignore[index]


def test_role_mean_equals_inspects_mean_over_epochs() -> None:
    rng = np.random.default_rng(7)
    for n_epochs in (1, 2, 5):
        epochs = []
        for _ in range(n_epochs):
            probs = rng.dirichlet(np.ones(4)).tolist()
            value = score_distribution(probs, 2, ROLE_PRESETS["default"])
            value["parse_ok"] = float(rng.random() < 0.7)
            epochs.append(Score(value=value, answer="x", explanation="why"))
        ours, inspects = role_mean()(epochs), mean_score()(epochs)
        assert isinstance(ours.value, dict) and isinstance(inspects.value, dict)
        assert list(ours.value) == list(inspects.value)
        assert ours.value == pytest.approx(inspects.value, abs=1e-15)
        assert (ours.answer, ours.explanation) == ("x", "why")
    # one epoch is returned value for value
    single = Score(value={"correct": 1.0, "p_0": 0.1})
    assert role_mean()([single]).value == single.value


# --------------------------------------------------------------------------------------
# The personaeval preset keeps the official parser's strictness
# --------------------------------------------------------------------------------------


def _role_score(preset: str, read_as: str, renormalised: bool = False) -> Score:
    from inspect_ai.model import ModelName
    from inspect_ai.scorer import Target
    from inspect_ai.solver import TaskState
    from inspect_ai.util import Store

    from inspect_plural.prediction import ModelAnswer, Prediction
    from inspect_plural.records import RoleCandidate, RoleSampleMetadata
    from inspect_plural.scorers.role import role_scorer

    names = ["Ann", "Bo", "Cy"]
    metadata = RoleSampleMetadata(
        dataset="personaeval_literary",
        item_id="i1",
        conversation="A: hello\nB: hi",
        candidates=[RoleCandidate(name=n, profile=f"{n}'s profile") for n in names],
        true_role="Bo",
    )
    state = TaskState(
        model=ModelName("plural/random"),
        sample_id="i1",
        epoch=1,
        input="fixture",
        messages=[],
        target=Target("Bo"),
        metadata=metadata.model_dump(),
    )
    distribution = {"Ann": 0.2, "Bo": 0.5, "Cy": 0.3}
    answer = ModelAnswer(
        raw="x", parse_ok=True, distribution=distribution, label="Bo", read_as=read_as
    )
    Prediction(
        store=Store(),
        method="role_identification",
        label="Bo",
        distribution=distribution,
        parse_ok=True,
        renormalised=renormalised,
        answers=[answer],
    ).write_to(state.store)
    score = asyncio.run(role_scorer(preset=preset)(state, Target("Bo")))
    assert score is not None
    return score


@pytest.mark.parametrize(
    ("read_as", "renormalised", "official_ok"),
    [
        ("json", False, True),
        ("text", False, False),
        ("ranked", False, False),
        ("json", True, False),
    ],
)
def test_the_personaeval_preset_accepts_only_what_the_official_parser_accepts(
    read_as: str, renormalised: bool, official_ok: bool
) -> None:
    default = _role_score("default", read_as, renormalised)
    official = _role_score("personaeval", read_as, renormalised)
    assert values_of(default)["parse_ok"] == 1.0  # type: ignore[index]
    assert values_of(official)["parse_ok"] == float(official_ok)  # type: ignore[index]
    if not official_ok:
        assert "official parser" in str(official.explanation)
        assert values_of(official)["correct"] == 0.0  # type: ignore[index]
