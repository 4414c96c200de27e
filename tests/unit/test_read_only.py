"""Read-only metadata values: dicts and lists to a reader, shared (not copied) by copies."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from inspect_ai.dataset import Sample

from inspect_plural import tasks
from inspect_plural.records import ReadOnlyDict, ReadOnlyList, read_only
from inspect_plural.sources.lewidi import load_mp
from inspect_plural.splits import cinemetric_split, lewidi_split
from inspect_plural.tasks.annotator._annotator_samples import build_samples
from inspect_plural.tasks.annotator._item_samples import build_item_samples

VALUE: dict[str, Any] = {
    "scale": {"kind": "nominal", "labels": ["a", "b"]},
    "annotators": [{"annotator_id": "x", "label": "a"}],
    "n": 3,
}


def test_reads_as_the_dicts_and_lists_it_was() -> None:
    frozen = read_only(VALUE)
    assert isinstance(frozen, dict) and isinstance(frozen["annotators"], list)
    assert isinstance(frozen["scale"], ReadOnlyDict)
    assert isinstance(frozen["scale"]["labels"], ReadOnlyList)
    assert frozen == VALUE
    assert json.dumps(frozen, sort_keys=True) == json.dumps(VALUE, sort_keys=True)
    assert read_only(("a", "b")) == ["a", "b"]  # a tuple reads back as JSON's list


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v.__setitem__("n", 4),
        lambda v: v.pop("n"),
        lambda v: v.update(n=4),
        lambda v: v.setdefault("m", 1),
        lambda v: v.clear(),
        lambda v: v["scale"]["labels"].append("c"),
        lambda v: v["scale"]["labels"].__setitem__(0, "z"),
        lambda v: v["scale"]["labels"].sort(),
        lambda v: v["annotators"][0].__delitem__("label"),
    ],
)
def test_changing_it_raises_and_leaves_it_as_it_was(change: Any) -> None:
    frozen = read_only(VALUE)
    with pytest.raises(TypeError, match="read-only"):
        change(frozen)
    assert frozen == VALUE


def test_copies_are_itself_and_pickles_are_equal() -> None:
    frozen = read_only(VALUE)
    assert copy.deepcopy(frozen) is frozen and copy.copy(frozen) is frozen
    assert copy.deepcopy(frozen["scale"]["labels"]) is frozen["scale"]["labels"]
    again = pickle.loads(pickle.dumps(frozen))
    assert again == VALUE and isinstance(again["scale"], ReadOnlyDict)
    assert read_only(frozen) is frozen  # already read-only: the same object


def test_an_inspect_sample_copy_shares_the_values_and_can_change_its_keys() -> None:
    sample = Sample(input="x", metadata=read_only(VALUE))
    assert sample.metadata is not None
    twin = copy.deepcopy(sample)
    assert twin.metadata is not None and twin.metadata is not sample.metadata
    assert twin.metadata["scale"] is sample.metadata["scale"]
    twin.metadata["extra"] = 1  # a solver may still add to its state's metadata
    assert "extra" not in sample.metadata


def test_item_samples_share_their_values_with_their_copies() -> None:
    corpus = load_mp(demo=True)
    samples = build_item_samples(corpus, lewidi_split(corpus), named=True)
    sample = samples[0]
    assert sample.metadata is not None
    twin = copy.deepcopy(sample)
    assert twin.metadata is not None
    for key in ("groups", "annotators", "gold", "scale"):
        assert twin.metadata[key] is sample.metadata[key], key


def test_an_annotators_samples_share_one_scale_and_one_traits_object() -> None:
    corpus = load_mp(demo=True)
    split = cinemetric_split(corpus, seed=42, n_annotators=4, k_train=5, m_test=3)
    samples = build_samples(corpus, split, named=True)
    by_annotator: dict[str, list[dict[str, Any]]] = {}
    for sample in samples:
        assert sample.metadata is not None
        by_annotator.setdefault(sample.metadata["annotator_id"], []).append(sample.metadata)
    assert any(len(group) > 1 for group in by_annotator.values())
    scales = {id(m["scale"]) for m in (s.metadata or {} for s in samples)}
    assert len(scales) == 1
    for group in by_annotator.values():
        assert len({id(copy.deepcopy(m)["metric_traits"]) for m in group}) == 1


@pytest.mark.parametrize(
    "build",
    [
        lambda: tasks.mp(demo=True),
        lambda: tasks.mp(demo=True, target="distribution", method="uniform"),
        lambda: tasks.personaeval_literary(demo=True),
        lambda: tasks.storysparkqa(demo=True),
        lambda: tasks.per_mpst(demo=True),
        lambda: tasks.per_doc(demo=True),
    ],
    ids=["annotator", "item", "role", "rating", "review", "pair"],
)
def test_every_familys_samples_store_read_only_values(build: Any) -> None:
    """A copy of a stored sample (Inspect makes three a sample) shares its values."""
    sample = build().dataset[0]
    assert sample.metadata is not None
    nested = {k: v for k, v in sample.metadata.items() if isinstance(v, dict | list)}
    assert nested  # each family stores some structured value
    twin = copy.deepcopy(sample)
    assert twin.metadata is not None
    for key, value in nested.items():
        assert isinstance(value, ReadOnlyDict | ReadOnlyList), key
        assert twin.metadata[key] is value, key
