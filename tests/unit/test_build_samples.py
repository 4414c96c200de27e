"""Samples built from a split: example capping, shared example lists, metadata keys."""

from __future__ import annotations

from inspect_plural.records import annotator_sample
from inspect_plural.scorers.perspective._metrics import trait_value
from inspect_plural.sources.brexit import load_brexit
from inspect_plural.splits import cinemetric_split
from inspect_plural.tasks import build_samples


def test_max_examples_keeps_a_seeded_subset_shared_by_an_annotators_samples() -> None:
    corpus = load_brexit(demo=True)
    split = cinemetric_split(corpus, seed=3, k_train=8, m_test=4)
    full = build_samples(corpus, split, named=True, max_examples=None)
    capped = build_samples(corpus, split, named=True, max_examples=3, seed=3)
    again = build_samples(corpus, split, named=True, max_examples=3, seed=3)
    assert [s.metadata for s in capped] == [s.metadata for s in again]  # type: ignore[union-attr]
    by_annotator: dict[str, list[str]] = {}
    for full_sample, sample in zip(full, capped):
        meta = annotator_sample(sample.metadata)
        whole = annotator_sample(full_sample.metadata)
        assert len(whole.training) == 8 and len(meta.training) == 3
        kept = [ex.item.id for ex in meta.training]
        assert set(kept) <= {ex.item.id for ex in whole.training}
        assert meta.item_id not in kept
        assert by_annotator.setdefault(meta.annotator_id or "", kept) == kept
        # the traits are stored once (issue 32); the trait metrics read them there
        assert "trait:group" not in sample.metadata  # type: ignore[operator]
        assert trait_value(sample.metadata or {}, "group") == meta.metric_traits["group"]


def test_unnamed_samples_hide_traits_but_keep_metric_traits() -> None:
    corpus = load_brexit(demo=True)
    split = cinemetric_split(corpus, k_train=2, m_test=2)
    for sample in build_samples(corpus, split, named=False):
        meta = annotator_sample(sample.metadata)
        assert meta.traits == {} and meta.metric_traits and not meta.named
        assert sample.id == f"{meta.annotator_id}:{meta.item_id}"
        assert sample.target in meta.labels
