"""Annotator-level records: who judged, what they judged, and each judgment.

A dataset source gives :class:`Annotator`, :class:`Item` and :class:`Judgment` records;
:class:`LabeledExample` is one of an annotator's own judgments a method may see.
"""

from __future__ import annotations

from pydantic import Field

from inspect_plural.records._base import LabelScale, _Record

__all__ = ["Annotator", "Item", "Judgment", "LabeledExample"]


class Annotator(_Record):
    """A human whose judgments are predicted.

    Attributes:
        id: Stable identifier within its dataset.
        traits: Demographics or group membership (empty when unknown).

    """

    id: str
    traits: dict[str, str] = Field(default_factory=dict)


class Item(_Record):
    """Content a human judged.

    Attributes:
        id: Stable identifier within its dataset.
        text: The content as one text, when it has a single part.
        parts: Structured parts (post/reply, story/QA, summary/target, turns).
        reference: Optional reference (e.g. a target summary).
        context: Optional context shown with the content.

    """

    id: str
    text: str | None = None
    parts: dict[str, str] = Field(default_factory=dict)
    reference: str | None = None
    context: str | None = None


class Judgment(_Record):
    """One human label of one item.

    Attributes:
        item_id: The judged item.
        annotator_id: Who judged it.
        label: The raw label value as the dataset gives it.
        scale: The scale the label belongs to.

    """

    item_id: str
    annotator_id: str
    label: str | float | int
    scale: LabelScale


class LabeledExample(_Record):
    """One of an annotator's own judgments that a method may see (training or adaptation).

    Attributes:
        item: The judged item.
        label: The annotator's label (one of the scale's labels).
        scale: The item's label scale, when it differs from the sample's.

    """

    item: Item
    label: str
    scale: LabelScale | None = None
