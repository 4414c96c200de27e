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

__all__ = [
    "DistributionParse",
    "LabelParse",
    "extract_json_object",
    "match_option",
    "parse_distribution",
    "parse_label",
]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
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


def _tokens(name: str) -> list[str]:
    """Name tokens for comparison: NFKC, casefolded, punctuation and symbols removed."""
    text = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(
        " " if unicodedata.category(ch)[0] in "PSZ" or ch.isspace() else ch for ch in text
    )
    return kept.split()


def match_option(key: str, options: list[str]) -> str | None:
    """Match a name written by a model to one of the options.

    In order: an exact match; a match ignoring case, spacing, punctuation and symbols
    (``"哈利波特"`` for ``"哈利·波特"``); an unambiguous match on whole leading words, in
    either direction (``"Ron"`` for ``"Ron Weasley"``, ``"Harry Potter (the boy)"`` for
    ``"Harry Potter"``), never on part of a word or on a single character.

    Args:
        key: The name as the model wrote it.
        options: The allowed option names.

    Returns:
        The matching option, or None when there is none or the match is ambiguous.
    """
    if key in options:
        return key
    key_tokens = _tokens(key)
    if not key_tokens:
        return None
    tokens = {opt: _tokens(opt) for opt in options}
    squashed = "".join(key_tokens)
    exact = [opt for opt, t in tokens.items() if "".join(t) == squashed]
    if len(exact) == 1:
        return exact[0]
    if len(squashed) < 2:
        return None

    def leading(short: list[str], long: list[str]) -> bool:
        return 0 < len(short) < len(long) and long[: len(short)] == short

    prefix = [opt for opt, t in tokens.items() if leading(key_tokens, t) or leading(t, key_tokens)]
    return prefix[0] if len(prefix) == 1 else None


def _json_candidates(text: str) -> list[str]:
    """Pieces of text that may hold the answer object, in order of increasing priority.

    Bare ``{...}`` spans come first and fenced blocks last, so that trying them from the
    end prefers the last fenced block. An unterminated object (a truncated answer) is
    not a candidate.
    """
    bare = []
    depth, start = 0, -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0 and start >= 0:
                bare.append(text[start : i + 1])
    return bare + [body for _, body in _FENCE.findall(text)]


def _load_object(candidate: str) -> dict[str, Any] | None:
    try:
        value = json.loads(candidate)
    except ValueError:
        try:
            value = json_repair.loads(candidate)
        except Exception:  # json_repair can raise on pathological input
            return None
    return value if isinstance(value, dict) and value else None


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The last JSON object in a model's text (fenced preferred), repaired if needed.

    Args:
        text: The model output.

    Returns:
        The object, or None when the text holds none.
    """
    text = unicodedata.normalize("NFKC", text or "")
    for candidate in reversed(_json_candidates(text)):
        value = _load_object(candidate)
        if value is not None:
            return value
    return None


_LEADING_NUMBER = re.compile(
    r"^[~≈]?\s*(?P<num>[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)\s*(?P<pct>%)?(\s*\(.*\))?\s*$",
    re.DOTALL,
)


def _to_number(value: Any) -> tuple[float | None, bool]:
    """A probability value as a float, and whether it was written as a percentage."""
    if isinstance(value, bool):
        return None, False
    if isinstance(value, (int, float)):
        return float(value), False
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        if re.fullmatch(r"[^,]*\d,\d+[^,]*", text) and "." not in text:
            text = text.replace(",", ".")  # decimal comma
        match = _LEADING_NUMBER.match(text)
        if match:
            return float(match.group("num")), bool(match.group("pct"))
    return None, False


def _unwrap(obj: dict[str, Any], options: list[str]) -> dict[str, Any]:
    """Descend into wrappers such as ``{"reasoning": "...", "probabilities": {...}}``."""
    while not any(match_option(str(k), options) for k in obj):
        children = [v for v in obj.values() if isinstance(v, dict) and v]
        if len(children) != 1:
            break
        obj = children[0]
    return obj


def parse_distribution(text: str, options: list[str]) -> DistributionParse:
    """Parse a probability distribution over ``options`` from a model's answer.

    JSON objects in the text are tried from the last (fenced blocks first); the first
    that gives a valid distribution is the answer. When none does, the failure of the
    most likely one is reported.

    Args:
        text: The model output.
        options: The option names the distribution must be over.

    Returns:
        The parse result; never raises on model text.
    """
    text = unicodedata.normalize("NFKC", text or "")
    first_failure: DistributionParse | None = None
    for candidate in reversed(_json_candidates(text)):
        obj = _load_object(candidate)
        if obj is None:
            continue
        parsed = _distribution_from_object(obj, options)
        if parsed.ok:
            return parsed
        first_failure = first_failure or parsed
    return first_failure or DistributionParse(ok=False, error="no JSON object found in the answer")


def _distribution_from_object(obj: dict[str, Any], options: list[str]) -> DistributionParse:
    obj = _unwrap(obj, options)
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


@dataclass
class LabelParse:
    """Result of :func:`parse_label`.

    Attributes:
        ok: Whether one of the labels was found.
        label: The label, spelled as in the scale (None on failure).
        error: Why parsing failed.

    """

    ok: bool
    label: str | None = None
    error: str | None = None


LABEL_KEYS = ("label", "answer", "choice", "prediction", "rating")
"""JSON keys that may hold the chosen label, in order of preference."""


def _label_from_object(obj: dict[str, Any], labels: list[str]) -> LabelParse | None:
    lowered = {str(k).strip().casefold(): v for k, v in obj.items()}
    for key in LABEL_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, (dict, list)) or value is None:
                return LabelParse(ok=False, error=f"{key!r} is not a single label: {value!r}")
            label = match_option(str(value).strip(), labels)
            if label is None:
                return LabelParse(ok=False, error=f"{value!r} is not one of {labels}")
            return LabelParse(ok=True, label=label)
    children = [v for v in obj.values() if isinstance(v, dict) and v]
    return _label_from_object(children[0], labels) if len(children) == 1 else None


def parse_label(text: str, labels: list[str]) -> LabelParse:
    """Parse one label of a scale from a model's answer.

    The last JSON object with a ``label`` (or ``answer``, ``choice``, ``prediction``,
    ``rating``) key wins, fenced blocks first; the value is matched to the labels like
    option names (case, spacing, punctuation, unambiguous whole-word prefixes). Without
    JSON, a final line that is exactly one label (ignoring case and punctuation) is
    accepted.

    Args:
        text: The model output.
        labels: The allowed labels.

    Returns:
        The parse result; never raises on model text.
    """
    text = unicodedata.normalize("NFKC", text or "")
    for candidate in reversed(_json_candidates(text)):
        obj = _load_object(candidate)
        if obj is None:
            continue
        parsed = _label_from_object(obj, labels)
        if parsed is not None:  # the last object that gives a label decides, valid or not
            return parsed
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if lines:
        last = "".join(_tokens(re.sub(r"^\W*(label|answer)\W*:", "", lines[-1], flags=re.I)))
        exact = [label for label in labels if "".join(_tokens(label)) == last]
        if len(exact) == 1:
            return LabelParse(ok=True, label=exact[0])
    return LabelParse(ok=False, error="no label found in the answer")
