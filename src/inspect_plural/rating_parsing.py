"""Tolerant parsers for rating answers: score objects, score lines and bare scores.

Rating methods ask for scores on a 1–5 scale per dimension. Models write them as a JSON
object (fenced or bare, possibly nested under ``"scores"``, keys spelled as the
dimension's key or title in any case), as ``Fluency score: 4`` lines (ChatEval), or as
a bare number (G-Eval). Values may be ``4``, ``"4"``, ``"4/5"``, ``"4 out of 5"`` or
``"Score: 4"``. Like :mod:`inspect_plural.parsing`, nothing here raises on model text:
failures come back with the reason.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_plural.parsing import extract_json_object, match_option
from inspect_plural.records import RatingDimension

__all__ = [
    "DONE_MARKER",
    "ReviewParse",
    "ScoresParse",
    "parse_bare_score",
    "parse_review",
    "parse_score_lines",
    "parse_scores",
    "says_done",
]

DONE_MARKER = "NO MORE COMMENTS"
"""What a debating persona writes when it has nothing to add (MAJ-Eval)."""

_DONE = re.compile(r"no\s+more\s+comments?", re.IGNORECASE)
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
_OUT_OF = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*(?:/|out\s+of)\s*\d+")
_BARE = re.compile(r"^\s*\**\s*([+-]?\d+(?:\.\d+)?)")


@dataclass
class ScoresParse:
    """The result of parsing scores from a model answer.

    Attributes:
        scores: Dimension key -> score, for every dimension that parsed and is in range.
        ok: True when every asked dimension parsed.
        error: What failed (missing or out-of-range dimensions), None when ok.
        done: Whether the answer says the speaker has no more comments.
        fields: Other top-level fields of the answer object (e.g. ``comment``).

    """

    scores: dict[str, float] = field(default_factory=dict)
    ok: bool = False
    error: str | None = None
    done: bool = False
    fields: dict[str, Any] = field(default_factory=dict)


def says_done(text: str, obj: dict[str, Any] | None = None) -> bool:
    """Whether an answer says NO MORE COMMENTS (in text, or ``"done": true`` in its JSON).

    Args:
        text: The model output.
        obj: The parsed answer object, when there is one.

    Returns:
        True when the speaker is done.
    """
    if obj is not None and obj.get("done") is True:
        return True
    return bool(_DONE.search(text or ""))


def _value(raw: Any) -> float | None:
    """A score from a JSON value: a number, or a string that starts with one."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, (int, float)):
        try:
            return float(raw)
        except OverflowError:  # an integer beyond any float: outside every scale
            return math.inf if raw > 0 else -math.inf
    if isinstance(raw, dict):
        for key in ("score", "value", "rating"):
            if key in raw:
                return _value(raw[key])
        return None
    if isinstance(raw, str):
        match = _OUT_OF.match(raw) or re.search(r"([+-]?\d+(?:\.\d+)?)", raw)
        return float(match.group(1)) if match else None
    return None


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


def _finish(
    found: dict[str, float | None],
    dimensions: Sequence[RatingDimension],
    low: float,
    high: float,
) -> tuple[dict[str, float], bool, str | None]:
    scores: dict[str, float] = {}
    problems: list[str] = []
    for d in dimensions:
        value = found.get(d.name)
        if d.name not in found:
            problems.append(f"{d.name} missing")
        elif value is None:
            problems.append(f"{d.name} not a number")
        elif not low <= value <= high:
            problems.append(f"{d.name}={value:g} outside {low:g}-{high:g}")
        else:
            scores[d.name] = value
    ok = not problems
    return scores, ok, None if ok else "; ".join(problems)


def parse_score_lines(
    text: str, dimensions: Sequence[RatingDimension], low: float = 1, high: float = 5
) -> ScoresParse:
    """Scores written as ``<Dimension> score: X`` or ``<Dimension>: X`` lines.

    The last line naming a dimension wins (a model may revise itself).

    Args:
        text: The model output.
        dimensions: The dimensions asked for.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse.
    """
    found: dict[str, float | None] = {}
    for line in (text or "").splitlines():
        cleaned = line.strip().strip("*#-• ").replace("**", "")
        if ":" not in cleaned:
            continue
        key, _, rest = cleaned.partition(":")
        key = re.sub(r"\s+score\s*$", "", key.strip(), flags=re.IGNORECASE)
        name = _dimension_of(key, dimensions)
        if name is None:
            continue
        number = _OUT_OF.match(rest) or _BARE.match(rest)
        found[name] = float(number.group(1)) if number else None
    scores, ok, error = _finish(found, dimensions, low, high)
    if not found:
        error = "no score lines found"
    return ScoresParse(scores=scores, ok=ok, error=error, done=says_done(text))


def parse_scores(
    text: str, dimensions: Sequence[RatingDimension], low: float = 1, high: float = 5
) -> ScoresParse:
    """Scores per dimension from a JSON object, falling back to score lines.

    Args:
        text: The model output.
        dimensions: The dimensions asked for.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse; ``scores`` keeps every dimension that parsed even when others did not.
    """
    obj = extract_json_object(text or "")
    if obj is not None:
        holder = _score_object(obj, dimensions)
        found: dict[str, float | None] = {}
        for key, raw in holder.items():
            name = _dimension_of(str(key), dimensions)
            if name is not None:
                found[name] = _value(raw)
        if found:
            scores, ok, error = _finish(found, dimensions, low, high)
            extra = {
                k: v
                for k, v in obj.items()
                if v is not holder and _dimension_of(str(k), dimensions) is None
            }
            return ScoresParse(scores, ok, error, says_done(text, obj), extra)
    lines = parse_score_lines(text, dimensions, low, high)
    if lines.scores or lines.error != "no score lines found":
        return lines
    return ScoresParse(error="no scores found", done=says_done(text, obj))


def parse_bare_score(text: str, low: float = 1, high: float = 5) -> float | None:
    """The score a G-Eval form-filling answer starts with (``"4"``, ``" 4.5"``, ``"**3**"``).

    Args:
        text: The model output.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The score, or None when the answer does not start with one in range.
    """
    match = _BARE.match(text or "")
    if not match:
        return None
    value = float(match.group(1))
    return value if low <= value <= high else None


@dataclass
class ReviewParse:
    """Result of :func:`parse_review`.

    Attributes:
        ok: Whether a score in range was found.
        score: The score (None on failure).
        review: The review text, when the answer has one.
        error: Why parsing failed.

    """

    ok: bool
    score: float | None = None
    review: str | None = None
    error: str | None = None


_REVIEW_KEYS = ("review", "reviewtext", "text")
_BRACKET_SCORE = re.compile(r"\[\s*score\s*\]\s*[:=]?\s*\**\s*([+-]?\d+(?:\.\d+)?)", re.I)
_BRACKET_REVIEW = re.compile(
    r"\[\s*review\s*\]\s*[:=]?\s*(.*?)\s*(?=\[\s*score\s*\]|$)", re.I | re.S
)
_LINE_SCORE = re.compile(r"^[\s>*#_`-]*score[\s*_`]*[:=][\s*_`]*([+-]?\d+(?:\.\d+)?)", re.I | re.M)
_LINE_REVIEW = re.compile(r"^[\s>*#_`-]*review[\s*_`]*[:=][\s*_`]*(.+)$", re.I | re.M)
_KEY_OPENING = re.compile(r"""^\s*["']?(review|score)["']?\s*:""", re.I)


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


def _checked_review(raw: Any, review: Any, low: float, high: float, written: str) -> ReviewParse:
    text = review.strip() if isinstance(review, str) and review.strip() else None
    value = _value(raw)
    if value is None:
        return ReviewParse(ok=False, review=text, error=f"score {written!r:.40} is not a number")
    if not low <= value <= high:
        return ReviewParse(ok=False, review=text, error=f"score {value:g} outside {low:g}-{high:g}")
    return ReviewParse(ok=True, score=value, review=text)


def parse_review(text: str, low: float = 1, high: float = 10) -> ReviewParse:
    """A review and its score (PERSE's review-enhanced answer).

    Accepts, in order: the last JSON object with a ``score`` key (any case, fenced or
    bare, trailing commas and other slips repaired, nested one level deep), also when
    the braces are missing (``"Review": "...", "Score": 7``); then ``[Review] ...
    [Score] 7`` (the paper's figure format); then ``Review: ...`` / ``Score: 7`` lines;
    then an answer that is a score and nothing else (``7``, ``7/10``).
    Scores may be ``7``, ``"7"``, ``"7/10"`` or ``7.5``; out of range is a failure.

    Args:
        text: The model output.
        low: Lowest allowed score.
        high: Highest allowed score.

    Returns:
        The parse; never raises on model text.
    """
    text = text or ""
    obj = extract_json_object(text)
    if obj is None and _KEY_OPENING.match(text):
        obj = extract_json_object("{" + text.strip().rstrip(",") + "}")
    if obj is not None:
        holder = _review_object(obj)
        if holder is not None:
            review = next((holder[k] for k in _REVIEW_KEYS if k in holder), None)
            return _checked_review(holder["score"], review, low, high, str(holder["score"]))
    bracket = _BRACKET_SCORE.findall(text)
    if bracket:
        reviews = _BRACKET_REVIEW.findall(text)
        return _checked_review(
            bracket[-1], reviews[-1] if reviews else None, low, high, bracket[-1]
        )
    lines = _LINE_SCORE.findall(text)
    if lines:
        reviews = _LINE_REVIEW.findall(text)
        return _checked_review(lines[-1], reviews[-1] if reviews else None, low, high, lines[-1])
    bare = _OUT_OF.fullmatch(text.strip()) or _BARE.fullmatch(text.strip().strip("*"))
    if bare:  # the whole answer is a score: "7", "7/10"
        return _checked_review(bare.group(1), None, low, high, text.strip())
    return ReviewParse(ok=False, error="no score found in the answer")
