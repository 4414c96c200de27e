"""Vectorised group representativeness: the same numbers as one scipy call per group (issue 32)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy.spatial.distance import jensenshannon

from inspect_plural.item_records import ItemSampleKeys, SteeredDistributions
from inspect_plural.prediction import ModelAnswer
from inspect_plural.records import LabelScale
from inspect_plural.scorers.distribution._item_values import (
    REP_KEY,
    REP_STEERED_KEY,
    REP_STYLE_KEY,
    _groups,
    predicted_vector,
)
from inspect_plural.scorers.distribution._representativeness import (
    js_representativeness,
    js_representativeness_rows,
    representativeness,
)


def test_rows_are_bit_identical_to_one_call_per_pair() -> None:
    rng = np.random.default_rng(7)
    for trial in range(400):
        k, g = int(rng.integers(2, 8)), int(rng.integers(1, 25))
        p = rng.random(k) * (rng.random(k) > 0.3)
        p[0] += 0.0 if p.sum() else 1.0
        groups = rng.integers(0, 5, size=(g, k)).astype(float) / int(rng.integers(1, 7))
        groups[groups.sum(axis=1) == 0, -1] = 1.0
        if trial % 2:
            groups /= groups.sum(axis=1, keepdims=True)
        one = [js_representativeness([p], [row]) for row in groups]
        assert js_representativeness_rows(p, groups).tolist() == one
        models = rng.random((g, k)) + 0.01
        each = [js_representativeness([m], [row]) for m, row in zip(models, groups)]
        assert js_representativeness_rows(models, groups).tolist() == each


def test_rows_hand_worked_and_against_scipy() -> None:
    # p = (.5, .5), q = (1, 0): the Jensen-Shannon distance is 0.5579230 (see
    # test_distribution_metrics); identical distributions are fully representative
    got = js_representativeness_rows([0.5, 0.5], [[1.0, 0.0], [0.5, 0.5], [2.0, 2.0]])
    assert got.tolist() == pytest.approx([1 - 0.5579230, 1.0, 1.0], abs=1e-7)
    assert got[0] == 1 - jensenshannon([0.5, 0.5], [1.0, 0.0], base=2)


@pytest.mark.parametrize(
    ("model", "groups"),
    [
        ([1.0], [[1.0]]),  # one option
        ([0.5, 0.5], [[1.0, -0.1]]),  # a negative share
        ([0.5, 0.5], [[0.0, 0.0]]),  # a group without mass
        ([0.0, 0.0], [[1.0, 0.0]]),  # a model without mass
        ([0.5, 0.5], [[1.0, 0.0, 0.0]]),  # options differ
        ([[0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]]),  # one model row for two groups
    ],
)
def test_rows_reject_what_one_call_rejects(model: list[Any], groups: list[Any]) -> None:
    with pytest.raises(ValueError):
        js_representativeness_rows(model, groups)


def _reference(
    metadata: ItemSampleKeys, p: np.ndarray, steered: SteeredDistributions
) -> dict[str, float]:
    """The per-group loop ``_groups`` replaced: one scipy call per group and style."""
    labels, scale = metadata.labels, metadata.scale
    support = None
    if scale is not None and scale.ordinal_values is not None:
        support = list(scale.ordinal_values)
    elif scale is not None and scale.kind == "ordinal":
        support = [float(k) for k in range(len(labels))]

    def one(model: np.ndarray, group: np.ndarray) -> float:
        if support is not None:
            return representativeness([model], [group], [support])
        return js_representativeness([model], [group])

    asked: dict[str, set[str | None]] = {
        REP_STEERED_KEY: {a.persona for a in steered.answers if ":" not in str(a.persona)},
        REP_STYLE_KEY.format(style="qa"): {
            str(a.persona).removeprefix("qa:")
            for a in steered.answers
            if str(a.persona).startswith("qa:")
        },
    }
    steered_of = {
        REP_STEERED_KEY: steered.distributions,
        REP_STYLE_KEY.format(style="qa"): steered.styled.get("qa", {}),
    }
    values = {}
    for key, shares in metadata.groups.items():
        group = np.array([shares.get(label, 0.0) for label in labels])
        if group.sum() <= 0:
            continue
        values[REP_KEY + key] = one(p, group)
        for prefix in asked:
            if key in asked[prefix]:
                q = predicted_vector(steered_of[prefix].get(key), labels)
                values[prefix + key] = one(q, group)
    return values


@pytest.mark.parametrize(
    "scale",
    [
        LabelScale(kind="nominal", labels=["a", "b", "c"]),
        LabelScale(kind="ordinal", labels=["a", "b", "c"]),
        LabelScale(kind="ordinal", labels=["a", "b", "c"], ordinal_values=[1.0, 2.0, 4.0]),
    ],
)
def test_item_groups_equal_the_per_group_loop(scale: LabelScale) -> None:
    groups = {
        "age=young": {"a": 0.5, "b": 0.5, "c": 0.0},
        "age=old": {"a": 0.0, "b": 0.25, "c": 0.75},
        "age=none": {"a": 0.0, "b": 0.0, "c": 0.0},  # no mass: no value
        "party=left": {"a": 1 / 3, "b": 1 / 3, "c": 1 / 3},
        "party=right": {"c": 1.0},
    }
    metadata = ItemSampleKeys(
        dataset="d", item_id="i", scale=scale, gold={"a": 0.2, "b": 0.3, "c": 0.5}, groups=groups
    )
    answers = [
        ModelAnswer(raw="", parse_ok=True, persona="age=young"),
        ModelAnswer(raw="", parse_ok=False, persona="party=right"),  # failed: uniform
        ModelAnswer(raw="", parse_ok=True, persona="qa:age=old"),
        ModelAnswer(raw="", parse_ok=True, persona="qa:party=left"),
    ]
    steered = SteeredDistributions.detached(
        dimensions=["age", "party"],
        distributions={"age=young": {"a": 0.6, "b": 0.4, "c": 0.0}},
        answers=answers,
        styles=["population", "qa"],
        styled={"qa": {"age=old": {"a": 0.1, "b": 0.1, "c": 0.8}, "party=left": {"b": 1.0}}},
    )
    p = predicted_vector({"a": 0.2, "b": 0.2, "c": 0.6}, metadata.labels)
    got = _groups(metadata, p, steered)
    want = _reference(metadata, p, steered)
    assert list(got) == list(want)  # same keys, same order
    assert got == want  # the same floats, not approximately
    assert REP_KEY + "age=none" not in got
    assert REP_STEERED_KEY + "party=right" in got and REP_STEERED_KEY + "age=old" not in got
