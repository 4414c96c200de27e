"""Scorer and metrics of the distribution target: LeWiDi soft-label and perspectivist scores.

``_lewidi`` holds LeWiDi's metrics as pure functions, ``_representativeness`` group
representativeness (OpinionQA), ``_item_values`` each item's values, ``_metrics`` the
corpus metrics over them and ``_scorer`` the scorer and its presets.
"""

from inspect_plural.scorers.distribution._item_values import (
    DISTRIBUTION_PRESETS,
    REP_KEY,
    REP_STEERED_KEY,
    DistributionConfig,
    decision_label,
    item_values,
    predicted_vector,
)
from inspect_plural.scorers.distribution._lewidi import (
    LEWIDI_METRICS,
    LewidiMetrics,
    NormaliserConvention,
    cross_entropy_2023,
    error_rate,
    hard_label_micro_f1,
    manhattan_distance,
    manhattan_per_item,
    multilabel_error_rate,
    multilabel_manhattan_distance,
    normalized_absolute_distance,
    ordinal_normaliser,
    wasserstein_distance,
    wasserstein_per_item,
)
from inspect_plural.scorers.distribution._metrics import (
    cross_entropy,
    group_representativeness,
    hard_micro_f1,
    headline_representativeness,
    manhattan,
    norm_abs_distance,
    perspectivist_error_rate,
    wasserstein,
)
from inspect_plural.scorers.distribution._representativeness import (
    item_distributions,
    js_representativeness,
    representativeness,
    representativeness_per_item,
    weighted_distribution,
)
from inspect_plural.scorers.distribution._scorer import (
    distribution_metric_names,
    distribution_metrics,
    distribution_scorer,
    shown_keys,
)

__all__ = [
    "DISTRIBUTION_PRESETS",
    "LEWIDI_METRICS",
    "REP_KEY",
    "REP_STEERED_KEY",
    "DistributionConfig",
    "LewidiMetrics",
    "NormaliserConvention",
    "cross_entropy",
    "cross_entropy_2023",
    "decision_label",
    "distribution_metric_names",
    "distribution_metrics",
    "distribution_scorer",
    "error_rate",
    "group_representativeness",
    "hard_label_micro_f1",
    "hard_micro_f1",
    "headline_representativeness",
    "item_distributions",
    "item_values",
    "js_representativeness",
    "manhattan",
    "manhattan_distance",
    "manhattan_per_item",
    "multilabel_error_rate",
    "multilabel_manhattan_distance",
    "norm_abs_distance",
    "normalized_absolute_distance",
    "ordinal_normaliser",
    "perspectivist_error_rate",
    "predicted_vector",
    "representativeness",
    "representativeness_per_item",
    "shown_keys",
    "wasserstein",
    "wasserstein_distance",
    "wasserstein_per_item",
    "weighted_distribution",
]
