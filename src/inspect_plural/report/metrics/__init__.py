"""Per-log metric estimates: each log's metrics recomputed from its per-sample values.

``_estimates`` recomputes a log's metrics with bootstrap intervals (:func:`log_metrics`);
``_base`` holds what every family shares (the cell, the checks against the log),
``_annotator``, ``_ratings``, ``_personal`` and ``_generic`` each family's definitions,
and ``_statistics`` the corpus statistics they recompute on bootstrap resamples.
"""

from inspect_plural.report.metrics._annotator import (
    DistributionRows,
    annotator_accuracy,
    class_cells,
    class_f1,
    distribution_rows,
    trait_accuracy,
    trait_cells,
)
from inspect_plural.report.metrics._base import (
    MetricValue,
    column,
)
from inspect_plural.report.metrics._estimates import (
    HEADLINE,
    INTERVALS,
    log_metrics,
)
from inspect_plural.report.metrics._generic import (
    REP_PREFIX,
    STEERED_PREFIX,
)
from inspect_plural.report.metrics._personal import (
    ShuffleSpread,
    shuffle_spread,
)
from inspect_plural.report.metrics._ratings import (
    absolute,
    rating_dimensions,
    rating_groups,
)
from inspect_plural.report.metrics._statistics import (
    class_f1_statistic,
    ece_statistic,
    group_macro_f1,
    kendall,
    macro_f1_statistic,
    mean_of_group_means,
    pearson,
    spearman,
)
from inspect_plural.report.metrics._uniform import (
    CHANCE_MODEL,
    UNIFORM_PREFIX,
    uniform_item_values,
    wants_uniform,
)

__all__ = [
    "CHANCE_MODEL",
    "HEADLINE",
    "INTERVALS",
    "REP_PREFIX",
    "STEERED_PREFIX",
    "UNIFORM_PREFIX",
    "DistributionRows",
    "MetricValue",
    "ShuffleSpread",
    "absolute",
    "annotator_accuracy",
    "class_cells",
    "class_f1",
    "class_f1_statistic",
    "column",
    "distribution_rows",
    "ece_statistic",
    "group_macro_f1",
    "kendall",
    "log_metrics",
    "macro_f1_statistic",
    "mean_of_group_means",
    "pearson",
    "rating_dimensions",
    "rating_groups",
    "shuffle_spread",
    "spearman",
    "trait_accuracy",
    "trait_cells",
    "uniform_item_values",
    "wants_uniform",
]
