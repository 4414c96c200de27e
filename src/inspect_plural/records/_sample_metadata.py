"""The ``Sample.metadata`` schemas: :class:`SampleMetadata` and one subclass per task kind.

Tasks write a sample's metadata in one of these shapes and solvers and scorers read it
back with ``state.metadata_as(...)``: annotator-level judgments (stored as
:class:`AnnotatorSampleKeys`, read by methods as :class:`AnnotatorSampleMetadata` with
:func:`~inspect_plural.records.annotator_sample`), role identification
(:class:`RoleSampleMetadata`), ratings (:class:`RatedSampleMetadata`), Per-MPST scores
(:class:`ReviewSampleMetadata`) and Per-DOC choices (:class:`PairSampleMetadata`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.records._annotator import Item, LabeledExample
from inspect_plural.records._base import LabelScale
from inspect_plural.records._perse import PairwisePreference, PersonalReview, TrainingFactors
from inspect_plural.records._rating import RatedOutput, RatingDimension
from inspect_plural.records._read_only import read_only_values
from inspect_plural.records._role import RoleCandidate, RoleExample

__all__ = [
    "OMITTED_AT_DEFAULT",
    "AnnotatorSampleKeys",
    "AnnotatorSampleMetadata",
    "PairSampleMetadata",
    "RatedSampleMetadata",
    "ReviewSampleMetadata",
    "RoleSampleMetadata",
    "SampleMetadata",
    "compact",
]


class SampleMetadata(BaseModel):
    """The documented ``Sample.metadata`` schema shared by every task.

    Attributes:
        dataset: Dataset (or track) name.
        item_id: Id of the item being judged.
        annotator_id: Id of the annotator whose judgment is predicted (if any).
        traits: The annotator's traits (empty when unknown or unused).
        scale: The answer space.
        demo: True when the sample comes from demo data written for this package.

    """

    model_config = ConfigDict(frozen=True)

    dataset: str
    item_id: str
    annotator_id: str | None = None
    traits: dict[str, str] = Field(default_factory=dict)
    scale: LabelScale | None = None
    demo: bool = False


class AnnotatorSampleKeys(SampleMetadata):
    """What an annotator-level sample stores: its keys into the run's context, and its own.

    An annotator's traits, example judgments and vote counts, and an item's content, are
    the same in every sample of that annotator or item, so a task keeps them once per run
    in a :class:`~inspect_plural.records.SampleContext` and each sample stores only the key
    (``context``) and what is specific to it. Methods read the joined view,
    :class:`AnnotatorSampleMetadata` (:func:`~inspect_plural.records.annotator_sample`);
    scorers and metrics need only what is stored here.

    ``traits`` is not stored (empty here): the view shows ``metric_traits`` when the task is
    *named*, nothing when it is *unnamed*. A run whose items share one scale stores it
    without its ``description`` (the context and the task metadata hold it; the view
    restores it).

    Attributes:
        context: Key of the run's shared context (empty when the sample holds everything
            itself, as a sample built by hand may).
        metric_traits: The annotator's traits, for grouping metrics; methods must not read
            them.
        item_votes: Labels given to this item by the people in the training pool (never
            this annotator's test label), label -> count; empty when nobody there saw it.
        named: Whether traits are visible to methods.
        split: The split protocol (``cinemetric``, ``perseval`` or ``lewidi``).

    """

    context: str = ""
    metric_traits: dict[str, str] = Field(default_factory=dict)
    item_votes: dict[str, int] = Field(default_factory=dict)
    named: bool = True
    split: str = ""

    @property
    def labels(self) -> list[str]:
        """The labels of this sample's scale."""
        return self.scale.labels if self.scale is not None else []


class AnnotatorSampleMetadata(AnnotatorSampleKeys):
    """What a method reads of an annotator-level sample: predict one annotator's label of one item.

    The sample's stored keys (:class:`AnnotatorSampleKeys`) joined with the run's context:
    ``traits`` holds what a method may show the model: the annotator's traits in the
    *named* setting, nothing in the *unnamed* one.

    Attributes:
        item: The item to judge.
        training: The annotator's judgments a method may use (k training judgments in the
            CINEMETRIC split; the adaptation judgments in the PersEval split).
        pool_votes: Labels over the whole training pool, label -> count (empty when items
            have scales of their own).
        own_votes: The annotator's labels over *all* their example judgments, label ->
            count (``training`` may hold only a subset, see ``max_examples``).

    """

    item: Item
    training: list[LabeledExample] = Field(default_factory=list)
    pool_votes: dict[str, int] = Field(default_factory=dict)
    own_votes: dict[str, int] = Field(default_factory=dict)

    def sample_metadata(self) -> dict[str, Any]:
        """What a sample of this view stores: its keys when the run has a context, else all.

        Returns:
            The ``Sample.metadata`` (or a sub-state's) that reads back as this view.
        """
        if self.context:
            return self.model_dump(include=_STORED_KEYS)
        return self.model_dump()


class RoleSampleMetadata(SampleMetadata):
    """Sample metadata of role-identification tasks.

    Attributes:
        conversation: The dialogue to attribute.
        source_prompt: The dataset's own full prompt, if any.
        candidates: The candidates in presentation order (shuffled with the task seed).
        true_role: Name of the correct candidate.
        examples: Solved examples from the same track (few-shot), never this item.
        file_order: Candidate names in the data file's order (empty: presentation order).

    """

    conversation: str
    source_prompt: str | None = None
    candidates: list[RoleCandidate]
    true_role: str
    examples: list[RoleExample] = Field(default_factory=list)
    file_order: list[str] = Field(default_factory=list)

    @property
    def candidate_names(self) -> list[str]:
        """Candidate names in presentation order."""
        return [c.name for c in self.candidates]


class RatedSampleMetadata(SampleMetadata):
    """Sample metadata of rating tasks: predict how humans rated one generated output.

    Attributes:
        output: The rated output, with every rater's ratings.
        dimensions: The dimensions to predict, ``overall`` included when the task has it.
        task_description: What the generated content is for, shown to evaluators.
        content_label: What the content is called in prompts (``generated summary``).
        context_label: What the context is called in prompts (``target summary``).
        gold: The human score per dimension (mean over raters); a dimension nobody rated
            is absent.

    """

    output: RatedOutput
    dimensions: list[RatingDimension]
    task_description: str
    content_label: str = "content"
    context_label: str = "context"
    gold: dict[str, float] = Field(default_factory=dict)

    @property
    def dimension_names(self) -> list[str]:
        """The dimensions' keys, in order."""
        return [d.name for d in self.dimensions]


class ReviewSampleMetadata(SampleMetadata):
    """Sample metadata of Per-MPST: predict a reviewer's score of a new story.

    ``review.target`` holds the gold review and score; methods read only its ``plot``.

    Attributes:
        review: The instance: the k prior reviews and the target.
        gold: The reviewer's score of the target story.
        k: Prior reviews shown.
        training_factors: Training-pool factorisation for this sample's stories (None
            when the task has no training reviewers).

    """

    review: PersonalReview
    gold: float
    k: int
    training_factors: TrainingFactors | None = None


class PairSampleMetadata(SampleMetadata):
    """Sample metadata of Per-DOC: predict which plot an annotator preferred on an aspect.

    Attributes:
        preference: The instance: the pair, the aspect and the annotator's example.
        aspect: The aspect's key.
        aspect_title: Its name (``Interestingness``).
        aspect_question: The question the annotator answered, shown to methods.
        gold: ``Plot A`` or ``Plot B``.

    """

    preference: PairwisePreference
    aspect: str
    aspect_title: str
    aspect_question: str
    gold: Literal["Plot A", "Plot B"]


_STORED_KEYS = set(AnnotatorSampleKeys.model_fields) - {"traits"}
"""The fields an annotator-level sample stores (traits follow from ``named``)."""


OMITTED_AT_DEFAULT = frozenset({"demo", "item_votes", "base_labels", "hard_label", "groups"})
"""Stored keys a sample leaves out while they hold their default (False, None, empty)."""


def compact(metadata: dict[str, Any]) -> dict[str, Any]:
    """A sample's stored metadata: no keys at their default, its values read-only.

    Inspect copies a sample's metadata into its ``sample_init`` event, its summary and
    each solver step's state snapshot, walking every key each time; keys at their
    default (:data:`OMITTED_AT_DEFAULT`: False, None, empty) cost that and say nothing,
    since validating the metadata with its schema restores them. (A scale is stored
    without its unset fields for the same reason: ``LabelScale.model_dump(
    exclude_none=True)``.) The values left are :func:`read_only`, so Inspect's deep
    copies of the metadata share them instead of copying them.

    Args:
        metadata: The metadata as the schema dumps it.

    Returns:
        A new dict without those keys, its dict and list values read-only.
    """
    return read_only_values({k: v for k, v in metadata.items() if v or k not in OMITTED_AT_DEFAULT})
