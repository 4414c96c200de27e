"""The lewidi split protocol: the release's own train/dev/test split of the items."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import SHARED_DATA

from inspect_plural.records import Annotator, AnnotatorSampleKeys, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources.lewidi import load_csc, load_mp, load_paraphrase, load_varierrnli
from inspect_plural.splits import lewidi_split
from inspect_plural.tasks.annotator._annotator_samples import build_samples

LEWIDI = SHARED_DATA / "lewidi"


def _pairs(frame: pd.DataFrame) -> set[tuple[str, str]]:
    return set(zip(frame["annotator_id"], frame["item_id"]))


@st.composite
def _corpora(draw: st.DrawFn) -> AnnotatedCorpus:
    n_items = draw(st.integers(1, 12))
    splits = draw(
        st.lists(st.sampled_from(["train", "dev", "test"]), min_size=n_items, max_size=n_items)
    )
    splits[0] = "test"  # at least one test item
    rows = []
    for i in range(n_items):
        who = draw(st.sets(st.integers(0, 5), min_size=1))
        rows += [(f"a{a}", f"t{i}", draw(st.integers(0, 1))) for a in sorted(who)]
    frame = pd.DataFrame(rows, columns=["annotator_id", "item_id", "label"])
    return AnnotatedCorpus(
        name="fixture",
        scale=LabelScale(kind="nominal", labels=["x", "y"]),
        annotators={a: Annotator(id=a) for a in frame["annotator_id"].unique()},
        items={f"t{i}": Item(id=f"t{i}", text=f"text {i}") for i in range(n_items)},
        judgments=frame,
        origin="built in test_lewidi_split.py",
        item_splits={f"t{i}": s for i, s in enumerate(splits)},
    )


@settings(max_examples=150, deadline=None)
@given(corpus=_corpora(), seed=st.integers(0, 2**16), k=st.none() | st.integers(0, 3))
def test_lewidi_split_properties(corpus: AnnotatedCorpus, seed: int, k: int | None) -> None:
    split = lewidi_split(corpus, seed=seed, k_examples=k)
    test_items = {i for i, s in corpus.item_splits.items() if s == "test"}
    has_train = "train" in corpus.item_splits.values()
    pool_items = {
        i for i, s in corpus.item_splits.items() if s == ("train" if has_train else "dev")
    }
    judged = corpus.judgments
    # test: exactly every judgment of the test items
    assert _pairs(split.test) == _pairs(judged[judged["item_id"].isin(test_items)])
    # pool: exactly every judgment of the pool items; dev is held out when train exists
    assert _pairs(split.train) == _pairs(judged[judged["item_id"].isin(pool_items)])
    # an annotator's training (examples, pool) and test judgments never share an item
    for frame in (split.train, split.examples):
        assert not set(frame["item_id"]) & test_items
        assert not _pairs(frame) & _pairs(split.test)
    # examples: the test annotators' own pool judgments (at most k each)
    own = split.train[split.train["annotator_id"].isin(set(split.test["annotator_id"]))]
    assert _pairs(split.examples) <= _pairs(own)
    if k is None:
        assert _pairs(split.examples) == _pairs(own)
    else:
        assert split.examples.groupby("annotator_id").size().le(k).all()
        expected = own.groupby("annotator_id").size().clip(upper=k)
        got = split.examples.groupby("annotator_id").size()
        assert got.reindex(expected.index, fill_value=0).equals(expected[expected.index])
    assert split.summary["test_judgments"] == len(split.test)
    assert lewidi_split(corpus, seed=seed, k_examples=k).examples.equals(split.examples)


def test_pool_option_and_errors() -> None:
    corpus = load_paraphrase(demo=True)
    default = lewidi_split(corpus)
    assert default.summary["pool"] == "train" and default.protocol == "lewidi"
    both = lewidi_split(corpus, pool="train,dev")
    dev_items = {i for i, s in corpus.item_splits.items() if s == "dev"}
    assert set(both.train["item_id"]) & dev_items and not set(default.train["item_id"]) & dev_items
    for bad in ("test", "train,test", "valid", ""):
        with pytest.raises(ValueError, match="pool must name"):
            lewidi_split(corpus, pool=bad)
    plain = AnnotatedCorpus(
        name="plain",
        scale=corpus.scale,
        annotators=corpus.annotators,
        items=corpus.items,
        judgments=corpus.judgments,
        origin="no splits",
    )
    with pytest.raises(ValueError, match="official split"):
        lewidi_split(plain)
    no_test = AnnotatedCorpus(
        name="no_test",
        scale=corpus.scale,
        annotators=corpus.annotators,
        items=corpus.items,
        judgments=corpus.judgments,
        origin="no test",
        item_splits={i: "train" for i in corpus.items},
    )
    with pytest.raises(ValueError, match="no judgment of an official test item"):
        lewidi_split(no_test)


def test_dev_is_the_pool_without_train_and_samples_build() -> None:
    corpus = load_csc(demo=True)
    split = lewidi_split(corpus, k_examples=3)
    assert split.summary["pool"] == "dev"
    assert set(corpus.item_splits[i] for i in split.train["item_id"]) == {"dev"}
    # CSC's demo test-only annotators (as the real file's) have nothing to learn from
    assert split.summary["test_annotators_without_examples"] == 2
    samples = build_samples(corpus, split, named=True)
    assert len(samples) == len(split.test)
    by_id = {s.id: s for s in samples}
    meta = by_id[next(iter(by_id))].metadata
    stored = AnnotatorSampleKeys.model_validate(meta)
    assert stored.split == "lewidi" and stored.item_votes == {}  # nobody's test label leaks


def test_varierrnli_items_sharing_a_raw_id_stay_apart() -> None:
    split = lewidi_split(load_varierrnli(demo=True))
    assert "test-5000" in set(split.test["item_id"]) and "train-5000" in set(split.train["item_id"])


@pytest.mark.skipif(not LEWIDI.is_dir(), reason="no ../shared/data/lewidi here")
def test_test_items_are_exactly_the_test_file() -> None:
    corpus = load_mp(data_dir=LEWIDI / "2025")
    split = lewidi_split(corpus)
    test_file = json.loads((LEWIDI / "2025" / "MP_test.json").read_text(encoding="utf-8"))
    dev_file = json.loads((LEWIDI / "2025" / "MP_dev.json").read_text(encoding="utf-8"))
    assert set(split.test["item_id"]) == {f"test-{k}" for k in test_file}
    assert len(split.test) == sum(len(r["annotations"]) for r in test_file.values())
    assert set(split.train["item_id"]) == {f"dev-{k}" for k in dev_file}
    assert split.summary["test_annotators_without_examples"] == 0
    assert not _pairs(split.examples) & _pairs(split.test)
