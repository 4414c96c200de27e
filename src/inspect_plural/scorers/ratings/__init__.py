"""Scorer and corpus metrics for rating tasks (MSLR-Cochrane, StorySparkQA).

One sample is one generated output with human ratings on several dimensions. The code
lives in small modules by concept; this package gathers them:

- per-sample values and how metrics read them: :mod:`._values`;
- the scorer and its epoch reducer (:func:`rating_scorer`, :func:`rating_mean`):
  :mod:`._scorer`;
- correlations of the panel and of each stakeholder group
  (:func:`rating_correlations`, :func:`initial_correlations`,
  :func:`group_correlations`): :mod:`._correlations`;
- agreement and cost per panel (:func:`group_alpha`, :func:`panel_cost`,
  :func:`rating_cost`): :mod:`._panels`;
- which metrics a task logs (headline, full, the ``maj_eval`` preset;
  :func:`rating_metrics`): :mod:`._metrics`;
- undefined values, warned once per key per run: :mod:`inspect_plural.scorers._undefined`.

With ``--epochs``, reduce with :func:`rating_mean` (the rating tasks do): Inspect's
``mean`` refuses dict scores whose keys differ between epochs, which happens as soon as
one epoch fails to score a dimension.
"""

from __future__ import annotations

from inspect_plural.scorers.ratings._correlations import (
    group_correlations,
    initial_correlations,
    rating_correlations,
)
from inspect_plural.scorers.ratings._metrics import (
    RATING_METRIC_LEVELS,
    RATING_PRESETS,
    RatingMetricLevel,
    RatingPreset,
    RatingPresetConfig,
    rating_metrics,
)
from inspect_plural.scorers.ratings._panels import (
    ALPHA_DIMENSIONS,
    OVERALL,
    AlphaDimensions,
    group_alpha,
    panel_cost,
    rating_cost,
)
from inspect_plural.scorers.ratings._scorer import group_initial_scores, rating_mean, rating_scorer

__all__ = [
    "ALPHA_DIMENSIONS",
    "AlphaDimensions",
    "OVERALL",
    "RATING_METRIC_LEVELS",
    "RATING_PRESETS",
    "RatingMetricLevel",
    "RatingPreset",
    "RatingPresetConfig",
    "group_alpha",
    "group_correlations",
    "group_initial_scores",
    "initial_correlations",
    "panel_cost",
    "rating_correlations",
    "rating_cost",
    "rating_mean",
    "rating_metrics",
    "rating_scorer",
]
