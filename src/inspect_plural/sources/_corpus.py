"""An annotated corpus: annotators, items and their judgments, ready to split.

Every annotator-level source returns one :class:`AnnotatedCorpus`. Annotators and items
are pydantic records; the judgments, which can number hundreds of thousands, are one
pandas frame with a label *index* per row, so splitting stays vectorised.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from inspect_plural.records import Annotator, Item, Judgment, LabelScale
from inspect_plural.sources._dedupe import dedupe_judgments, kept_rows
from inspect_plural.sources._paths import EmptyDataFileError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "AnnotatedCorpus",
    "JUDGMENT_COLUMNS",
    "OFFICIAL_SPLITS",
    "dedupe_judgments",
    "kept_rows",
]

JUDGMENT_COLUMNS = ["annotator_id", "item_id", "label"]
"""Columns of :attr:`AnnotatedCorpus.judgments` (``label`` is an index into the scale)."""

OFFICIAL_SPLITS = ("train", "dev", "test")
"""The values of :attr:`AnnotatedCorpus.item_splits` (a release's own split of its items)."""


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
        item_splits: Item id -> the release's own split of the item (``train``, ``dev`` or
            ``test``), for datasets that ship one (LeWiDi); empty otherwise. The ``lewidi``
            split protocol reads it.
        item_soft_labels: Item id -> the soft label the release ships for it, when the
            corpus's label is the one that soft label describes (empty otherwise). For a
            single-label scale it is a distribution keyed by *every* label of the scale (the
            file's shares, as rounded there); for a multi-label scale (VariErrNLI) it is
            keyed by the base labels, each the share of annotators who gave that label.
        item_hard_labels: Item id -> the hard (aggregated) label the release ships for it,
            one of the scale's labels (LeWiDi 2023: the majority, ties broken at random by
            the organisers); empty when the release has none.
        annotator_weights: Annotator id -> survey weight, for data that ships weights
            (OpinionQA's ``WEIGHT_W{N}``); an annotator absent here weighs 1 (see
            :meth:`weight_of`).
        folder: The local folder the files were read from, described without an
            absolute path (``data/brexit``, ``<data_dir>/brexit``; see
            :func:`~inspect_plural.sources.data_folder`); empty for demo data and
            downloads. Tasks log it as ``data_folder``.

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
    item_splits: dict[str, str] = field(default_factory=dict)
    item_soft_labels: dict[str, dict[str, float]] = field(default_factory=dict)
    item_hard_labels: dict[str, str] = field(default_factory=dict)
    annotator_weights: dict[str, float] = field(default_factory=dict)
    folder: str = ""

    def __post_init__(self) -> None:
        """Check that the frame has the documented columns and refers to known records."""
        missing = [c for c in JUDGMENT_COLUMNS if c not in self.judgments.columns]
        if missing:
            raise ValueError(f"{self.name}: judgments lack column(s) {missing}")
        if len(self.judgments) == 0:
            raise EmptyDataFileError(
                f"{self.name}: the data holds no judgments ({self.origin}); check the files "
                "hold the dataset's records, or use -T demo=true for the demo rows."
            )
        unknown_items = set(self.judgments["item_id"].unique()) - self.items.keys()
        if unknown_items:
            raise ValueError(f"{self.name}: judgments of unknown items {sorted(unknown_items)[:5]}")
        unknown = set(self.judgments["annotator_id"].unique()) - self.annotators.keys()
        if unknown:
            raise ValueError(f"{self.name}: judgments by unknown annotators {sorted(unknown)[:5]}")
        self._check_item_maps()
        self._check_weights()

    def _check_item_maps(self) -> None:
        for what, mapping in (
            ("item_splits", self.item_splits),
            ("item_soft_labels", self.item_soft_labels),
            ("item_hard_labels", self.item_hard_labels),
        ):
            unknown_items = mapping.keys() - self.items.keys()
            if unknown_items:
                raise ValueError(
                    f"{self.name}: {what} of unknown items {sorted(unknown_items)[:5]}"
                )
        bad_splits = set(self.item_splits.values()) - set(OFFICIAL_SPLITS)
        if bad_splits:
            raise ValueError(
                f"{self.name}: item_splits values {sorted(bad_splits)} not in {OFFICIAL_SPLITS}"
            )
        for item_id, label in self.item_hard_labels.items():
            if label not in self.scale_of(item_id).labels:
                raise ValueError(
                    f"{self.name}: hard label {label!r} of item {item_id!r} is not on its scale"
                )

    def _check_weights(self) -> None:
        unknown = self.annotator_weights.keys() - self.annotators.keys()
        if unknown:
            raise ValueError(f"{self.name}: weights of unknown annotators {sorted(unknown)[:5]}")
        bad = [a for a, w in self.annotator_weights.items() if not (math.isfinite(w) and w >= 0)]
        if bad:
            raise ValueError(
                f"{self.name}: annotator weights must be finite and >= 0; {bad[0]!r} has "
                f"{self.annotator_weights[bad[0]]!r}"
            )

    def weight_of(self, annotator_id: str) -> float:
        """The survey weight of an annotator (1.0 when the data ships none for them)."""
        return self.annotator_weights.get(annotator_id, 1.0)

    def label_distributions(
        self, judgments: pd.DataFrame | None = None, weighted: bool = False
    ) -> pd.DataFrame:
        """Each item's label distribution: the share of its judgments per label.

        Args:
            judgments: The judgments to count (default: all of the corpus's), with the
                columns of :data:`JUDGMENT_COLUMNS`.
            weighted: Weigh each judgment by its annotator's :meth:`weight_of` (survey
                weights) instead of counting it once.

        Returns:
            One row per judged item (index ``item_id``, in order of first appearance), one
            column per label of :attr:`scale` (in scale order); each row sums to 1.

        Raises:
            ValueError: The corpus has per-item scales (label positions differ by item).

        """
        import pandas as pd

        if self.item_scales:
            raise ValueError(
                f"{self.name}: items have scales of their own; label distributions are "
                "per item scale, not one frame"
            )
        frame = self.judgments if judgments is None else judgments
        codes, items = pd.factorize(frame["item_id"])
        n_labels = len(self.scale.labels)
        weights = (
            frame["annotator_id"].map(self.annotator_weights).fillna(1.0).to_numpy(dtype=float)
            if weighted
            else np.ones(len(frame))
        )
        totals = np.zeros((len(items), n_labels))
        np.add.at(totals, (codes, frame["label"].to_numpy(dtype=np.int64)), weights)
        sums = totals.sum(axis=1, keepdims=True)
        shares = np.divide(totals, sums, out=np.zeros_like(totals), where=sums > 0)
        result: pd.DataFrame = pd.DataFrame(
            shares, index=pd.Index(items.astype(str), name="item_id"), columns=self.scale.labels
        )
        return result

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
