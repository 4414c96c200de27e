"""What the PERSE loaders share: where the data comes from, the scales and aspects, file helpers.

The location constants are pinned in ``evals/perse/eval.yaml``; the loaders
(:mod:`~inspect_plural.sources.perse._mpst`, :mod:`~inspect_plural.sources.perse._doc`) and
the reviewer split (:mod:`~inspect_plural.sources.perse._split`) build on this module, and
:mod:`inspect_plural.sources.perse` re-exports all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

from inspect_plural.records import LabelScale
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources._read import read_json_lines

__all__ = [
    "ASPECT_CODES",
    "CHOICES",
    "PERDOC_ASPECTS",
    "PERDOC_RELEASE_URL",
    "PERMPST_RELEASE_URL",
    "PERSE_REPO",
    "PERSE_REVISION",
    "SCORE_HIGH",
    "SCORE_LOW",
    "SCORE_SCALE",
    "Aspect",
    "LoadedRows",
    "clean_review",
    "declared_split",
    "demo_folder",
    "read_lines",
    "required_field",
]

PERSE_REPO = "facebookresearch/PerSE"
"""The official repository (code and the sample files)."""
PERSE_REVISION = "cbe1b4890179c3f50e01e5203cc3b4b207c2cffb"
"""The repository commit whose sample files define the layout read here."""
PERMPST_RELEASE_URL = "https://dl.fbaipublicfiles.com/perse/PerMPST.tar.gz"
"""Where the full Per-MPST release is published (fetch it yourself; CC BY-NC 4.0)."""
PERDOC_RELEASE_URL = "https://dl.fbaipublicfiles.com/perse/PerDOC.tar.gz"
"""Where the full Per-DOC release is published (fetch it yourself; CC BY-NC 4.0)."""

SCORE_LOW = 1
"""Lowest Per-MPST score."""
SCORE_HIGH = 10
"""Highest Per-MPST score."""
SCORE_SCALE = LabelScale(
    kind="interval",
    low=SCORE_LOW,
    high=SCORE_HIGH,
    description="The reviewer's score of the story, from 1 (lowest) to 10 (highest).",
)
"""The Per-MPST score scale."""

CHOICES: tuple[Literal["Plot A"], Literal["Plot B"]] = ("Plot A", "Plot B")
"""The two answers of a Per-DOC comparison."""


class Aspect(NamedTuple):
    """A Per-DOC aspect: its key, file code, question key, name and question."""

    key: str
    code: str
    question_key: str
    title: str
    question: str


PERDOC_ASPECTS: dict[str, Aspect] = {
    a.key: a
    for a in (
        Aspect(
            "interestingness",
            "I",
            "Q1",
            "Interestingness",
            "Which of the two plots do you find more interesting overall?",
        ),
        Aspect(
            "adaptability",
            "A",
            "Q3",
            "Adaptability",
            "Which plot would make the more interesting book or film if a full story were "
            "written from it?",
        ),
        Aspect(
            "surprise",
            "S",
            "Q4",
            "Surprise",
            "Which plot builds more suspense and holds more surprises?",
        ),
        Aspect(
            "character_development",
            "C",
            "Q5",
            "Character development",
            "In which plot do you care more about, or identify more with, the characters "
            "and what happens to them?",
        ),
        Aspect("ending", "E", "Q6", "Ending", "Which plot ends better?"),
    )
}
"""The five Per-DOC aspects (PERSE App. A.2), by key. Questions in our own words."""

ASPECT_CODES = {
    **{a.code.lower(): a.key for a in PERDOC_ASPECTS.values()},
    **{a.question_key.lower(): a.key for a in PERDOC_ASPECTS.values()},
}
TRAIN_PARTS = {"train", "training"}
VALID_PARTS = {"valid", "validation", "val", "dev", "test"}

T = TypeVar("T")


# --------------------------------------------------------------------------------------
# File helpers shared by the two loaders
# --------------------------------------------------------------------------------------


def clean_review(review: str, max_words: int = 150) -> str:
    """A review as PERSE shows it in prompts: quotes removed, at most ``max_words`` words.

    The review is cut after its last full stop within the first ``max_words`` words
    (one is added at the end first, so a short review is kept whole). When those words
    hold no full stop they are kept as they are; the official code returns an empty
    review then.

    Args:
        review: The review text.
        max_words: Word budget (space-separated tokens).

    Returns:
        The shortened review.
    """
    text = review.replace('"', "").replace("'", "").strip()
    if not text:
        return text
    if not text.endswith("."):
        text += "."
    text = " ".join(text.split(" ")[:max_words])
    end = text.rfind(".")
    return text[: end + 1] if end >= 0 else text


def declared_split(name: str) -> Literal["train", "valid", ""]:
    """The split a file name declares (``train``, ``valid``; ``""``: none)."""
    parts = set(re.split(r"[._\-]", name.lower()))
    if parts & TRAIN_PARTS:
        return "train"
    if parts & VALID_PARTS:
        return "valid"
    return ""


def read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """The JSON objects of a JSON-lines file with their 0-based rows (blank lines skipped)."""
    for row, value in read_json_lines(path, "a PERSE release file: JSON lines, one object each"):
        if not isinstance(value, dict):
            raise DataRowError(path, row, "(line)", "not a JSON object")
        yield row, value


def required_field(path: Path, row: int, value: dict[str, Any], name: str, kind: type[T]) -> T:
    """A row's field, which must exist and have the given type (else :class:`DataRowError`)."""
    if name not in value:
        raise DataRowError(path, row, name, "missing")
    found = value[name]
    if not isinstance(found, kind):
        raise DataRowError(path, row, name, f"expected {kind.__name__}, got {found!r:.60}")
    return found


def demo_folder(name: str) -> Path:
    """The package's demo folder of a dataset (``per_mpst``, ``per_doc``)."""
    return Path(str(resources.files("inspect_plural").joinpath("demo").joinpath(name)))


@dataclass(frozen=True)
class LoadedRows:
    """Records read from a dataset's files, each with the split its file declares.

    Attributes:
        records: The records, in file order.
        declared: Per record, ``train``, ``valid`` or ``""`` (the file declares none).
        files: The files read (names only).
        summary: Counts for the task metadata (duplicates dropped, truncation).

    """

    records: list[Any]
    declared: list[Literal["train", "valid", ""]]
    files: list[str]
    summary: dict[str, Any] = field(default_factory=dict)
