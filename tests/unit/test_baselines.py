"""Non-LLM baselines: majority_label, annotator_majority and item_majority."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from inspect_ai.model import ModelName
from inspect_ai.solver import Solver, TaskState
from inspect_ai.util import Store

from inspect_plural.prediction import Prediction
from inspect_plural.records import AnnotatorSampleMetadata, Item, LabeledExample, LabelScale
from inspect_plural.solvers.baselines import annotator_majority, item_majority, majority_label

LABELS = ["no", "unsure", "yes"]
SCALE = LabelScale(kind="nominal", labels=LABELS)

# --------------------------------------------------------------------------------------
# majority_label
# --------------------------------------------------------------------------------------


def test_majority_label_unique_winner_does_not_use_rng() -> None:
    rng = random.Random(7)
    assert majority_label({"yes": 3, "no": 1}, LABELS, rng) == "yes"
    assert rng.random() == random.Random(7).random()  # rng state untouched


def test_majority_label_no_votes_is_none() -> None:
    rng = random.Random(0)
    assert majority_label({}, LABELS, rng) is None
    assert majority_label({"no": 0, "yes": 0}, LABELS, rng) is None
    # votes for labels outside the scale do not count
    assert majority_label({"maybe": 5}, LABELS, rng) is None
    assert majority_label({"maybe": 5, "no": 1}, LABELS, rng) == "no"


def test_majority_label_ties_drawn_by_rng_in_scale_order() -> None:
    votes = {"yes": 2, "no": 2, "unsure": 1}
    for seed in range(20):
        expected = random.Random(seed).choice(["no", "yes"])  # tied, in scale order
        assert majority_label(votes, LABELS, random.Random(seed)) == expected
        # the dict's order does not matter
        reordered = {"no": 2, "unsure": 1, "yes": 2}
        assert majority_label(reordered, LABELS, random.Random(seed)) == expected
    outcomes = {majority_label(votes, LABELS, random.Random(s)) for s in range(20)}
    assert outcomes == {"no", "yes"}  # both tied labels can win


# --------------------------------------------------------------------------------------
# The solvers on hand-built TaskStates
# --------------------------------------------------------------------------------------


async def _no_generate(state: TaskState, **kwargs: Any) -> TaskState:
    raise AssertionError("a baseline must not call the model")


def _state(
    training: list[str] | None = None,
    item_votes: dict[str, int] | None = None,
    pool_votes: dict[str, int] | None = None,
    annotator_id: str = "a1",
    item_id: str = "i1",
) -> TaskState:
    metadata = AnnotatorSampleMetadata(
        dataset="fixture",
        item_id=item_id,
        annotator_id=annotator_id,
        scale=SCALE,
        item=Item(id=item_id, text="fixture text"),
        training=[
            LabeledExample(item=Item(id=f"ex{n}", text=f"example {n}"), label=label)
            for n, label in enumerate(training or [])
        ],
        item_votes=item_votes or {},
        pool_votes=pool_votes or {},
    )
    return TaskState(
        model=ModelName("plural/random"),
        sample_id=f"{annotator_id}:{item_id}",
        epoch=1,
        input="fixture",
        messages=[],
        metadata=metadata.model_dump(),
    )


def _run(solver: Solver, state: TaskState) -> Prediction:
    out = asyncio.run(solver(state, _no_generate))  # type: ignore[arg-type]
    return out.store_as(Prediction)


def _check(prediction: Prediction, method: str, label: str | None, aggregate: str) -> None:
    assert prediction.method == method
    assert prediction.label == label
    assert prediction.parse_ok is (label is not None)
    assert prediction.aggregate == aggregate
    assert prediction.model_calls == 0
    if label is None:
        assert prediction.error
    else:
        assert prediction.error is None
        assert prediction.rationale and aggregate in prediction.rationale


def test_annotator_majority_uses_own_training_labels() -> None:
    state = _state(training=["yes", "yes", "no"], item_votes={"no": 9}, pool_votes={"no": 99})
    _check(_run(annotator_majority(), state), "annotator_majority", "yes", "annotator")


def test_annotator_majority_falls_back_to_item_then_pool_then_none() -> None:
    item = _state(item_votes={"unsure": 2, "no": 1}, pool_votes={"yes": 50})
    _check(_run(annotator_majority(), item), "annotator_majority", "unsure", "item")
    pool = _state(pool_votes={"yes": 50, "no": 10})
    _check(_run(annotator_majority(), pool), "annotator_majority", "yes", "pool")
    nothing = _state()
    _check(_run(annotator_majority(), nothing), "annotator_majority", None, "none")


def test_annotator_majority_ignores_training_labels_outside_the_scale() -> None:
    state = _state(training=["maybe", "maybe"], item_votes={"no": 1})
    _check(_run(annotator_majority(), state), "annotator_majority", "no", "item")


def test_annotator_majority_tie_is_seeded_by_annotator() -> None:
    results = {}
    for n in range(30):
        annotator = f"a{n}"
        expected = random.Random(f"42:annotator_majority:{annotator}").choice(["no", "yes"])
        first = _run(annotator_majority(), _state(training=["yes", "no"], annotator_id=annotator))
        again = _run(annotator_majority(), _state(training=["no", "yes"], annotator_id=annotator))
        assert first.label == again.label == expected
        results[annotator] = first.label
    assert set(results.values()) == {"no", "yes"}
    other_seed = [
        _run(annotator_majority(seed=7), _state(training=["yes", "no"], annotator_id=a)).label
        for a in results
    ]
    assert other_seed == [
        random.Random(f"7:annotator_majority:{a}").choice(["no", "yes"]) for a in results
    ]


def test_item_majority_ignores_own_training() -> None:
    state = _state(training=["yes", "yes", "yes"], item_votes={"no": 2, "yes": 1})
    _check(_run(item_majority(), state), "item_majority", "no", "item")


def test_item_majority_falls_back_to_pool_then_none() -> None:
    pool = _state(training=["yes"], pool_votes={"unsure": 4, "yes": 3})
    _check(_run(item_majority(), pool), "item_majority", "unsure", "pool")
    _check(_run(item_majority(), _state(training=["yes"])), "item_majority", None, "none")


@pytest.mark.parametrize("item_id", [f"i{n}" for n in range(10)])
def test_item_majority_tie_is_seeded_by_item(item_id: str) -> None:
    votes = {"yes": 3, "unsure": 3, "no": 1}
    expected = random.Random(f"42:item_majority:{item_id}").choice(["unsure", "yes"])
    prediction = _run(item_majority(), _state(item_votes=votes, item_id=item_id))
    _check(prediction, "item_majority", expected, "item")
    # the annotator does not enter the item draw
    other = _run(item_majority(), _state(item_votes=votes, item_id=item_id, annotator_id="zz"))
    assert other.label == expected


def test_solver_replaces_an_earlier_prediction() -> None:
    state = _state(pool_votes={"no": 1})
    Prediction(store=Store(), method="earlier", label="yes", parse_ok=True, model_calls=3).write_to(
        state.store
    )
    _check(_run(item_majority(), state), "item_majority", "no", "pool")
