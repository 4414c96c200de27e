"""Per-MPST files: a reviewer's k prior (plot, review, score) triples and a new plot.

Files named ``PerMPST.k{K}.<anything>.jsonl``; one line per instance, ``examples`` = K
prior reviews then the target, each with ``reviewer_name``, ``movie_id``,
``movie_title``, ``summ_plot``, ``clean_review`` and ``score`` (1–10). A task asking for
``k`` reads the ``k{k}`` files, or keeps the first ``k`` prior reviews of the smallest
larger ``K``; ``k = 0`` (PERSE's zero-shot row, no prior review) keeps none.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from inspect_plural.records import PersonalReview, ScoredReview
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, local_folder
from inspect_plural.sources.perse._common import (
    PERMPST_RELEASE_URL,
    SCORE_HIGH,
    SCORE_LOW,
    LoadedRows,
    declared_split,
    demo_folder,
    read_lines,
    required_field,
)

__all__ = ["load_per_mpst"]

_MPST_FILE = re.compile(r"^permpst\.k(\d+)\..*\.jsonl$", re.IGNORECASE)


def _mpst_files(folder: Path, k: int, demo: bool = False) -> tuple[list[Path], int]:
    """The Per-MPST files to read for ``k``, and the K they were written for."""
    by_k: dict[int, list[Path]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        match = _MPST_FILE.match(path.name)
        if match:
            by_k.setdefault(int(match.group(1)), []).append(path)
    if k in by_k:
        return by_k[k], k
    larger = sorted(size for size in by_k if size > k)
    if not larger:
        found = sorted(by_k) or "none"
        if demo:
            raise DataNotFoundError(
                f"the demo files hold at most {max(by_k)} prior reviews per row, not k={k}; "
                f"use -T k=0..{max(by_k)}"
            )
        raise DataNotFoundError(
            f"no Per-MPST file with k >= {k} in {folder} (files PerMPST.k<K>.<split>.jsonl; "
            f"found k: {found}). Download {PERMPST_RELEASE_URL}, unpack it and put its "
            f"JSON-lines files in {folder}, or point -T data_dir at them."
        )
    return by_k[larger[0]], larger[0]


def _scored_review(path: Path, row: int, item: Any, index: int) -> ScoredReview:
    where = f"examples[{index}]"
    if not isinstance(item, dict):
        raise DataRowError(path, row, where, "not an object")
    for name in ("reviewer_name", "movie_id", "summ_plot", "clean_review", "score"):
        if name not in item:
            raise DataRowError(path, row, f"{where}.{name}", "missing")
    score = item["score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise DataRowError(path, row, f"{where}.score", f"not a number: {score!r:.40}")
    if not SCORE_LOW <= score <= SCORE_HIGH:
        raise DataRowError(
            path, row, f"{where}.score", f"{score} is outside {SCORE_LOW}..{SCORE_HIGH}"
        )
    try:
        return ScoredReview(
            item_id=str(item["movie_id"]),
            title=str(item.get("movie_title") or ""),
            plot=str(item["summ_plot"]),
            review=str(item["clean_review"]),
            score=float(score),
        )
    except ValidationError as ex:
        raise DataRowError(path, row, where, str(ex.errors()[0]["msg"])) from None


def _personal_review(path: Path, row: int, value: dict[str, Any], k: int) -> PersonalReview:
    examples = required_field(path, row, value, "examples", list)
    if len(examples) < 2:
        raise DataRowError(path, row, "examples", "needs prior reviews and a target")
    reviews = [_scored_review(path, row, item, i) for i, item in enumerate(examples)]
    reviewers = {str(item["reviewer_name"]) for item in examples}
    if len(reviewers) != 1:
        raise DataRowError(path, row, "examples", f"several reviewers: {sorted(reviewers)}")
    reviewer = reviewers.pop()
    if len(reviews) - 1 < k:
        raise DataRowError(path, row, "examples", f"{len(reviews) - 1} prior reviews, k={k}")
    target = reviews[-1]
    return PersonalReview(
        id=f"{reviewer}/{target.item_id}",
        reviewer_id=reviewer,
        history=reviews[:k],
        target=target,
    )


def load_per_mpst(data_dir: str | Path | None = None, k: int = 3, demo: bool = False) -> LoadedRows:
    """Read Per-MPST instances with ``k`` prior reviews each.

    Rows that repeat an earlier row (same reviewer, target and prior stories) are
    dropped, as the official scripts drop repeated prompts; an instance whose id repeats
    with other prior stories gets a ``#2``, ``#3`` suffix.

    Args:
        data_dir: Folder with the ``PerMPST.k{K}.*.jsonl`` files (default:
            ``data/per_mpst``).
        k: Prior reviews per instance (0–5 in the paper; 0 keeps none, read from the
            smallest K's files).
        demo: Read the demo files written for this package instead (``k`` up to 5).

    Returns:
        The :class:`~inspect_plural.records.PersonalReview` records.

    Raises:
        DataNotFoundError: No file for ``k`` (the message says how to get the release).
        DataRowError: A malformed row (names the file, row and field).
        ValueError: ``k`` < 0, or ``demo`` together with ``data_dir``.
    """
    if k < 0:
        raise ValueError(f"k must be at least 0, not {k}")
    if demo and data_dir is not None:
        raise ValueError("use either demo=true or data_dir, not both")
    folder = demo_folder("per_mpst") if demo else local_folder(data_dir, "per_mpst")
    if not folder.is_dir():
        raise DataNotFoundError(
            f"Per-MPST folder not found: {folder}. Download {PERMPST_RELEASE_URL}, unpack it "
            "and put its PerMPST.k<K>.<split>.jsonl files there (or pass -T data_dir=...; "
            "the repository's sample file works too), or run with -T demo=true."
        )
    paths, written_k = _mpst_files(folder, k, demo)
    records: list[PersonalReview] = []
    declared: list[Literal["train", "valid", ""]] = []
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    ids: Counter[str] = Counter()
    duplicates = 0
    for path in paths:
        split = declared_split(path.name)
        for row, value in read_lines(path):
            record = _personal_review(path, row, value, k)
            key = (
                record.reviewer_id,
                record.target.item_id,
                tuple(h.item_id for h in record.history),
            )
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            ids[record.id] += 1
            if ids[record.id] > 1:
                record = record.model_copy(update={"id": f"{record.id}#{ids[record.id]}"})
            records.append(record)
            declared.append(split)
    if not records:
        raise DataNotFoundError(f"no Per-MPST rows in {[p.name for p in paths]} ({folder})")
    return LoadedRows(
        records=records,
        declared=declared,
        files=[p.name for p in paths],
        summary={
            "k": k,
            "written_for_k": written_k,
            "truncated": written_k != k,
            "rows": len(records),
            "duplicates_dropped": duplicates,
        },
    )
