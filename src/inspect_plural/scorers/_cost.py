"""What a method cost: model calls and tokens per sample, a headline metric of every task.

Every scorer of the package writes ``model_calls`` and ``tokens`` into each sample's
``Score.value`` (:func:`cost_values`), and every task logs :func:`cost`'s two means.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural._inspect_private import sample_total_tokens
from inspect_plural.prediction import Prediction
from inspect_plural.scorers._values import values_of

__all__ = ["CALLS_KEY", "TOKENS_KEY", "cost", "cost_values"]

CALLS_KEY = "model_calls"
"""Per-sample score key: the model calls the method made for the sample."""

TOKENS_KEY = "tokens"
"""Per-sample score key: input plus output tokens of those calls."""


def cost_values(prediction: Prediction) -> dict[str, float]:
    """A sample's calls and tokens, for its score value.

    Tokens are the method's own count when it kept one, else the tokens Inspect counted
    for the sample so far (every model call of the sample, persona work included).

    Args:
        prediction: The method's prediction.

    Returns:
        ``{"model_calls": ..., "tokens": ...}``.
    """
    tokens = prediction.tokens
    if not tokens and prediction.model_calls:
        try:
            tokens = sample_total_tokens()
        except LookupError:  # outside a sample (a unit test, a re-score)
            tokens = 0
    return {CALLS_KEY: float(prediction.model_calls), TOKENS_KEY: float(tokens)}


def _mean(scores: list[SampleScore], key: str) -> float:
    values = [float(value[key]) for s in scores if key in (value := values_of(s.score))]
    return math.fsum(values) / len(values) if values else math.nan


@metric
def cost() -> Metric:
    """Model calls and tokens per sample (means over samples).

    Returns:
        The metric: ``calls_per_sample`` and ``tokens_per_sample``.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {
            "calls_per_sample": _mean(scores, CALLS_KEY),
            "tokens_per_sample": _mean(scores, TOKENS_KEY),
        }

    return compute
