"""Fixed-choice answers: a VALID/INVALID verdict and a preferred plot."""

from __future__ import annotations

import re

from inspect_plural.parsing._json import answer_text, extract_json_object
from inspect_plural.parsing._labels import LABEL_KEYS, LabelParse, answer_lines, parse_label
from inspect_plural.parsing._names import tokens
from inspect_plural.parsing._types import ReadAs

__all__ = ["PLOT_CHOICES", "VERDICTS", "parse_choice", "parse_verdict"]

VERDICTS = ("VALID", "INVALID")
"""The answers of a character validation."""
_LEADING_VERDICT = re.compile(r"^[\W_]*(valid|invalid)\b[*_`\s]*(?:[-–—:.,;!(\n]|$)", re.I)


def parse_verdict(text: str) -> LabelParse:
    """Parse a VALID/INVALID verdict (character validation).

    A structured or ``Answer:`` verdict first (:func:`parse_label`); else the last of the
    words "valid"/"invalid" in the text ("not valid" counts as invalid).

    Args:
        text: The model output.

    Returns:
        The parse result with label ``VALID`` or ``INVALID``.
    """
    parsed = parse_label(text, list(VERDICTS))
    if parsed.ok:
        return parsed
    opening = _LEADING_VERDICT.match(answer_text(text))
    if opening:  # "VALID - because ...": the verdict, then an explanation
        return LabelParse(ok=True, label=opening.group(1).upper(), read_as="text")
    words = tokens(text or "")
    for i in range(len(words) - 1, -1, -1):
        if words[i] == "invalid" or (words[i] == "valid" and i > 0 and words[i - 1] == "not"):
            return LabelParse(ok=True, label="INVALID", read_as="text")
        if words[i] == "valid":
            return LabelParse(ok=True, label="VALID", read_as="text")
    return LabelParse(ok=False, error="no VALID/INVALID verdict in the answer")


PLOT_CHOICES = ("Plot A", "Plot B", "N/A")
"""The answers of a pairwise plot comparison (PERSE): a plot, or no preference."""

_BARE_CHOICE = re.compile(
    r"^[\s*_`\"'(\[]*(?:plot|story|option)?\s*([ab])[\s*_`\"')\].]*$", re.IGNORECASE
)
_NO_PREFERENCE = re.compile(r"^[\s*_`\"']*(n/?a|none|neither|no preference)[\s*_`\"'.]*$", re.I)


def parse_choice(text: str) -> LabelParse:
    """Parse the preferred plot of a pairwise comparison: ``Plot A``, ``Plot B`` or ``N/A``.

    A structured or ``Answer:`` choice first (:func:`parse_label`, so
    ``{"Choice": "Plot A",}`` with its trailing comma parses); a value or a whole answer
    that is just ``A``, ``(b)`` or ``Story B`` counts as that plot; ``N/A``, ``none``,
    ``neither`` and ``no preference`` give ``N/A``.

    Args:
        text: The model output.

    Returns:
        The parse result with a label of :data:`PLOT_CHOICES`.
    """
    text = answer_text(text)
    parsed = parse_label(text, list(PLOT_CHOICES))
    if parsed.ok:
        return parsed
    candidates = [*answer_lines(text)[-1:], text]
    read_as: ReadAs = "text"
    obj = extract_json_object(text)
    if obj is not None:
        lowered = {str(k).strip().casefold(): v for k, v in obj.items()}
        in_json = [str(lowered[k]) for k in LABEL_KEYS if k in lowered]
        candidates, read_as = (in_json, "json") if in_json else (candidates, "text")
    for candidate in candidates:
        bare = _BARE_CHOICE.match(candidate)
        if bare:
            return LabelParse(ok=True, label=f"Plot {bare.group(1).upper()}", read_as=read_as)
        if _NO_PREFERENCE.match(candidate):
            return LabelParse(ok=True, label="N/A", read_as=read_as)
    return parsed
