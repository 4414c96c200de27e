"""What rating methods share: how the rated output is shown, the 1–5 score contract, cost.

Every rating method (``maj_eval``, ``geval``, ``chateval``, ``rouge_l``) predicts a score
per dimension of :class:`~inspect_plural.records.RatedSampleMetadata` and writes one
:class:`~inspect_plural.prediction.Prediction` with ``scores`` (and ``score`` = the
``overall`` one). LLM methods score on a 1–5 Likert scale whatever the human scale is:
the metrics are rank and linear correlations, which do not depend on the scale.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ModelOutput
from inspect_ai.util import Store

from inspect_plural.parsing import FailureReason
from inspect_plural.prediction import ModelAnswer, PanelScores, Prediction, main_failure
from inspect_plural.prompts import example_score
from inspect_plural.records import RatedSampleMetadata, RatingDimension

__all__ = [
    "SCORE_HIGH",
    "SCORE_LOW",
    "mean_scores",
    "render_dimensions",
    "render_rated",
    "scores_example",
    "scores_instruction",
    "scores_schema",
    "tokens_of",
    "write_rating_prediction",
]

SCORE_LOW = 1
"""Lowest score a rating method gives (1 = worst)."""
SCORE_HIGH = 5
"""Highest score a rating method gives (5 = best)."""


def render_rated(metadata: RatedSampleMetadata) -> str:
    """The rated output with its context, as Markdown sections.

    Args:
        metadata: The sample's metadata.

    Returns:
        The context section (when there is one) and the content section.
    """
    output = metadata.output
    parts = []
    if output.context:
        parts.append(f"## {metadata.context_label.capitalize()}\n\n{output.context.strip()}")
    content = output.content.strip() or "(empty)"
    parts.append(f"## {metadata.content_label.capitalize()}\n\n{content}")
    return "\n\n".join(parts)


def render_dimensions(dimensions: Sequence[RatingDimension]) -> str:
    """One bullet per dimension: its title, key and description.

    Args:
        dimensions: The dimensions to score.

    Returns:
        The bullet list.
    """
    return "\n".join(f"- {d.title} (`{d.name}`): {d.description}" for d in dimensions)


def scores_schema(
    dimensions: Sequence[RatingDimension], extra: Mapping[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON schema of a scores object: an integer 1–5 per dimension key.

    Args:
        dimensions: The dimensions to score.
        extra: Further properties (name -> schema) placed before the scores.

    Returns:
        A JSON schema (for :class:`~inspect_plural.answer_format.JsonFormat`).
    """
    properties: dict[str, Any] = dict(extra or {})
    for d in dimensions:
        properties[d.name] = {"type": "integer", "minimum": SCORE_LOW, "maximum": SCORE_HIGH}
    return {"type": "object", "properties": properties, "required": list(properties)}


def scores_example(dimensions: Sequence[RatingDimension], example_key: str) -> dict[str, int]:
    """The filled example's scores: one drawn per dimension on its scale, for the sample.

    A model that copies the example then scores at chance (no correlation with the
    human scores), never a constant midpoint (:mod:`inspect_plural.prompts._examples`).

    Args:
        dimensions: The dimensions to score (each on its own ``low..high``).
        example_key: What the example is drawn for (the sample).

    Returns:
        Dimension -> score.
    """
    return {
        d.name: example_score(int(d.low), int(d.high), f"{example_key}:{d.name}")
        for d in dimensions
    }


def scores_instruction(
    dimensions: Sequence[RatingDimension],
    example_fields: Mapping[str, Any] | None = None,
    example_key: str = "",
) -> str:
    """The closing instruction asking for the scores JSON object.

    It names the keys and the score range as numbers and shows a filled example (scores
    drawn for the sample, :func:`scores_example`), never a placeholder such as
    ``"<1-5>"`` that a model could echo (issue 24). Callers may rely on the phrases
    ``an integer score`` and ``with exactly these keys`` to adapt it.

    Args:
        dimensions: The dimensions to score.
        example_fields: Further fields the example answer shows before the scores
            (e.g. ``{"feedback": "..."}``), when the instruction asks for them.
        example_key: What the example's scores are drawn for (the sample).

    Returns:
        The instruction with a filled example object.
    """
    keys = ", ".join(json.dumps(d.name) for d in dimensions)
    example = json.dumps(
        {**(example_fields or {}), **scores_example(dimensions, example_key)},
        ensure_ascii=False,
    )
    return (
        f"Give every dimension an integer score from {SCORE_LOW} (worst) to {SCORE_HIGH} "
        f"(best), as a JSON object in a ```json code block with exactly these keys: {keys}. "
        f"Write each score as a single number from {SCORE_LOW} to {SCORE_HIGH}, not a range. "
        "For example (the scores only illustrate the format), an answer could be:"
        f"\n\n```json\n{example}\n```"
    )


def tokens_of(output: ModelOutput) -> int:
    """Input plus output tokens of one model call (0 when the provider reports none).

    Args:
        output: The call's output.

    Returns:
        The token count.
    """
    usage = output.usage
    if usage is None:
        return 0
    return int(usage.input_tokens + usage.output_tokens)


def mean_scores(rows: Sequence[Mapping[str, float]], names: Sequence[str]) -> dict[str, float]:
    """The mean per dimension over the rows that have it.

    Args:
        rows: Score rows (member or panel -> dimension -> score).
        names: The dimensions.

    Returns:
        Dimension -> mean (a dimension no row has is absent).
    """
    means: dict[str, float] = {}
    for name in names:
        values = [row[name] for row in rows if name in row]
        if values:
            means[name] = sum(values) / len(values)
    return means


def write_rating_prediction(
    store: Store,
    method: str,
    dimensions: Sequence[RatingDimension],
    scores: Mapping[str, float],
    model_calls: int,
    tokens: int = 0,
    answers: Sequence[ModelAnswer] = (),
    panels: Mapping[str, PanelScores] | None = None,
    initial_scores: Mapping[str, float] | None = None,
    rationale: str | None = None,
    aggregate: str = "single",
    error: str | None = None,
    failure: FailureReason | None = None,
) -> None:
    """Write a rating method's :class:`Prediction` (``parse_ok`` when every dimension scored).

    Args:
        store: The sample's store.
        method: The method's name.
        dimensions: The dimensions asked for.
        scores: The predicted score per dimension (a missing one is left out).
        model_calls: Calls made for this sample.
        tokens: Tokens of those calls.
        answers: The model answers behind the scores.
        panels: Per panel, its members' scores.
        initial_scores: The prediction before discussion (debates).
        rationale: A synthesis or explanation.
        aggregate: How answers were combined.
        error: Why scores are missing, when known.
        failure: Why, as a reason code (default: the most frequent of the failed answers').
    """
    names = [d.name for d in dimensions]
    kept = {name: float(scores[name]) for name in names if name in scores}
    missing = [name for name in names if name not in kept]
    ok = not missing and error is None
    if not ok and error is None:
        failed = [a.error for a in answers if a.error]
        error = "; ".join(dict.fromkeys(failed)) or f"no score for {', '.join(missing)}"
    Prediction.detached(
        method=method,
        score=kept.get("overall"),
        scores=kept,
        parse_ok=ok,
        error=None if ok else error,
        rationale=rationale,
        answers=list(answers),
        aggregate=aggregate,
        model_calls=model_calls,
        tokens=tokens,
        panels=dict(panels or {}),
        initial_scores=dict(initial_scores or {}),
        failure=None if ok else (failure or main_failure(a.failure for a in answers)),
    ).write_to(store)
