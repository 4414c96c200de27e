"""Which corpus metrics a rating task logs: the headline set, every breakdown, or a preset.

- ``metrics="headline"`` (default): Spearman, Kendall tau-b and Pearson per dimension
  (MAJ-Eval's Tables 4 and 5 columns), ``parse_failures``, ``calls_per_sample`` and
  ``tokens_per_sample``: 18 values for the five dimensions of each shipped dataset.
- ``metrics="full"``: also ``{dim}/n`` and the ``_undefined`` flags, the correlations
  before discussion (``initial/...``), per stakeholder group final and initial
  (``group/{g}/...``, ``initial/group/{g}/...``; for MAJ-Eval), Krippendorff's alpha
  within each panel (``alpha/{g}/{phase}``) and cost per panel (``calls/{g}``,
  ``tokens/{g}``).
- ``preset="maj_eval"``: the paper's tables, which report **absolute** Spearman (§4.3)
  of the whole panel and of each stakeholder group, correlated over all rated outputs
  at once (pooled: StorySparkQA has one generated QA pair per story section, so a
  per-item correlation is not defined there). Under ``headline`` the log holds exactly
  those cells (``{dim}/spearman`` and ``group/{g}/{dim}/spearman``, absolute);
  under ``full`` every breakdown as well, all absolute and pooled.

Every breakdown can be recomputed from the per-sample values (``pred/``, ``gold/``,
``pred_initial/``, ``group/``, ``group_initial/``, ``model_calls``, ``tokens``), so the
smaller default loses nothing.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai.scorer import Metric
from pydantic import BaseModel, ConfigDict

from inspect_plural.scorers._correlation import Coefficient, CorrelationMode
from inspect_plural.scorers._cost import cost
from inspect_plural.scorers._failures import failure_reasons
from inspect_plural.scorers.ratings._correlations import (
    check_coefficients,
    check_mode,
    group_correlations,
    initial_correlations,
    rating_correlations,
)
from inspect_plural.scorers.ratings._panels import ALPHA_DIMENSIONS, group_alpha, panel_cost
from inspect_plural.scorers.role import failed_answers, parse_failures

__all__ = [
    "RATING_METRIC_LEVELS",
    "RATING_PRESETS",
    "RatingMetricLevel",
    "RatingPreset",
    "RatingPresetConfig",
    "rating_metrics",
]

RatingMetricLevel = Literal["headline", "full"]
RATING_METRIC_LEVELS: tuple[RatingMetricLevel, ...] = ("headline", "full")

RatingPreset = Literal["default", "maj_eval"]


class RatingPresetConfig(BaseModel):
    """What a metrics preset fixes.

    Attributes:
        correlation: The correlation mode it requires (None: the task option's).
        absolute: Whether it reports absolute values (None: the task option's).
        headline_coefficients: The coefficients of its headline set (None: all three).
        headline_groups: Whether its headline set has per-group correlations.
        table_only: Whether its headline set is only the paper's table cells (no parse
            failures, no cost).
        source: Where its choices come from.
    """

    model_config = ConfigDict(frozen=True)

    correlation: CorrelationMode | None = None
    absolute: bool | None = None
    headline_coefficients: tuple[Coefficient, ...] | None = None
    headline_groups: bool = False
    table_only: bool = False
    source: str = ""


RATING_PRESETS: dict[str, RatingPresetConfig] = {
    "default": RatingPresetConfig(
        source="signed correlations, as every official meta-evaluation code computes them",
    ),
    "maj_eval": RatingPresetConfig(
        correlation="pooled",
        absolute=True,
        headline_coefficients=("spearman",),
        headline_groups=True,
        table_only=True,
        source="MAJ-Eval §4.3 (absolute Spearman), Tables 4-5 and Figure 3 (per group)",
    ),
}
"""The rating tasks' metrics presets (``-T metrics_preset=NAME``)."""


def rating_metrics(
    correlation: str = "pooled",
    absolute: bool = False,
    alpha_level: str = "interval",
    alpha_dimensions: str = "overall",
    dimensions: list[str] | None = None,
    metrics: str = "headline",
    preset: str = "default",
    stakeholder_groups: bool = False,
    coefficients: list[str] | None = None,
) -> list[Metric | dict[str, list[Metric]]]:
    """The corpus metrics of a rating task under one configuration.

    Args:
        correlation: ``pooled`` or ``per_item`` (a preset may fix it).
        absolute: Report absolute correlations (a preset may fix it).
        alpha_level: Krippendorff level (``interval``, ``ordinal``, ``nominal``).
        alpha_dimensions: ``overall`` or ``all``.
        dimensions: The dimensions to correlate (None: every rated one).
        metrics: ``headline`` or ``full``.
        preset: ``default`` or ``maj_eval`` (:data:`RATING_PRESETS`).
        stakeholder_groups: The method's panels are stakeholder groups (MAJ-Eval):
            correlate each group's scores too.
        coefficients: The headline coefficients (None: the preset's, else all three).

    Returns:
        The metrics.

    Raises:
        ValueError: An unknown correlation, level, preset, alpha option or coefficient.
    """
    if metrics not in RATING_METRIC_LEVELS:
        raise ValueError(f"unknown metrics level {metrics!r}; one of {list(RATING_METRIC_LEVELS)}")
    if preset not in RATING_PRESETS:
        raise ValueError(f"unknown metrics preset {preset!r}; one of {list(RATING_PRESETS)}")
    if alpha_dimensions not in ALPHA_DIMENSIONS:
        raise ValueError(f"unknown alpha dimensions {alpha_dimensions!r}; 'overall' or 'all'")
    config = RATING_PRESETS[preset]
    mode = check_mode(config.correlation or correlation)
    signs = config.absolute if config.absolute is not None else absolute
    if metrics == "headline":
        chosen = coefficients or config.headline_coefficients
        headline: list[str] = list(check_coefficients(chosen))
        found: list[Metric | dict[str, list[Metric]]] = [
            rating_correlations(dimensions, mode, signs, headline, False)
        ]
        if config.headline_groups and stakeholder_groups:
            found.append(group_correlations(dimensions, mode, signs, headline, False, "final"))
        if not config.table_only:
            found += [parse_failures(), failed_answers(), failure_reasons(), cost()]
        return found
    full: list[Metric | dict[str, list[Metric]]] = [
        rating_correlations(dimensions, mode, signs, None, True),
        initial_correlations(dimensions, mode, signs, None, True),
    ]
    if stakeholder_groups:
        full += [
            group_correlations(dimensions, mode, signs, None, True, "final"),
            group_correlations(dimensions, mode, signs, None, True, "initial"),
        ]
    full += [group_alpha(alpha_level, alpha_dimensions), parse_failures(), failed_answers()]
    full += [failure_reasons(), cost(), panel_cost()]
    return full
