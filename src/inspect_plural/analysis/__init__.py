"""Logs to tables: what ran, and flat per-sample and per-run dataframes.

Built on ``inspect_ai.analysis``: :func:`method_of` and :func:`run_configuration` read
what Inspect records about a run; :func:`samples_df` and :func:`results_df` are
Inspect's own frames read with this package's column specs, one numeric column per
score key and per metric (naming: ``docs/analysis.md``).
"""

from inspect_plural.analysis._columns import (
    EVAL_COLUMNS,
    RESULT_COLUMNS,
    SAMPLE_COLUMNS,
    SUMMARY_REMOVED,
    VALUES_KEY,
    label_texts,
    log_metrics,
    sample_ids,
    sample_traits,
    score_numbers,
    score_values,
    thinned,
)
from inspect_plural.analysis._frames import (
    LogSource,
    long_scores,
    results_df,
    samples_df,
    trait_name,
)
from inspect_plural.analysis._identity import (
    PACKAGE_PREFIX,
    is_demo,
    method_args,
    method_of,
    model_roles,
    run_configuration,
    run_key,
)

__all__ = [
    "EVAL_COLUMNS",
    "PACKAGE_PREFIX",
    "RESULT_COLUMNS",
    "SAMPLE_COLUMNS",
    "SUMMARY_REMOVED",
    "VALUES_KEY",
    "LogSource",
    "is_demo",
    "label_texts",
    "log_metrics",
    "long_scores",
    "method_args",
    "method_of",
    "model_roles",
    "results_df",
    "run_configuration",
    "run_key",
    "sample_ids",
    "sample_traits",
    "samples_df",
    "score_numbers",
    "score_values",
    "thinned",
    "trait_name",
]
