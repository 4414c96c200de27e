"""A review and its score (PERSE's review-enhanced answer)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspect_plural.parsing import FailureReason, ReadAs, answer_text, extract_json_object
from inspect_plural.parsing._json import unterminated_object
from inspect_plural.rating_parsing._values import read_score, score_failure, score_text

__all__ = ["EXAMPLE_REVIEW", "ReviewParse", "parse_review"]

EXAMPLE_REVIEW = (
    "The premise is familiar and the characters never come alive, so the story left "
    "this critic cold."
)
"""The review of the filled example in ``perse_review.txt``; an answer repeating it word
for word copied the example instead of answering, and is a failure."""


@dataclass
class ReviewParse:
    """Result of :func:`parse_review`.

    Attributes:
        ok: Whether a score in range was found.
        score: The score (None on failure).
        review: The review text, when the answer has one.
        error: Why parsing failed.
        read_as: ``json`` (an object, also without its braces) or ``text`` (``[Score]``,
            ``Score:`` lines, a bare score); None when no score was found.
        failure: Why it failed (:data:`~inspect_plural.parsing.FailureReason`); None
            when it did not.

    """

    ok: bool
    score: float | None = None
    review: str | None = None
    error: str | None = None
    read_as: ReadAs | None = None
    failure: FailureReason | None = None


_REVIEW_KEYS = ("review", "reviewtext", "text")
_BRACKET_SCORE = re.compile(r"\[\s*score\s*\]\s*[:=]?([^\n\[]*)", re.I)
_BRACKET_REVIEW = re.compile(
    r"\[\s*review\s*\]\s*[:=]?\s*(.*?)\s*(?=\[\s*score\s*\]|$)", re.I | re.S
)
_LINE_SCORE = re.compile(r"^[\s>*#_`-]*score[\s*_`]*[:=](.*)$", re.I | re.M)
_LINE_REVIEW = re.compile(r"^[\s>*#_`-]*review[\s*_`]*[:=][\s*_`]*(.+)$", re.I | re.M)
_KEY_OPENING = re.compile(r"""^\s*["'](review|score)["']\s*:""", re.I)
"""A JSON object without its braces opens with a quoted key (``Review:`` is a line)."""


def _review_object(obj: dict[str, Any]) -> dict[str, Any] | None:
    """The object holding ``score`` (the answer itself or one nested object)."""
    lowered = {re.sub(r"[^a-z]", "", str(k).lower()): v for k, v in obj.items()}
    if "score" in lowered:
        return lowered
    for value in obj.values():
        if isinstance(value, dict):
            found = _review_object(value)
            if found is not None:
                return found
    return None


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.casefold())


def _checked_review(raw: Any, review: Any, low: float, high: float, read_as: ReadAs) -> ReviewParse:
    text = review.strip() if isinstance(review, str) and review.strip() else None
    value, why = read_score(raw, (low, high))
    if value is None:
        return ReviewParse(ok=False, review=text, error=f"score: {why}", failure=score_failure(why))
    if not low <= value <= high:
        error = f"score {value:g} outside {low:g}-{high:g}"
        return ReviewParse(ok=False, review=text, error=error, failure="invalid")
    if text is not None and _words(text) == _words(EXAMPLE_REVIEW):
        error = "the answer copies the prompt's example"
        return ReviewParse(ok=False, review=text, error=error, failure="copied_example")
    return ReviewParse(ok=True, score=value, review=text, read_as=read_as)


def parse_review(text: str, low: float = 1, high: float = 10) -> ReviewParse:
    """A review and its score (PERSE's review-enhanced answer).

    Accepts, in order: the last JSON object with a ``score`` key (any case, fenced or
    bare, trailing commas and other slips repaired, nested one level deep), also when
    the braces are missing (``"Review": "...", "Score": 7``); then ``[Review] ...
    [Score] 7`` (the paper's figure format); then ``Review: ...`` / ``Score: 7`` lines;
    then an answer that is a score and nothing else (``7``, ``7/10``). Scores may be
    ``7``, ``"7"``, ``"7/10"``, ``[7]`` or ``7.5``; out of range is a failure, and so is
    a range (``"between 6 and 8"``, ``6-8``), an echoed template (``<an integer from 1
    to 10>``) and a review that repeats the prompt's example (:data:`EXAMPLE_REVIEW`).

    Args:
        text: The model output.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse; never raises on model text.
    """
    text = answer_text(text)
    obj = extract_json_object(text)
    if obj is None and _KEY_OPENING.match(text):
        obj = extract_json_object("{" + text.strip().rstrip(",") + "}")
    if obj is not None:
        holder = _review_object(obj)
        if holder is not None:
            review = next((holder[k] for k in _REVIEW_KEYS if k in holder), None)
            return _checked_review(holder["score"], review, low, high, "json")
    bracket = _BRACKET_SCORE.findall(text)
    if bracket:
        reviews = _BRACKET_REVIEW.findall(text)
        return _checked_review(bracket[-1], reviews[-1] if reviews else None, low, high, "text")
    lines = _LINE_SCORE.findall(text)
    if lines:
        reviews = _LINE_REVIEW.findall(text)
        return _checked_review(lines[-1], reviews[-1] if reviews else None, low, high, "text")
    value, rest, why = score_text(text.strip(), labelled=False, scale=(low, high))
    if value is not None and not rest:  # the whole answer is a score: "7", "7/10"
        return _checked_review(value, None, low, high, "text")
    if why is not None and score_failure(why) != "invalid":
        return ReviewParse(ok=False, error=f"score: {why}", failure=score_failure(why))
    if unterminated_object(text):
        error = "the answer's JSON object is cut off before its score"
        return ReviewParse(ok=False, error=error, failure="truncated")
    return ReviewParse(ok=False, error="no score found in the answer", failure="no_answer")
