"""Item samples of the distribution target, and the options that choose them.

The gold of an item is its test annotators' distribution (the file's soft label for
LeWiDi, survey-weighted shares for OpinionQA), its annotators are exactly its test
judgments, group distributions are those annotators' by trait, and options that cannot
work fail before any data is read, naming the option.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from inspect_plural.errors import OptionError
from inspect_plural.item_records import ItemSampleMetadata, item_sample, split_group_key
from inspect_plural.label_sets import NLI_LABELS
from inspect_plural.scorers import weighted_distribution
from inspect_plural.sources.lewidi import load_mp, load_varierrnli
from inspect_plural.sources.opinionqa import load_opinionqa
from inspect_plural.splits import cinemetric_split, lewidi_split
from inspect_plural.tasks import dp, mp, opinionqa, varierrnli
from inspect_plural.tasks.annotator._item_samples import build_item_samples, label_set_base
from inspect_plural.tasks.perspective import brexit, md_agreement


def _meta(sample: Any) -> ItemSampleMetadata:
    return item_sample(sample.metadata)


def test_lewidi_items_carry_the_files_soft_label_and_every_annotator() -> None:
    corpus = load_mp(demo=True)
    split = lewidi_split(corpus)
    samples = build_item_samples(corpus, split, named=True)
    test_items = [i for i, s in corpus.item_splits.items() if s == "test"]
    assert [s.id for s in samples] == test_items  # the corpus's order, every test item
    judgments = corpus.judgments
    for sample in samples:
        meta = _meta(sample)
        assert meta.gold == corpus.item_soft_labels[meta.item_id]
        assert meta.gold_source == "file"
        mine = judgments[judgments["item_id"] == meta.item_id]
        expected = {
            (a, corpus.scale.labels[int(lab)])
            for a, lab in zip(mine["annotator_id"], mine["label"])
        }
        assert {(a.annotator_id, a.label) for a in meta.annotators} == expected
        assert not meta.item_votes  # official train/dev and test items are disjoint
        assert sum(meta.pool_votes.values()) == len(split.train)
        for key, shares in meta.groups.items():
            dimension, value = split_group_key(key)
            members = [a for a in meta.annotators if a.metric_traits[dimension] == value]
            assert members  # a group is among the item's annotators
            counts = [sum(a.label == lab for a in members) for lab in meta.labels]
            assert [shares[lab] for lab in meta.labels] == pytest.approx(
                [c / len(members) for c in counts]
            )
            assert value != "UNK"


def test_items_share_their_group_keys_and_labels() -> None:
    """Every item repeats the group keys and labels: one string each per run, not per item."""
    corpus = load_mp(demo=True)
    samples = build_item_samples(corpus, lewidi_split(corpus), named=True)
    first: dict[str, str] = {}
    shared = 0
    for sample in samples:
        for key, shares in sample.metadata["groups"].items():
            assert first.setdefault(key, key) is key
            for label in shares:
                assert first.setdefault(label, label) is label
            shared += 1
    assert shared > len(first)  # keys did recur across items


def test_label_set_items_are_scored_per_base_label() -> None:
    corpus = load_varierrnli(demo=True)
    assert label_set_base(corpus.scale) == list(NLI_LABELS)
    assert label_set_base(load_mp(demo=True).scale) == []
    for sample in build_item_samples(corpus, lewidi_split(corpus), named=True):
        meta = _meta(sample)
        assert meta.base_labels == list(NLI_LABELS) and meta.multilabel
        assert set(meta.gold) == set(NLI_LABELS)
        # the shares of the annotators who gave each base label (file rounding: 0.01)
        for base in NLI_LABELS:
            share = np.mean([base in a.label.split(" + ") for a in meta.annotators])
            assert meta.gold[base] == pytest.approx(share, abs=0.01)


def test_opinionqa_gold_and_groups_are_survey_weighted() -> None:
    corpus = load_opinionqa(demo=True)
    assert corpus.annotator_weights
    split = cinemetric_split(corpus, seed=42, n_annotators=100, k_train=5, m_test=10)
    samples = build_item_samples(corpus, split, named=True)
    assert samples
    for sample in samples:
        meta = _meta(sample)
        assert meta.gold_source == "weighted judgments"
        labels = meta.labels
        codes = [labels.index(a.label) for a in meta.annotators]
        weights = [corpus.weight_of(a.annotator_id) for a in meta.annotators]
        assert [a.weight for a in meta.annotators] == weights
        # stored only where it is not the default, 1
        stored = (sample.metadata or {})["annotators"]
        assert [a.get("weight", 1.0) for a in stored] == weights
        assert all(("weight" in a) == (a.get("weight", 1.0) != 1.0) for a in stored)
        expected = weighted_distribution(codes, len(labels), weights)
        assert [meta.gold[lab] for lab in labels] == pytest.approx(expected.tolist())
        party = {k: v for k, v in meta.groups.items() if k.startswith("POLPARTY=")}
        for key, shares in party.items():
            value = split_group_key(key)[1]
            members = [
                (c, w)
                for c, w, a in zip(codes, weights, meta.annotators)
                if a.metric_traits["POLPARTY"] == value
            ]
            group = weighted_distribution(
                [c for c, _ in members], len(labels), [w for _, w in members]
            )
            assert [shares[lab] for lab in labels] == pytest.approx(group.tolist())


def test_examples_are_kept_only_for_methods_that_show_them() -> None:
    lean = mp(demo=True, target="distribution", method="llm_judge")
    with_examples = mp(demo=True, target="distribution", method="retrieval_examples")
    assert all(not a.training for s in lean.dataset for a in _meta(s).annotators)
    assert any(a.training for s in with_examples.dataset for a in _meta(s).annotators)
    # kept once, in the run's context: a sample stores its annotators' ids and labels
    for sample in with_examples.dataset:
        assert sample.metadata is not None
        # the weight only where it is not the default, 1 (no survey weights here)
        assert all(set(a) == {"annotator_id", "label"} for a in sample.metadata["annotators"])
    assert [s.id for s in lean.dataset] == [s.id for s in with_examples.dataset]


def test_distribution_target_defaults_to_the_release_split_where_there_is_one() -> None:
    task = brexit(demo=True, target="distribution", method="uniform")
    assert task.metadata is not None and task.metadata["split"]["protocol"] == "lewidi"
    annotator = brexit(demo=True, method="item_majority")
    assert annotator.metadata is not None
    assert annotator.metadata["split"]["protocol"] == "perseval"
    explicit = md_agreement(demo=True, split="lewidi", method="item_majority")
    assert explicit.metadata is not None and explicit.metadata["split"]["protocol"] == "lewidi"
    assert mp(demo=True).metadata["split"]["protocol"] == "lewidi"  # type: ignore[index]


@pytest.mark.parametrize(
    ("factory", "options", "option", "message"),
    [
        (dp, {"split": "lewidi"}, "split", "does not ship"),
        (mp, {"method": "uniform"}, "method", "target=distribution"),
        (mp, {"metrics_preset": "lewidi"}, "metrics_preset", "target=distribution"),
        (
            mp,
            {"target": "distribution", "metrics_preset": "perseval"},
            "metrics_preset",
            "one label per annotator",
        ),
        (
            mp,
            {"target": "distribution", "method": "distribution_judge", "steer": "Gendr"},
            "steer",
            "did you mean Gender",
        ),
        (mp, {"target": "distribution", "steer": "Gender"}, "steer", "distribution_judge"),
        (mp, {"split": "perseval", "pool": "dev"}, "pool", "lewidi"),
        (
            mp,
            {"target": "distribution", "method": "distribution_judge", "answer_format": "label"},
            "answer_format",
            "always answers with a distribution",
        ),
        (mp, {"target": "distributions"}, "target", "did you mean distribution"),
        (
            opinionqa,
            {
                "target": "distribution",
                "method": "distribution_judge",
                "steer": "AGE,SEX,RACE,CREGION,EDUCATION,CITIZEN,MARITAL,RELIG",
            },
            "steer",
            "metrics=full",
        ),
    ],
)
def test_impossible_options_name_the_option(
    factory: Any, options: dict[str, Any], option: str, message: str
) -> None:
    with pytest.raises(OptionError, match=message) as raised:
        factory(demo=True, **options)
    assert raised.value.option == option


def test_option_errors_come_before_any_data_is_read() -> None:
    # a folder that does not exist: the option is refused first
    with pytest.raises(OptionError, match="target=distribution"):
        mp(data_dir="/nonexistent/lewidi", method="label_prior")


def test_steered_dimensions_within_the_headline_cap_run_full_or_headline() -> None:
    full = opinionqa(
        demo=True,
        target="distribution",
        method="distribution_judge",
        steer="AGE,SEX,RACE,CREGION,EDUCATION,CITIZEN,MARITAL,RELIG",
        metrics="full",
    )
    assert full.metadata is not None and len(full.metadata["steer"]) == 8
    task = varierrnli(demo=True, target="distribution", method="distribution_judge", steer="Gender")
    assert task.metadata is not None and task.metadata["steer"] == ["Gender"]
