"""Scorer and corpus metrics of annotator-level tasks (CINEMETRIC, PersEval).

``_scorer`` is the scorer and its presets, ``_metrics`` the corpus metrics computed from
the per-sample values.
"""

from inspect_plural.scorers.perspective._metrics import (
    PERSPECTIVE_PRESETS,
    TRAIT_KEY,
    PerspectiveMetricConfig,
    accuracy,
    accuracy_by_trait,
    annotator_macro_f1,
    calibration_metrics,
    macro_f1,
    mae,
    perspective_metrics,
    prf_annotator,
    prf_global,
    prf_text,
    prf_trait,
    resolve_perspective_config,
    text_macro_f1,
    trait_macro_f1,
    within_one,
)
from inspect_plural.scorers.perspective._scorer import (
    annotator_scorer,
    modal_row,
    run_mean,
)

__all__ = [
    "PERSPECTIVE_PRESETS",
    "TRAIT_KEY",
    "PerspectiveMetricConfig",
    "accuracy",
    "accuracy_by_trait",
    "annotator_macro_f1",
    "annotator_scorer",
    "calibration_metrics",
    "macro_f1",
    "mae",
    "modal_row",
    "perspective_metrics",
    "prf_annotator",
    "prf_global",
    "prf_text",
    "prf_trait",
    "resolve_perspective_config",
    "run_mean",
    "text_macro_f1",
    "trait_macro_f1",
    "within_one",
]
