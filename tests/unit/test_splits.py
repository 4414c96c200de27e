"""Split protocols: CINEMETRIC and PersEval (notes/perseval_spec.md sections 1-3)."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import SHARED_DATA

import inspect_plural
from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit, cinemetric_split, natural_sorted, perseval_split

SCALE = LabelScale(kind="nominal", labels=["a", "b", "c"])
BREXIT_DIR = SHARED_DATA / "brexit"


def _corpus_from_frame(judgments: pd.DataFrame, traits: dict[str, dict[str, str]] | None = None):
    traits = traits or {}
    annotators = {
        a: Annotator(id=a, traits=traits.get(a, {})) for a in judgments["annotator_id"].unique()
    }
    items = {i: Item(id=i, text=f"text {i}") for i in judgments["item_id"].unique()}
    return AnnotatedCorpus(
        name="fixture",
        scale=SCALE,
        annotators=annotators,
        items=items,
        judgments=judgments.reset_index(drop=True),
        origin="built in test_splits.py",
    )


def build_corpus(
    n_annotators: int, n_items: int, density: float, seed: int, digit_ids: bool = False
) -> AnnotatedCorpus:
    """A deterministic random corpus (each annotator judges item 0 at least)."""
    rng = np.random.default_rng(seed)
    rows = []
    for a in range(n_annotators):
        annotator = str(a + 1) if digit_ids else f"u{a}"
        for i in range(n_items):
            if i == 0 or rng.random() < density:
                rows.append((annotator, f"t{i}", int(rng.integers(0, 3))))
    frame = pd.DataFrame(rows, columns=["annotator_id", "item_id", "label"])
    return _corpus_from_frame(frame)


def _pairs(frame: pd.DataFrame) -> set[tuple[str, str]]:
    return set(zip(frame["annotator_id"], frame["item_id"]))


def _digest(frame: pd.DataFrame) -> str:
    return hashlib.sha256(frame.to_csv(index=False).encode()).hexdigest()


def _assert_rows_are_corpus_rows(frame: pd.DataFrame, corpus: AnnotatedCorpus) -> None:
    if len(frame) == 0:
        return
    merged = frame.merge(
        corpus.judgments, on=["annotator_id", "item_id"], suffixes=("", "_c"), how="left"
    )
    assert (merged["label"] == merged["label_c"]).all()


# --------------------------------------------------------------------------------------
# natural_sorted
# --------------------------------------------------------------------------------------


def test_natural_sorted() -> None:
    assert natural_sorted(["10", "9", "1", "100"]) == ["1", "9", "10", "100"]
    assert natural_sorted(["Ann10", "Ann9", "Ann1"]) == ["Ann1", "Ann10", "Ann9"]
    # one non-digit id: lexicographic for all
    assert natural_sorted(["10", "9", "x"]) == ["10", "9", "x"]
    assert natural_sorted(["train-10", "train-9", "dev-1"]) == ["dev-1", "train-10", "train-9"]
    assert natural_sorted([]) == []


# --------------------------------------------------------------------------------------
# cinemetric_split
# --------------------------------------------------------------------------------------


@st.composite
def _corpora(draw: st.DrawFn) -> AnnotatedCorpus:
    n_annotators = draw(st.integers(1, 8))
    n_items = draw(st.integers(1, 10))
    rows = []
    for a in range(n_annotators):
        seen = draw(st.lists(st.booleans(), min_size=n_items, max_size=n_items))
        for i, judged in enumerate(seen):
            if judged or i == 0:
                rows.append((f"u{a}", f"t{i}", draw(st.integers(0, 2))))
    return _corpus_from_frame(pd.DataFrame(rows, columns=["annotator_id", "item_id", "label"]))


@settings(max_examples=100, deadline=None)
@given(
    corpus=_corpora(),
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(1, 8),
    k=st.integers(0, 4),
    m=st.integers(1, 4),
)
def test_cinemetric_split_properties(
    corpus: AnnotatedCorpus, seed: int, n: int, k: int, m: int
) -> None:
    counts = corpus.judgments.groupby("annotator_id").size()
    eligible = set(counts.index[counts >= k + m])
    if not eligible:
        with pytest.raises(ValueError, match="no annotator has"):
            cinemetric_split(corpus, seed=seed, n_annotators=n, k_train=k, m_test=m)
        return
    split = cinemetric_split(corpus, seed=seed, n_annotators=n, k_train=k, m_test=m)
    chosen = set(split.test["annotator_id"])
    assert len(chosen) == min(n, len(eligible))
    assert chosen <= eligible
    assert split.summary["n_annotators"] == len(chosen)
    assert split.test.groupby("annotator_id").size().eq(m).all()
    assert len(split.test) == m * len(chosen)
    if k:
        assert set(split.examples["annotator_id"]) == chosen
        assert split.examples.groupby("annotator_id").size().eq(k).all()
    else:
        assert len(split.examples) == 0
    test_pairs, example_pairs, train_pairs = (
        _pairs(split.test),
        _pairs(split.examples),
        _pairs(split.train),
    )
    assert not test_pairs & example_pairs
    assert not test_pairs & train_pairs
    # train is every judgment but the test ones (the examples included)
    assert train_pairs | test_pairs == _pairs(corpus.judgments)
    assert len(split.train) + len(split.test) == len(corpus.judgments)
    assert example_pairs <= train_pairs
    for frame in (split.test, split.examples, split.train):
        _assert_rows_are_corpus_rows(frame, corpus)
    # the test frame is in a stable (annotator, item) order
    ordered = split.test.sort_values(["annotator_id", "item_id"]).reset_index(drop=True)
    pd.testing.assert_frame_equal(split.test, ordered)


def test_cinemetric_split_same_seed_same_output_different_seed_different() -> None:
    corpus = build_corpus(30, 40, 0.5, seed=3)
    first = cinemetric_split(corpus, seed=11, n_annotators=10, k_train=5, m_test=10)
    again = cinemetric_split(corpus, seed=11, n_annotators=10, k_train=5, m_test=10)
    pd.testing.assert_frame_equal(first.test, again.test)
    pd.testing.assert_frame_equal(first.examples, again.examples)
    pd.testing.assert_frame_equal(first.train, again.train)
    other = cinemetric_split(corpus, seed=12, n_annotators=10, k_train=5, m_test=10)
    assert _digest(other.test) != _digest(first.test)
    assert set(other.test["annotator_id"]) != set(first.test["annotator_id"])
    # all annotators eligible and taken: the judgments drawn still depend on the seed
    every = [
        cinemetric_split(corpus, seed=s, n_annotators=100, k_train=5, m_test=10) for s in (1, 2)
    ]
    assert set(every[0].test["annotator_id"]) == set(every[1].test["annotator_id"])
    assert _digest(every[0].test) != _digest(every[1].test)


def test_cinemetric_split_errors() -> None:
    corpus = build_corpus(4, 5, 0.0, seed=0)  # one judgment each
    with pytest.raises(
        ValueError, match=r"no annotator has 3 judgments.*most any annotator has is 1"
    ):
        cinemetric_split(corpus, k_train=1, m_test=2)
    with pytest.raises(ValueError, match="m_test >= 1"):
        cinemetric_split(corpus, m_test=0)
    with pytest.raises(ValueError, match="n_annotators >= 1"):
        cinemetric_split(corpus, n_annotators=0)


_CHILD = """
import hashlib, sys, types
import pandas as pd
src, csv = sys.argv[1], sys.argv[2]
# Load the split code without inspect_plural/__init__ (which imports inspect_ai, ~8 s).
for name, path in (("inspect_plural", src), ("inspect_plural.sources", src + "/sources")):
    module = types.ModuleType(name)
    module.__path__ = [path]
    sys.modules[name] = module
from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import cinemetric_split, perseval_split
frame = pd.read_csv(csv, dtype={"annotator_id": str, "item_id": str})
corpus = AnnotatedCorpus(
    name="fixture",
    scale=LabelScale(kind="nominal", labels=["a", "b", "c"]),
    annotators={a: Annotator(id=a) for a in frame["annotator_id"].unique()},
    items={i: Item(id=i, text=i) for i in frame["item_id"].unique()},
    judgments=frame,
    origin="child",
)
def digest(f):
    return hashlib.sha256(f.to_csv(index=False).encode()).hexdigest()
print(digest(cinemetric_split(corpus, seed=11, n_annotators=10, k_train=5, m_test=10).test))
print(digest(perseval_split(corpus, seed=11).test))
"""


def test_splits_identical_in_a_fresh_process(tmp_path: Path) -> None:
    corpus = build_corpus(30, 40, 0.5, seed=3, digit_ids=True)
    csv = tmp_path / "judgments.csv"
    corpus.judgments.to_csv(csv, index=False)
    src = str(Path(inspect_plural.__file__).resolve().parent)
    env = {**os.environ, "PYTHONHASHSEED": "987"}  # a different str hash than ours
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, src, str(csv)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    ).stdout.split()
    here = cinemetric_split(corpus, seed=11, n_annotators=10, k_train=5, m_test=10)
    assert out[0] == _digest(here.test)
    assert out[1] == _digest(perseval_split(corpus, seed=11).test)


# --------------------------------------------------------------------------------------
# perseval_split
# --------------------------------------------------------------------------------------


def _expected_test_users(corpus: AnnotatedCorpus, seed: int, fraction: float = 0.2) -> set[str]:
    ids = natural_sorted([str(u) for u in corpus.judgments["annotator_id"].unique()])
    return set(random.Random(seed).sample(ids, int(len(ids) * fraction)))


def _expected_adaptation_texts(corpus: AnnotatedCorpus, seed: int, users: set[str]) -> set[str]:
    j = corpus.judgments
    drawn = natural_sorted(j.loc[j["annotator_id"].isin(users), "item_id"].tolist())
    return set(random.Random(seed).sample(drawn, int(len(drawn) * 0.05)))


@pytest.mark.parametrize("digit_ids", [False, True])
@pytest.mark.parametrize("seed", [42, 7])
def test_perseval_test_users_and_adaptation_texts(seed: int, digit_ids: bool) -> None:
    corpus = build_corpus(23, 40, 0.5, seed=1, digit_ids=digit_ids)
    split = perseval_split(corpus, seed=seed, adaptation="test")
    users = _expected_test_users(corpus, seed)
    assert len(users) == int(23 * 0.2) == split.summary["test_users"]
    assert set(split.test["annotator_id"]) | set(split.examples["annotator_id"]) == users
    texts = _expected_adaptation_texts(corpus, seed, users)
    assert texts  # non-trivial draw
    j = corpus.judgments
    of_users = j[j["annotator_id"].isin(users)]
    assert _pairs(split.examples) == _pairs(of_users[of_users["item_id"].isin(texts)])
    assert _pairs(split.test) == _pairs(of_users[~of_users["item_id"].isin(texts)])
    assert split.summary["adaptation_judgments"] == len(split.examples)
    assert split.summary["test_judgments"] == len(split.test)


def test_perseval_digit_ids_sort_numerically() -> None:
    corpus = build_corpus(23, 10, 0.5, seed=1, digit_ids=True)
    ids = [str(u) for u in corpus.judgments["annotator_id"].unique()]
    lexicographic = set(random.Random(42).sample(sorted(ids), 4))
    numeric = set(random.Random(42).sample(sorted(ids, key=int), 4))
    assert lexicographic != numeric  # the fixture tells the two orders apart
    split = perseval_split(corpus, seed=42, adaptation="test")
    assert set(split.test["annotator_id"]) | set(split.examples["annotator_id"]) == numeric


ADAPTATIONS = ["none", "train", "test"]


def test_perseval_test_frame_independent_of_adaptation_and_extended() -> None:
    corpus = build_corpus(25, 40, 0.6, seed=2)
    splits = [
        perseval_split(corpus, adaptation=a, extended=e)  # type: ignore[arg-type]
        for a in ADAPTATIONS
        for e in (False, True)
    ]
    for other in splits[1:]:
        pd.testing.assert_frame_equal(splits[0].test, other.test)


def _check_perseval(corpus: AnnotatedCorpus, split: CorpusSplit, adaptation: str, extended: bool):
    j = corpus.judgments
    users = set(split.test["annotator_id"]) | set(split.examples["annotator_id"])
    test_pairs = _pairs(split.test)
    test_items = set(split.test["item_id"])
    assert not test_pairs & _pairs(split.examples)
    assert not test_pairs & _pairs(split.train)
    train_of_test_users = split.train[split.train["annotator_id"].isin(users)]
    if adaptation == "none":
        assert len(split.examples) == 0
    if adaptation in ("none", "test"):
        assert len(train_of_test_users) == 0  # train pool users and test users disjoint
    else:
        # adaptation=train: the only test-user judgments in the pool are the adaptation set
        assert _pairs(train_of_test_users) == _pairs(split.examples)
    if adaptation != "none":
        assert split.summary["adaptation_judgments"] == len(split.examples)
    others = j[~j["annotator_id"].isin(users)]
    train_of_others = split.train[~split.train["annotator_id"].isin(users)]
    if extended:
        assert _pairs(train_of_others) == _pairs(others)
    else:
        assert not set(split.train["item_id"]) & test_items
        assert _pairs(train_of_others) == _pairs(others[~others["item_id"].isin(test_items)])
    for frame in (split.test, split.examples, split.train):
        _assert_rows_are_corpus_rows(frame, corpus)


@pytest.mark.parametrize("extended", [False, True])
@pytest.mark.parametrize("adaptation", ADAPTATIONS)
def test_perseval_pool_and_examples(adaptation: str, extended: bool) -> None:
    corpus = build_corpus(25, 40, 0.6, seed=2)
    split = perseval_split(corpus, adaptation=adaptation, extended=extended)  # type: ignore[arg-type]
    if adaptation != "none":
        assert len(split.examples) > 0
    _check_perseval(corpus, split, adaptation, extended)
    assert split.summary["adaptation"] == adaptation
    assert split.summary["extended"] is extended


@settings(max_examples=40, deadline=None)
@given(
    n_annotators=st.integers(5, 20),
    n_items=st.integers(2, 25),
    density=st.floats(0.1, 0.9),
    corpus_seed=st.integers(0, 10_000),
    seed=st.integers(0, 10_000),
    adaptation=st.sampled_from(ADAPTATIONS),
    extended=st.booleans(),
)
def test_perseval_split_properties(
    n_annotators: int,
    n_items: int,
    density: float,
    corpus_seed: int,
    seed: int,
    adaptation: str,
    extended: bool,
) -> None:
    corpus = build_corpus(n_annotators, n_items, density, corpus_seed)
    split = perseval_split(corpus, seed=seed, adaptation=adaptation, extended=extended)  # type: ignore[arg-type]
    users = _expected_test_users(corpus, seed)
    assert len(users) == split.summary["test_users"] >= 1
    assert set(split.test["annotator_id"]) | set(split.examples["annotator_id"]) <= users
    if adaptation == "test":
        assert set(split.test["annotator_id"]) | set(split.examples["annotator_id"]) == users
    _check_perseval(corpus, split, adaptation, extended)


def test_perseval_split_errors() -> None:
    with pytest.raises(ValueError, match="too few"):
        perseval_split(build_corpus(4, 5, 0.5, seed=0))  # int(4 * 0.2) == 0
    with pytest.raises(ValueError, match="adaptation must be"):
        perseval_split(build_corpus(10, 5, 0.5, seed=0), adaptation="both")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# The BREXIT variant on the real data (notes/perseval_spec.md section 3)
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def brexit() -> AnnotatedCorpus:
    if not (BREXIT_DIR / "HS-Brexit_train.json").exists():
        pytest.skip(f"HS-Brexit files not found in {BREXIT_DIR}")
    from inspect_plural.sources.brexit import load_brexit

    return load_brexit(data_dir=BREXIT_DIR)


def test_brexit_text_split_counts(brexit: AnnotatedCorpus) -> None:
    split = perseval_split(brexit, seed=42, adaptation="test", text_split=(0.7, 0.05))
    assert len(brexit.judgments) == 6720
    assert len(split.test) == split.summary["test_judgments"] == 640
    assert len(split.examples) == split.summary["adaptation_judgments"] == 32
    assert split.summary["test_texts"] == 320
    test_users = set(split.test["annotator_id"])
    assert len(test_users) == split.summary["test_users"] == 2
    groups = {brexit.annotators[u].traits["group"] for u in test_users}
    assert groups == {"target group", "control group"}
    assert set(split.examples["annotator_id"]) == test_users
    # texts, by hand: 784 training-only texts, then 16 adaptation texts from the sorted rest
    texts = sorted(brexit.judgments["item_id"].unique())
    assert len(texts) == 1120
    rng = random.Random(42)
    train_texts = set(rng.sample(texts, 784))
    rest = sorted(set(texts) - train_texts)
    adaptation_texts = set(rng.sample(rest, 16))
    assert set(split.examples["item_id"]) == adaptation_texts
    assert set(split.test["item_id"]) == set(rest) - adaptation_texts
    # non-extended: the 4 training users keep every text but the 320 test texts
    others = split.train[~split.train["annotator_id"].isin(test_users)]
    assert len(others) == 4 * (1120 - 320)
    assert not set(others["item_id"]) & set(split.test["item_id"])
