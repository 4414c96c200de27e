"""The run's sample context: what an annotator's or item's samples share is kept once (issue 32)."""

from __future__ import annotations

import json

import pytest

from inspect_plural.item_records import item_sample
from inspect_plural.records import (
    AnnotatorContext,
    AnnotatorSampleMetadata,
    Item,
    LabeledExample,
    SampleContext,
    annotator_sample,
    register_context,
    require_examples,
    sample_context,
)
from inspect_plural.sources.brexit import load_brexit
from inspect_plural.splits import cinemetric_split
from inspect_plural.tasks import build_samples
from inspect_plural.tasks.annotator._item_samples import build_item_samples

SHARED = ("item", "training", "traits", "own_votes", "pool_votes")
"""What the samples of an annotator or item used to repeat."""


def _context(text: str = "a post") -> SampleContext:
    item = Item(id="i1", text=text)
    example = LabeledExample(item=Item(id="i0", text="before"), label="yes")
    return SampleContext(
        items={"i1": item},
        annotators={
            "a1": AnnotatorContext(
                traits={"gender": "woman"}, training=[example], own_votes={"yes": 3}
            )
        },
        pool_votes={"yes": 5, "no": 2},
    )


def test_log_copy_worked_example() -> None:
    assert _context().log_copy() == {
        "annotators": {
            "a1": {
                "traits": {"gender": "woman"},
                "own_votes": {"yes": 3},
                "training": [["i0", "yes"]],
            }
        },
        "pool_votes": {"yes": 5, "no": 2},
    }


def test_the_key_follows_the_content() -> None:
    first, again = register_context(_context(), "x"), register_context(_context(), "x")
    other = register_context(_context("another post"), "x")
    assert first == again and first.startswith("x:")
    assert other != first  # an item's text is part of the key: two tasks never share
    assert sample_context(other).items["i1"].text == "another post"


def test_whether_examples_were_loaded_is_part_of_the_key() -> None:
    """Two runs whose annotators have no examples must not read each other's context."""
    bare = _context().model_copy(update={"annotators": {"a1": AnnotatorContext()}})
    loaded = register_context(bare, "x")
    withheld = register_context(bare.model_copy(update={"examples": False}), "x")
    assert loaded != withheld
    assert sample_context(loaded).examples and not sample_context(withheld).examples
    require_examples({"context": loaded}, "cinemetric")  # none exist, none withheld
    with pytest.raises(ValueError, match="-T method=cinemetric"):
        require_examples({"context": withheld}, "cinemetric")


def test_an_unknown_key_says_to_build_the_task_first() -> None:
    with pytest.raises(LookupError, match="build the task here"):
        sample_context("x:0000")


def test_annotator_samples_store_keys_and_read_the_shared_copy() -> None:
    corpus = load_brexit(demo=True)
    split = cinemetric_split(corpus, k_train=3, m_test=2)
    samples = build_samples(corpus, split, named=True)
    by_annotator: dict[str, list[AnnotatorSampleMetadata]] = {}
    for sample in samples:
        stored = sample.metadata or {}
        assert stored["context"] and not set(SHARED) & set(stored)
        view = annotator_sample(stored)
        assert view.item.id == view.item_id and view.training
        assert view.traits == view.metric_traits  # named: the method sees the traits
        by_annotator.setdefault(view.annotator_id, []).append(view)
    for views in by_annotator.values():
        # one copy per annotator, not one per sample
        assert all(v.training is views[0].training for v in views)
    # a sample written whole (by hand, or by an older task) is read as it is
    whole = annotator_sample(
        {**annotator_sample(samples[0].metadata or {}).model_dump(), "context": ""}
    )
    assert whole.training == annotator_sample(samples[0].metadata or {}).training


def test_item_samples_store_keys_and_read_the_shared_copy() -> None:
    corpus = load_brexit(demo=True)
    split = cinemetric_split(corpus, k_train=3, m_test=2)
    for sample in build_item_samples(corpus, split, named=False, with_examples=True):
        stored = sample.metadata or {}
        assert "item" not in stored and "pool_votes" not in stored
        assert all(set(a) == {"annotator_id", "label"} for a in stored["annotators"])
        view = item_sample(stored)
        assert view.item.id == view.item_id
        assert all(a.traits == {} and a.metric_traits for a in view.annotators)  # unnamed
        assert all(a.training for a in view.annotators)
        assert len(json.dumps(stored)) < len(json.dumps(view.model_dump()))


def test_a_shared_scale_is_stored_without_its_description_and_read_with_it() -> None:
    """The scale's description, a sentence for the model, is the run's: stored once."""
    corpus = load_brexit(demo=True)
    assert corpus.scale.description and not corpus.item_scales
    split = cinemetric_split(corpus, k_train=3, m_test=2)
    for samples, read in (
        (build_samples(corpus, split, named=True), annotator_sample),
        (build_item_samples(corpus, split, named=True), item_sample),
    ):
        stored = [sample.metadata or {} for sample in samples]
        assert all("description" not in m["scale"] for m in stored)
        assert all(m["scale"] is stored[0]["scale"] for m in stored)  # one object
        assert all(read(m).scale == corpus.scale for m in stored)
        context = sample_context(stored[0]["context"])
        assert context.scale == corpus.scale


def test_per_item_scales_are_stored_whole() -> None:
    from inspect_plural.sources.opinionqa import load_opinionqa

    corpus = load_opinionqa(demo=True)
    assert corpus.item_scales
    split = cinemetric_split(corpus, k_train=3, m_test=2)
    samples = build_item_samples(corpus, split, named=True)
    assert samples
    for sample in samples:
        stored = sample.metadata or {}
        own = corpus.scale_of(stored["item_id"])
        assert stored["scale"] == own.model_dump(exclude_none=True)
        assert item_sample(stored).scale == own


def test_the_view_keeps_a_scale_that_is_not_the_runs() -> None:
    from inspect_plural.records import LabelScale

    run = LabelScale(kind="nominal", labels=["yes", "no"], description="Agree?")
    context = _context().model_copy(update={"scale": run})
    assert context.stored_scale(run) == {"kind": "nominal", "labels": ["yes", "no"]}
    bare = LabelScale(kind="nominal", labels=["yes", "no"])
    assert context.scale_of(bare) is run  # stored without its description: restored
    other = LabelScale(kind="nominal", labels=["no", "yes"])
    assert context.scale_of(other) is other  # another scale: as stored
    own = LabelScale(kind="nominal", labels=["yes", "no"], description="Other?")
    assert context.stored_scale(own)["description"] == "Other?"
    assert context.scale_of(own) is own
    assert _context().scale_of(bare) is bare  # a run of per-item scales


def test_the_runs_scale_is_part_of_the_key() -> None:
    from inspect_plural.records import LabelScale

    def scale(text: str) -> LabelScale:
        return LabelScale(kind="nominal", labels=["yes", "no"], description=text)

    first = register_context(_context().model_copy(update={"scale": scale("A?")}), "x")
    second = register_context(_context().model_copy(update={"scale": scale("B?")}), "x")
    assert first != second  # no sample holds the description: the key must tell them apart
    assert sample_context(second).scale == scale("B?")
