"""A value that names two labels, a range or another scale: a hedge, not one label.

``Answer: 1 or 2``, ``Answer: 3-4``, ``{"label": "3/4"}`` and ``Answer: hateful or not
hateful`` each name two labels joined by ``or``, ``and``, ``to``, ``-``, ``/``, ``&``,
``,`` or ``vs``: a hedge, whichever comes first. On a numeric scale ``a/b`` and ``a out
of b`` are a score out of ``b``: read as ``a`` when ``b`` is the scale's top (``4/5`` on
1-5), a hedge when ``b`` is another label (``3/4`` on 1-5), and a score on another
scale otherwise (``4/10``, ``4 out of 10`` on 1-5; never rescaled).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from inspect_plural.parsing._types import FailureReason

__all__ = ["ValueProblem", "value_problem", "without_denominator"]

ValueProblem = tuple[FailureReason, str]
"""Why a value is no single label: the failure reason and a message."""

_JOINER = (
    r"\s*(?:[-–—/&+,|]|\bor\b|\band\b|\bto\b|\bthrough\b|\bnor\b|\bvs\b\.?|\bversus\b)\s*"
    r"(?:(?:maybe|possibly|perhaps|probably|even)\s+)?"
)
_NUMBER = r"[-+]?\d+(?:\.\d+)?"
_OUT_OF = re.compile(rf"^\W*({_NUMBER})\s*(/|\bout\s+of\b)\s*({_NUMBER})(?![\d.])", re.IGNORECASE)


@functools.lru_cache(maxsize=256)
def _pair(labels: tuple[str, ...]) -> re.Pattern[str]:
    """Two labels joined by a hedge joiner (the longest label first at each position)."""
    spelled = sorted({label.strip() for label in labels if label.strip()}, key=len, reverse=True)
    alternation = "|".join(r"\s+".join(map(re.escape, label.split())) for label in spelled)
    return re.compile(
        rf"(?<![\w-])(?P<a>{alternation})(?!\w){_JOINER}(?P<b>{alternation})(?!\w)",
        re.IGNORECASE,
    )


def _numeric(labels: Sequence[str]) -> list[float] | None:
    try:
        return [float(label) for label in labels]
    except ValueError:
        return None


def value_problem(value: str, labels: Sequence[str]) -> ValueProblem | None:
    """Why ``value`` is not one label of ``labels``: a hedge or another scale (None: neither).

    Args:
        value: A label value as the model wrote it (a JSON value, an ``Answer:`` line).
        labels: The allowed labels.

    Returns:
        ``("hedge", message)``, ``("other_scale", message)`` or None.
    """
    numbers = _numeric(labels)
    out_of = _OUT_OF.match(value) if numbers else None
    if out_of and numbers:
        top = float(out_of.group(3))
        if top == max(numbers):
            return None  # "4/5" on 1-5: 4
        slash_between_labels = out_of.group(2) == "/" and top in numbers
        if not slash_between_labels:  # "3/4" on 1-5 names two labels: a hedge, below
            return (
                "other_scale",
                f"{value.strip()[:40]!r} is a score out of {top:g}, not on this scale "
                f"({min(numbers):g}-{max(numbers):g})",
            )
    for match in _pair(tuple(labels)).finditer(value):
        first, second = match.group("a"), match.group("b")
        if " ".join(first.casefold().split()) != " ".join(second.casefold().split()):
            return "hedge", f"{value.strip()[:60]!r} names two labels ({first!r} and {second!r})"
    return None


def without_denominator(value: str, labels: Sequence[str]) -> str:
    """``a`` of a value ``a/top`` or ``a out of top`` on a numeric scale; else the value.

    Args:
        value: A label value (one :func:`value_problem` found no problem in).
        labels: The allowed labels.

    Returns:
        The numerator as written, or the value unchanged.
    """
    numbers = _numeric(labels)
    out_of = _OUT_OF.match(value) if numbers else None
    if out_of and numbers and float(out_of.group(3)) == max(numbers):
        return out_of.group(1)
    return value
