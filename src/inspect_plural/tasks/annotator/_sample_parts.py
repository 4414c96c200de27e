"""What the samples of both targets show: the input, the example judgments, the training votes.

Shared by the annotator target's samples (:mod:`._annotator_samples`) and the
distribution target's (:mod:`._item_samples`). What the samples of one annotator or item
share goes once into the run's :class:`~inspect_plural.records.SampleContext`
(:func:`run_context`); each sample stores its key.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from inspect_plural.records import AnnotatorContext, Item, LabeledExample, SampleContext
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["annotator_examples", "own_votes", "run_context", "sample_input", "training_votes"]


def _votes(frame: pd.DataFrame) -> dict[str, dict[int, int]]:
    """Item id -> label index -> count."""
    counts = frame.groupby(["item_id", "label"], sort=False).size().reset_index(name="n")
    result: dict[str, dict[int, int]] = {}
    for item_id, label, count in counts.itertuples(index=False):
        result.setdefault(str(item_id), {})[int(label)] = int(count)
    return result


def sample_input(item: Item) -> str:
    """The input of an item's samples: its text, or its parts as ``name: text`` blocks."""
    return item.text or "\n\n".join(f"{k}: {v}" for k, v in item.parts.items())


def annotator_examples(
    corpus: AnnotatedCorpus, split: CorpusSplit, max_examples: int | None, seed: int
) -> tuple[dict[str, list[LabeledExample]], dict[str, dict[str, int]]]:
    """Each test annotator's example judgments a method may see, and all their labels' counts.

    Args:
        corpus: The records.
        split: The split (its ``examples``).
        max_examples: At most this many examples per annotator (a seeded subset, the same
            for all their samples); None: all.
        seed: Seed of that subset.

    Returns:
        Annotator id -> their examples (annotators without any omitted), and annotator id
        -> label -> count over *all* their examples.
    """
    examples: dict[str, list[LabeledExample]] = {}
    for annotator_id, item_id, label in split.examples[
        ["annotator_id", "item_id", "label"]
    ].itertuples(index=False):
        scale = corpus.scale_of(item_id)
        examples.setdefault(str(annotator_id), []).append(
            LabeledExample(
                item=corpus.items[item_id],
                label=scale.labels[int(label)],
                scale=scale if item_id in corpus.item_scales else None,
            )
        )
    own_votes = {a: dict(Counter(ex.label for ex in own)) for a, own in examples.items()}
    if max_examples is not None:
        for annotator_id, own in examples.items():
            if len(own) > max_examples:
                keep = sorted(
                    random.Random(f"{seed}:examples:{annotator_id}").sample(
                        range(len(own)), max_examples
                    )
                )
                examples[annotator_id] = [own[i] for i in keep]
    return examples, own_votes


def training_votes(
    corpus: AnnotatedCorpus, split: CorpusSplit
) -> tuple[dict[str, dict[int, int]], dict[int, int]]:
    """The training pool's label counts: per test item, and overall.

    Returns:
        Item id -> label index -> count (test items the pool holds judgments of), and
        label index -> count over the whole pool (empty when items have scales of their
        own: label positions mean nothing across questions).
    """
    test_items = set(split.test["item_id"].unique())
    item_counts = _votes(split.train[split.train["item_id"].isin(test_items)])
    label_counts = split.train["label"].value_counts()
    pool_counts: dict[int, int] = {}
    if not corpus.item_scales:
        pool_counts = dict(zip(label_counts.index.astype(int).tolist(), label_counts.tolist()))
    return item_counts, pool_counts


def own_votes(corpus: AnnotatedCorpus, split: CorpusSplit) -> dict[str, dict[str, int]]:
    """Each test annotator's labels over all their example judgments, label -> count."""
    counts: dict[str, Counter[str]] = {}
    for annotator_id, item_id, label in split.examples[
        ["annotator_id", "item_id", "label"]
    ].itertuples(index=False):
        label_name = corpus.scale_of(item_id).labels[int(label)]
        counts.setdefault(str(annotator_id), Counter())[label_name] += 1
    return {a: dict(c) for a, c in counts.items()}


def run_context(
    corpus: AnnotatedCorpus,
    split: CorpusSplit,
    pool_counts: dict[int, int],
    max_examples: int | None,
    seed: int,
    with_examples: bool = True,
) -> SampleContext:
    """What the samples of a split share, once: items, test annotators, the pool's votes.

    Args:
        corpus: The records.
        split: The split (its test judgments name the items and annotators).
        pool_counts: The training pool's label index -> count (:func:`training_votes`).
        max_examples: At most this many examples per annotator (seeded); None: all.
        seed: Seed of that subset.
        with_examples: Keep each annotator's example judgments (the distribution target
            keeps them only for the methods that show examples).

    Returns:
        The context (not yet registered).
    """
    if with_examples:
        examples, votes = annotator_examples(corpus, split, max_examples, seed)
    else:
        examples, votes = {}, own_votes(corpus, split)
    test = split.test
    annotators = {
        str(a): AnnotatorContext(
            traits=dict(corpus.annotators[str(a)].traits),
            training=examples.get(str(a), []),
            own_votes=votes.get(str(a), {}),
        )
        for a in test["annotator_id"].unique()
    }
    items = {str(i): corpus.items[str(i)] for i in test["item_id"].unique()}
    labels = corpus.scale.labels
    pool = {labels[i]: n for i, n in pool_counts.items() if i < len(labels)}
    return SampleContext(
        items=items,
        annotators=annotators,
        pool_votes=pool,
        examples=with_examples,
        scale=None if corpus.item_scales else corpus.scale,
    )
