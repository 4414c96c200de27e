"""G-Eval's prompt and how its answers become scores: sampled means and logprob weighting.

The logprob reading is strict about what counts as the answer's score (issue 24): the
answer must *open* with a score from 1 to 5 (:func:`~inspect_plural.rating_parsing.
parse_bare_score`), and the weighting reads the top log-probabilities at the emitted
token that is that score. An answer that holds no score ("The generated summary is
judged") is a failure, whatever digits appear among the top tokens of its first token.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from inspect_ai.model import ChatMessage, ChatMessageUser, Logprob, Logprobs

from inspect_plural.answer_format import NumberFormat, declare_answer_format
from inspect_plural.prompts import example_key, example_score, load_template
from inspect_plural.rating_parsing import parse_bare_score
from inspect_plural.records import RatedSampleMetadata, RatingDimension
from inspect_plural.solvers._ratings import SCORE_HIGH, SCORE_LOW, render_dimensions, render_rated

__all__ = [
    "GEVAL",
    "GEVAL_FIELDS",
    "GEVAL_REQUIRED",
    "MIN_PROBABILITY",
    "LogprobReading",
    "geval_example",
    "geval_message",
    "geval_prompt",
    "read_logprob_score",
    "sample_mean_score",
    "weighted_score",
]

GEVAL = "geval.txt"
GEVAL_FIELDS = {
    "task_description",
    "criterion",
    "title",
    "rated",
    "content_label",
    "context_label",
    "example",
}
GEVAL_REQUIRED = {"criterion", "title", "rated"}

MIN_PROBABILITY = 0.01
"""Score tokens less likely than this are dropped from the weighting (DeepEval)."""


def _criterion(dimension: RatingDimension, dimensions: Sequence[RatingDimension]) -> str:
    """The dimension's criterion; ``overall`` also lists the dimensions it sums up."""
    text = f"{dimension.title}: {dimension.description}"
    others = [d for d in dimensions if d.name != dimension.name]
    if dimension.name == "overall" and others:
        text += "\n\nThe overall score should reflect all of these dimensions:\n"
        text += render_dimensions(others)
    return text


def geval_prompt(
    metadata: RatedSampleMetadata, dimension: RatingDimension, prompts: str | None = None
) -> str:
    """The form-filling prompt of one dimension.

    Args:
        metadata: The sample's metadata.
        dimension: The dimension to score.
        prompts: Folder of replacement prompt templates.

    Returns:
        The prompt text.
    """
    template = load_template(GEVAL, GEVAL_FIELDS, GEVAL_REQUIRED, prompts)
    return template.format(
        example=geval_example(metadata, dimension),
        task_description=metadata.task_description.strip(),
        criterion=_criterion(dimension, metadata.dimensions),
        title=dimension.title,
        rated=render_rated(metadata),
        content_label=metadata.content_label,
        context_label=metadata.context_label,
    )


def geval_example(metadata: RatedSampleMetadata, dimension: RatingDimension) -> int:
    """The example score the prompt shows, drawn for the sample and dimension.

    A copy of it is then a chance-level score (:mod:`inspect_plural.prompts._examples`).

    Args:
        metadata: The sample's metadata.
        dimension: The dimension scored.

    Returns:
        The score.
    """
    return example_score(SCORE_LOW, SCORE_HIGH, example_key(metadata, dimension.name))


def geval_message(prompt: str, example: int | None = None) -> ChatMessage:
    """A fresh prompt message declaring the bare-score answer format.

    Args:
        prompt: The prompt text.
        example: The example score the prompt shows.

    Returns:
        The user message.
    """
    declared = NumberFormat(
        low=SCORE_LOW,
        high=SCORE_HIGH,
        example=None if example is None else str(example),
        example_is_answer=True,
    )
    return declare_answer_format(ChatMessageUser(content=prompt), declared)


def _score_value(token: str, low: int, high: int) -> int | None:
    """The integer a token stands for when it is a score from low to high (spaces stripped)."""
    text = token.strip()
    if not text.isdecimal() or not text.isascii():
        return None
    try:
        value = int(text)
    except ValueError:  # more digits than Python converts (4,300): no score
        return None
    return value if low <= value <= high else None


def weighted_score(
    top: Sequence[tuple[str, float]],
    low: int = SCORE_LOW,
    high: int = SCORE_HIGH,
    min_probability: float = MIN_PROBABILITY,
) -> tuple[float | None, dict[int, float]]:
    """The probability-weighted score over the top tokens at the score position.

    Tokens that are not an integer from ``low`` to ``high`` once stripped of spaces are
    dropped, as are tokens with probability below ``min_probability``; tokens of the
    same integer (``"4"`` and ``" 4"``) are merged. The probabilities are not assumed to
    sum to 1: the score is Σ v·p / Σ p over what is kept.

    Args:
        top: (token, probability) pairs.
        low: The lowest score.
        high: The highest score.
        min_probability: The probability below which a token is dropped.

    Returns:
        The score (None when no token qualifies) and the merged probability per value.

    Examples:
        >>> top = [("3", 0.5), ("4", 0.3), (" 4", 0.1), ("x", 0.05), ("5", 0.005)]
        >>> round(weighted_score(top)[0], 4)  # (0.5 * 3 + 0.4 * 4) / 0.9
        3.4444
    """
    merged: dict[int, float] = {}
    for token, probability in top:
        value = _score_value(token, low, high)
        if value is None or probability < min_probability:
            continue
        merged[value] = merged.get(value, 0.0) + probability
    total = sum(merged.values())
    if total <= 0:
        return None, merged
    score = sum(v * p for v, p in merged.items()) / total
    return min(max(score, float(low)), float(high)), merged  # rounding stays in the scale


def sample_mean_score(
    texts: Sequence[str], official: bool = False, low: int = SCORE_LOW, high: int = SCORE_HIGH
) -> tuple[float | None, list[float | None]]:
    """The mean score of sampled form-filling answers.

    Args:
        texts: The samples' texts.
        official: Count an unparsed sample as 0 (the official code) instead of
            excluding it.
        low: The lowest score.
        high: The highest score.

    Returns:
        The score (None when nothing could be averaged) and each sample's parsed score.

    Examples:
        >>> sample_mean_score(["3", "4", "x"])[0]
        3.5
    """
    parsed = [parse_bare_score(text, low, high) for text in texts]
    if official:
        values = [0.0 if value is None else value for value in parsed]
    else:
        values = [value for value in parsed if value is not None]
    if not values:
        return None, parsed
    return sum(values) / len(values), parsed


@dataclass
class LogprobReading:
    """The score of one logprob call.

    Attributes:
        score: The weighted score, or the written one (None: the answer holds no score).
        top: The (token, probability) pairs at the emitted score token.
        merged: The probability per score value the weighting kept.
        raw_fallback: True when no top token was a score and the written score is used.
        error: Why there is no score.

    """

    score: float | None
    top: list[tuple[str, float]] = field(default_factory=list)
    merged: dict[int, float] = field(default_factory=dict)
    raw_fallback: bool = False
    error: str | None = None


def _score_token(logprobs: Logprobs, low: int, high: int) -> Logprob | None:
    """The first emitted token that is a score, if any."""
    return next((t for t in logprobs.content if _score_value(t.token, low, high) is not None), None)


def read_logprob_score(
    completion: str,
    logprobs: Logprobs,
    low: int = SCORE_LOW,
    high: int = SCORE_HIGH,
    min_probability: float = MIN_PROBABILITY,
) -> LogprobReading:
    """The logprob-weighted score of an answer whose emitted score token is known.

    The answer must open with a score from ``low`` to ``high`` (otherwise the reading
    fails, so digits among the top tokens of a word are never a score). The weighting
    (:func:`weighted_score`) reads the top log-probabilities at the first emitted token
    that is a score; when that token is not a whole score token (``" 3."`` as one
    token) or none of its top tokens qualifies, the written score is used
    (``raw_fallback``).

    Args:
        completion: The answer's text.
        logprobs: The answer's token log-probabilities.
        low: The lowest score.
        high: The highest score.
        min_probability: The probability below which a top token is dropped.

    Returns:
        The reading.
    """
    written = parse_bare_score(completion, low, high)
    if written is None:
        return LogprobReading(
            score=None,
            error=f"the answer {completion[:60]!r} does not start with a score from "
            f"{low} to {high}",
        )
    token = _score_token(logprobs, low, high)
    if token is None:
        return LogprobReading(score=written, raw_fallback=True)
    top = [(t.token, math.exp(t.logprob)) for t in token.top_logprobs or []]
    if not top:  # only the emitted token's own logprob came back
        top = [(token.token, math.exp(token.logprob))]
    score, merged = weighted_score(top, low, high, min_probability)
    if score is None:
        return LogprobReading(score=written, top=top, merged=merged, raw_fallback=True)
    return LogprobReading(score=score, top=top, merged=merged)
