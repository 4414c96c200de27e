"""What a method cost: model calls and tokens per sample, a headline metric of every task.

Every scorer of the package writes ``model_calls`` and ``tokens`` into each sample's
``Score.value`` (:func:`cost_values`), and every task logs :func:`cost`'s two means. A
sample whose persona or panel build failed (a sample error, scored under
``--score-on-error``) also gets ``build_failed: 1`` (the Prediction's
:data:`~inspect_plural.prediction.BUILD_FAILED` flag), and :func:`cost` then reports
``build_failures``, the number of such samples (absent when there is none).
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural._inspect_private import sample_total_tokens
from inspect_plural.prediction import BUILD_FAILED, Prediction
from inspect_plural.scorers._values import values_of

__all__ = ["BUILD_FAILED_KEY", "CALLS_KEY", "TOKENS_KEY", "cost", "cost_values"]

CALLS_KEY = "model_calls"
"""Per-sample score key: the model calls the method made for the sample."""

TOKENS_KEY = "tokens"
"""Per-sample score key: input plus output tokens of those calls."""

BUILD_FAILED_KEY = BUILD_FAILED
"""Per-sample score key, present (1.0) only when the sample's persona or panel build failed."""


def cost_values(prediction: Prediction) -> dict[str, float]:
    """A sample's calls and tokens, for its score value.

    Tokens are the method's own count when it kept one, else the tokens Inspect counted
    for the sample so far (every model call of the sample, persona work included).

    Args:
        prediction: The method's prediction.

    Returns:
        ``{"model_calls": ..., "tokens": ...}``, and ``build_failed: 1.0`` when the
        method's shared build failed for the sample.
    """
    tokens = prediction.tokens
    if not tokens and prediction.model_calls:
        try:
            tokens = sample_total_tokens()
        except LookupError:  # outside a sample (a unit test, a re-score)
            tokens = 0
    values = {CALLS_KEY: float(prediction.model_calls), TOKENS_KEY: float(tokens)}
    if BUILD_FAILED in prediction.flags:
        values[BUILD_FAILED_KEY] = 1.0
    return values


def _mean(scores: list[SampleScore], key: str) -> float:
    values = [float(value[key]) for s in scores if key in (value := values_of(s.score))]
    return math.fsum(values) / len(values) if values else math.nan


@metric
def cost() -> Metric:
    """Model calls and tokens per sample (means over samples).

    Returns:
        The metric: ``calls_per_sample`` and ``tokens_per_sample``; and
        ``build_failures``, the samples whose persona or panel build failed, when any did.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = {
            "calls_per_sample": _mean(scores, CALLS_KEY),
            "tokens_per_sample": _mean(scores, TOKENS_KEY),
        }
        failed = sum(1 for s in scores if BUILD_FAILED_KEY in values_of(s.score))
        if failed:
            values["build_failures"] = float(failed)
        return values

    return compute
