"""One label of a scale, as a model writes it.

A JSON object, an ``Answer:`` line, a final line that is a label, or the one label a
free-text answer names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from inspect_plural.parsing._hedges import value_problem, without_denominator
from inspect_plural.parsing._json import (
    answer_text,
    complete_fields,
    json_candidates,
    load_object,
    unterminated_object,
    without_json,
)
from inspect_plural.parsing._mentions import find_mentions, readable_in_text
from inspect_plural.parsing._names import match_option, tokens
from inspect_plural.parsing._types import FailureReason, ReadAs

__all__ = [
    "LABEL_KEYS",
    "WRAPPING",
    "LabelParse",
    "answer_lines",
    "match_label",
    "parse_label",
]


@dataclass
class LabelParse:
    """Result of :func:`parse_label`.

    Attributes:
        ok: Whether one of the labels was found.
        label: The label, spelled as in the scale (None on failure).
        error: Why parsing failed.
        read_as: How the answer was read: ``json`` or ``text`` (None on failure).
        failure: Why it failed (:data:`~inspect_plural.parsing.FailureReason`; None
            when it did not).

    """

    ok: bool
    label: str | None = None
    error: str | None = None
    read_as: ReadAs | None = None
    failure: FailureReason | None = None


def _failed(error: str, failure: FailureReason) -> LabelParse:
    return LabelParse(ok=False, error=error, failure=failure)


def _read_value(value: str, labels: list[str], read_as: ReadAs) -> LabelParse:
    """One written value as a label: a hedge or another scale fails, else it is matched."""
    problem = value_problem(value, labels)
    if problem is not None:
        return _failed(problem[1], problem[0])
    label = match_label(without_denominator(value, labels), labels)
    if label is None:
        return _failed(f"{value!r:.80} is not one of {labels}", "invalid")
    return LabelParse(ok=True, label=label, read_as=read_as)


LABEL_KEYS = ("label", "answer", "choice", "prediction", "rating")
"""JSON keys that may hold the chosen label, in order of preference."""


def _label_from_object(obj: dict[str, Any], labels: list[str]) -> LabelParse | None:
    lowered = {str(k).strip().casefold(): v for k, v in obj.items()}
    for key in LABEL_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, list) and len(value) == 1:
                value = value[0]  # a one-element list is its element
            if isinstance(value, list) and len({str(v) for v in value}) > 1:
                return _failed(f"{key!r} holds several labels: {value!r:.80}", "hedge")
            if isinstance(value, (dict, list)) or value is None:
                return _failed(f"{key!r} is not a single label: {value!r:.80}", "invalid")
            return _read_value(str(value).strip(), labels, "json")
    children = [v for v in obj.values() if isinstance(v, dict) and v]
    return _label_from_object(children[0], labels) if len(children) == 1 else None


_ANSWER_LINE = re.compile(
    r"^[\s>*#_`~-]*(?:(?:[^\W\d_][\w'’]*)\s+){0,3}?"
    r"(?:answer|label|choice|prediction|rating|score|verdict)[\s*_`]*[:：=][\s*_`]*(.*)$",
    re.IGNORECASE,
)
WRAPPING = " \t*_`\"'“”‘’[](){}<>."


_INLINE_ANSWER = re.compile(
    r"(?i)\b(?:final\s+)?answer\b(?:\s+is)?[\s*_`]*(?:[:：=]|\s[-–—](?=\s))[\s*_`]*([^\n]+)"
)
_DASH_ANSWER = re.compile(r"(?i)^[\s>*#_`~-]*(?:final\s+)?answer[\s*_`]+[-–—][\s*_`]*(.+)$")


def answer_lines(text: str) -> list[str]:
    """Values of ``Answer: ...``-style lines, in order (a value on the next line counts).

    Without such a line, the last ``answer: ...``, ``answer is: ...`` or ``Answer - ...``
    anywhere in a line (a whole answer written on one line) counts.
    """
    lines = text.splitlines()
    values = []
    for i, line in enumerate(lines):
        match = _ANSWER_LINE.match(line)
        if match is None:
            continue
        value = match.group(1).strip(WRAPPING)
        if not value:  # "Answer:" with the value on the following line
            following = [rest.strip(WRAPPING) for rest in lines[i + 1 : i + 3] if rest.strip()]
            value = following[0] if following else ""
        if value:
            values.append(value)
    if not values:
        for line in lines:
            dash = _DASH_ANSWER.match(line)
            if dash:
                values.append(dash.group(1).strip(WRAPPING))
        inline = [m.group(1).strip(WRAPPING) for m in _INLINE_ANSWER.finditer(text)]
        if not values and inline:
            values.append(inline[-1])
    return [v for v in values if v]


_NUMBER = re.compile(r"^\s*([-+−]?\d+(?:[.,]\d+)?)(?![\d/])")


def _numeric_label(value: str, labels: list[str]) -> tuple[bool, str | None]:
    """A value that opens with a signed or fractional number matches only that number.

    ``-1`` must not match ``1`` nor ``2.5`` match ``2`` (punctuation is otherwise
    ignored); an integral ``2.0`` matches ``2``.

    Returns:
        Whether the rule applies, and the label it gives (None: no label fits).
    """
    match = _NUMBER.match(value)
    if match is None:
        return False, None
    number = match.group(1).replace("−", "-").replace(",", ".")
    if not (number[0] in "+-" or "." in number):
        return False, None
    exact = [label for label in labels if label.strip() == match.group(1)]
    if exact:
        return True, exact[0]
    as_float = float(number)
    if as_float.is_integer():
        integral = [label for label in labels if label.strip() == str(int(as_float))]
        if integral:
            return True, integral[0]
    return True, None


def match_label(value: str, labels: list[str]) -> str | None:
    """Match an answer value to a label, allowing words after it (``"2 - moderately toxic"``).

    First :func:`match_option`; then the longest label whose words open the value
    (unique at that length), so ``"Somewhat agree, since ..."`` gives ``Somewhat agree``.

    Args:
        value: The value as the model wrote it.
        labels: The allowed labels.

    Returns:
        The label, or None when none or several fit equally.
    """
    applies, numeric = _numeric_label(value, labels)
    if applies:
        return numeric
    found = match_option(value, labels)
    if found is not None:
        return found
    value_tokens = tokens(value)
    leading = [
        (len(t), label)
        for label in labels
        if (t := tokens(label)) and len(t) <= len(value_tokens) and value_tokens[: len(t)] == t
    ]
    if not leading:
        return None
    longest = max(n for n, _ in leading)
    best = [label for n, label in leading if n == longest]
    return best[0] if len(best) == 1 else None


def parse_label(text: str, labels: list[str]) -> LabelParse:
    """Parse one label of a scale from a model's answer.

    In order of precedence: the last JSON object with a ``label`` (or ``answer``,
    ``choice``, ``prediction``, ``rating``) key, fenced blocks first (``read_as="json"``;
    a one-element list is its element); else the last ``Answer: ...`` line (also
    ``Final answer``, ``**Answer:**``, ``Toxicity score:``, ``Label =`` and the like, with
    the value possibly bracketed, quoted or followed by an explanation, or on the next
    line); else a final line that is exactly one label; else the one label the text
    names, longest first and neither negated nor in a question
    (:mod:`inspect_plural.parsing._mentions`; only for scales whose labels are words).
    Values are matched to the labels like option names (case, spacing, punctuation,
    unambiguous whole-word prefixes). Every reading but JSON has ``read_as="text"``.
    A value naming two labels (``1 or 2``, ``3-4``, ``3/4``, ``hateful or not
    hateful``) fails as a ``hedge``, a score out of another top (``4/10`` on 1-5) as
    ``other_scale`` (:mod:`inspect_plural.parsing._hedges`); an answer cut off inside
    its JSON object is read from the object's complete ``label`` (``choice``...) field,
    else fails as ``truncated``.

    Args:
        text: The model output.
        labels: The allowed labels.

    Returns:
        The parse result; never raises on model text.
    """
    text = answer_text(text)
    for candidate in reversed(json_candidates(text)):
        obj = load_object(candidate)
        if obj is None:
            continue
        parsed = _label_from_object(obj, labels)
        if parsed is not None:  # the last object that gives a label decides, valid or not
            return parsed
    truncated = unterminated_object(text)
    if truncated:
        fields = {k.strip().casefold(): v for k, v in complete_fields(text).items()}
        written = [fields[key] for key in LABEL_KEYS if key in fields]
        if written:  # cut at the token cap after a complete label field
            return _read_value(written[0].strip(), labels, "json")
    in_text = readable_in_text(labels)
    answers = answer_lines(text)
    if answers:
        parsed = _read_value(answers[-1], labels, "text")
        if not parsed.ok and parsed.failure == "invalid" and in_text:
            mentions = find_mentions(answers[-1], labels)
            if mentions.answer is not None:
                return LabelParse(ok=True, label=mentions.answer, read_as="text")
            if mentions.hedge:
                return _failed(f"answer {answers[-1][:80]!r}: {mentions.error()}", "hedge")
        if not parsed.ok and parsed.failure == "invalid":
            return _failed(f"answer {answers[-1][:80]!r} is not one of {labels}", "invalid")
        return parsed
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if lines:
        last = "".join(tokens(lines[-1]))
        exact = [label for label in labels if "".join(tokens(label)) == last]
        if len(exact) == 1:
            return LabelParse(ok=True, label=exact[0], read_as="text")
    if truncated:
        return _failed("the answer's JSON object is cut off before its label", "truncated")
    if in_text:
        mentions = find_mentions(without_json(text), labels)
        if mentions.answer is not None:
            return LabelParse(ok=True, label=mentions.answer, read_as="text")
        if mentions.hedge:
            return _failed(f"no single label: {mentions.error()}", "hedge")
        if mentions.negated or mentions.questioned:
            return _failed(f"no label found: {mentions.error()}", "no_answer")
    return _failed("no label found in the answer", "no_answer")
