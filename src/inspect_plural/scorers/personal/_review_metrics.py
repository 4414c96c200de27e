"""Corpus metrics of Per-MPST scores: pooled correlations, accuracy, MAE, review overlap.

Pooled over every (story, reviewer) row, as the official ``get_score.py`` computes them:
Pearson, Spearman, Kendall tau-b (scipy), exact-match ``accuracy`` and ``mae``.

- **Failures.** ``midpoint`` (default) keeps a row without a score, predicting the middle
  of the scale (5.5) for the correlations, counting it wrong for accuracy, and giving
  it the error of a uniformly random score for the MAE (:func:`chance_abs_error`; the
  midpoint's own error would beat chance: a failure never does); ``drop``
  (``metrics_preset=perse``) leaves it out, as the official code does.
- **Accuracy.** ``rounded`` (default): the prediction rounded half up equals the gold
  score (a mean of prior scores, 6.67, counts as 7); ``raw`` (``metrics_preset=perse``):
  the prediction itself equals it, as ``get_score.py`` compares them (6.67 never matches).
  The model's own answers are integers, so the two differ only for the baselines and
  for predictions averaged over epochs.
- **Shuffles** (``-T shuffle_reviews=N``): each sample's score keeps each shuffle's
  prediction as ``shuffle{e}/pred`` (e = the epoch); the correlations of each shuffle
  are computed as above, and their mean and sample standard deviation (ddof = 1) are
  ``{coef}_shuffle_mean`` and ``{coef}_shuffle_std``, the line and shadow of PERSE's
  Figure 4. ``pearson`` etc. themselves are pooled over the epoch-mean predictions, as
  Inspect reduces epochs.

``metrics=headline`` (default) keeps the paper's numbers; ``full`` adds the rest
(:data:`REVIEW_FULL_ONLY`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any, Literal, cast

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.scorers._correlation import COEFFICIENTS, correlations
from inspect_plural.scorers._values import values_of

__all__ = [
    "REVIEW_ACCURACY",
    "REVIEW_FULL_ONLY",
    "SHUFFLE_PRED",
    "chance_abs_error",
    "ReviewAccuracy",
    "ReviewFailures",
    "review_metrics",
    "review_summary",
    "sample_values",
    "shuffle_key",
]

ReviewFailures = Literal["midpoint", "drop"]
ReviewAccuracy = Literal["rounded", "raw"]

REVIEW_ACCURACY: dict[str, ReviewAccuracy] = {"default": "rounded", "perse": "raw"}
"""``metrics_preset`` -> the exact-match rule of Per-MPST ``accuracy``."""

SHUFFLE_PRED = re.compile(r"^shuffle(\d+)/pred$")
"""Per-sample score key of one shuffle's prediction."""

REVIEW_FULL_ONLY = re.compile(
    r"^(accuracy_rounded|accuracy_raw|cold_start|(pearson|spearman|kendall)_shuffle\d+)$"
)
"""Keys logged only under ``metrics=full`` (``cold_start`` also under ``headline``
when some row is a cold start)."""


def shuffle_key(epoch: int) -> str:
    """The per-sample score key of the prediction made under one shuffle (epoch)."""
    return f"shuffle{epoch}/pred"


def sample_values(scores: list[SampleScore]) -> Iterator[tuple[dict[str, float], dict[str, Any]]]:
    """Every number of each dict-valued sample score, with its sample's metadata."""
    for sample_score in scores:
        if isinstance(sample_score.score.value, dict):
            yield values_of(sample_score.score), dict(sample_score.sample_metadata or {})


def chance_abs_error(gold: float, low: float, high: float) -> float:
    """The expected absolute error of a score drawn uniformly from ``low..high`` (integers).

    On a 1-10 scale a gold of 7 gives (6+5+4+3+2+1+0+1+2+3)/10 = 2.7, more than the
    midpoint's 1.5.

    Args:
        gold: The gold score.
        low: Lowest score of the scale.
        high: Highest score of the scale.

    Returns:
        The mean of ``|s - gold|`` over the scale's integer scores.
    """
    scores = np.arange(math.ceil(low), math.floor(high) + 1, dtype=float)
    return float(np.mean(np.abs(scores - gold)))


def _raw_exact(value: dict[str, float]) -> float:
    if "exact_raw" in value:
        return float(value["exact_raw"])
    return float(float(value["pred"]) == float(value["gold"]))


def _pooled(preds: list[float], golds: list[float]) -> dict[str, float]:
    result = correlations(preds, golds, mode="pooled")
    report: dict[str, float] = {name: result.coefficient(name) for name in COEFFICIENTS}
    for name in COEFFICIENTS:
        if name in result.reasons:
            report[f"{name}_undefined"] = 1.0
    return report


def _shuffles(
    rows: list[dict[str, float]], epochs: list[int], failures: ReviewFailures, middle: float
) -> dict[str, float]:
    """Each shuffle's correlations, and their mean and sample standard deviation."""
    per: dict[str, list[float]] = {name: [] for name in COEFFICIENTS}
    report: dict[str, float] = {}
    for epoch in epochs:
        key = shuffle_key(epoch)
        preds: list[float] = []
        golds: list[float] = []
        for value in rows:
            if key in value:
                preds.append(float(value[key]))
            elif failures == "midpoint":
                preds.append(middle)
            else:
                continue
            golds.append(float(value["gold"]))
        result = correlations(preds, golds, mode="pooled")
        for name in COEFFICIENTS:
            value_of_shuffle = result.coefficient(name)
            per[name].append(value_of_shuffle)
            report[f"{name}_shuffle{epoch}"] = value_of_shuffle
    for coefficient, values in per.items():
        report[f"{coefficient}_shuffle_mean"] = float(np.mean(values))
        spread = float(np.std(values, ddof=1)) if len(values) > 1 else math.nan
        report[f"{coefficient}_shuffle_std"] = spread
    return report


def review_summary(
    scores: list[SampleScore],
    failures: ReviewFailures = "midpoint",
    low: float = 1,
    high: float = 10,
    accuracy: ReviewAccuracy = "rounded",
    shuffles: int = 0,
) -> dict[str, float]:
    """Every pooled Per-MPST metric of a list of sample scores (``metrics=full``).

    Args:
        scores: The ``review_scorer`` scores.
        failures: ``midpoint`` or ``drop`` (module docstring).
        low: Lowest score of the scale.
        high: Highest score of the scale.
        accuracy: ``rounded`` or ``raw``: the rule behind ``accuracy`` (module docstring).
        shuffles: The number of review-order shuffles (epochs) of the run; 0: every
            epoch up to the last found in the scores' ``shuffle{e}/pred`` keys (so
            ``--epochs`` overriding the task's count is followed).

    Returns:
        ``pearson``, ``spearman``, ``kendall`` (with ``{coef}_undefined = 1`` when NaN),
        ``accuracy``, ``accuracy_rounded``, ``accuracy_raw``, ``mae``, ``n`` (rows behind
        them), ``cold_start`` (rows), ``review_rouge1`` and ``review_bleu`` (means over
        the rows with a written review) and, with shuffles, ``{coef}_shuffle{e}``,
        ``{coef}_shuffle_mean`` and ``{coef}_shuffle_std``.
    """
    if failures not in ("midpoint", "drop"):
        raise ValueError(f"failures must be midpoint or drop, not {failures!r}")
    if accuracy not in ("rounded", "raw"):
        raise ValueError(f"accuracy must be rounded or raw, not {accuracy!r}")
    middle = (low + high) / 2
    preds: list[float] = []
    golds: list[float] = []
    errors: list[float] = []
    rounded: list[float] = []
    raw: list[float] = []
    overlap: dict[str, list[float]] = {"review_rouge1": [], "review_bleu": []}
    rows: list[dict[str, float]] = []
    epochs: set[int] = set(range(1, shuffles + 1))
    cold = 0.0
    for value, _ in sample_values(scores):
        if "gold" not in value:
            continue
        rows.append(value)
        cold += value.get("cold_start", 0.0)
        if shuffles == 0:
            epochs.update(int(m.group(1)) for key in value if (m := SHUFFLE_PRED.match(key)))
        for key, values in overlap.items():
            if key in value:
                values.append(float(value[key]))
        gold = float(value["gold"])
        if "pred" in value:
            preds.append(float(value["pred"]))
            errors.append(abs(float(value["pred"]) - gold))
            rounded.append(float(value.get("exact", 0.0)))
            raw.append(_raw_exact(value))
        elif failures == "midpoint":
            preds.append(middle)
            errors.append(chance_abs_error(gold, low, high))
            rounded.append(0.0)
            raw.append(0.0)
        else:
            continue
        golds.append(gold)
    report = _pooled(preds, golds)
    report.update(
        {
            "accuracy": float(np.mean(rounded if accuracy == "rounded" else raw))
            if preds
            else math.nan,
            "accuracy_rounded": float(np.mean(rounded)) if preds else math.nan,
            "accuracy_raw": float(np.mean(raw)) if preds else math.nan,
            "mae": float(np.mean(errors)) if preds else math.nan,
            "n": float(len(preds)),
            "cold_start": cold,
        }
    )
    for key, values in overlap.items():
        if values:
            report[key] = float(np.mean(values))
    if epochs and shuffles == 0:  # every epoch up to the last one seen
        epochs = set(range(1, max(epochs) + 1))
    if epochs:
        report.update(_shuffles(rows, sorted(epochs), failures, middle))
    return report


def _headline(report: dict[str, float]) -> dict[str, float]:
    return {
        key: value
        for key, value in report.items()
        if not REVIEW_FULL_ONLY.match(key) or (key == "cold_start" and value > 0)
    }


@metric
def review_metrics(
    failures: str = "midpoint",
    low: float = 1.0,
    high: float = 10.0,
    accuracy: str = "rounded",
    level: str = "headline",
    shuffles: int = 0,
) -> Metric:
    """Pooled correlations, exact-match accuracy, MAE and review overlap of Per-MPST.

    Args:
        failures: ``midpoint`` (a row without a score predicts the scale's middle and is
            wrong for accuracy) or ``drop`` (left out, as the official code does).
        low: Lowest score of the scale.
        high: Highest score of the scale.
        accuracy: ``rounded`` (half up, the default) or ``raw`` (the official script's).
        level: ``headline`` (the paper's numbers) or ``full`` (every key of
            :func:`review_summary`).
        shuffles: Review-order shuffles of the run (0: found in the scores; the tasks
            pass 0 so that ``--epochs`` overriding their count is followed).

    Returns:
        The metric.
    """
    if level not in ("headline", "full"):
        raise ValueError(f"level must be headline or full, not {level!r}")
    mode = cast(ReviewFailures, failures)
    rule = cast(ReviewAccuracy, accuracy)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        report = review_summary(scores, mode, low, high, rule, int(shuffles))
        return report if level == "full" else _headline(report)

    return compute
