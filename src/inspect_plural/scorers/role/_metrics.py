"""Role-identification corpus metrics, recomputed from the stored probabilities.

Each metric reads the per-sample values the role scorer writes (``p_0..p_{K-1}``,
``gold_index``, ``n_options``, ``parse_ok``), groups the samples by number of options
and recomputes top-1, top-2, mean rank, Brier and ECE, so a reported figure always
equals the figure recomputed from the stored distributions. :func:`parse_failures` and
:func:`failed_answers` count unusable answers (other scorers use them too);
:func:`distribution_metrics` and :func:`role_metrics` bundle the metrics under one
:class:`~inspect_plural.scorers.role.RoleMetricConfig`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Literal

import numpy as np
import numpy.typing as npt
from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.scorers._calibration import (
    FloatArray,
    IntArray,
    RankMethod,
    TieBreak,
    brier,
    expected_calibration_error,
    gold_rank,
    top_k_correct,
)
from inspect_plural.scorers._cost import cost
from inspect_plural.scorers._failures import failure_reasons
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.role._config import Failures, RoleMetricConfig

__all__ = [
    "brier_score",
    "distribution_metrics",
    "ece",
    "failed_answers",
    "mean_rank",
    "parse_failures",
    "role_metrics",
    "top1",
    "top2",
]


def _matrices(scores: list[SampleScore], failures: Failures) -> list[tuple[FloatArray, IntArray]]:
    """Probability matrices and gold indices, one pair per number of options."""
    groups: dict[int, tuple[list[list[float]], list[int]]] = defaultdict(lambda: ([], []))
    for sample_score in scores:
        if not isinstance(sample_score.score.value, dict):
            continue
        value = values_of(sample_score.score)
        if failures == "drop" and value.get("parse_ok", 0.0) < 1.0:
            continue  # under --epochs, a sample failing in any epoch counts as failed
        n_options = int(value["n_options"])
        probs, gold = groups[n_options]
        probs.append([float(value[f"p_{i}"]) for i in range(n_options)])
        gold.append(int(value["gold_index"]))
    return [(np.asarray(p, dtype=float), np.asarray(g, dtype=np.int64)) for p, g in groups.values()]


def _mean_over_rows(
    scores: list[SampleScore],
    failures: Failures,
    per_row: Callable[[FloatArray, IntArray], npt.NDArray[np.float64] | npt.NDArray[np.bool_]],
) -> float:
    values = [per_row(p, g) for p, g in _matrices(scores, failures)]
    joined = np.concatenate([np.asarray(v, dtype=float) for v in values]) if values else np.zeros(0)
    return float(joined.mean()) if len(joined) else float("nan")


@metric
def top1(tie_break: TieBreak = "strict", failures: Failures = "uniform") -> Metric:
    """Top-1 accuracy recomputed from the stored probabilities."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean_over_rows(scores, failures, lambda p, g: top_k_correct(p, g, 1, tie_break))

    return compute


@metric
def top2(tie_break: TieBreak = "strict", failures: Failures = "uniform") -> Metric:
    """Top-2 accuracy recomputed from the stored probabilities."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean_over_rows(scores, failures, lambda p, g: top_k_correct(p, g, 2, tie_break))

    return compute


@metric
def mean_rank(method: RankMethod = "average", failures: Failures = "uniform") -> Metric:
    """Mean 1-based rank of the true role (lower is better)."""

    def compute(scores: list[SampleScore]) -> float:
        return _mean_over_rows(scores, failures, lambda p, g: gold_rank(p, g, method))

    return compute


@metric
def brier_score(
    normalize: Literal["sum", "mean_over_classes"] = "sum", failures: Failures = "uniform"
) -> Metric:
    """Multiclass Brier score (scikit-learn), optionally divided by the number of options."""

    def compute(scores: list[SampleScore]) -> float:
        groups = _matrices(scores, failures)
        total = sum(len(g) for _, g in groups)
        if total == 0:
            return float("nan")
        return float(sum(brier(p, g, normalize) * len(g) for p, g in groups) / total)

    return compute


@metric
def ece(n_bins: int = 15, tie_break: TieBreak = "strict", failures: Failures = "uniform") -> Metric:
    """Expected calibration error of the top-1 probability."""

    def compute(scores: list[SampleScore]) -> float:
        groups = _matrices(scores, failures)
        if not groups:
            return float("nan")
        confidence = np.concatenate([p.max(axis=1) for p, _ in groups])
        correct = np.concatenate([top_k_correct(p, g, 1, tie_break) for p, g in groups])
        return expected_calibration_error(confidence, correct, n_bins)

    return compute


@metric
def parse_failures() -> Metric:
    """Number of samples without a usable answer (with epochs: failed in any epoch)."""

    def compute(scores: list[SampleScore]) -> float:
        return float(
            sum(
                1
                for s in scores
                if isinstance(s.score.value, dict) and values_of(s.score).get("parse_ok", 0.0) < 1.0
            )
        )

    return compute


@metric
def failed_answers() -> Metric:
    """Share of all model answers that could not be parsed (self-consistency included)."""

    def compute(scores: list[SampleScore]) -> float:
        values = [values_of(s.score) for s in scores if isinstance(s.score.value, dict)]
        answers = sum(float(v.get("n_answers", 1.0)) for v in values)
        failed = sum(float(v.get("failed_answers", 0.0)) for v in values)
        return failed / answers if answers else float("nan")

    return compute


def distribution_metrics(config: RoleMetricConfig) -> list[Metric]:
    """Top-1, top-2, mean rank, ECE and Brier under one configuration."""
    return [
        top1(config.tie_break, config.failures),
        top2(config.tie_break, config.failures),
        mean_rank(config.rank_method, config.failures),
        ece(config.n_bins, config.tie_break, config.failures),
        brier_score(config.brier_normalize, config.failures),
    ]


def role_metrics(config: RoleMetricConfig) -> list[Metric | dict[str, list[Metric]]]:
    """The corpus metrics of a role scorer under one configuration.

    PersonaEval's numbers (top-1, top-2, mean rank, ECE, Brier), parse failures, the
    share of failed answers, and calls and tokens per sample.
    """
    return [
        *distribution_metrics(config),
        parse_failures(),
        failed_answers(),
        failure_reasons(),
        cost(),
    ]
