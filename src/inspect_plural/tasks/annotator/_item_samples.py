"""Item samples of the distribution target: one test item = one Inspect ``Sample``.

:func:`build_item_samples` turns a split into samples whose metadata follows
:class:`~inspect_plural.item_records.ItemSampleMetadata`. An item's *annotators* are the
people whose judgments of it the split holds out (its test judgments): under the
``lewidi`` split every annotator of an official test item, under ``cinemetric`` and
``perseval`` the sampled test annotators who judged it. Its gold distribution is theirs:
the release's soft label when the item has one and all its judgments are held out (so
scores reproduce the LeWiDi leaderboards, which use the files' 2-decimal soft labels),
else the share of each label among the test judgments, each weighed by its annotator's
survey weight when the data ships weights (OpinionQA).
"""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
from inspect_ai.dataset import Sample

from inspect_plural.item_records import ItemAnnotatorKeys, ItemSampleKeys, group_key
from inspect_plural.label_sets import LABEL_SET_JOINER, label_set_indicators, label_sets
from inspect_plural.records import (
    LabelScale,
    compact,
    read_only,
    register_context,
    sample_context,
)
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit
from inspect_plural.tasks.annotator._sample_parts import (
    run_context,
    sample_input,
    training_votes,
)

__all__ = ["SKIPPED_TRAIT_VALUES", "build_item_samples", "label_set_base"]

SKIPPED_TRAIT_VALUES = ("", "UNK")
"""Trait values that form no group (unknown)."""


def label_set_base(scale: LabelScale) -> list[str]:
    """The base labels when a scale's labels are label sets (VariErrNLI), else empty.

    Args:
        scale: A scale.

    Returns:
        The base labels in their canonical order, when the scale lists exactly every
        non-empty set of them (:func:`~inspect_plural.label_sets.label_sets`).
    """
    base = [label for label in scale.labels if LABEL_SET_JOINER not in label]
    if len(base) < 2 or len(base) == len(scale.labels):
        return []
    try:
        return base if label_sets(base) == scale.labels else []
    except ValueError:
        return []


class _ItemRows:
    """An item's test judgments: annotator ids, label indices and weights."""

    def __init__(self) -> None:
        self.annotators: list[str] = []
        self.labels: list[int] = []
        self.weights: list[float] = []


def _group_distributions(
    corpus: AnnotatedCorpus, rows: _ItemRows, labels: list[str]
) -> dict[str, dict[str, float]]:
    """Each trait group's (weighted) label distribution among an item's annotators."""
    totals: dict[str, np.ndarray] = {}
    for annotator_id, label, weight in zip(rows.annotators, rows.labels, rows.weights):
        traits = corpus.annotators[annotator_id].traits
        for dimension in corpus.trait_dimensions:
            value = traits.get(dimension) or ""
            if value in SKIPPED_TRAIT_VALUES:
                continue
            totals.setdefault(group_key(dimension, value), np.zeros(len(labels)))[label] += weight
    groups = {}
    for key, counts in totals.items():
        total = float(counts.sum())
        shares = counts / total if total > 0 else np.full(len(labels), 1.0 / len(labels))
        groups[key] = dict(zip(labels, shares.tolist()))
    return groups


def _shared_keys(groups: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """An item's groups keyed by strings every item shares (:func:`sys.intern`).

    The same group keys (``Gender=Female``) and labels recur on every item; built per
    item they are separate strings in each sample, and Inspect keeps each sample's
    metadata and score until its eval ends. Copies keep a string's identity, so one
    shared key costs its bytes once per run, not once per sample (with the score's
    shared keys, 1.2 of the 36 KB an MP item's eval holds, measured from 500 to 3,500
    items).
    """
    return {
        sys.intern(key): {sys.intern(label): share for label, share in shares.items()}
        for key, shares in groups.items()
    }


def _majority(counts: np.ndarray, labels: list[str], seed: int, item_id: str) -> str:
    best = float(counts.max())
    tied = [labels[k] for k in range(len(labels)) if np.isclose(counts[k], best)]
    return tied[0] if len(tied) == 1 else random.Random(f"{seed}:majority:{item_id}").choice(tied)


def _gold(
    corpus: AnnotatedCorpus,
    item_id: str,
    shares: np.ndarray,
    labels: list[str],
    base: list[str],
    whole: bool,
) -> tuple[dict[str, float], bool]:
    """The item's gold distribution, and whether it is the release's soft label."""
    soft = corpus.item_soft_labels.get(item_id)
    keys = base or labels
    if soft is not None and whole and set(keys) <= set(soft):
        return {key: float(soft[key]) for key in keys}, True
    if base:
        membership = label_set_indicators(labels, base).astype(float)  # (sets, base labels)
        return dict(zip(base, (shares @ membership).tolist())), False
    return dict(zip(labels, shares.tolist())), False


def build_item_samples(
    corpus: AnnotatedCorpus,
    split: CorpusSplit,
    named: bool,
    max_examples: int | None = 20,
    seed: int = 42,
    with_examples: bool = False,
    context: str | None = None,
) -> list[Sample]:
    """The samples of the distribution target: one per test item, in the corpus's order.

    Args:
        corpus: The records.
        split: The split: its test judgments define the items and their annotators.
        named: Whether traits are visible to methods.
        max_examples: At most this many example judgments per annotator (seeded); None: all.
        seed: Seed of that subset and of majority ties.
        with_examples: Keep each annotator's example judgments in the run's context
            (only the methods that show examples need them).
        context: The key of the run's context, already registered; None: build and
            register it here (with ``max_examples``, ``seed`` and ``with_examples``).

    Returns:
        The samples: id the item id, input the item, target its hard label (the
        release's when it ships one, else the majority of its test judgments), metadata
        following :class:`~inspect_plural.item_records.ItemSampleKeys` (the item and its
        annotators' traits and examples are in the run's context).

    """
    rows: dict[str, _ItemRows] = {}
    weights = corpus.annotator_weights
    for annotator_id, item_id, label in split.test[["annotator_id", "item_id", "label"]].itertuples(
        index=False
    ):
        entry = rows.setdefault(str(item_id), _ItemRows())
        entry.annotators.append(str(annotator_id))
        entry.labels.append(int(label))
        entry.weights.append(float(weights.get(str(annotator_id), 1.0)))
    all_counts = corpus.judgments["item_id"].value_counts()
    item_counts, pool_counts = training_votes(corpus, split)
    if context is None:
        shared = run_context(corpus, split, pool_counts, max_examples, seed, with_examples)
        context = register_context(shared, corpus.name)
    run = sample_context(context)
    scales: dict[int, Any] = {}
    base = [] if corpus.item_scales else label_set_base(corpus.scale)
    samples = []
    for item_id in (i for i in corpus.items if i in rows):
        item, entry = corpus.items[item_id], rows[item_id]
        scale = corpus.scale_of(item_id)
        labels = scale.labels
        counts = np.zeros(len(labels))
        np.add.at(counts, np.asarray(entry.labels), np.asarray(entry.weights))
        shares = (
            counts / counts.sum() if counts.sum() > 0 else np.full(len(labels), 1 / len(labels))
        )
        whole = len(entry.annotators) == int(all_counts.get(item_id, 0))
        gold, from_file = _gold(corpus, item_id, shares, labels, base, whole)
        groups = _group_distributions(corpus, entry, labels) if corpus.trait_dimensions else {}
        majority = _majority(counts, labels, seed, item_id)
        annotators = [
            ItemAnnotatorKeys(annotator_id=annotator_id, label=labels[label], weight=weight)
            for annotator_id, label, weight in zip(entry.annotators, entry.labels, entry.weights)
        ]
        own_item = item_counts.get(item_id, {})
        metadata: dict[str, Any] = ItemSampleKeys(
            dataset=corpus.name + ("_demo" if corpus.demo else ""),
            item_id=item_id,
            scale=scale,
            demo=corpus.demo,
            context=context,
            gold=gold,
            gold_source="file" if from_file else "weighted judgments" if weights else "judgments",
            base_labels=base,
            hard_label=corpus.item_hard_labels.get(item_id),
            majority_label=majority,
            annotators=annotators,
            groups=groups,
            item_votes={labels[i]: n for i, n in own_item.items() if i < len(labels)},
            named=named,
            split=split.protocol,
        ).model_dump(exclude={"traits", "annotator_id"}, exclude_none=True)
        # an unweighted annotator's weight, 1, is the default the schema restores: a
        # sample stores it only where there are survey weights (Inspect copies and walks
        # each stored key several times a sample)
        metadata["annotators"] = [
            {k: v for k, v in a.items() if k != "weight" or v != 1.0}
            for a in metadata["annotators"]
        ]
        if metadata.get("groups"):
            metadata["groups"] = _shared_keys(metadata["groups"])
        # the run's scale once, without its description (the view restores it)
        if id(scale) not in scales:
            scales[id(scale)] = read_only(run.stored_scale(scale))
        metadata["scale"] = scales[id(scale)]
        samples.append(
            Sample(
                id=item_id,
                input=sample_input(item),
                target=corpus.item_hard_labels.get(item_id) or majority,
                metadata=compact(metadata),
            )
        )
    return samples
