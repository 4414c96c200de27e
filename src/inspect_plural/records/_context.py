"""The run's shared sample context: what the samples of one annotator or item would repeat.

An annotator's traits, example judgments and vote counts, and an item's content, are the
same in every sample of that annotator or item. A task keeps them once per run in a
:class:`SampleContext`, registered in this process under a key made from its content
(:func:`register_context`); each sample's metadata stores the key and what is its own
(:class:`~inspect_plural.records.AnnotatorSampleKeys`), and methods read the joined view
with :func:`annotator_sample`. Inspect copies a sample's metadata three times into the
log and deep-copies it three times in memory, so what one annotator's samples shared
was paid once per sample, six times over.

The log keeps one copy, :meth:`SampleContext.log_copy` (the task metadata's ``context``):
per annotator their traits, label counts and the item ids and labels of the examples a
method may see. Item texts are the dataset's: each sample's input shows its item, and a
method's prompt the examples it showed. A run whose items share one scale keeps it here
too: its samples store the scale without its description (the task's instruction,
which only methods read, in the task metadata's ``scale``), and the view restores it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.records._annotator import Item, LabeledExample
from inspect_plural.records._base import LabelScale
from inspect_plural.records._sample_metadata import AnnotatorSampleKeys, AnnotatorSampleMetadata

__all__ = [
    "AnnotatorContext",
    "SampleContext",
    "annotator_sample",
    "register_context",
    "require_examples",
    "sample_context",
]


class AnnotatorContext(BaseModel):
    """What every sample of one annotator shares.

    Attributes:
        traits: The annotator's traits (all of them; methods see them only when named).
        training: Their example judgments a method may see (a seeded subset of at most
            ``max_examples``).
        own_votes: Their labels over *all* their example judgments, label -> count.

    """

    model_config = ConfigDict(frozen=True)

    traits: dict[str, str] = Field(default_factory=dict)
    training: list[LabeledExample] = Field(default_factory=list)
    own_votes: dict[str, int] = Field(default_factory=dict)


_NOBODY = AnnotatorContext()
"""An annotator the context holds nothing of (no traits, no examples)."""


class SampleContext(BaseModel):
    """What the samples of one run share, once: items, annotators, the pool's votes.

    Attributes:
        items: Item id -> the item (every item a sample judges).
        annotators: Annotator id -> what their samples share.
        pool_votes: The training pool's labels overall, label -> count (empty when items
            have scales of their own).
        examples: Whether the annotators' example judgments were loaded. False when a
            distribution-target task was built for a method that shows none: their
            ``training`` is then empty whatever the data holds (see
            :func:`require_examples`).
        scale: The scale every item of the run shares (None: items have scales of their
            own). Its samples store it without its description (:meth:`stored_scale`);
            the views read this one.

    """

    model_config = ConfigDict(frozen=True)

    items: dict[str, Item] = Field(default_factory=dict)
    annotators: dict[str, AnnotatorContext] = Field(default_factory=dict)
    pool_votes: dict[str, int] = Field(default_factory=dict)
    examples: bool = True
    scale: LabelScale | None = None

    def stored_scale(self, scale: LabelScale) -> dict[str, Any]:
        """What a sample of this run stores of its scale.

        The run's shared scale without its description: a sentence for the model, the
        same in every sample, which only methods read (through the view); a scale of an
        item's own whole. Unset fields are left out either way.

        Args:
            scale: The sample's scale.

        Returns:
            The scale's dump.
        """
        if self.scale is not None and scale == self.scale:
            return scale.model_dump(exclude_none=True, exclude={"description"})
        return scale.model_dump(exclude_none=True)

    def scale_of(self, stored: LabelScale | None) -> LabelScale | None:
        """The scale a view shows: the run's (with its description) for a sample storing it."""
        run = self.scale
        if run is None or stored is None or stored.description or _shape(stored) != _shape(run):
            return stored
        return run

    def annotator(self, annotator_id: str | None) -> AnnotatorContext:
        """What the samples of an annotator share (nothing, for one the run does not hold)."""
        return self.annotators.get(str(annotator_id), _NOBODY)

    def view(self, keys: AnnotatorSampleKeys) -> AnnotatorSampleMetadata:
        """A stored annotator sample joined with this context: what its method reads.

        Args:
            keys: The sample's stored metadata.

        Returns:
            The view. Its ``item``, ``training`` and vote counts are this context's own
            objects, shared by every sample of the annotator: read them, never change them.
        """
        annotator = self.annotator(keys.annotator_id)
        fields = dict(keys)
        fields.update(
            scale=self.scale_of(keys.scale),
            traits=dict(annotator.traits) if keys.named else {},
            item=self.items[keys.item_id],
            training=annotator.training,
            pool_votes=self.pool_votes,
            own_votes=annotator.own_votes,
        )
        return AnnotatorSampleMetadata.model_construct(**fields)

    def log_copy(self) -> dict[str, Any]:
        """The log's copy: per annotator their traits, label counts and examples' ids and labels.

        Returns:
            ``{"annotators": {id: {"traits", "own_votes", "training": [[item id, label],
            ...]}}, "pool_votes": {...}}``, JSON-ready.
        """
        return {
            "annotators": {
                annotator_id: {
                    "traits": dict(annotator.traits),
                    "own_votes": dict(annotator.own_votes),
                    "training": [[ex.item.id, ex.label] for ex in annotator.training],
                }
                for annotator_id, annotator in self.annotators.items()
            },
            "pool_votes": dict(self.pool_votes),
        }


_CONTEXTS: dict[str, SampleContext] = {}
"""Key -> context, for this process (a task's samples are read where it was built)."""


def register_context(context: SampleContext, name: str) -> str:
    """Keep a run's context for its samples' methods, under a key made from its content.

    The same content gives the same key, so a task built twice (a retried eval) finds
    its context again and two tasks never read each other's.

    Args:
        context: The context.
        name: The dataset's name (the key's prefix).

    Returns:
        The key the samples store as ``context``.
    """
    digest = hashlib.sha256(json.dumps(context.log_copy(), sort_keys=True).encode())
    # two runs whose annotators have no examples differ only in whether they were loaded
    digest.update(b"examples" if context.examples else b"no examples")
    if context.scale is not None:  # its description is in no sample
        digest.update(context.scale.model_dump_json().encode())
    for item_id, item in context.items.items():
        digest.update(item_id.encode() + b"\x1f" + item.model_dump_json().encode() + b"\x1e")
    key = f"{name}:{digest.hexdigest()[:20]}"
    _CONTEXTS[key] = context
    return key


def sample_context(key: str) -> SampleContext:
    """The context registered under a key.

    Raises:
        LookupError: No task of this process registered it (a sample read outside the
            run that built it).
    """
    try:
        return _CONTEXTS[key]
    except KeyError:
        raise LookupError(
            f"sample context {key!r} is not loaded in this process: an annotator-level "
            "sample keeps its annotator's examples in the task that built it; build the "
            "task here (its @task function) before running a method on its samples"
        ) from None


def require_examples(metadata: Mapping[str, Any], method: str) -> None:
    """Stop a method that shows annotators' examples on a run that did not load them.

    A distribution-target task loads the annotators' example judgments only when its
    ``-T method`` shows them; another solver given with ``--solver`` would otherwise see
    every annotator with no examples and silently run without them.

    Args:
        metadata: The sample's metadata (``state.metadata``).
        method: The method's name, for the message.

    Raises:
        ValueError: The sample's run context holds no examples because none were loaded
            (a sample error, raised inside the eval: Inspect records its message).
    """
    key = metadata.get("context")
    if key and not sample_context(str(key)).examples:
        raise ValueError(
            f"{method} shows each annotator's example judgments, which this task did not "
            f"load (it was built for another method): run it with -T method={method} "
            "instead of --solver"
        )


def annotator_sample(metadata: Mapping[str, Any]) -> AnnotatorSampleMetadata:
    """What a method reads of an annotator-level sample: its keys joined with the run's context.

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
        return AnnotatorSampleMetadata.model_validate(metadata)
    return sample_context(str(key)).view(AnnotatorSampleKeys.model_validate(metadata))


def _shape(scale: LabelScale) -> tuple[Any, ...]:
    """A scale's fields but its description."""
    return (scale.kind, scale.labels, scale.low, scale.high, scale.ordinal_values)
