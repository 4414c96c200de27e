"""PERSE's reviewer split: validation reviewers are never training reviewers (PERSE §4.1)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from inspect_plural.errors import UserError
from inspect_plural.records import PersonalReview
from inspect_plural.sources._once import data_logger
from inspect_plural.sources.perse._common import LoadedRows

__all__ = ["SPLIT_MODES", "PerseSplit", "SplitError", "SplitMode", "split_by_reviewer"]

logger = data_logger(__name__)

SplitMode = Literal["auto", "seeded", "release", "all"]
"""How reviewers are split: see :func:`split_by_reviewer`."""
SPLIT_MODES: tuple[SplitMode, ...] = ("auto", "seeded", "release", "all")
"""The values of :data:`SplitMode`."""


class SplitError(UserError, ValueError):
    """The data cannot be split as asked (printed without a traceback, as a user error)."""


@dataclass(frozen=True)
class PerseSplit:
    """Records split by reviewer into training and validation.

    Attributes:
        valid: The records to evaluate (one sample each), in load order.
        train: The training reviewers' records (what a baseline may fit on).
        protocol: ``release`` (the files' own split), ``seeded`` or ``all``.
        summary: Counts for the task metadata.

    """

    valid: list[Any]
    train: list[Any]
    protocol: Literal["release", "seeded", "all"]
    summary: dict[str, Any]


def _reviewer(record: Any) -> str:
    return str(record.reviewer_id if isinstance(record, PersonalReview) else record.annotator_id)


def _seeded_valid(reviewers: Iterable[str], valid_fraction: float, seed: int) -> set[str]:
    ids = sorted(set(reviewers))
    if not ids:
        return set()
    shuffled = list(ids)
    random.Random(seed).shuffle(shuffled)
    n_valid = min(len(ids), max(1, round(len(ids) * valid_fraction)))
    return set(shuffled[:n_valid])


def split_by_reviewer(
    rows: LoadedRows,
    mode: SplitMode = "auto",
    valid_fraction: float = 0.1,
    seed: int = 42,
) -> PerseSplit:
    """Split records by reviewer: no validation reviewer is ever a training reviewer.

    Args:
        rows: The loaded records with their declared splits.
        mode: ``release``: the split the file names declare (every file must declare
            one); ``seeded``: ``valid_fraction`` of the reviewers (at least one), drawn
            with ``seed`` from the sorted ids; ``auto``: ``release`` when every file
            declares a split, else ``seeded``; ``all``: every record is evaluated and
            nothing is training data.
        valid_fraction: Share of reviewers held out (PERSE: 0.1), for ``seeded``.
        seed: Seed of the seeded split.

    Returns:
        The split.

    Raises:
        SplitError: An unknown mode, ``release`` without declared splits, a reviewer on
            both sides of a declared split, or a fraction outside (0, 1].
    """
    if mode not in SPLIT_MODES:
        raise SplitError(f"unknown split {mode!r}; one of {list(SPLIT_MODES)}")
    if not 0 < valid_fraction <= 1:
        raise SplitError(f"valid_fraction must be in (0, 1], not {valid_fraction}")
    declared = all(d for d in rows.declared)
    if mode == "release" and not declared:
        raise SplitError(
            "split=release needs files that declare their split (train/valid in the file "
            f"name); got {rows.files}"
        )
    protocol: Literal["release", "seeded", "all"]
    if mode == "all":
        protocol, valid, train = "all", list(rows.records), []
    elif mode == "release" or (mode == "auto" and declared):
        protocol = "release"
        valid = [r for r, d in zip(rows.records, rows.declared) if d == "valid"]
        train = [r for r, d in zip(rows.records, rows.declared) if d == "train"]
        both = sorted({_reviewer(r) for r in valid} & {_reviewer(r) for r in train})
        if both:
            raise SplitError(
                f"reviewers in both the training and the validation files: {both[:5]}"
                f"{' ...' if len(both) > 5 else ''}; use -T split=seeded to re-split"
            )
    else:
        protocol = "seeded"
        held_out = _seeded_valid((_reviewer(r) for r in rows.records), valid_fraction, seed)
        valid = [r for r in rows.records if _reviewer(r) in held_out]
        train = [r for r in rows.records if _reviewer(r) not in held_out]
    summary = {
        "protocol": protocol,
        "valid_fraction": valid_fraction if protocol == "seeded" else None,
        "valid_reviewers": len({_reviewer(r) for r in valid}),
        "valid_rows": len(valid),
        "train_reviewers": len({_reviewer(r) for r in train}),
        "train_rows": len(train),
    }
    logger.info("PERSE split: %s", summary)
    return PerseSplit(valid=valid, train=train, protocol=protocol, summary=summary)
