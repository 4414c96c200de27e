"""A sample's numbers: a few shown in Inspect View, all kept for metrics and the report.

Inspect View (0.3.x) turns *every* key of a dict-valued ``Score.value`` into a sample-list
column, whatever the task's viewer config says, so a scorer with thirty numbers per
sample (per class, per group, per probability) buries the few that matter. Every scorer
of this package therefore writes:

- ``Score.value``: the sample's key numbers, at most :data:`MAX_SHOWN` (``correct``,
  ``abs_error``; ``pred/overall`` beside ``gold/overall``; ...), rounded to
  :data:`SHOWN_DIGITS` decimals for reading (``3.0``, not ``2.9999999999``): the columns
  a reader scans;
- ``Score.metadata["values"]``: every number of the sample at full precision, the shown
  ones included (``pred``, ``gold``, ``parse_ok``, probabilities, per-group scores, cost).

:func:`values_of` reads them; every metric, reducer, the report and
``inspect_plural.analysis`` read a sample's numbers through it, so no metric is computed
from a rounded number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.scorer import Score

__all__ = [
    "MAX_SHOWN",
    "SHOWN_DIGITS",
    "VALUES_KEY",
    "make_score",
    "rounded",
    "values_of",
    "with_values",
]

VALUES_KEY = "values"
"""Key of ``Score.metadata`` holding every number of the sample, at full precision."""

MAX_SHOWN = 4
"""At most this many numbers in ``Score.value`` (the viewer's score columns)."""

SHOWN_DIGITS = 4
"""Decimals the shown numbers are rounded to (the metadata keeps full precision)."""


def rounded(value: float) -> float:
    """A number rounded to :data:`SHOWN_DIGITS` decimals (NaN and infinities unchanged)."""
    number = float(value)
    return round(number, SHOWN_DIGITS) if math.isfinite(number) else number


def make_score(
    values: Mapping[str, float],
    shown: Sequence[str],
    *,
    answer: str | None = None,
    explanation: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    reason: str | None = None,
) -> Score:
    """A score whose value holds the shown numbers and whose metadata holds the rest.

    Args:
        values: Every number of the sample.
        shown: The keys to show (at most :data:`MAX_SHOWN`; keys absent from ``values``
            are skipped).
        answer: The score's answer (the viewer's answer column).
        explanation: The score's explanation.
        metadata: Further metadata (not numbers of the sample).
        reason: Why the sample could not be scored, when it could not (Inspect's
            ``Score.reason``).

    Returns:
        The score.

    Raises:
        ValueError: More than :data:`MAX_SHOWN` keys to show.
    """
    if len(shown) > MAX_SHOWN:
        raise ValueError(f"at most {MAX_SHOWN} numbers are shown, not {len(shown)}: {shown}")
    numbers = {str(k): float(v) for k, v in values.items()}
    return Score(
        value={k: rounded(numbers[k]) for k in shown if k in numbers},
        answer=answer,
        explanation=explanation,
        metadata={**(metadata or {}), VALUES_KEY: numbers},
        reason=reason,
    )


def values_of(score: Score) -> dict[str, float]:
    """Every number of a sample's score, at full precision.

    The metadata's numbers win over the shown (rounded) ones, except where a shown number
    is not its metadata number rounded: an epoch reducer that reads only ``Score.value``
    (Inspect's ``--epochs-reducer mean``, ``mode``, ...) changed it and kept the first
    epoch's metadata, so the shown number is the reduced one. A score written before this
    layout (every number in ``Score.value``) is read from its value.

    Args:
        score: The score.

    Returns:
        Key -> number (empty when the score holds none).
    """
    shown = _numbers(score.value)
    metadata = score.metadata
    numbers = _numbers(metadata.get(VALUES_KEY) if metadata else None)
    if not numbers:
        return shown
    for key, value in shown.items():
        stored = numbers.get(key)
        if stored is None or not _same(value, rounded(stored)):
            numbers[key] = value
    return {key: numbers[key] for key in dict.fromkeys([*shown, *numbers])}


_NUMBER = (int, float)
"""What counts as a number (a tuple: ``isinstance`` checks it faster than ``int | float``)."""


def _numbers(source: Any) -> dict[str, float]:
    if not isinstance(source, Mapping):
        return {}
    return {
        k if type(k) is str else str(k): v if type(v) is float else float(v)
        for k, v in source.items()
        if isinstance(v, _NUMBER)
    }


def _same(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def with_values(score: Score, values: Mapping[str, float]) -> Score:
    """The same score with its numbers replaced (the shown keys stay the shown keys).

    Used by epoch reducers: they combine :func:`values_of` of each epoch and write the
    result back in the same layout.

    Args:
        score: The score whose layout, answer, explanation and metadata to keep.
        values: The new numbers.

    Returns:
        The score.
    """
    shown = list(score.value) if isinstance(score.value, Mapping) else []
    metadata = {k: v for k, v in (score.metadata or {}).items() if k != VALUES_KEY}
    if len(shown) > MAX_SHOWN:  # a score of the earlier layout keeps it
        return Score(
            value=dict(values),
            answer=score.answer,
            explanation=score.explanation,
            metadata=metadata or None,
            reason=score.reason,
        )
    return make_score(
        values,
        [k for k in shown if k in values],
        answer=score.answer,
        explanation=score.explanation,
        metadata=metadata,
        reason=score.reason,
    )
