"""MSLR-Cochrane's facets: the eight multiple-choice answers of a sheet row, parsed.

Each answer is a number (``"2: Yes--..."``, ``"(+1): Positive effect"``), ``N/A``,
``Other / uncertain`` or empty; :func:`parse_facet` reads one, and
:data:`FACET_RANGES` holds the numbers each facet allows.
"""

from __future__ import annotations

import re
from typing import Literal, TypeAlias

__all__ = ["FACET_RANGES", "MSLR_FACETS", "FacetAnswer", "parse_facet"]

MSLR_FACETS = (
    "fluency",
    "population",
    "intervention",
    "outcome",
    "ed_target",
    "ed_generated",
    "strength_target",
    "strength_generated",
)
"""The answer columns, with the repository's short names (``ANNOT_KEYS``)."""

FACET_RANGES: dict[str, tuple[int, ...]] = {
    "fluency": (0, 1, 2),
    "population": (0, 1, 2),
    "intervention": (0, 1, 2),
    "outcome": (0, 1, 2),
    "ed_target": (-1, 0, 1),
    "ed_generated": (-1, 0, 1),
    "strength_target": (0, 1, 2, 3),
    "strength_generated": (0, 1, 2, 3),
}
"""Facet -> the numbers its answers may carry."""

_NUMBER = re.compile(r"^\(?([+-]?\d)\)?:")

FacetAnswer: TypeAlias = int | Literal["na", "other"] | None
"""A parsed answer: a number, ``"na"`` (N/A), ``"other"`` (Other / uncertain) or None (empty)."""


def parse_facet(text: str) -> FacetAnswer:
    """Parse one multiple-choice answer of the sheets.

    Args:
        text: The cell, e.g. ``"2: Yes--..."``, ``"(+1): Positive effect"``, ``"N/A: ..."``,
            ``"Other / uncertain (please comment)"`` or ``""``.

    Returns:
        The number, ``"na"``, ``"other"`` or None for an empty cell.

    Raises:
        ValueError: The text is none of these shapes.

    """
    text = text.strip()
    if not text:
        return None
    match = _NUMBER.match(text)
    if match:
        return int(match.group(1))
    if text.upper().startswith("N/A"):
        return "na"
    if text.lower().startswith("other"):
        return "other"
    raise ValueError(f"{text[:80]!r} is not a numbered, N/A or Other answer")
