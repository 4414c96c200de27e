"""Scorer and corpus metrics for role identification (PersonaEval).

``_config`` holds the metric definitions and presets, ``_values`` an answer's
per-sample values, ``_metrics`` the corpus metrics and ``_scorer`` the scorer.
"""

from inspect_plural.scorers.role._config import (
    ROLE_PRESETS,
    RoleMetricConfig,
    resolve_role_config,
)
from inspect_plural.scorers.role._metrics import (
    brier_score,
    distribution_metrics,
    ece,
    failed_answers,
    mean_rank,
    parse_failures,
    role_metrics,
    top1,
    top2,
)
from inspect_plural.scorers.role._scorer import (
    role_mean,
    role_scorer,
)
from inspect_plural.scorers.role._values import (
    score_distribution,
)

__all__ = [
    "ROLE_PRESETS",
    "RoleMetricConfig",
    "brier_score",
    "distribution_metrics",
    "ece",
    "failed_answers",
    "mean_rank",
    "parse_failures",
    "resolve_role_config",
    "role_mean",
    "role_metrics",
    "role_scorer",
    "score_distribution",
    "top1",
    "top2",
]
