"""Records of the distribution target: one sample per item, gold = its people's label distribution.

Under ``-T target=distribution`` an annotator-level task turns each test *item* into one
sample whose metadata follows :class:`ItemSampleMetadata`: the item, its gold label
distribution (the file's soft label for LeWiDi, else computed from the item's test
judgments, survey-weighted where the data ships weights), each test annotator's own label
and traits (:class:`ItemAnnotator`), and each trait group's distribution for
representativeness. A method predicts the distribution either directly
(``distribution_judge``, the baselines) or by running a per-annotator method once for
each of the item's annotators inside the sample and pooling the answers
(:mod:`inspect_plural.solvers._pooling`); the per-annotator runs are kept in the item's
store as :class:`AnnotatorPredictions`, steered answers as :class:`SteeredDistributions`.
Depends on the record model only, so solvers and scorers may import it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.prediction import ModelAnswer, StoredRecord
from inspect_plural.records import (
    AnnotatorSampleMetadata,
    Item,
    LabeledExample,
    SampleMetadata,
    sample_context,
)

__all__ = [
    "DISTRIBUTION_TARGET",
    "GROUP_JOINER",
    "AnnotatorPredictions",
    "AnnotatorRun",
    "ItemAnnotator",
    "ItemAnnotatorKeys",
    "ItemSampleKeys",
    "ItemSampleMetadata",
    "SteeredDistributions",
    "group_key",
    "is_item_sample",
    "item_sample",
    "split_group_key",
]

DISTRIBUTION_TARGET = "distribution"
"""The value of ``ItemSampleMetadata.target`` (and of the tasks' ``target`` option)."""

GROUP_JOINER = "="
"""Joins a trait dimension and a value into a group key: ``POLPARTY=Republican``."""


def group_key(dimension: str, value: str) -> str:
    """The key of a trait group: ``<dimension>=<value>``."""
    return f"{dimension}{GROUP_JOINER}{value}"


def split_group_key(key: str) -> tuple[str, str]:
    """The dimension and value of a group key (the value may itself hold ``=``)."""
    dimension, _, value = key.partition(GROUP_JOINER)
    return dimension, value


def is_item_sample(metadata: Mapping[str, Any] | None) -> bool:
    """Whether a sample's metadata is an item sample of the distribution target."""
    return bool(metadata) and (metadata or {}).get("target") == DISTRIBUTION_TARGET


class ItemAnnotatorKeys(BaseModel):
    """One of an item's test annotators, as the item sample stores them.

    Attributes:
        annotator_id: Who (their traits and examples are in the run's context).
        label: Their own label of the item (the per-annotator gold).
        weight: Their survey weight (1 without weights).

    """

    model_config = ConfigDict(frozen=True)

    annotator_id: str
    label: str
    weight: float = 1.0


class ItemAnnotator(ItemAnnotatorKeys):
    """One of an item's test annotators, as methods read them (joined with the run's context).

    Attributes:
        traits: Their traits as methods may see them (empty when the task is unnamed).
        metric_traits: Their traits, for grouping metrics only.
        training: Their example judgments a method may show (only for methods that use
            them; a seeded subset of at most ``max_examples``).
        own_votes: Their labels over all their example judgments, label -> count.

    """

    traits: dict[str, str] = Field(default_factory=dict)
    metric_traits: dict[str, str] = Field(default_factory=dict)
    training: list[LabeledExample] = Field(default_factory=list)
    own_votes: dict[str, int] = Field(default_factory=dict)


class ItemSampleKeys(SampleMetadata):
    """What an item sample of the distribution target stores (the rest is the run's context).

    Everything the distribution scorer and its metrics read is here; the item's content
    and its annotators' traits and examples are in the run's
    :class:`~inspect_plural.records.SampleContext` (``context``), joined by
    :func:`item_sample` into what methods read, :class:`ItemSampleMetadata`. A run whose
    items share one scale stores it without its ``description``, which only methods read
    (the context and the task metadata hold it; the view restores it).

    Attributes:
        target: Always ``distribution`` (how solvers tell item samples apart).
        context: Key of the run's shared context (empty when the sample holds everything
            itself).
        gold: The gold distribution: label -> share over the scale's labels; for a
            multi-label scale (label sets, VariErrNLI), base label -> share of the
            annotators who gave it, as LeWiDi 2025 scores it.
        gold_source: ``file`` (the release's soft label), ``judgments`` (computed from
            the item's test judgments) or ``weighted judgments`` (survey-weighted).
        base_labels: The base labels of a multi-label scale (empty otherwise).
        hard_label: The release's hard label (LeWiDi 2023), if it ships one.
        majority_label: The most frequent label among the item's test judgments
            (weighted), ties broken by a draw seeded with the task seed and the item.
        annotators: The item's test annotators, each with their own label.
        groups: Trait group (``<dimension>=<value>``) -> its label distribution on this
            item over the scale's labels (weighted), for groups among the annotators
            (a group's size: count its members in ``annotators``; not stored, issue 32).
        item_votes: The training pool's labels of this item, label -> count.
        named: Whether traits are visible to methods.
        split: The split protocol.

    """

    target: Literal["distribution"] = "distribution"
    context: str = ""
    gold: dict[str, float]
    gold_source: Literal["file", "judgments", "weighted judgments"] = "judgments"
    base_labels: list[str] = Field(default_factory=list)
    hard_label: str | None = None
    majority_label: str | None = None
    annotators: Sequence[ItemAnnotatorKeys] = Field(default_factory=list)
    groups: dict[str, dict[str, float]] = Field(default_factory=dict)
    item_votes: dict[str, int] = Field(default_factory=dict)
    named: bool = True
    split: str = ""

    @property
    def labels(self) -> list[str]:
        """The labels of the item's scale."""
        return self.scale.labels if self.scale is not None else []

    @property
    def multilabel(self) -> bool:
        """Whether the labels are sets of base labels scored per base label (VariErrNLI)."""
        return bool(self.base_labels)


class ItemSampleMetadata(ItemSampleKeys):
    """What a method reads of an item sample: predict an item's label distribution.

    The stored :class:`ItemSampleKeys` joined with the run's context.

    Attributes:
        item: The item.
        annotators: The item's test annotators, each with their own label, visible
            traits and examples.
        pool_votes: The training pool's labels overall, label -> count (empty when items
            have scales of their own).

    """

    item: Item
    annotators: Sequence[ItemAnnotator] = Field(default_factory=list)
    pool_votes: dict[str, int] = Field(default_factory=dict)

    def annotator_metadata(self, annotator: ItemAnnotator) -> AnnotatorSampleMetadata:
        """The per-annotator sample of one of the item's annotators (for pooled methods).

        Args:
            annotator: One of :attr:`annotators`.

        Returns:
            The metadata a per-annotator method reads, as the annotator target builds it
            (the dataset, item, scale, the annotator's visible traits and examples, and
            the training pool's votes).
        """
        return AnnotatorSampleMetadata.model_construct(
            dataset=self.dataset,
            item_id=self.item_id,
            annotator_id=annotator.annotator_id,
            traits=dict(annotator.traits),
            scale=self.scale,
            demo=self.demo,
            context=self.context,
            item=self.item,
            training=list(annotator.training),
            metric_traits=dict(annotator.metric_traits),
            item_votes=dict(self.item_votes),
            pool_votes=dict(self.pool_votes),
            own_votes=dict(annotator.own_votes),
            named=self.named,
            split=self.split,
        )


def item_sample(metadata: Mapping[str, Any]) -> ItemSampleMetadata:
    """What a method reads of an item sample: its stored keys joined with the run's context.

    Args:
        metadata: The sample's metadata (``state.metadata``): stored keys with a
            ``context``, or a sample that holds everything itself.

    Returns:
        The view.

    Raises:
        LookupError: The sample's context is not loaded in this process.
    """
    key = metadata.get("context")
    if not key:
        return ItemSampleMetadata.model_validate(metadata)
    context = sample_context(str(key))
    keys = ItemSampleKeys.model_validate(metadata)
    annotators = []
    for annotator in keys.annotators:
        shared = context.annotator(annotator.annotator_id)
        annotators.append(
            ItemAnnotator.model_construct(
                annotator_id=annotator.annotator_id,
                label=annotator.label,
                weight=annotator.weight,
                traits=dict(shared.traits) if keys.named else {},
                metric_traits=dict(shared.traits),
                training=shared.training,
                own_votes=shared.own_votes,
            )
        )
    fields = dict(keys)
    fields.update(
        item=context.items[keys.item_id], annotators=annotators, scale=context.scale_of(keys.scale)
    )
    fields["pool_votes"] = context.pool_votes
    return ItemSampleMetadata.model_construct(**fields)


class AnnotatorRun(BaseModel):
    """A per-annotator method's run for one of an item's annotators (inside the item's sample).

    Attributes:
        annotator_id: Whose judgment was predicted.
        label: The predicted label (None when none could be read).
        distribution: The predicted distribution over the labels, when the method gave one.
        parse_ok: Whether a usable label was obtained.
        error: Why not.
        model_calls: Calls this run made (shared persona work only where it was done).
        answers: Every model answer behind the prediction.
        rationale: What the prediction rests on.
        records: The run's other records (e.g. its CINEMETRIC panel), store key -> value.

    """

    annotator_id: str
    label: str | None = None
    distribution: dict[str, float] | None = None
    parse_ok: bool = False
    error: str | None = None
    model_calls: int = 0
    answers: list[ModelAnswer] = Field(default_factory=list)
    rationale: str | None = None
    records: dict[str, Any] = Field(default_factory=dict)


class AnnotatorPredictions(StoredRecord):
    """The per-annotator predictions behind a pooled item distribution (one run each).

    Attributes:
        method: The per-annotator method.
        runs: One run per test annotator of the item, in the item's annotator order.
        weighted: Whether the pool weighs each annotator by their survey weight.

    """

    method: str = Field(default="")
    runs: list[AnnotatorRun] = Field(default_factory=list)
    weighted: bool = Field(default=False)


class SteeredDistributions(StoredRecord):
    """The model's distribution when told the group it answers for (steered), per group.

    Attributes:
        dimensions: The trait dimensions steered (``-T steer=``).
        distributions: Group (``<dimension>=<value>``) -> the parsed distribution, in
            the ``population`` style (the package's wording).
        answers: One answer per group and style, parsed or not: ``persona`` is the group
            key in the ``population`` style, ``<style>:<group>`` in another.
        model_calls: The steered calls (one per group of the item and style).
        styles: The steering styles asked (``-T steer_style=``; ``population`` alone by
            default).
        styled: Style -> group -> the parsed distribution, for the styles other than
            ``population`` (Santurkar et al.'s ``qa``, ``bio``, ``portray``).

    """

    dimensions: list[str] = Field(default_factory=list)
    distributions: dict[str, dict[str, float]] = Field(default_factory=dict)
    answers: list[ModelAnswer] = Field(default_factory=list)
    model_calls: int = Field(default=0)
    styles: list[str] = Field(default_factory=lambda: ["population"])
    styled: dict[str, dict[str, dict[str, float]]] = Field(default_factory=dict)
