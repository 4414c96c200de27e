"""Scores per dimension: a JSON object, ``Dimension score: X`` lines, or a bare score."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_plural.parsing import (
    FailureReason,
    ReadAs,
    answer_text,
    extract_json_object,
    match_option,
)
from inspect_plural.parsing._json import unterminated_object
from inspect_plural.rating_parsing._done import says_done
from inspect_plural.rating_parsing._values import read_score, score_failure, score_text
from inspect_plural.records import RatingDimension

__all__ = ["ScoresParse", "parse_bare_score", "parse_score_lines", "parse_scores"]


@dataclass
class ScoresParse:
    """The result of parsing scores from a model answer.

    Attributes:
        scores: Dimension key -> score, for every dimension that parsed and is in range.
        ok: True when every asked dimension parsed.
        error: What failed (missing, unreadable or out-of-range dimensions), None when ok.
        done: Whether the speaker signals it has no more comments (see
            :func:`~inspect_plural.rating_parsing.says_done`).
        fields: Other top-level fields of the answer object (e.g. ``comment``).
        read_as: ``json`` (an object) or ``text`` (score lines); None when no score
            was found.
        failure: Why it failed (:data:`~inspect_plural.parsing.FailureReason`: a range
            is a ``hedge``, a score on another scale ``other_scale``, a missing or
            out-of-range dimension ``invalid``); None when it did not.

    """

    scores: dict[str, float] = field(default_factory=dict)
    ok: bool = False
    error: str | None = None
    done: bool = False
    fields: dict[str, Any] = field(default_factory=dict)
    read_as: ReadAs | None = None
    failure: FailureReason | None = None


def _dimension_of(key: str, dimensions: Sequence[RatingDimension]) -> str | None:
    """The dimension key a written key refers to (by key or title, tolerant)."""
    names = [d.name for d in dimensions]
    by_name = match_option(key.replace(" ", "_").lower(), names)
    if by_name is not None:
        return by_name
    titles = {d.title: d.name for d in dimensions}
    by_title = match_option(key, list(titles))
    if by_title is not None:
        return titles[by_title]
    squashed = re.sub(r"[^a-z0-9]", "", key.lower())
    for d in dimensions:
        if squashed and squashed == re.sub(r"[^a-z0-9]", "", d.name):
            return d.name
    return None


def _score_object(obj: dict[str, Any], dimensions: Sequence[RatingDimension]) -> dict[str, Any]:
    """The object holding the scores: the answer itself or a nested one (``scores``...)."""
    direct = sum(_dimension_of(k, dimensions) is not None for k in obj)
    best, best_count = obj, direct
    for value in obj.values():
        if isinstance(value, dict):
            count = sum(_dimension_of(k, dimensions) is not None for k in value)
            if count > best_count:
                best, best_count = value, count
    return best


Found = dict[str, tuple[float | None, str | None]]
"""Dimension -> (score, why there is none) as read from the answer."""


_PRECEDENCE: tuple[FailureReason, ...] = ("other_scale", "hedge", "invalid")


def _finish(
    found: Found,
    dimensions: Sequence[RatingDimension],
    low: float,
    high: float,
) -> tuple[dict[str, float], bool, str | None, FailureReason | None]:
    scores: dict[str, float] = {}
    problems: list[str] = []
    reasons: set[FailureReason] = set()
    for d in dimensions:
        value, why = found.get(d.name, (None, "missing"))
        if d.name not in found:
            problems.append(f"{d.name} missing")
            reasons.add("invalid")
        elif value is None:
            problems.append(f"{d.name} not a score: {why}")
            reasons.add(score_failure(why))
        elif not low <= value <= high:
            problems.append(f"{d.name}={value:g} outside {low:g}-{high:g}")
            reasons.add("invalid")
        else:
            scores[d.name] = value
    ok = not problems
    failure = next((r for r in _PRECEDENCE if r in reasons), None)
    return scores, ok, None if ok else "; ".join(problems), failure


def parse_score_lines(
    text: str, dimensions: Sequence[RatingDimension], low: float = 1, high: float = 5
) -> ScoresParse:
    """Scores written as ``<Dimension> score: X`` or ``<Dimension>: X`` lines.

    The last line naming a dimension wins (a model may revise itself). The value must
    open with the score (``4``, ``4/5``, ``**4** out of 5``, ``[4]``, ``4 - clear``); a
    range (``3-4``, ``3 to 4``) or a template (``<1-5>``) is no score.

    Args:
        text: The model output.
        dimensions: The dimensions asked for.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse (``read_as="text"``).
    """
    found: Found = {}
    text = answer_text(text)
    for line in text.splitlines():
        cleaned = line.strip().strip("*#-• ").replace("**", "")
        if ":" not in cleaned:
            continue
        key, _, rest = cleaned.partition(":")
        key = re.sub(r"\s+score\s*$", "", key.strip(), flags=re.IGNORECASE)
        name = _dimension_of(key, dimensions)
        if name is None:
            continue
        value, _, why = score_text(rest, labelled=False, scale=(low, high))
        found[name] = (value, why)
    scores, ok, error, failure = _finish(found, dimensions, low, high)
    if not found:
        error, failure = "no score lines found", "no_answer"
    return ScoresParse(
        scores=scores,
        ok=ok,
        error=error,
        done=says_done(text),
        read_as="text" if found else None,
        failure=failure,
    )


def parse_scores(
    text: str, dimensions: Sequence[RatingDimension], low: float = 1, high: float = 5
) -> ScoresParse:
    """Scores per dimension from a JSON object, falling back to score lines.

    A value is a score when it is a number, a one-element list of one, or a string that
    opens with one (``"4"``, ``"4/5"``, ``"4 - clear"``); an echoed template
    (``"<1-5>"``), a range (``"between 3 and 4"``, ``"3-4"``) or a description
    (``"an integer from 1 to 5"``) is not, and neither is a number out of range: each
    is a failure naming the dimension and the reason.

    Args:
        text: The model output.
        dimensions: The dimensions asked for.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse; ``scores`` keeps every dimension that parsed even when others did not.
    """
    text = answer_text(text)
    obj = extract_json_object(text)
    if obj is not None:
        holder = _score_object(obj, dimensions)
        found: Found = {}
        for key, raw in holder.items():
            name = _dimension_of(str(key), dimensions)
            if name is not None:
                found[name] = read_score(raw, (low, high))
        if found:
            scores, ok, error, failure = _finish(found, dimensions, low, high)
            extra = {
                k: v
                for k, v in obj.items()
                if v is not holder and _dimension_of(str(k), dimensions) is None
            }
            return ScoresParse(scores, ok, error, says_done(text, obj), extra, "json", failure)
    lines = parse_score_lines(text, dimensions, low, high)
    if lines.read_as is not None:
        return lines
    if unterminated_object(text):
        return ScoresParse(
            error="the answer's JSON object is cut off before its scores",
            done=says_done(text, obj),
            failure="truncated",
        )
    return ScoresParse(error="no scores found", done=says_done(text, obj), failure="no_answer")


def parse_bare_score(text: str, low: float = 1, high: float = 5) -> float | None:
    """The score a G-Eval form-filling answer starts with (``"4"``, ``" 4.5"``, ``"**3**"``).

    The answer must open with the number; a range (``"1-5"``, ``"3 to 4"``) or a
    template (``"<1-5>"``) is no score.

    Args:
        text: The model output.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The score, or None when the answer does not start with one in range.
    """
    value, _, _ = score_text(answer_text(text), labelled=False, scale=(low, high))
    return value if value is not None and low <= value <= high else None
