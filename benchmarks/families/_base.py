"""The fuzz benchmark's family machinery: a family, its parsers and their invariant checks.

A :class:`Family` pairs contexts with a writer of well-formed answers and the parsers
run on every generated output; a :data:`Parser` returns whether the output parsed and
raises :class:`Violation` (through :func:`require`) when a result breaks the family's
invariants. :func:`storable` and :func:`record_storable` check that parsed text holds
no surrogate, so a log can store it. ``LOW`` and ``HIGH`` are the 1-5 scale every rating
method asks for.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

__all__ = [
    "C",
    "HIGH",
    "LOW",
    "Family",
    "Parser",
    "Violation",
    "record_storable",
    "require",
    "storable",
]

LOW, HIGH = 1.0, 5.0
"""The 1-5 scale every rating method asks for."""

C = TypeVar("C")


class Violation(Exception):
    """A parser returned a result that breaks its family's invariants."""


def require(condition: bool, message: str) -> None:
    """Raise :class:`Violation` with ``message`` unless ``condition`` holds.

    Args:
        condition: The invariant.
        message: What broke it.

    Raises:
        Violation: The invariant does not hold.
    """
    if not condition:
        raise Violation(message)


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def storable(text: str | None) -> bool:
    """Whether a parsed string holds no surrogate, so a log can store it (UTF-8).

    An emoji escaped as ``\\ud83d\\ude00`` must come back as the emoji, as
    ``json.loads`` gives it, not as two surrogates; a lone surrogate escape comes back
    as U+FFFD. The generated outputs hold no raw surrogate of their own.
    """
    return _SURROGATE.search(text or "") is None


def record_storable(record: BaseModel) -> bool:
    """:func:`storable` for every string of a parsed record."""
    return storable(json.dumps(record.model_dump(), ensure_ascii=False))


Parser = Callable[[str, C], bool]
"""Runs one parser on an output, checks the invariants, returns whether it parsed."""


@dataclass(frozen=True)
class Family(Generic[C]):
    """One parser family: its contexts, a well-formed answer writer and its parsers."""

    name: str
    contexts: tuple[C, ...]
    valid: Callable[[random.Random, C], str]
    keys: Callable[[C], list[str]]
    parsers: tuple[tuple[str, Parser[C]], ...]
