"""A score written as the answer: a number in the answer's place, never a range or a template.

A model echoing the prompt's skeleton writes ``"<1-5>"`` or ``"an integer from 1 to 10"``;
one hedging writes ``"between 6 and 8"``. None of these is a score, although each holds
digits. A score is read only when the value *opens* with the number (markdown, quotes
or an opening bracket aside; optionally after ``Score:``), and what follows is not the
rest of a range (``-8``, ``to 8``, ``or 8``, ``and 8``) nor a percent sign. What may
follow is ``/5`` or ``out of 5`` and any explanation (``4 - clear and accurate``).

Given the scale, a score said to be on another one is no score either: ``4/10``, ``4 out
of 10``, ``3 on a 1-10 scale`` on a 1-5 scale fail (never rescaled: a model that answers
on another scale did not follow the prompt, and its mapping to ours is a guess).
:func:`score_failure` tells the reasons apart.
"""

from __future__ import annotations

import math
import re
from typing import Any

from inspect_plural.parsing import FailureReason

__all__ = ["read_score", "score_failure", "score_text"]

Scale = tuple[float, float]
"""The lowest and highest score."""

_IS_RANGE = "is a range, not a score"
_OTHER_SCALE = "is on another scale"

_LEADING = re.compile(
    r"""^[\s*_`"'“”‘’\[(]*(?P<label>(?:score|rating)[\s*_`]*[:=][\s*_`"'\[(]*)?[~≈]?\s*"""
    r"(?P<num>[+-]?\d+(?:\.\d+)?)(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_OUT_OF = re.compile(r"^[\s*_`]*(?:/|out\s+of)\s*\d+(?:\.\d+)?", re.IGNORECASE)
_RANGE = re.compile(r"^[\s*_`]*(?:[-–—~]|to\b|or\b|and\b|through\b)\s*[+-]?\d", re.IGNORECASE)
_ODD_NUMBER = re.compile(r"^[.,]\d|^\d")  # a decimal comma ("1,5"), digits after a dot
_TRAILING = " \t\r\n*_`\"'“”‘’)].,;:!"
_NUM = r"[+-]?\d+(?:\.\d+)?"
_SCALE_PHRASES = (
    re.compile(rf"^[\s*_`]*(?:/|out\s+of)\s*({_NUM})", re.IGNORECASE),
    re.compile(
        rf"\b(?:on|in)\s+(?:a|the|our)\s+(?:scale\s+(?:of|from)\s+)?({_NUM})\s*(?:-|–|—|to)\s*"
        rf"({_NUM})(?!\d)",
        re.IGNORECASE,
    ),
    re.compile(rf"\(\s*out\s+of\s+({_NUM})\s*\)", re.IGNORECASE),
)


def _other_scale(rest: str, scale: Scale) -> str | None:
    """The top of another scale the rest of a score line names (``/10``, ``on a 1-10 scale``)."""
    for i, pattern in enumerate(_SCALE_PHRASES):
        match = pattern.search(rest) if i else pattern.match(rest)
        if match is None:
            continue
        low, high = (
            (float(match.group(1)), float(match.group(2)))
            if match.lastindex == 2
            else (None, float(match.group(1)))
        )
        if high != scale[1] or (low is not None and low != scale[0]):
            return match.group(0).strip()
    return None


def score_failure(why: str | None) -> FailureReason:
    """The failure reason of a score that was not read (``why`` from :func:`score_text`).

    Args:
        why: The message :func:`score_text` or :func:`read_score` gave.

    Returns:
        ``hedge`` (a range), ``other_scale``, or ``invalid``.
    """
    if why and _IS_RANGE in why:
        return "hedge"
    if why and _OTHER_SCALE in why:
        return "other_scale"
    return "invalid"


def score_text(
    text: str, labelled: bool = True, scale: Scale | None = None
) -> tuple[float | None, str, str | None]:
    """The score a piece of text opens with.

    Args:
        text: The text (a JSON string value, the rest of a ``Score:`` line, an answer).
        labelled: Also accept a leading ``Score:`` or ``Rating:``.
        scale: The scale asked for: a score said to be on another one is no score.

    Returns:
        The score (None when there is none), what follows it (``/5`` removed, stripped of
        markdown, quotes and punctuation), and why there is no score (None when there is).
    """
    match = _LEADING.match(text)
    if match is None or (match.group("label") and not labelled):
        return None, "", f"{text.strip()[:40]!r} is not a number"
    rest = match.group("rest")
    if _ODD_NUMBER.match(rest):
        return None, "", f"{text.strip()[:40]!r} is not a number"
    if _RANGE.match(rest):
        return None, "", f"{text.strip()[:40]!r} {_IS_RANGE}"
    if rest.lstrip().startswith("%"):
        return None, "", f"{text.strip()[:40]!r} is a percentage, not a score"
    other = _other_scale(rest, scale) if scale is not None else None
    if other is not None:
        return None, "", f"{text.strip()[:40]!r} {_OTHER_SCALE} ({other!r})"
    out_of = _OUT_OF.match(rest)
    if out_of:
        rest = rest[out_of.end() :]
    return float(match.group("num")), rest.strip(_TRAILING), None


def read_score(raw: Any, scale: Scale | None = None) -> tuple[float | None, str | None]:
    """A score from a JSON value: a number, a string opening with one, a one-element list.

    Also ``{"score": 4}`` (or ``value``, ``rating``). Booleans, longer lists, ranges and
    placeholders are not scores, nor (given the scale) a score on another scale.

    Args:
        raw: The value.
        scale: The scale asked for (:func:`score_text`).

    Returns:
        The score (±inf for an integer beyond any float) and, when there is none, why.
    """
    if isinstance(raw, bool):
        return None, f"{raw!r} is not a number"
    if isinstance(raw, (int, float)):
        try:
            return float(raw), None
        except OverflowError:  # an integer beyond any float: outside every scale
            return (math.inf if raw > 0 else -math.inf), None
    if isinstance(raw, list):
        if len(raw) == 1:
            return read_score(raw[0], scale)  # a one-element list is its element
        return None, f"a list of {len(raw)} values {_IS_RANGE}"
    if isinstance(raw, dict):
        for key in ("score", "value", "rating"):
            if key in raw:
                return read_score(raw[key], scale)
        return None, "an object without a score"
    if isinstance(raw, str):
        value, _, error = score_text(raw, scale=scale)
        return value, error
    return None, f"{raw!r:.40} is not a number"
