"""Perspectivist precision/recall/F1 (PersEval semantics, METRICS.md B "PersEval")."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import classification_report, precision_recall_fscore_support

from inspect_plural.scorers._prf import FAILED, grouped_report, prf_report, trait_report

MEASURES = ("precision", "recall", "f1")

# --------------------------------------------------------------------------------------
# 1. The METRICS.md two-annotator worked example
# --------------------------------------------------------------------------------------
# A: gold [0,0]     pred [0,0]
#    inferred labels {0}: F1(0) = 1                                  -> macro 1
#    fixed {0,1}: F1(0) = 1, F1(1) = 0 (no true, no pred, zd=0)     -> macro 1/2
# B: gold [0,1,1,1] pred [0,1,1,0]
#    class 0: tp 1, pred 2, true 1 -> P 1/2, R 1,   F1 2/3
#    class 1: tp 2, pred 2, true 3 -> P 1,   R 2/3, F1 4/5          -> macro 11/15
# inferred: (1 + 11/15) / 2 = 13/15 = 0.8667 ; fixed: (1/2 + 11/15) / 2 = 37/60 = 0.6167

EX_GOLD = [0, 0, 0, 1, 1, 1]
EX_PRED = [0, 0, 0, 1, 1, 0]
EX_GROUPS = ["A", "A", "B", "B", "B", "B"]


def test_worked_example_inferred() -> None:
    report = grouped_report(EX_GOLD, EX_PRED, EX_GROUPS, 2, labels="inferred")
    assert report["macro_f1"] == pytest.approx(0.8667, abs=1e-3)
    assert Fraction(report["macro_f1"]).limit_denominator(1000) == Fraction(13, 15)
    assert report["groups"] == 2.0
    # class 1 exists only in B: its mean runs over B alone
    assert report["f1/1"] == pytest.approx(4 / 5)
    assert report["f1/0"] == pytest.approx((1 + 2 / 3) / 2)
    assert report["accuracy"] == pytest.approx((1 + 3 / 4) / 2)


def test_worked_example_fixed() -> None:
    report = grouped_report(EX_GOLD, EX_PRED, EX_GROUPS, 2, labels="fixed")
    assert report["macro_f1"] == pytest.approx(0.6167, abs=1e-3)
    assert Fraction(report["macro_f1"]).limit_denominator(1000) == Fraction(37, 60)
    # class 1 is averaged over both annotators (A scores 0)
    assert report["f1/1"] == pytest.approx((0 + 4 / 5) / 2)


def test_worked_example_per_annotator_prf_report() -> None:
    a = prf_report([0, 0], [0, 0], 2, labels="inferred")
    assert a["macro_f1"] == 1.0
    assert "f1/1" not in a
    assert prf_report([0, 0], [0, 0], 2, labels="fixed")["macro_f1"] == 0.5
    b = prf_report([0, 1, 1, 1], [0, 1, 1, 0], 2)
    assert b["precision/0"] == pytest.approx(1 / 2)
    assert b["recall/1"] == pytest.approx(2 / 3)
    assert b["macro_f1"] == pytest.approx(11 / 15)


# --------------------------------------------------------------------------------------
# 2. prf_report equals scikit-learn
# --------------------------------------------------------------------------------------


def _sk_report(
    gold: np.ndarray, pred: np.ndarray, label_list: list[int], zero_division: float
) -> dict[str, float]:
    """Expected prf_report built from sklearn's classification_report."""
    sk = classification_report(
        gold, pred, labels=label_list, output_dict=True, zero_division=zero_division
    )
    out: dict[str, float] = {}
    for label in label_list:
        row = sk[str(label)]
        out[f"precision/{label}"] = row["precision"]
        out[f"recall/{label}"] = row["recall"]
        out[f"f1/{label}"] = row["f1-score"]
    out["macro_precision"] = sk["macro avg"]["precision"]
    out["macro_recall"] = sk["macro avg"]["recall"]
    out["macro_f1"] = sk["macro avg"]["f1-score"]
    # sklearn reports "accuracy" instead of "micro avg" when they coincide
    if "micro avg" in sk:
        micro = sk["micro avg"]
        out["micro_precision"] = micro["precision"]
        out["micro_recall"] = micro["recall"]
        out["micro_f1"] = micro["f1-score"]
    else:
        for key in ("micro_precision", "micro_recall", "micro_f1"):
            out[key] = sk["accuracy"]
    out["accuracy"] = float(np.mean(gold == pred))
    return out


def _assert_reports_equal(actual: dict[str, float], expected: dict[str, float]) -> None:
    assert set(actual) == set(expected)
    for key, value in expected.items():
        assert actual[key] == pytest.approx(value, abs=1e-12), key


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("seed", range(6))
def test_prf_report_fixed_matches_sklearn(seed: int, k: int, zero_division: float) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 30))
    gold = rng.integers(0, k, size=n)
    # predictions over a narrower range so some classes are never predicted
    pred = rng.integers(0, max(1, k - 1), size=n)
    report = prf_report(gold, pred, k, labels="fixed", zero_division=zero_division)
    _assert_reports_equal(report, _sk_report(gold, pred, list(range(k)), zero_division))


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
@pytest.mark.parametrize("seed", range(8))
def test_prf_report_inferred_matches_sklearn(seed: int, zero_division: float) -> None:
    rng = np.random.default_rng(100 + seed)
    k = 4
    n = int(rng.integers(1, 25))
    gold = rng.integers(0, 2, size=n)  # classes 2, 3 only ever predicted
    pred = rng.integers(0, k, size=n)
    report = prf_report(gold, pred, k, labels="inferred", zero_division=zero_division)
    present = sorted(set(gold.tolist()) | set(pred.tolist()))
    _assert_reports_equal(report, _sk_report(gold, pred, present, zero_division))
    # and the default sklearn call (no labels=) as the official PersEval code does it
    p, r, f, _ = precision_recall_fscore_support(
        gold, pred, average="macro", zero_division=zero_division
    )
    assert (report["macro_precision"], report["macro_recall"], report["macro_f1"]) == (
        pytest.approx(p),
        pytest.approx(r),
        pytest.approx(f),
    )


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
@pytest.mark.parametrize("seed", range(8))
def test_prf_report_fixed_with_failures_matches_sklearn(seed: int, zero_division: float) -> None:
    rng = np.random.default_rng(200 + seed)
    k = 3
    n = int(rng.integers(2, 30))
    gold = rng.integers(0, k, size=n)
    pred = rng.integers(0, k, size=n)
    pred[rng.random(n) < 0.3] = FAILED
    pred[0] = FAILED
    report = prf_report(gold, pred, k, labels="fixed", zero_division=zero_division)
    _assert_reports_equal(report, _sk_report(gold, pred, list(range(k)), zero_division))
    # semantics by hand: a failure is a miss for its gold class, no vote for any class
    for c in range(k):
        tp = int(np.sum((gold == c) & (pred == c)))
        true_c = int(np.sum(gold == c))
        pred_c = int(np.sum(pred == c))
        recall = tp / true_c if true_c else zero_division
        precision = tp / pred_c if pred_c else zero_division
        assert report[f"recall/{c}"] == pytest.approx(recall)
        assert report[f"precision/{c}"] == pytest.approx(precision)
    assert "f1/-1" not in report
    assert report["accuracy"] == pytest.approx(np.mean(gold == pred))
    # micro precision ignores the failures; micro recall counts them as misses
    hits = int(np.sum(gold == pred))
    assert report["micro_recall"] == pytest.approx(hits / n)
    voted = int(np.sum(pred != FAILED))
    assert report["micro_precision"] == pytest.approx(hits / voted if voted else zero_division)


def test_prf_report_failure_lowers_recall_only_of_gold_class() -> None:
    clean = prf_report([0, 1, 1, 0], [0, 1, 1, 0], 2)
    failed = prf_report([0, 1, 1, 0], [0, 1, FAILED, 0], 2)
    assert clean["recall/1"] == 1.0
    assert failed["recall/1"] == 0.5
    assert failed["precision/1"] == 1.0  # the failure is no vote for class 1
    assert failed["precision/0"] == 1.0  # ... nor for class 0
    assert failed["recall/0"] == 1.0
    assert failed["accuracy"] == 0.75


def test_prf_report_names_and_empty() -> None:
    report = prf_report([0, 1], [0, 0], 2, names=["no", "yes"])
    assert report["recall/yes"] == 0.0
    assert report["precision/no"] == 0.5
    assert "f1/0" not in report
    assert prf_report([], [], 2) == {}
    assert grouped_report([], [], [], 2) == {}


# --------------------------------------------------------------------------------------
# 3. grouped_report (vectorised) equals the mean of per-group prf_report
# --------------------------------------------------------------------------------------


def _reference_grouped(
    gold: list[int],
    pred: list[int],
    groups: list[str],
    k: int,
    labels: str,
    zero_division: float,
) -> dict[str, float]:
    """Per-group prf_report, then each key's unweighted mean over groups that have it."""
    g = np.asarray(gold)
    p = np.asarray(pred)
    grp = np.asarray(groups, dtype=object)
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    uniques = list(dict.fromkeys(groups))
    for name in uniques:
        rows = grp == name
        report = prf_report(g[rows], p[rows], k, labels, zero_division)  # type: ignore[arg-type]
        for key, value in report.items():
            sums[key] = sums.get(key, 0.0) + value
            counts[key] = counts.get(key, 0) + 1
    out = {key: sums[key] / counts[key] for key in sums}
    out["groups"] = float(len(uniques))
    return out


@st.composite
def _grouped_inputs(draw: st.DrawFn) -> tuple[list[int], list[int], list[str], int]:
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, 40))
    gold = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    pred = draw(st.lists(st.integers(-1, k - 1), min_size=n, max_size=n))
    groups = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    return gold, pred, groups, k


@settings(max_examples=60, deadline=None)
@given(
    data=_grouped_inputs(),
    labels=st.sampled_from(["fixed", "inferred"]),
    zero_division=st.sampled_from([0.0, 1.0]),
    keep_failures=st.booleans(),
)
def test_grouped_report_equals_mean_of_prf_reports(
    data: tuple[list[int], list[int], list[str], int],
    labels: str,
    zero_division: float,
    keep_failures: bool,
) -> None:
    gold, pred, groups, k = data
    if not keep_failures:
        # as the perseval preset does before its inferred-label reports
        pred = [p if p != FAILED else 0 for p in pred]
    # with inferred labels a kept FAILED is an ordinary class on both paths
    actual = grouped_report(gold, pred, groups, k, labels, zero_division)  # type: ignore[arg-type]
    expected = _reference_grouped(gold, pred, groups, k, labels, zero_division)
    assert set(actual) == set(expected)
    for key, value in expected.items():
        assert actual[key] == pytest.approx(value, abs=1e-9), key


def test_grouped_report_single_group_equals_prf_report() -> None:
    gold = [0, 1, 2, 2, 1, 0, 2]
    pred = [0, 2, 2, FAILED, 1, 1, 2]
    single = grouped_report(gold, pred, ["x"] * len(gold), 3)
    assert single.pop("groups") == 1.0
    _assert_reports_equal(single, prf_report(gold, pred, 3))


# --------------------------------------------------------------------------------------
# 4. trait_report
# --------------------------------------------------------------------------------------
# row gold pred traits
# r0  0    0    gender F,  age young, nation IT
# r1  1    1    gender F,  age UNK
# r2  1    1    gender M,  age old
# r3  0    1    gender M   (no age)
# r4  1    1    gender "", age old
# r5  0    1    gender UNK, age young
#
# gender (r4 "" and r5 UNK skipped):
#   F  = r0,r1: gold [0,1] pred [0,1]   -> macro P 1, R 1, F1 1, acc 1
#   M  = r2,r3: gold [1,0] pred [1,1]
#        class 0: tp 0, pred 0, true 1  -> P 0 (zd), R 0, F1 0
#        class 1: tp 1, pred 2, true 1  -> P 1/2, R 1, F1 2/3
#        macro P 1/4, R 1/2, F1 1/3, acc 1/2
#   mean: P 5/8, R 3/4, F1 2/3, acc 3/4
# age (r1 UNK skipped, r3 absent -> not counted):
#   young = r0,r5: gold [0,0] pred [0,1]
#        class 0: tp 1, pred 1, true 2 -> F1 2/3 ; class 1: tp 0, pred 1, true 0 -> F1 0
#        macro F1 1/3 (same in both label modes: both classes present)
#   old = r2,r4: gold [1,1] pred [1,1]
#        fixed: F1(0) = 0, F1(1) = 1 -> 1/2 ; inferred: {1} -> 1
#   mean: fixed 5/12, inferred 2/3 ; acc (1/2 + 1) / 2 = 3/4
#   per class, inferred: f1/0 only in young -> 2/3 ; f1/1 (0 + 1) / 2 = 1/2
#   per class, fixed:    f1/0 (2/3 + 0) / 2 = 1/3
# nation: only r0 -> gold [0] pred [0]: fixed 1/2, inferred 1

TR_GOLD = [0, 1, 1, 0, 1, 0]
TR_PRED = [0, 1, 1, 1, 1, 1]
TR_TRAITS = [
    {"gender": "F", "age": "young", "nation": "IT"},
    {"gender": "F", "age": "UNK"},
    {"gender": "M", "age": "old"},
    {"gender": "M"},
    {"gender": "", "age": "old"},
    {"gender": "UNK", "age": "young"},
]


def test_trait_report_worked_example_fixed() -> None:
    result = trait_report(TR_GOLD, TR_PRED, TR_TRAITS, 2)
    assert set(result) == {"gender", "age", "nation"}
    gender = result["gender"]
    assert gender["groups"] == 2.0
    assert gender["macro_precision"] == pytest.approx(5 / 8)
    assert gender["macro_recall"] == pytest.approx(3 / 4)
    assert gender["macro_f1"] == pytest.approx(2 / 3)
    assert gender["accuracy"] == pytest.approx(3 / 4)
    age = result["age"]
    assert age["groups"] == 2.0
    assert age["macro_f1"] == pytest.approx(5 / 12)
    assert age["accuracy"] == pytest.approx(3 / 4)
    assert age["f1/0"] == pytest.approx(1 / 3)
    assert result["nation"]["macro_f1"] == pytest.approx(1 / 2)
    assert result["nation"]["groups"] == 1.0


def test_trait_report_worked_example_inferred() -> None:
    result = trait_report(TR_GOLD, TR_PRED, TR_TRAITS, 2, labels="inferred")
    assert result["gender"]["macro_f1"] == pytest.approx(2 / 3)
    assert result["age"]["macro_f1"] == pytest.approx(2 / 3)
    assert result["age"]["f1/0"] == pytest.approx(2 / 3)
    assert result["age"]["f1/1"] == pytest.approx(1 / 2)
    assert result["nation"]["macro_f1"] == 1.0


def test_trait_report_pools_rows_of_a_value() -> None:
    # pooled per value (one report over all rows), not a mean over annotators
    gold = [0, 1, 1, 1]
    pred = [0, 1, 1, 0]
    traits = [{"g": "x"}] * 4
    pooled = trait_report(gold, pred, traits, 2)["g"]
    assert pooled["macro_f1"] == pytest.approx(prf_report(gold, pred, 2)["macro_f1"])


def test_trait_report_skips_unknown_values_and_absent_dimensions() -> None:
    traits = [{"g": "UNK"}, {"g": ""}, {}, {"h": "v"}]
    result = trait_report([0, 1, 0, 1], [0, 1, 1, 1], traits, 2)
    assert set(result) == {"h"}  # "g" has no usable value
    assert result["h"]["accuracy"] == 1.0
    assert result["h"]["groups"] == 1.0
    # a custom skip list keeps "UNK" as a value
    kept = trait_report([0, 1, 0, 1], [0, 1, 1, 1], traits, 2, skip_values=("",))
    assert kept["g"]["groups"] == 1.0
    assert kept["g"]["accuracy"] == 1.0
