"""Samples of the annotator target (step 4): one test judgment = one Inspect ``Sample``.

:func:`build_samples` turns a split into samples whose metadata follows
:class:`~inspect_plural.records.AnnotatorSampleMetadata`: the item, the annotator's
example judgments a method may see, and the training pool's votes.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np
from inspect_ai.dataset import Sample

from inspect_plural.records import Annotator, AnnotatorSampleMetadata, Item, LabeledExample
from inspect_plural.scorers.perspective import TRAIT_KEY
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit, SplitProtocol
from inspect_plural.tasks.annotator._sample_parts import (
    annotator_examples,
    sample_input,
    training_votes,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["build_samples", "record_to_sample"]


def record_to_sample(
    corpus: AnnotatedCorpus,
    annotator: Annotator,
    item: Item,
    label: int,
    split: SplitProtocol,
    named: bool,
    training: list[LabeledExample],
    item_votes: dict[str, int],
    pool_votes: dict[str, int],
    training_dump: list[dict[str, Any]] | None = None,
    own_votes: dict[str, int] | None = None,
) -> Sample:
    """One test judgment as an Inspect sample.

    Args:
        corpus: The corpus the judgment belongs to.
        annotator: Whose judgment it is.
        item: The judged item.
        label: The gold label index in the item's scale.
        split: The split protocol that produced it.
        named: Whether the annotator's traits are visible to methods.
        training: The annotator's judgments a method may see.
        item_votes: The training pool's labels of this item.
        pool_votes: The training pool's labels overall.
        own_votes: The annotator's labels over all their examples (default: ``training``'s).
        training_dump: ``training`` already dumped; passing the same list for every sample
            of an annotator keeps one copy in memory instead of one per sample.

    Returns:
        The sample: id ``<annotator>:<item>``, input the item content, target the gold
        label; metadata follows :class:`~inspect_plural.records.AnnotatorSampleMetadata`
        plus one ``trait:<dimension>`` key per trait dimension (for grouped metrics).

    """
    scale = corpus.scale_of(item.id)
    metadata = AnnotatorSampleMetadata(
        dataset=corpus.name + ("_demo" if corpus.demo else ""),
        item_id=item.id,
        annotator_id=annotator.id,
        traits=dict(annotator.traits) if named else {},
        scale=scale,
        demo=corpus.demo,
        item=item,
        training=[] if training_dump is not None else training,
        metric_traits=dict(annotator.traits),
        item_votes=item_votes,
        pool_votes=pool_votes,
        own_votes=own_votes
        if own_votes is not None
        else {label: n for label, n in Counter(ex.label for ex in training).items()},
        named=named,
        split=split,
    ).model_dump(exclude_defaults=False)
    if training_dump is not None:
        metadata["training"] = training_dump
    for dim in corpus.trait_dimensions:
        metadata[TRAIT_KEY.format(dim)] = annotator.traits.get(dim) or "UNK"
    return Sample(
        id=f"{annotator.id}:{item.id}",
        input=sample_input(item),
        target=scale.labels[label],
        metadata=metadata,
    )


def _round_robin(test: pd.DataFrame) -> pd.DataFrame:
    """The test judgments interleaved by annotator: each one's first, then each one's second...

    Inspect starts samples in dataset order, up to ``max_samples`` at a time. Grouped by
    annotator, those slots would all wait on one annotator's persona work (CINEMETRIC's
    panel is built by the first sample and awaited by the rest), serialising the panels;
    interleaved, the panels of different annotators are built concurrently.
    """
    import pandas as pd

    frame = test[["annotator_id", "item_id", "label"]]
    rank = frame.groupby("annotator_id", sort=False).cumcount().to_numpy()
    first_seen = pd.factorize(frame["annotator_id"])[0]
    order = np.lexsort((first_seen, rank))  # by rank, then by annotator's first appearance
    result: pd.DataFrame = frame.iloc[order]
    return result


def build_samples(
    corpus: AnnotatedCorpus,
    split: CorpusSplit,
    named: bool,
    max_examples: int | None = 20,
    seed: int = 42,
) -> list[Sample]:
    """The samples of a split: one per test judgment, interleaved by annotator (stable).

    Args:
        corpus: The records.
        split: The split.
        named: Whether traits are visible to methods.
        max_examples: At most this many of an annotator's example judgments go into each
            of their samples (a seeded subset, the same for all their samples); None: all.
            PersEval's adaptation sets reach hundreds per annotator on DICES, which would
            copy every conversation into every sample of that annotator.
        seed: Seed of that subset.

    Returns:
        The samples.

    """
    examples, own_votes = annotator_examples(corpus, split, max_examples, seed)
    dumps = {a: [ex.model_dump() for ex in own] for a, own in examples.items()}
    item_counts, pool_counts = training_votes(corpus, split)
    samples = []
    for annotator_id, item_id, label in _round_robin(split.test).itertuples(index=False):
        labels = corpus.scale_of(item_id).labels
        own_counts = item_counts.get(item_id, {})
        samples.append(
            record_to_sample(
                corpus,
                corpus.annotators[annotator_id],
                corpus.items[item_id],
                int(label),
                split.protocol,
                named,
                examples.get(str(annotator_id), []),
                {labels[i]: n for i, n in own_counts.items() if i < len(labels)},
                {labels[i]: n for i, n in pool_counts.items() if i < len(labels)},
                training_dump=dumps.get(str(annotator_id), []),
                own_votes=own_votes.get(str(annotator_id), {}),
            )
        )
    ids = [sample.id for sample in samples]
    if len(set(ids)) != len(ids):
        repeated = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"{corpus.name}: sample id {repeated!r} repeats (ids contain ':'?)")
    return samples
