"""Per-sample scorers and corpus metrics."""

from inspect_plural.scorers._calibration import (
    brier,
    expected_calibration_error,
    gold_rank,
    top_k_correct,
)
from inspect_plural.scorers.role import (
    ROLE_PRESETS,
    RoleMetricConfig,
    brier_score,
    ece,
    failed_answers,
    mean_rank,
    parse_failures,
    resolve_role_config,
    role_metrics,
    role_scorer,
    top1,
    top2,
)

__all__ = [
    "ROLE_PRESETS",
    "RoleMetricConfig",
    "brier",
    "brier_score",
    "ece",
    "failed_answers",
    "expected_calibration_error",
    "gold_rank",
    "mean_rank",
    "parse_failures",
    "resolve_role_config",
    "role_metrics",
    "role_scorer",
    "top1",
    "top2",
    "top_k_correct",
]
