"""An annotated corpus: annotators, items and their judgments, ready to split.

Every annotator-level source returns one :class:`AnnotatedCorpus`. Annotators and items
are pydantic records; the judgments, which can number hundreds of thousands, are one
pandas frame with a label *index* per row, so splitting stays vectorised.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field

import pandas as pd

from inspect_plural.records import Annotator, Item, Judgment, LabelScale

__all__ = ["AnnotatedCorpus", "JUDGMENT_COLUMNS"]

logger = logging.getLogger(__name__)

JUDGMENT_COLUMNS = ["annotator_id", "item_id", "label"]
"""Columns of :attr:`AnnotatedCorpus.judgments` (``label`` is an index into the scale)."""


@dataclass(frozen=True)
class AnnotatedCorpus:
    """The records of one annotator-level dataset.

    Attributes:
        name: Dataset name (``brexit``, ``dices``, ...).
        scale: The label scale (per-item scales, if any, are in ``item_scales``).
        annotators: Annotator id -> annotator (with traits, possibly empty).
        items: Item id -> item.
        judgments: One row per (annotator, item): ``annotator_id``, ``item_id`` (strings)
            and ``label`` (int index into the item's scale).
        origin: Where the data came from (file, revision, checksum), for the log.
        demo: True for demo data written for this package.
        item_scales: Item id -> scale, for datasets whose answer options vary per item.
        trait_dimensions: The trait names this dataset provides, in display order.

    """

    name: str
    scale: LabelScale
    annotators: dict[str, Annotator]
    items: dict[str, Item]
    judgments: pd.DataFrame
    origin: str
    demo: bool = False
    item_scales: dict[str, LabelScale] = field(default_factory=dict)
    trait_dimensions: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Check that the frame has the documented columns and refers to known records."""
        missing = [c for c in JUDGMENT_COLUMNS if c not in self.judgments.columns]
        if missing:
            raise ValueError(f"{self.name}: judgments lack column(s) {missing}")
        if len(self.judgments) == 0:
            raise ValueError(f"{self.name}: the data holds no judgments")
        unknown_items = set(self.judgments["item_id"].unique()) - self.items.keys()
        if unknown_items:
            raise ValueError(f"{self.name}: judgments of unknown items {sorted(unknown_items)[:5]}")
        unknown = set(self.judgments["annotator_id"].unique()) - self.annotators.keys()
        if unknown:
            raise ValueError(f"{self.name}: judgments by unknown annotators {sorted(unknown)[:5]}")

    def scale_of(self, item_id: str) -> LabelScale:
        """The label scale of an item."""
        return self.item_scales.get(item_id, self.scale)

    def label_name(self, item_id: str, index: int) -> str:
        """The label string of a label index for an item."""
        return self.scale_of(item_id).labels[index]

    def judgment_records(self) -> Iterator[Judgment]:
        """The judgments as :class:`~inspect_plural.records.Judgment` records."""
        for annotator_id, item_id, label in self.judgments[JUDGMENT_COLUMNS].itertuples(
            index=False
        ):
            scale = self.scale_of(item_id)
            yield Judgment(
                item_id=item_id,
                annotator_id=annotator_id,
                label=scale.labels[int(label)],
                scale=scale,
            )


def dedupe_judgments(frame: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """Keep the first judgment of each (annotator, item) pair.

    Returns:
        The frame without repeats, and how many rows were dropped.

    """
    duplicated = frame.duplicated(subset=["annotator_id", "item_id"], keep="first")
    dropped = int(duplicated.sum())
    if dropped:
        logger.warning(
            "%d repeated (annotator, item) judgments dropped, keeping the first", dropped
        )
    return frame.loc[~duplicated].reset_index(drop=True), dropped
