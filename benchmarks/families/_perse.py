"""The fuzz benchmark's PERSE family: a review with its score, and a plot choice.

:data:`PERSE` writes PERSE's review-and-score answers in their shapes (JSON, quoted
fields, bracketed and line-labelled text, echoed templates and ranges that must never
be scores) and pairwise plot choices, and checks ``parse_review`` (a stripped review,
a score within the bounds) and ``parse_choice`` (one of the plot choices).
"""

from __future__ import annotations

import json
import random

from benchmarks._generator import ascii_escaped, fence, prose
from benchmarks.families._base import Family, require, storable
from benchmarks.families._contexts import REVIEW_BOUNDS
from inspect_plural.parsing import PLOT_CHOICES, parse_choice
from inspect_plural.rating_parsing import parse_review

__all__ = ["PERSE"]


def _perse_answer(rng: random.Random, bounds: tuple[float, float]) -> str:
    low, high = bounds
    score = rng.randint(int(low), int(high))
    style = rng.randrange(6)
    if style == 0:
        body = json.dumps({"review": prose(rng), "score": score}, ensure_ascii=ascii_escaped(rng))
        return fence(rng, body)
    if style == 1:
        return f'"Review": "{prose(rng)}", "Score": {score}'
    if style == 2:
        return f"[Review] {prose(rng)} [Score] {score}"
    if style == 3:
        return f"Review: {prose(rng)}\nScore: {score}/{int(high)}"
    if rng.random() < 0.2:  # an echoed template or a range: never a score
        return rng.choice(
            [
                '{"review": "<the review>", "score": <an integer from 1 to 10>}',
                f'{{"review": "fine", "score": "between {score} and {score + 1}"}}',
                f"Review: fine\nScore: {score}-{score + 1}",
            ]
        )
    if style == 4:
        return fence(rng, json.dumps({"choice": rng.choice(PLOT_CHOICES)}))
    return rng.choice(["A", "(b)", "Story B", "neither", "Answer: Plot A", "N/A"])


def _review(text: str, bounds: tuple[float, float]) -> bool:
    low, high = bounds
    parsed = parse_review(text, low, high)
    review = parsed.review
    require(review is None or (bool(review) and review == review.strip()), "review not stripped")
    require(storable(review), f"a surrogate in the review: {review!r:.80}")
    if not parsed.ok:
        require(parsed.score is None and bool(parsed.error), "failure with a score or no reason")
        require(parsed.read_as is None, "a failure says how it was read")
        return False
    score = parsed.score
    require(score is not None and low <= score <= high, f"score {score!r} outside the bounds")
    require(parsed.read_as in ("json", "text"), f"read_as {parsed.read_as!r}")
    return True


def _choice(text: str, bounds: tuple[float, float]) -> bool:
    parsed = parse_choice(text)
    if not parsed.ok:
        require(parsed.label is None and bool(parsed.error), "failure with a label or no reason")
        return False
    require(parsed.label in PLOT_CHOICES, f"choice {parsed.label!r}")
    return True


PERSE: Family[tuple[float, float]] = Family(
    name="perse",
    contexts=REVIEW_BOUNDS,
    valid=_perse_answer,
    keys=lambda bounds: ["review", "score", "Review", "Score", "choice", "Plot A", "Plot B"],
    parsers=(("parse_review", _review), ("parse_choice", _choice)),
)
