"""The distribution target's metric wrappers on hand-worked items.

Each item is scored by :func:`item_values` (the per-item values the scorer logs) and the
corpus value by the Inspect metric over those values; every expected number is worked
by hand in the comments, and the pure LeWiDi functions or scipy agree where they apply.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from inspect_ai.scorer import Metric, SampleScore, Score
from scipy.spatial.distance import jensenshannon
from scipy.stats import wasserstein_distance as scipy_wasserstein

from inspect_plural.item_records import (
    AnnotatorPredictions,
    AnnotatorRun,
    ItemAnnotator,
    ItemSampleMetadata,
    SteeredDistributions,
)
from inspect_plural.label_sets import NLI_LABELS, label_set_scale
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.records import Item, LabelScale
from inspect_plural.scorers import (
    DISTRIBUTION_PRESETS,
    cross_entropy,
    decision_label,
    distribution_metric_names,
    group_representativeness,
    hard_micro_f1,
    item_values,
    manhattan,
    manhattan_distance,
    norm_abs_distance,
    perspectivist_error_rate,
    wasserstein,
)

BINARY = LabelScale(kind="nominal", labels=["a", "b"])
THREE = LabelScale(kind="ordinal", labels=["1", "2", "3"])
SETS = label_set_scale(NLI_LABELS)
DEFAULT = DISTRIBUTION_PRESETS["default"]
LEWIDI = DISTRIBUTION_PRESETS["lewidi"]


def _item(
    scale: LabelScale,
    gold: dict[str, float],
    labels: list[str],
    groups: dict[str, dict[str, float]] | None = None,
    **extra: Any,
) -> ItemSampleMetadata:
    """An item sample with one annotator per label in ``labels``."""
    return ItemSampleMetadata(
        dataset="toy",
        item_id=extra.pop("item_id", "i1"),
        scale=scale,
        item=Item(id="i1", text="Some content."),
        gold=gold,
        annotators=[ItemAnnotator(annotator_id=f"A{k}", label=lab) for k, lab in enumerate(labels)],
        groups=groups or {},
        **extra,
    )


def _prediction(distribution: dict[str, float] | None) -> Prediction:
    return Prediction.detached(
        method="toy",
        label=max(distribution, key=lambda k: distribution[k]) if distribution else None,
        distribution=distribution,
        parse_ok=distribution is not None,
    )


def _scores(values: list[dict[str, float]]) -> list[SampleScore]:
    return [SampleScore(score=Score(value=v), sample_id=i) for i, v in enumerate(values)]


def _metric(metric: Metric, values: list[dict[str, float]]) -> Any:
    return metric(_scores(values))  # type: ignore[call-arg,arg-type]


def _binary_items() -> list[dict[str, float]]:
    # item 1: gold (0.6, 0.4), 5 annotators a a a b b, predicted (0.5, 0.5)
    # item 2: gold (0, 1), annotators b b, predicted (0.25, 0.75)
    # item 3: gold (1, 0), annotator a, predicted (0.2, 0.8)
    items = [
        (_item(BINARY, {"a": 0.6, "b": 0.4}, list("aaabb"), majority_label="a"), (0.5, 0.5)),
        (_item(BINARY, {"a": 0.0, "b": 1.0}, list("bb"), majority_label="b"), (0.25, 0.75)),
        (_item(BINARY, {"a": 1.0, "b": 0.0}, list("a"), majority_label="a"), (0.2, 0.8)),
    ]
    return [
        item_values(meta, _prediction(dict(zip("ab", p))), None, None, DEFAULT) for meta, p in items
    ]


def test_manhattan_wrapper_hand_worked() -> None:
    values = _binary_items()
    # |0.5-0.6| + |0.5-0.4| = 0.2; 0.25 + 0.25 = 0.5; 0.8 + 0.8 = 1.6; mean 2.3/3
    assert [v["manhattan"] for v in values] == pytest.approx([0.2, 0.5, 1.6])
    assert _metric(manhattan(), values) == pytest.approx(2.3 / 3)
    assert _metric(manhattan(5), values) == round(2.3 / 3, 5) == 0.76667
    gold = [[0.6, 0.4], [0.0, 1.0], [1.0, 0.0]]
    pred = [[0.5, 0.5], [0.25, 0.75], [0.2, 0.8]]
    assert _metric(manhattan(5), values) == manhattan_distance(gold, pred, decimals=5)


def test_cross_entropy_wrapper_hand_worked() -> None:
    values = _binary_items()
    # -(0.6 ln .5 + 0.4 ln .5) = ln 2; -ln 0.75; -ln 0.2 (each + 1e-9 inside the log)
    expected = [math.log(2), -math.log(0.75), -math.log(0.2)]
    assert [v["cross_entropy"] for v in values] == pytest.approx(expected, abs=1e-8)
    assert _metric(cross_entropy(), values) == pytest.approx(sum(expected) / 3, abs=1e-8)


def test_hard_micro_f1_wrapper_hand_worked() -> None:
    values = _binary_items()
    # top labels a (tie: the first), b, b against the hard labels a, b, a: 2 of 3
    assert [v["pred"] for v in values] == [0, 1, 1]
    assert [v["gold"] for v in values] == [0, 1, 0]
    assert _metric(hard_micro_f1(), values) == pytest.approx(2 / 3)


def test_hard_label_from_the_file_under_the_lewidi_preset() -> None:
    meta = _item(BINARY, {"a": 0.5, "b": 0.5}, list("ab"), majority_label="a", hard_label="b")
    prediction = _prediction({"a": 0.9, "b": 0.1})
    assert item_values(meta, prediction, None, None, DEFAULT)["hard_correct"] == 1.0
    assert item_values(meta, prediction, None, None, LEWIDI)["hard_correct"] == 0.0


def test_error_rate_wrapper_with_labels_the_distribution_predicts() -> None:
    values = _binary_items()
    # everyone gets the top label: a -> 2 of 5 wrong; b -> 0 of 2; b -> 1 of 1
    assert [v["error_rate"] for v in values] == pytest.approx([0.4, 0.0, 1.0])
    assert _metric(perspectivist_error_rate(), values) == pytest.approx(1.4 / 3)
    assert all(v["pooled"] == 0.0 for v in values)


def test_error_rate_from_each_annotators_pooled_run() -> None:
    meta = _item(BINARY, {"a": 2 / 3, "b": 1 / 3}, list("aab"), majority_label="a")
    runs = AnnotatorPredictions.detached(
        method="llm_judge",
        runs=[
            AnnotatorRun(annotator_id="A0", label="a", parse_ok=True),  # right
            AnnotatorRun(annotator_id="A1", label="b", parse_ok=True),  # wrong
            AnnotatorRun(annotator_id="A2", parse_ok=False),  # failed: wrong
        ],
    )
    values = item_values(meta, _prediction({"a": 0.5, "b": 0.5}), runs, None, DEFAULT)
    assert values["error_rate"] == pytest.approx(2 / 3)
    assert values["pooled"] == 1.0
    # official rounding of each item's rate
    assert item_values(meta, _prediction({"a": 0.5, "b": 0.5}), runs, None, LEWIDI)[
        "error_rate"
    ] == round(2 / 3, 5)


def test_wasserstein_and_normalised_distance_hand_worked() -> None:
    # gold all on "2"; predicted half on "1", half on "3": the CDFs (0,1,1) and (.5,.5,1)
    # differ by .5 twice: W1 = 1; two annotators labelled "2"; the median of the
    # prediction is "1" (cumulative .5 reached there): distance 1 each
    meta = _item(THREE, {"1": 0.0, "2": 1.0, "3": 0.0}, ["2", "2"], majority_label="2")
    prediction = _prediction({"1": 0.5, "2": 0.0, "3": 0.5})
    default = item_values(meta, prediction, None, None, DEFAULT)
    assert default["wasserstein"] == pytest.approx(1.0)
    assert default["wasserstein"] == pytest.approx(
        scipy_wasserstein([0, 1, 2], [0, 1, 2], [0.5, 0, 0.5], [0, 1, 0])
    )
    assert default["manhattan"] == pytest.approx(2.0)
    assert default["norm_abs_distance"] == pytest.approx(1 / 2)  # range: 3 - 1
    assert "error_rate" not in default
    lewidi = item_values(meta, prediction, None, None, LEWIDI)
    assert lewidi["norm_abs_distance"] == pytest.approx(1 / 3)  # the code: 3 values
    second = item_values(
        _item(THREE, {"1": 1.0, "2": 0.0, "3": 0.0}, ["1"], majority_label="1"),
        _prediction({"1": 1.0, "2": 0.0, "3": 0.0}),
        None,
        None,
        DEFAULT,
    )
    assert second["wasserstein"] == 0.0 and second["norm_abs_distance"] == 0.0
    assert _metric(wasserstein(), [default, second]) == pytest.approx(0.5)
    assert _metric(norm_abs_distance(), [default, second]) == pytest.approx(0.25)


def test_a_failed_ordinal_label_costs_the_largest_distance() -> None:
    meta = _item(THREE, {"1": 0.5, "2": 0.5, "3": 0.0}, ["1", "2"], majority_label="1")
    runs = AnnotatorPredictions.detached(
        runs=[AnnotatorRun(annotator_id="A0"), AnnotatorRun(annotator_id="A1")]
    )
    values = item_values(meta, _prediction(None), runs, None, DEFAULT)
    # "1" is at worst 2 positions away, "2" 1: (2 + 1) / 2 / (3 - 1)
    assert values["norm_abs_distance"] == pytest.approx(0.75)
    # a failed distribution counts as the uniform one
    assert values["parse_ok"] == 0.0
    assert values["manhattan"] == pytest.approx(abs(1 / 3 - 0.5) * 2 + 1 / 3)


def test_multilabel_manhattan_and_error_rate_hand_worked() -> None:
    # annotators: "neutral", "entailment + neutral": shares c 0, e .5, n 1. Uniform over
    # the 7 sets gives each base label 4/7 (4 sets hold it): binary distances 2|4/7 - t|
    # = 8/7, 1/7, 6/7, mean 5/7. Everyone predicted "c + e + n" (every share >= 1/2):
    # per label, errors c 2/2, e 1/2, n 0/2: mean 1/2
    meta = _item(
        SETS,
        {"contradiction": 0.0, "entailment": 0.5, "neutral": 1.0},
        ["neutral", "entailment + neutral"],
        base_labels=list(NLI_LABELS),
        majority_label="neutral",
    )
    uniform = _prediction({label: 1 / 7 for label in SETS.labels})
    values = item_values(meta, uniform, None, None, DEFAULT)
    assert values["manhattan"] == pytest.approx(5 / 7)
    assert values["error_rate"] == pytest.approx(0.5)
    assert "cross_entropy" not in values and "hard_correct" not in values
    assert item_values(meta, uniform, None, None, LEWIDI)["manhattan"] == 0.71429


def test_decision_labels() -> None:
    assert decision_label([0.5, 0.5], ["a", "b"], "nominal", []) == "a"  # first on ties
    assert decision_label([0.2, 0.3, 0.5], ["1", "2", "3"], "ordinal", []) == "2"  # median
    assert decision_label([1 / 6] * 6, list("123456"), "ordinal", []) == "3"
    assert decision_label([1 / 11] * 11, [str(v) for v in range(-5, 6)], "ordinal", []) == "0"
    sets = SETS.labels
    only_neutral = [1.0 if s == "neutral" else 0.0 for s in sets]
    assert decision_label(only_neutral, sets, "nominal", NLI_LABELS) == "neutral"
    spread = [0.3 if s in ("contradiction", "entailment", "neutral") else 0.1 / 4 for s in sets]
    # every base label's share below 1/2: the most likely one alone
    assert decision_label(spread, sets, "nominal", NLI_LABELS) == "contradiction"


def test_representativeness_per_group_hand_worked() -> None:
    # ordinal: model (.5, 0, .5), group G=x all on "2": W1 = 1 -> 1 - 1/(3-1) = 0.5;
    # group G=y all on "1": W1 = .5*0 + .5*2 = 1 -> 0.5; steered toward x: exactly x -> 1
    meta = _item(
        THREE,
        {"1": 0.5, "2": 0.5, "3": 0.0},
        ["1", "2"],
        groups={"G=x": {"1": 0.0, "2": 1.0, "3": 0.0}, "G=y": {"1": 1.0, "2": 0.0, "3": 0.0}},
        majority_label="1",
    )
    steered = SteeredDistributions.detached(
        dimensions=["G"],
        distributions={"G=x": {"1": 0.0, "2": 1.0, "3": 0.0}},
        answers=[
            ModelAnswer(raw="", parse_ok=True, persona="G=x"),
            ModelAnswer(raw="", parse_ok=False, persona="G=y"),  # failed: uniform
        ],
    )
    values = item_values(meta, _prediction({"1": 0.5, "2": 0.0, "3": 0.5}), None, steered, DEFAULT)
    assert values["rep/G=x"] == pytest.approx(0.5)
    assert values["rep/G=y"] == pytest.approx(0.5)
    assert values["rep_steered/G=x"] == pytest.approx(1.0)
    # uniform against all on "1": W1 = 1/3 + 2/3 = 1 -> 0.5
    assert values["rep_steered/G=y"] == pytest.approx(0.5)
    # every item's score repeats these keys: they are shared strings, not one per item
    again = item_values(meta, _prediction({"1": 1.0, "2": 0.0, "3": 0.0}), None, steered, DEFAULT)
    for key in ("rep/G=x", "rep_steered/G=y"):
        assert next(k for k in again if k == key) is next(k for k in values if k == key)
    # nominal: 1 - JS distance (base 2) of (.5, .5) and (1, 0)
    nominal = _item(BINARY, {"a": 1.0, "b": 0.0}, ["a"], groups={"H=z": {"a": 1.0, "b": 0.0}})
    rep = item_values(nominal, _prediction({"a": 0.5, "b": 0.5}), None, None, DEFAULT)["rep/H=z"]
    m = np.array([0.75, 0.25])
    js = -(m * np.log2(m)).sum() - 0.5  # H(m) - (H(p) + H(g)) / 2, H(p) = 1, H(g) = 0
    assert rep == pytest.approx(1 - math.sqrt(js))
    assert rep == pytest.approx(1 - jensenshannon([0.5, 0.5], [1, 0], base=2))


def test_representativeness_on_uneven_ordinals_is_santurkar_et_al() -> None:
    # Santurkar et al.'s code: 1 - wasserstein_distance(ordinal, ordinal, D_M, D_H) /
    # (max ordinal - min ordinal). Options at 1, 2, 4: model (.5, .5, 0), group (0, 0, 1):
    # W1 = .5 * 3 + .5 * 2 = 2.5, span 3 -> 1 - 2.5/3 = 1/6 (unit spacing would give
    # W1 = 1.5 over span 2 -> 0.25)
    scale = LabelScale(kind="ordinal", labels=["x", "y", "z"], ordinal_values=[1, 2, 4])
    model, group = [0.5, 0.5, 0.0], [0.0, 0.0, 1.0]
    meta = _item(scale, dict(zip("xyz", group)), ["z"], groups={"G=g": dict(zip("xyz", group))})
    rep = item_values(meta, _prediction(dict(zip("xyz", model))), None, None, DEFAULT)["rep/G=g"]
    official = 1 - scipy_wasserstein([1, 2, 4], [1, 2, 4], model, group) / (4 - 1)
    assert rep == pytest.approx(official) == pytest.approx(1 / 6)
    # values not in increasing order ([1, 2, 1.5]: the third option lies between the
    # first two) still give distances on the values, on a nominal scale too
    odd = LabelScale(kind="nominal", labels=["x", "y", "z"], ordinal_values=[1, 2, 1.5])
    meta = _item(odd, dict(zip("xyz", group)), ["z"], groups={"G=g": dict(zip("xyz", group))})
    rep = item_values(meta, _prediction(dict(zip("xyz", model))), None, None, DEFAULT)["rep/G=g"]
    # W1: mass .5 at 1 and .5 at 2 against all at 1.5 -> .5 * .5 + .5 * .5 = 0.5, span 1
    assert rep == pytest.approx(1 - scipy_wasserstein([1, 2, 1.5], [1, 2, 1.5], model, group))
    assert rep == pytest.approx(0.5)


def test_each_steering_style_gets_its_own_representativeness() -> None:
    # Santurkar et al.'s styles, group G=x all on "2": qa answered exactly that (1.0);
    # bio failed, so counts as uniform: W1 = 1/3 + 1/3 = 2/3 -> 1 - (2/3)/2 = 2/3; the
    # package's population style was not asked, so there is no rep_steered/ key
    group = {"1": 0.0, "2": 1.0, "3": 0.0}
    meta = _item(THREE, group, ["2"], groups={"G=x": group}, majority_label="2")
    steered = SteeredDistributions.detached(
        dimensions=["G"],
        styles=["qa", "bio"],
        styled={"qa": {"G=x": group}},
        answers=[
            ModelAnswer(raw="", parse_ok=True, persona="qa:G=x"),
            ModelAnswer(raw="", parse_ok=False, persona="bio:G=x"),
        ],
    )
    values = item_values(meta, _prediction({"1": 1.0, "2": 0.0, "3": 0.0}), None, steered, DEFAULT)
    assert values["rep_steered_qa/G=x"] == pytest.approx(1.0)
    assert values["rep_steered_bio/G=x"] == pytest.approx(2 / 3)
    assert "rep_steered/G=x" not in values
    assert values["rep/G=x"] == pytest.approx(0.5)  # all on "1" against all on "2"
    full = _metric(group_representativeness(["G"], ["G"], "full"), [values])
    assert full["rep_steered_qa/G"] == pytest.approx(1.0)
    assert full["rep_steered_bio/G=x"] == pytest.approx(2 / 3)
    headline = _metric(group_representativeness(["G"], ["G"], "headline"), [values])
    assert not any(k.startswith("rep_steered_") for k in headline)


def test_group_representativeness_metric_levels() -> None:
    # G=x: 0.5 and 1.0 -> 0.75; G=y: 0.25 -> dimension G: (0.75 + 0.25) / 2 = 0.5
    values = [
        {"rep/G=x": 0.5, "rep/G=y": 0.25, "rep/H=z": 0.9, "rep_steered/G=x": 1.0},
        {"rep/G=x": 1.0, "rep_steered/G=x": 0.0},
    ]
    headline = _metric(group_representativeness(["G", "H"]), values)
    assert headline == pytest.approx({"rep/G": 0.5, "rep/H": 0.9})
    steered = _metric(group_representativeness(["G", "H"], ["G"]), values)
    assert steered == pytest.approx({"rep/G": 0.5, "rep_steered/G": 0.5})
    full = _metric(group_representativeness(["G", "H"], ["G"], "full"), values)
    assert full == pytest.approx(
        {
            "rep/G": 0.5,
            "rep/H": 0.9,
            "rep/G=x": 0.75,
            "rep/G=y": 0.25,
            "rep/H=z": 0.9,
            "rep_steered/G": 0.5,
            "rep_steered/G=x": 0.5,
        }
    )


@pytest.mark.parametrize(
    ("dataset", "preset", "kinds", "multilabel", "expected"),
    [
        ("mp", "lewidi", {"nominal"}, False, ["manhattan", "error_rate"]),
        ("varierrnli", "lewidi", {"nominal"}, True, ["manhattan", "error_rate"]),
        ("csc", "lewidi", {"ordinal"}, False, ["wasserstein", "norm_abs_distance"]),
        ("paraphrase", "lewidi", {"ordinal"}, False, ["wasserstein", "norm_abs_distance"]),
        ("armis", "lewidi", {"nominal"}, False, ["cross_entropy", "hard_micro_f1", "error_rate"]),
        ("brexit", "lewidi", {"nominal"}, False, ["cross_entropy", "hard_micro_f1", "error_rate"]),
        ("opinionqa", "lewidi", {"nominal", "ordinal"}, False, None),
        (
            "mp",
            "default",
            {"nominal"},
            False,
            ["manhattan", "cross_entropy", "hard_micro_f1", "error_rate"],
        ),
        ("varierrnli_demo", "default", {"nominal"}, True, ["manhattan", "error_rate"]),
    ],
)
def test_metric_names_per_dataset_and_preset(
    dataset: str, preset: str, kinds: set[str], multilabel: bool, expected: list[str] | None
) -> None:
    names = distribution_metric_names(dataset, preset, kinds, multilabel)
    if expected is None:  # not a LeWiDi dataset: 2025's choice by scale
        expected = ["manhattan", "wasserstein", "error_rate", "norm_abs_distance"]
        assert sorted(names) == sorted(expected)
    else:
        assert names == expected
