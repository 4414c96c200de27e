"""LeWiDi 2025's baselines as methods: most frequent and random, soft-label and perspectivist."""

from __future__ import annotations

import asyncio
from typing import Any

from inspect_ai.model import ModelName
from inspect_ai.solver import Solver, TaskState

from inspect_plural.item_records import AnnotatorPredictions, ItemAnnotator, ItemSampleMetadata
from inspect_plural.prediction import Prediction
from inspect_plural.records import Item, LabelScale
from inspect_plural.scorers import DISTRIBUTION_PRESETS, item_values
from inspect_plural.solvers import lewidi_most_frequent, lewidi_random

SCALE = LabelScale(kind="nominal", labels=["no", "yes"])


async def _no_generate(state: TaskState, **kwargs: Any) -> TaskState:
    raise AssertionError("a baseline must not call the model")


def _state(pool: dict[str, int], labels: list[str], item_id: str = "i1") -> TaskState:
    metadata = ItemSampleMetadata(
        dataset="fixture",
        item_id=item_id,
        scale=SCALE,
        item=Item(id=item_id, text="fixture text"),
        gold={"no": labels.count("no") / len(labels), "yes": labels.count("yes") / len(labels)},
        annotators=[ItemAnnotator(annotator_id=f"A{k}", label=lab) for k, lab in enumerate(labels)],
        pool_votes=pool,
    )
    return TaskState(
        model=ModelName("none/none"),
        sample_id=item_id,
        epoch=1,
        input="fixture",
        messages=[],
        metadata=metadata.model_dump(),
    )


def _run(solver: Solver, state: TaskState) -> tuple[Prediction, AnnotatorPredictions, TaskState]:
    out = asyncio.run(solver(state, _no_generate))  # type: ignore[arg-type]
    return out.store_as(Prediction), out.store_as(AnnotatorPredictions), out


def _values(state: TaskState) -> dict[str, float]:
    metadata = state.metadata_as(ItemSampleMetadata)
    return item_values(
        metadata,
        state.store_as(Prediction),
        state.store_as(AnnotatorPredictions),
        None,
        DISTRIBUTION_PRESETS["default"],
    )


def test_most_frequent_is_the_pools_majority_one_hot_for_everyone() -> None:
    # pool: 7 "no", 3 "yes" -> one-hot on "no"; annotators no, yes, yes, yes
    state = _state({"no": 7, "yes": 3}, ["no", "yes", "yes", "yes"])
    prediction, runs, out = _run(lewidi_most_frequent(), state)
    assert prediction.distribution == {"no": 1.0, "yes": 0.0}
    assert prediction.model_calls == 0 and prediction.parse_ok
    assert [r.label for r in runs.runs] == ["no"] * 4
    values = _values(out)
    # gold (.25, .75): Manhattan |1 - .25| + |0 - .75| = 1.5; 3 of 4 annotators wrong
    assert values["manhattan"] == 1.5
    assert values["error_rate"] == 0.75


def test_most_frequent_ties_go_to_the_first_label_and_no_pool_fails() -> None:
    prediction, runs, _ = _run(lewidi_most_frequent(), _state({"no": 2, "yes": 2}, ["yes"]))
    assert prediction.distribution == {"no": 1.0, "yes": 0.0}
    prediction, runs, out = _run(lewidi_most_frequent(), _state({}, ["yes"]))
    assert not prediction.parse_ok and prediction.error
    assert [r.label for r in runs.runs] == [None]
    assert _values(out)["error_rate"] == 1.0  # a failed label counts as wrong


def test_random_is_seeded_per_item_and_annotator() -> None:
    labels = ["no", "yes", "yes", "no", "yes", "no"]
    first, runs1, _ = _run(lewidi_random(seed=1), _state({}, labels))
    again, runs2, _ = _run(lewidi_random(seed=1), _state({}, labels))
    other, _, _ = _run(lewidi_random(seed=2), _state({}, labels))
    elsewhere, _, _ = _run(lewidi_random(seed=1), _state({}, labels, item_id="i2"))
    assert first.distribution == again.distribution
    assert [r.label for r in runs1.runs] == [r.label for r in runs2.runs]
    assert first.distribution != other.distribution != elsewhere.distribution
    assert first.distribution is not None
    assert abs(sum(first.distribution.values()) - 1.0) < 1e-12
    assert first.model_calls == 0
    # over many items every label is drawn, and the mean share is near 1/2
    shares = [
        _run(lewidi_random(), _state({}, labels, item_id=f"i{k}"))[0].distribution or {}
        for k in range(200)
    ]
    mean = sum(s["yes"] for s in shares) / len(shares)
    assert 0.4 < mean < 0.6
