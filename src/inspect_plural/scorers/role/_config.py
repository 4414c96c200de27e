"""Role-identification metric definitions: the configuration and its named presets.

:class:`RoleMetricConfig` spells out every choice a role metric makes (top-k ties, rank
ties, ECE bins, Brier normalisation, what a parse failure counts as, official parsing);
:data:`ROLE_PRESETS` names the package's default and PersonaEval's official definitions;
:func:`resolve_role_config` applies explicit overrides to a preset.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from inspect_plural.scorers._calibration import RankMethod, TieBreak

__all__ = ["Failures", "ROLE_PRESETS", "RoleMetricConfig", "resolve_role_config"]

Failures = Literal["uniform", "drop"]


class RoleMetricConfig(BaseModel):
    """Explicit metric definitions; a preset is a named instance of this.

    Attributes:
        tie_break: Top-k tie handling.
        rank_method: Rank tie handling.
        n_bins: ECE bins.
        brier_normalize: ``sum`` (scikit-learn) or ``mean_over_classes`` (PersonaEval).
        failures: ``uniform`` (score a failure as the uniform distribution) or ``drop``.
        official_parsing: Accept only what the official parser accepts: a JSON object
            whose probabilities sum to 1 (no text or ranked reading, no renormalisation);
            any other answer is a failure.

    """

    model_config = ConfigDict(frozen=True)

    tie_break: TieBreak = "strict"
    rank_method: RankMethod = "average"
    n_bins: int = 15
    brier_normalize: Literal["sum", "mean_over_classes"] = "sum"
    failures: Failures = "uniform"
    official_parsing: bool = False


ROLE_PRESETS: dict[str, RoleMetricConfig] = {
    "default": RoleMetricConfig(),
    "personaeval": RoleMetricConfig(
        tie_break="personaeval",
        rank_method="personaeval",
        n_bins=20,
        brier_normalize="mean_over_classes",
        failures="drop",
        official_parsing=True,
    ),
}
"""Named metric definitions (``-T metrics_preset=NAME``)."""


def resolve_role_config(
    preset: str,
    tie_break: TieBreak | None = None,
    rank_method: RankMethod | None = None,
    n_bins: int | None = None,
    brier_normalize: Literal["sum", "mean_over_classes"] | None = None,
    failures: Failures | None = None,
) -> RoleMetricConfig:
    """A preset with any explicitly given definitions overriding it."""
    if preset not in ROLE_PRESETS:
        raise ValueError(f"unknown metrics preset {preset!r}; one of {list(ROLE_PRESETS)}")
    overrides = {
        "tie_break": tie_break,
        "rank_method": rank_method,
        "n_bins": n_bins,
        "brier_normalize": brier_normalize,
        "failures": failures,
    }
    return ROLE_PRESETS[preset].model_copy(
        update={k: v for k, v in overrides.items() if v is not None}
    )
