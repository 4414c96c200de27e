"""Scores a debating persona gives: on the rating methods' 1–5 scale, or per dimension.

The group debate asks for one integer score per dimension on the scale each
:class:`~inspect_plural.records.RatingDimension` carries (``low``..``high``). When every
dimension is on the rating methods' 1–5 scale (``maj_eval`` always is: it scores on 1–5
whatever the human scale), the schema, the instruction and the parser are exactly the
rating methods' own (:func:`~inspect_plural.solvers._ratings.scores_schema`,
:func:`~inspect_plural.solvers._ratings.scores_instruction`,
:func:`~inspect_plural.rating_parsing.parse_scores`), so every rating prompt reads the
same. Other scales (a rubric's ``safety: 0-10``) get a per-dimension range in the
schema and the instruction, and each dimension is checked against its own range.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

from inspect_plural.rating_parsing import ScoresParse, parse_scores
from inspect_plural.records import RatingDimension
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    scores_example,
    scores_instruction,
    scores_schema,
)

__all__ = [
    "on_rating_scale",
    "parse_dimension_scores",
    "scale_instruction",
    "scale_schema",
]


def on_rating_scale(dimensions: Sequence[RatingDimension]) -> bool:
    """Whether every dimension is on the rating methods' 1–5 scale.

    Args:
        dimensions: The dimensions asked for.

    Returns:
        True when each has ``low == 1`` and ``high == 5``.
    """
    return all(d.low == SCORE_LOW and d.high == SCORE_HIGH for d in dimensions)


def _bound(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def scale_schema(
    dimensions: Sequence[RatingDimension], extra: Mapping[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON schema of a scores object: an integer in each dimension's range.

    Args:
        dimensions: The dimensions to score.
        extra: Further properties (name -> schema) placed before the scores.

    Returns:
        A JSON schema (the rating methods' own when every dimension is on 1–5).
    """
    if on_rating_scale(dimensions):
        return scores_schema(dimensions, extra)
    properties: dict[str, Any] = dict(extra or {})
    for d in dimensions:
        properties[d.name] = {
            "type": "integer",
            "minimum": _bound(d.low),
            "maximum": _bound(d.high),
        }
    return {"type": "object", "properties": properties, "required": list(properties)}


def scale_instruction(dimensions: Sequence[RatingDimension], example_key: str = "") -> str:
    """The closing instruction asking for the scores JSON object.

    On other scales than 1–5 it lists every key with its range and shows a filled
    example (scores drawn for the sample on each scale), never a placeholder.

    Args:
        dimensions: The dimensions to score.
        example_key: What the example's scores are drawn for (the sample).

    Returns:
        The instruction (the rating methods' own when every dimension is on 1–5).
    """
    if on_rating_scale(dimensions):
        return scores_instruction(dimensions, example_key=example_key)
    ranges = "; ".join(
        f'"{d.name}" from {_bound(d.low)} (worst) to {_bound(d.high)} (best)' for d in dimensions
    )
    example = json.dumps(scores_example(dimensions, example_key))
    return (
        f"Give every dimension an integer score on its own scale ({ranges}), as a JSON "
        "object in a ```json code block with exactly these keys. For example (the scores "
        f"only illustrate the format):\n\n```json\n{example}\n```"
    )


def parse_dimension_scores(text: str, dimensions: Sequence[RatingDimension]) -> ScoresParse:
    """Scores per dimension, each checked against its own scale.

    Args:
        text: The model output.
        dimensions: The dimensions asked for.

    Returns:
        The parse, as :func:`~inspect_plural.rating_parsing.parse_scores` gives it; with
        several scales, the parses of each scale's dimensions merged (``ok`` only when
        every dimension parsed in range).
    """
    if on_rating_scale(dimensions):
        return parse_scores(text, dimensions, SCORE_LOW, SCORE_HIGH)
    parts: list[ScoresParse] = []
    ordered = sorted(dimensions, key=lambda d: (d.low, d.high))
    for (low, high), same in groupby(ordered, key=lambda d: (d.low, d.high)):
        parts.append(parse_scores(text, list(same), low, high))
    scores = {name: value for part in parts for name, value in part.scores.items()}
    errors = [p.error for p in parts if p.error]
    # a part's other fields include the other scales' dimensions: keep the rest only
    keys = {k.casefold() for d in dimensions for k in (d.name, d.title)}
    fields = {
        k: v for part in parts for k, v in part.fields.items() if str(k).casefold() not in keys
    }
    return ScoresParse(
        scores={d.name: scores[d.name] for d in dimensions if d.name in scores},
        ok=all(p.ok for p in parts),
        error="; ".join(dict.fromkeys(errors)) or None,
        done=any(p.done for p in parts),
        fields=fields,
        read_as=next((p.read_as for p in parts if p.read_as is not None), None),
        failure=next((p.failure for p in parts if p.failure is not None), None),
    )
