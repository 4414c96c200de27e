"""Probability distributions over the options, as a model writes them.

Read, in order: a JSON object mapping options to probabilities (``json``); else, when no
JSON object in the answer names an option, a numbered ranking of the options
(``ranked``, :mod:`inspect_plural.parsing._ranked`); else the one option the text names
as its answer, which gets probability 1 (``text``, :mod:`inspect_plural.parsing._mentions`).
A JSON object that names an option but is not a distribution (a value that is not a
number, is negative or is above 1) is a failure, whatever the text around it says.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from inspect_plural.parsing._json import (
    answer_text,
    json_candidates,
    load_object,
    unterminated_object,
    without_json,
)
from inspect_plural.parsing._mentions import find_mentions, readable_in_text
from inspect_plural.parsing._names import match_option
from inspect_plural.parsing._ranked import rank_weights, ranked_candidates
from inspect_plural.parsing._types import FailureReason, ReadAs

__all__ = ["SUM_TOLERANCE", "DistributionParse", "parse_distribution"]

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
        missing: Options the answer did not mention (given probability 0, or the
            unranked share of a ranking).
        read_as: How the answer was read: ``json``, ``ranked`` or ``text`` (None on
            failure).
        failure: Why it failed (:data:`~inspect_plural.parsing.FailureReason`; None
            when it did not).

    """

    ok: bool
    distribution: dict[str, float] | None = None
    error: str | None = None
    renormalised: bool = False
    raw_sum: float | None = None
    missing: list[str] = field(default_factory=list)
    read_as: ReadAs | None = None
    failure: FailureReason | None = None


_LEADING_NUMBER = re.compile(
    r"^[~≈]?\s*(?P<num>[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)\s*(?P<pct>%)?(\s*\(.*\))?\s*$",
    re.DOTALL,
)


def _to_number(value: Any) -> tuple[float | None, bool]:
    """A probability value as a float, and whether it was written as a percentage."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]  # a one-element list is its element
    if isinstance(value, bool):
        return None, False
    if isinstance(value, (int, float)):
        try:
            return float(value), False
        except OverflowError:  # an integer beyond any float: not a probability
            return (math.inf if value > 0 else -math.inf), False
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
    that gives a valid distribution is the answer. When one names an option but none
    is valid, the failure of the most likely one is reported. When no JSON object
    names an option, a numbered ranking of the options is read with a fixed Borda
    weighting (:mod:`inspect_plural.parsing._ranked`: 0.4/0.3/0.2/0.1 for a full
    ranking of four), else the one option the text names, not negated, gets
    probability 1 (:mod:`inspect_plural.parsing._mentions`). The result's ``read_as``
    says which.

    Values must be probabilities: a negative value or one above 1 (once percentages,
    marked with ``%`` or summing to about 100, are divided by 100) is a failure; a sum
    off 1 is renormalised and flagged (``renormalised``).

    Args:
        text: The model output.
        options: The option names the distribution must be over.

    Returns:
        The parse result; never raises on model text.
    """
    text = answer_text(text)
    first_failure: DistributionParse | None = None
    unnamed: DistributionParse | None = None
    for candidate in reversed(json_candidates(text)):
        obj = load_object(candidate)
        if obj is None:
            continue
        parsed, named = _distribution_from_object(obj, options)
        if parsed.ok:
            return parsed
        if named:
            first_failure = first_failure or parsed
        else:
            unnamed = unnamed or parsed
    if first_failure is not None:
        return first_failure
    if unterminated_object(text):
        return _failure(
            "the answer's JSON object is not terminated (a truncated answer?)", "truncated"
        )
    prose = without_json(text)
    ranked = ranked_candidates(prose, options)
    if ranked is not None:
        weights = rank_weights(len(options), len(ranked))
        unranked = weights[-1] if len(ranked) < len(options) else 0.0
        values = {opt: unranked for opt in options} | dict(zip(ranked, weights))
        total = sum(values.values())
        return DistributionParse(
            ok=True,
            distribution={opt: values[opt] / total for opt in options},
            raw_sum=1.0,
            missing=[opt for opt in options if opt not in ranked],
            read_as="ranked",
        )
    if readable_in_text(options):
        mentions = find_mentions(prose, options)
        if mentions.answer is not None:
            return DistributionParse(
                ok=True,
                distribution={opt: float(opt == mentions.answer) for opt in options},
                raw_sum=1.0,
                missing=[opt for opt in options if opt != mentions.answer],
                read_as="text",
            )
        if mentions.hedge:
            return _failure(f"no distribution in JSON; {mentions.error()}", "hedge")
        if mentions.negated:
            return _failure(f"no distribution in JSON; {mentions.error()}", "no_answer")
    return unnamed or _failure("no JSON object found in the answer", "no_answer")


def _distribution_from_object(
    obj: dict[str, Any], options: list[str]
) -> tuple[DistributionParse, bool]:
    """The distribution an object gives, and whether the object names an option at all."""
    obj = _unwrap(obj, options)
    named = any(match_option(str(key), options) is not None for key in obj)
    return _values_to_distribution(obj, options), named


def _failure(error: str, failure: FailureReason = "invalid") -> DistributionParse:
    return DistributionParse(ok=False, error=error, failure=failure)


def _values_to_distribution(obj: dict[str, Any], options: list[str]) -> DistributionParse:
    values: dict[str, float] = {}
    any_percent = False
    for key, raw in obj.items():
        number, percent = _to_number(raw)
        option = match_option(str(key), options)
        if option is None:
            if number == 0.0:
                continue  # a zero for an unknown name changes nothing
            return _failure(f"name {key!r} matches no candidate")
        if number is None or not math.isfinite(number):
            return _failure(f"value for {key!r} is not a number: {raw!r:.60}")
        if number < 0:
            return _failure(f"negative probability for {key!r}")
        if option in values:
            return _failure(f"candidate {option!r} is given twice")
        any_percent = any_percent or percent
        values[option] = number / 100.0 if percent else number

    if not values:
        return _failure("the JSON object names no candidate")
    total = sum(values.values())
    if not any_percent and total > 1.5 and abs(total - 100.0) <= 1.0:  # bare percentages
        values = {k: v / 100.0 for k, v in values.items()}
        total /= 100.0
    above = [(k, v) for k, v in values.items() if v > 1.0 + SUM_TOLERANCE]
    if above:
        key, value = above[0]
        return _failure(f"{value:g} for {key!r} is not a probability (above 1)")
    if total <= 0.0 or not math.isfinite(total):
        return _failure("probabilities sum to zero")

    renormalised = abs(total - 1.0) > SUM_TOLERANCE
    distribution = {opt: values.get(opt, 0.0) / total for opt in options}
    return DistributionParse(
        ok=True,
        distribution=distribution,
        renormalised=renormalised,
        raw_sum=total,
        missing=[opt for opt in options if opt not in values],
        read_as="json",
    )
