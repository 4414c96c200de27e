"""Samples of the annotator target (step 4): one test judgment = one Inspect ``Sample``.

:func:`build_samples` turns a split into samples whose metadata follows
:class:`~inspect_plural.records.AnnotatorSampleKeys`: the ids, the label scale, the
annotator's traits for the metrics, the training pool's votes on the item, and the key of
the run's :class:`~inspect_plural.records.SampleContext`, which holds once what the
samples of an annotator or item share (the item, the annotator's examples and label
counts, the pool's votes). Methods read both joined, as
:class:`~inspect_plural.records.AnnotatorSampleMetadata`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from inspect_ai.dataset import Sample

from inspect_plural.records import (
    Annotator,
    Item,
    LabelScale,
    compact,
    read_only,
    register_context,
    sample_context,
)
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit, SplitProtocol
from inspect_plural.tasks.annotator._sample_parts import run_context, sample_input, training_votes

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
    item_votes: dict[str, int],
    context: str,
    shared: dict[str, Any] | None = None,
) -> Sample:
    """One test judgment as an Inspect sample.

    Args:
        corpus: The corpus the judgment belongs to.
        annotator: Whose judgment it is.
        item: The judged item.
        label: The gold label index in the item's scale.
        split: The split protocol that produced it.
        named: Whether the annotator's traits are visible to methods.
        item_votes: The training pool's labels of this item.
        context: The key of the run's context, which holds the item and the annotator's
            examples (:func:`~inspect_plural.records.register_context`).
        shared: Metadata values the samples of a run may share instead of copying
            (``scale``: the scale's dump, ``metric_traits``: the annotator's traits);
            Inspect copies each sample's metadata before running it.

    Returns:
        The sample: id ``<annotator>:<item>``, input the item content, target the gold
        label; metadata follows :class:`~inspect_plural.records.AnnotatorSampleKeys`
        (the traits once, in ``metric_traits``; keys at their default left out).

    """
    scale = corpus.scale_of(item.id)
    given = shared or {}
    metadata: dict[str, Any] = {
        "dataset": corpus.name + ("_demo" if corpus.demo else ""),
        "item_id": item.id,
        "annotator_id": annotator.id,
        "scale": given.get("scale") or scale.model_dump(exclude_none=True),
        "demo": corpus.demo,
        "context": context,
        "metric_traits": given.get("metric_traits") or dict(annotator.traits),
        "item_votes": item_votes,
        "named": named,
        "split": split,
    }
    return Sample(
        id=f"{annotator.id}:{item.id}",
        input=sample_input(item),
        target=scale.labels[label],
        metadata=compact(metadata),
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
    context: str | None = None,
) -> list[Sample]:
    """The samples of a split: one per test judgment, interleaved by annotator (stable).

    Args:
        corpus: The records.
        split: The split.
        named: Whether traits are visible to methods.
        max_examples: At most this many of an annotator's example judgments are shown to
            methods (a seeded subset, the same for all their samples); None: all.
            PersEval's adaptation sets reach hundreds per annotator on DICES.
        seed: Seed of that subset.
        context: The key of the run's context, already registered; None: build and
            register it here (with ``max_examples`` and ``seed``).

    Returns:
        The samples.

    """
    item_counts, pool_counts = training_votes(corpus, split)
    if context is None:
        context = register_context(
            run_context(corpus, split, pool_counts, max_examples, seed), corpus.name
        )
    run = sample_context(context)
    scales: dict[int, dict[str, Any]] = {}
    votes: dict[str, dict[str, int]] = {}
    traits: dict[str, dict[str, str]] = {}
    samples = []
    for annotator_id, item_id, label in _round_robin(split.test).itertuples(index=False):
        annotator_id, item_id = str(annotator_id), str(item_id)
        annotator = corpus.annotators[annotator_id]
        scale: LabelScale = corpus.scale_of(item_id)
        if item_id not in votes:
            counts = item_counts.get(item_id, {})
            votes[item_id] = {
                scale.labels[i]: n for i, n in counts.items() if i < len(scale.labels)
            }
        # read-only once here, so every sample of the run (of the annotator) and every
        # copy Inspect makes of one shares the same object
        if annotator_id not in traits:
            traits[annotator_id] = read_only(dict(annotator.traits))
        if id(scale) not in scales:
            scales[id(scale)] = read_only(run.stored_scale(scale))
        dump = scales[id(scale)]
        samples.append(
            record_to_sample(
                corpus,
                annotator,
                corpus.items[item_id],
                int(label),
                split.protocol,
                named,
                votes[item_id],
                context,
                {"scale": dump, "metric_traits": traits[annotator_id]},
            )
        )
    ids = [sample.id for sample in samples]
    if len(set(ids)) != len(ids):
        repeated = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"{corpus.name}: sample id {repeated!r} repeats (ids contain ':'?)")
    return samples
