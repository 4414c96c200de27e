"""The user's StorySparkQA ratings file: one row per QA pair and rater (``load_ratings``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from inspect_plural.records import RatedOutput
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources.storysparkqa._dataset import STORYSPARKQA_DIMENSIONS
from inspect_plural.sources.storysparkqa._sections import (
    StorySection,
    _read_frame,
    _section_id,
    format_qa,
)

__all__ = [
    "DIMENSION_COLUMNS",
    "QA_FIELDS",
    "RATINGS_COLUMNS",
    "RATINGS_OPTIONAL_COLUMNS",
    "load_ratings",
]


DIMENSION_COLUMNS = (
    "grammar_correctness",
    "answer_relevancy",
    "contextual_consistency",
    "educational_appropriateness",
)


RATINGS_COLUMNS = (
    "qa_id",
    "story_name",
    "section_id",
    "question",
    "answer",
    "rater_id",
    *DIMENSION_COLUMNS,
)
"""The required columns of a ratings file."""


RATINGS_OPTIONAL_COLUMNS = ("section_text", "generator")
"""The optional columns of a ratings file."""


QA_FIELDS = ("story_name", "section_id", "question", "answer", *RATINGS_OPTIONAL_COLUMNS)
"""Columns that describe the QA pair, so must be the same on every row of a ``qa_id``."""


_RATING = re.compile(r"^([1-5])(\.0*)?$")


@dataclass
class _RatedQA:
    row: int
    fields: dict[str, str]
    ratings: dict[str, dict[str, float]] = field(default_factory=dict)
    raw: dict[str, dict[str, str]] = field(default_factory=dict)


def _rating(path: Path, row: int, column: str, text: str) -> float | None:
    if not text:
        return None
    match = _RATING.match(text)
    if match is None:
        raise DataRowError(path, row, column, f"{text!r} is not an integer from 1 to 5")
    return float(match.group(1))


def _check_row(path: Path, row: int, record: Mapping[str, str]) -> None:
    for column in ("qa_id", "rater_id", "story_name", "question", "answer"):
        if not record[column]:
            raise DataRowError(path, row, column, "empty")
    if _section_id(record["section_id"]) is None:
        raise DataRowError(
            path, row, "section_id", f"{record['section_id']!r} is not a whole number"
        )


def _qa_fields(record: Mapping[str, str]) -> dict[str, str]:
    fields = {c: record.get(c, "") for c in QA_FIELDS}
    fields["section_id"] = _section_id(fields["section_id"]) or fields["section_id"]
    return fields


def _add_rating_row(
    path: Path, row: int, record: Mapping[str, str], pairs: dict[str, _RatedQA]
) -> None:
    _check_row(path, row, record)
    fields = _qa_fields(record)
    pair = pairs.setdefault(record["qa_id"], _RatedQA(row, fields))
    for column in QA_FIELDS:
        if fields[column] != pair.fields[column]:
            raise DataRowError(
                path,
                row,
                column,
                f"differs from data row {pair.row} of the same qa_id {record['qa_id']!r}",
            )
    rater = record["rater_id"]
    if rater in pair.raw:
        raise DataRowError(
            path, row, "rater_id", f"rater {rater!r} already rated qa_id {record['qa_id']!r}"
        )
    pair.raw[rater] = {c: record[c] for c in DIMENSION_COLUMNS}
    values = {c: _rating(path, row, c, record[c]) for c in DIMENSION_COLUMNS}
    given = [v for v in values.values() if v is not None]
    if given:
        values = {"overall": sum(given) / len(given), **values}
    for name, value in values.items():
        if value is not None:
            pair.ratings.setdefault(name, {})[rater] = value


def _context(
    path: Path, pair: _RatedQA, sections: Mapping[tuple[str, str], StorySection] | None
) -> tuple[str | None, list[str]]:
    """The pair's context (the file's section text first) and its references."""
    key = (pair.fields["story_name"], pair.fields["section_id"])
    section = sections.get(key) if sections is not None else None
    own = pair.fields["section_text"] or None
    if sections is not None and section is None and own is None:
        raise DataRowError(
            path,
            pair.row,
            "section_id",
            f"section {key[1]} of story {key[0]!r} is not in StorySparkQA and the row has no "
            "section_text",
        )
    references = list(section.references) if section else []
    return own or (section.text if section else None), references


def _output(
    path: Path, qa_id: str, pair: _RatedQA, sections: Mapping[tuple[str, str], StorySection] | None
) -> RatedOutput:
    context, references = _context(path, pair, sections)
    order = [d.name for d in STORYSPARKQA_DIMENSIONS]
    return RatedOutput(
        id=qa_id,
        content=format_qa(pair.fields["question"], pair.fields["answer"]),
        context=context,
        references=references,
        parts={
            "question": pair.fields["question"],
            "answer": pair.fields["answer"],
            "story_name": pair.fields["story_name"],
            "section_id": str(pair.fields["section_id"]),
        },
        ratings={name: pair.ratings[name] for name in order if name in pair.ratings},
        group=pair.fields["story_name"],
        system=pair.fields["generator"] or None,
        raw=pair.raw,
    )


def load_ratings(
    path: str | Path, sections: Mapping[tuple[str, str], StorySection] | None = None
) -> list[RatedOutput]:
    """Read a StorySparkQA ratings file (the format of ``docs/storysparkqa_ratings.md``).

    A CSV (UTF-8) in long format, one row per (``qa_id``, ``rater_id``), with the columns
    :data:`RATINGS_COLUMNS` and optionally :data:`RATINGS_OPTIONAL_COLUMNS`. Ratings are
    integers 1-5; an empty cell is a missing rating. Each rater's ``overall`` is the mean
    of the dimensions they rated.

    Args:
        path: The file.
        sections: The StorySparkQA sections to join (see
            :func:`load_storysparkqa_sections`). Without them the context is the file's
            ``section_text`` (or None) and there are no references.

    Returns:
        One output per ``qa_id``, in file order: content :func:`format_qa` of the pair,
        context the section text (the file's own ``section_text`` when given, else the
        dataset's), references the section's expert QA pairs, group the story, system
        the ``generator``; ``raw`` holds each rater's cells.

    Raises:
        DataRowError: A missing column, an empty or malformed field, a rating that is not
            an integer 1-5, a repeated (``qa_id``, ``rater_id``), pair fields that differ
            within a ``qa_id``, or (with ``sections``) a section that is not in them and
            has no ``section_text``.
        ValueError: The file has no data rows.

    """
    path = Path(path)
    frame = _read_frame(path, RATINGS_COLUMNS)
    if frame.empty:
        raise ValueError(f"{path}: the ratings file has no data rows")
    pairs: dict[str, _RatedQA] = {}
    for row, record in enumerate(frame.to_dict("records")):
        _add_rating_row(path, row, {str(k): str(v) for k, v in record.items()}, pairs)
    return [_output(path, qa_id, pair, sections) for qa_id, pair in pairs.items()]
