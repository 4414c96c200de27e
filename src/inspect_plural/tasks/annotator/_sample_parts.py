"""What the samples of both targets show: the input, the example judgments, the training votes.

Shared by the annotator target's samples (:mod:`._annotator_samples`) and the
distribution target's (:mod:`._item_samples`).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from inspect_plural.records import Item, LabeledExample
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["annotator_examples", "sample_input", "training_votes"]


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
