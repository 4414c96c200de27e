"""The fuzz benchmark's contexts: what each parser is told.

Candidate names (:data:`CANDIDATE_NAMES`), label sets (:data:`LABEL_SETS`), rating
dimensions on the 1-5 scale (:data:`RATING_DIMENSIONS`), MAJ-Eval groups with their
personas and dimensions (:class:`DebateContext`, :data:`DEBATE_CONTEXTS`) and PERSE's
score bounds (:data:`REVIEW_BOUNDS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.families._base import HIGH, LOW
from inspect_plural.records import RatingDimension

__all__ = [
    "CANDIDATE_NAMES",
    "DEBATE_CONTEXTS",
    "LABEL_SETS",
    "RATING_DIMENSIONS",
    "REVIEW_BOUNDS",
    "DebateContext",
]


def _dimension(name: str, title: str) -> RatingDimension:
    return RatingDimension(name=name, title=title, description="d", low=LOW, high=HIGH)


RATING_DIMENSIONS: tuple[tuple[RatingDimension, ...], ...] = (
    (_dimension("overall", "Overall"),),
    (
        _dimension("fluency", "Fluency"),
        _dimension("pio_consistency", "PIO consistency"),
        _dimension("overall", "Overall"),
    ),
    (_dimension("coherence", "Coherence"), _dimension("coherence_2", "Coherence 2")),
)

CANDIDATE_NAMES: tuple[tuple[str, ...], ...] = (
    ("Ron", "Ron Weasley", "Harry", "Harry Potter"),
    ("李雷", "韩梅梅", "王芳", "张伟"),
    ("Dr. Anselm Pike", "Mrs. Pike", "O'Brien", "Jean-Luc"),
    ("Child", "Teen", "College Student", "Grad Student", "Expert"),
    ("A", "AB", "ABC", "B"),
)

LABEL_SETS: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "4", "5"),
    ("-1", "0", "1"),
    ("0", "1", "2"),
    ("Strongly disagree", "Somewhat disagree", "Neutral", "Somewhat agree", "Strongly agree"),
    ("hateful", "not hateful"),
    ("Yes", "No", "Unsure"),
    ("iro", "not"),
)


@dataclass(frozen=True)
class DebateContext:
    """A MAJ-Eval group: its personas and the dimensions they score."""

    names: tuple[str, ...]
    dimensions: tuple[RatingDimension, ...]


DEBATE_CONTEXTS = (
    DebateContext(("Alex", "Alex Chen", "Dr. Alex Chen", "Sam"), RATING_DIMENSIONS[1]),
    DebateContext(("Clinician", "Patient", "Researcher"), RATING_DIMENSIONS[0]),
    DebateContext(("教师", "学生"), RATING_DIMENSIONS[2]),
)
REVIEW_BOUNDS: tuple[tuple[float, float], ...] = ((1.0, 10.0), (1.0, 5.0), (0.0, 4.0))
