"""The fuzz benchmark's parser families: what each parser is told, its well-formed
answers, and the invariants its results must keep.

Each :class:`Family` pairs contexts (candidate names, label sets, rating dimensions,
score bounds) with a writer of well-formed answers and the parsers run on every
generated output (:mod:`benchmarks._generator`). A parser's check returns whether the
output parsed and raises :class:`Violation` when a result breaks the family's
invariants; any other exception is a parser bug.

The code lives in private modules, one concept each, re-exported here unchanged: the
family machinery (``_base``: :class:`Family`, :class:`Violation`, the scale
and the invariant helpers), the contexts (``_contexts``), and the families:
distributions and labels (``_options``), ratings and debates
(``_scores``), PERSE (``_perse``) and the stakeholders
(``_stakeholders``). This package keeps :data:`FAMILIES`, the order the fuzz
benchmark runs them in.
"""

from __future__ import annotations

from typing import Any

from benchmarks.families._base import HIGH, LOW, C, Family, Parser, Violation
from benchmarks.families._contexts import (
    CANDIDATE_NAMES,
    DEBATE_CONTEXTS,
    LABEL_SETS,
    RATING_DIMENSIONS,
    REVIEW_BOUNDS,
    DebateContext,
)
from benchmarks.families._options import DISTRIBUTION, LABELS
from benchmarks.families._perse import PERSE
from benchmarks.families._scores import DEBATE, RATINGS
from benchmarks.families._stakeholders import STAKEHOLDERS

__all__ = [
    "C",
    "CANDIDATE_NAMES",
    "DEBATE",
    "DEBATE_CONTEXTS",
    "DISTRIBUTION",
    "FAMILIES",
    "HIGH",
    "LABELS",
    "LABEL_SETS",
    "LOW",
    "PERSE",
    "RATINGS",
    "RATING_DIMENSIONS",
    "REVIEW_BOUNDS",
    "STAKEHOLDERS",
    "DebateContext",
    "Family",
    "Parser",
    "Violation",
]

FAMILIES: tuple[Family[Any], ...] = (DISTRIBUTION, LABELS, RATINGS, DEBATE, PERSE, STAKEHOLDERS)
