"""Why answers failed, per sample and per run: counts by failure reason.

Every scorer writes, beside ``parse_ok``, ``n_answers`` and ``failed_answers``, one
number per reason its sample's failed answers had: ``failed/<reason>`` (``failed/echo``,
``failed/copied_example``, ``failed/hedge``, ``failed/truncated``, ...; see
:data:`inspect_plural.parsing.FailureReason`), present only for reasons that occurred,
and, on a failed sample, the prediction's own reason as ``Score.metadata["failure"]``.
:func:`failure_reasons` sums them over the run (a metric group: ``failed/<reason>``
per reason that occurred, and ``failed/any``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.parsing import FAILURE_REASONS, FailureReason
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.scorers._values import values_of

__all__ = ["FAILED_PREFIX", "answer_failures", "failure_reasons", "failure_values"]

FAILED_PREFIX = "failed/"
"""Prefix of the per-reason counts: ``failed/<reason>``."""


def failure_values(reasons: Iterable[FailureReason | str | None]) -> dict[str, float]:
    """A sample's failed answers counted by reason (only the reasons that occurred).

    Args:
        reasons: The failure reason of each failed answer (None: a failure recorded
            before reasons were, counted as ``no_answer``).

    Returns:
        ``failed/<reason>`` -> count.
    """
    counts = Counter(reason or "no_answer" for reason in reasons)
    return {FAILED_PREFIX + r: float(counts[r]) for r in FAILURE_REASONS if counts[r]}


def answer_failures(
    prediction: Prediction, answers: Iterable[ModelAnswer] = ()
) -> list[FailureReason]:
    """The failure reasons of a prediction's failed answers (and of further answers).

    A prediction that failed before any answer (``no_panel``) counts its own reason once.

    Args:
        prediction: The sample's prediction.
        answers: Answers behind it kept elsewhere (per-annotator runs, steered answers).

    Returns:
        One reason per failed answer.
    """
    every = [*prediction.answers, *answers]
    reasons: list[FailureReason] = [a.failure or "no_answer" for a in every if not a.parse_ok]
    if not reasons and not prediction.parse_ok and prediction.failure is not None:
        reasons = [prediction.failure]
    return reasons


@metric
def failure_reasons() -> Metric:
    """Failed answers over the run by reason: ``failed/<reason>`` and ``failed/any``."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        totals: dict[str, float] = {}
        for sample in scores:
            if not isinstance(sample.score.value, dict):
                continue
            for key, value in values_of(sample.score).items():
                if key.startswith(FAILED_PREFIX):
                    totals[key] = totals.get(key, 0.0) + float(value)
        result = {FAILED_PREFIX + "any": float(sum(totals.values()))}
        for reason in FAILURE_REASONS:
            if totals.get(FAILED_PREFIX + reason):
                result[FAILED_PREFIX + reason] = totals[FAILED_PREFIX + reason]
        return result

    return compute
