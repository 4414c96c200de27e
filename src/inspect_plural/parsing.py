"""Tolerant parsers for the answers models actually produce.

They accept fenced or bare JSON, trailing commas and other JSON slips (repaired with
``json_repair``), prose around the JSON, option names that differ in case, spacing,
punctuation or by an unambiguous prefix, and values given as numbers, numeric strings
or percentages. They never raise on model text: a failure comes back as a result with
``ok=False`` and the reason, so the caller can keep it in the ``Prediction``.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import json_repair

__all__ = ["DistributionParse", "extract_json_object", "match_option", "parse_distribution"]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
SUM_TOLERANCE = 1e-6
"""How far from 1 a sum may be before the distribution is renormalised (and flagged)."""


@dataclass
class DistributionParse:
    """Result of :func:`parse_distribution`.

    Attributes:
        ok: Whether a usable distribution was found.
        distribution: Probability per option, in option order (None on failure).
        error: Why parsing failed.
        renormalised: True when the raw values did not sum to 1 and were rescaled.
        raw_sum: Sum of the values as given (percent values divided by 100).
        missing: Options the answer did not mention (given probability 0).

    """

    ok: bool
    distribution: dict[str, float] | None = None
    error: str | None = None
    renormalised: bool = False
    raw_sum: float | None = None
    missing: list[str] = field(default_factory=list)


def _normalise(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).casefold()
    text = re.sub(r"[\s_]+", " ", text)
    text = re.sub(r"[\"'`*\[\]():.,;]", "", text)
    return text.strip()


def match_option(key: str, options: list[str]) -> str | None:
    """Match a name written by a model to one of the options.

    Exact match first, then a match ignoring case, spacing and punctuation, then an
    unambiguous prefix in either direction (``"Ron"`` for ``"Ron Weasley"``).

    Args:
        key: The name as the model wrote it.
        options: The allowed option names.

    Returns:
        The matching option, or None when there is none or the match is ambiguous.

    """
    if key in options:
        return key
    norm = _normalise(key)
    if not norm:
        return None
    normalised = {opt: _normalise(opt) for opt in options}
    exact = [opt for opt, n in normalised.items() if n == norm]
    if len(exact) == 1:
        return exact[0]
    prefix = [
        opt for opt, n in normalised.items() if n and (n.startswith(norm) or norm.startswith(n))
    ]
    return prefix[0] if len(prefix) == 1 else None


def _json_candidates(text: str) -> list[str]:
    """Pieces of text that may hold the answer object, most likely last."""
    candidates = [body for _, body in _FENCE.findall(text)]
    # bare objects: every maximal {...} span, outermost braces
    depth, start = 0, -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0 and start >= 0:
                candidates.append(text[start : i + 1])
    if "{" in text and depth > 0 and start >= 0:
        candidates.append(text[start:])  # unterminated object: let json_repair close it
    return candidates


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The last JSON object in a model's text (fenced or bare), repaired if needed.

    Args:
        text: The model output.

    Returns:
        The object, or None when the text holds none.

    """
    for candidate in reversed(_json_candidates(text)):
        try:
            value = json.loads(candidate)
        except ValueError:
            try:
                value = json_repair.loads(candidate)
            except Exception:  # json_repair can raise on pathological input
                continue
        if isinstance(value, dict) and value:
            return value
    return None


def _to_number(value: Any) -> tuple[float | None, bool]:
    """A probability value as a float, and whether it was written as a percentage."""
    if isinstance(value, bool):
        return None, False
    if isinstance(value, (int, float)):
        return float(value), False
    if isinstance(value, str):
        text = value.strip().replace(",", ".") if value.count(",") == 1 else value.strip()
        percent = text.endswith("%")
        text = text.rstrip("%").strip()
        if _NUMBER.match(text):
            return float(text), percent
    return None, False


def _unwrap(obj: dict[str, Any]) -> dict[str, Any]:
    """Descend into ``{"probabilities": {...}}``-style wrappers."""
    while len(obj) == 1:
        (inner,) = obj.values()
        if not isinstance(inner, dict):
            break
        obj = inner
    return obj


def parse_distribution(text: str, options: list[str]) -> DistributionParse:
    """Parse a probability distribution over ``options`` from a model's answer.

    Args:
        text: The model output.
        options: The option names the distribution must be over.

    Returns:
        The parse result; never raises on model text.

    """
    obj = extract_json_object(text or "")
    if obj is None:
        return DistributionParse(ok=False, error="no JSON object found in the answer")
    obj = _unwrap(obj)

    values: dict[str, float] = {}
    any_percent = False
    for key, raw in obj.items():
        number, percent = _to_number(raw)
        option = match_option(str(key), options)
        if option is None:
            if number == 0.0:
                continue  # a zero for an unknown name changes nothing
            return DistributionParse(ok=False, error=f"name {key!r} matches no candidate")
        if number is None or not math.isfinite(number):
            return DistributionParse(ok=False, error=f"value for {key!r} is not a number: {raw!r}")
        if number < 0:
            return DistributionParse(ok=False, error=f"negative probability for {key!r}")
        if option in values:
            return DistributionParse(ok=False, error=f"candidate {option!r} is given twice")
        any_percent = any_percent or percent
        values[option] = number / 100.0 if percent else number

    if not values:
        return DistributionParse(ok=False, error="the JSON object names no candidate")
    total = sum(values.values())
    if not any_percent and total > 1.5 and abs(total - 100.0) <= 1.0:  # bare percentages
        values = {k: v / 100.0 for k, v in values.items()}
        total /= 100.0
    if total <= 0.0 or not math.isfinite(total):
        return DistributionParse(ok=False, error="probabilities sum to zero")

    renormalised = abs(total - 1.0) > SUM_TOLERANCE
    distribution = {opt: values.get(opt, 0.0) / total for opt in options}
    return DistributionParse(
        ok=True,
        distribution=distribution,
        renormalised=renormalised,
        raw_sum=total,
        missing=[opt for opt in options if opt not in values],
    )
