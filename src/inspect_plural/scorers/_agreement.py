"""Krippendorff's alpha within a panel (the agreement of a stakeholder group's personas).

Units are samples and coders are the panel's members; a member without a parsed score
for a sample is missing there. The computation is Inspect's own
:func:`inspect_ai.scorer.krippendorff_alpha`, always called with an explicit level
(Inspect defaults to nominal, the ``krippendorff`` package to interval; ours defaults to
interval). On Krippendorff's canonical 4 coders x 12 units matrix it gives nominal
0.743, ordinal 0.815 and interval 0.849.

Undefined alpha is NaN with a reason:

- ``too_few_units``: no unit has 2 or more values;
- ``no_variation``: every value is the same (Inspect returns 1.0 by convention there,
  the ``krippendorff`` package raises; neither is an agreement figure).

Units with fewer than 2 values are skipped (they carry no pairable values) and counted.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, cast

from inspect_ai.scorer import MetricProtocol, SampleScore, Score, krippendorff_alpha

__all__ = [
    "ALPHA_LEVELS",
    "AlphaLevel",
    "AlphaResult",
    "units_alpha",
    "panel_alpha",
]

AlphaLevel = Literal["nominal", "ordinal", "interval"]

ALPHA_LEVELS: tuple[AlphaLevel, ...] = ("nominal", "ordinal", "interval")
"""The levels of measurement Inspect's alpha supports (ratio is not among them)."""


@dataclass(frozen=True)
class AlphaResult:
    """Krippendorff's alpha over a set of units.

    Attributes:
        alpha: The coefficient (NaN when undefined).
        level: The level of measurement used.
        n_units: Units with 2 or more values (the pairable ones).
        n_values: Values in those units.
        skipped_units: Units left out because they have fewer than 2 values.
        reason: Why alpha is NaN (None when it is defined).

    """

    alpha: float
    level: AlphaLevel
    n_units: int
    n_values: int
    skipped_units: int
    reason: str | None = None


def _check_level(level: str) -> AlphaLevel:
    if level not in ALPHA_LEVELS:
        raise ValueError(f"unknown alpha level {level!r}; one of {list(ALPHA_LEVELS)}")
    return level


def units_alpha(
    units: Sequence[Sequence[float | None] | Mapping[str, float | None]],
    level: AlphaLevel = "interval",
) -> AlphaResult:
    """Krippendorff's alpha of units rated by several coders.

    Args:
        units: Per unit, its coders' values, either as a sequence (missing: None or
            NaN) or as coder -> value (absent coders are missing).
        level: ``nominal``, ``ordinal`` or ``interval``.

    Returns:
        The coefficient with its counts, or NaN and a reason.

    Raises:
        ValueError: On an unknown level.

    """
    level = _check_level(level)
    kept: list[list[float]] = []
    skipped = 0
    for unit in units:
        raw = unit.values() if isinstance(unit, Mapping) else unit
        values = [float(v) for v in raw if v is not None and math.isfinite(float(v))]
        if len(values) < 2:
            skipped += 1
        else:
            kept.append(values)
    n_values = sum(len(u) for u in kept)
    if not kept:
        return AlphaResult(float("nan"), level, 0, 0, skipped, "too_few_units")
    if len({v for u in kept for v in u}) < 2:
        return AlphaResult(float("nan"), level, len(kept), n_values, skipped, "no_variation")
    compute = cast(MetricProtocol, krippendorff_alpha(level=level))
    # nominal values go in as category names: the level was chosen explicitly, so
    # Inspect's "numeric data at the nominal level" nudge would only be noise
    rows: list[list[float]] | list[list[str]] = (
        [[repr(v) for v in u] for u in kept] if level == "nominal" else kept
    )
    value = compute([SampleScore(score=Score(value=u)) for u in rows])
    result = float(cast(float, value))
    reason = None if math.isfinite(result) else "undefined"
    return AlphaResult(result, level, len(kept), n_values, skipped, reason)


def panel_alpha(
    members_by_sample: Sequence[Mapping[str, Mapping[str, float]]],
    dimension: str,
    level: AlphaLevel = "interval",
) -> AlphaResult:
    """Alpha of one panel on one dimension: units = samples, coders = members.

    Args:
        members_by_sample: Per sample, member -> dimension -> score (one phase of
            :class:`~inspect_plural.prediction.PanelScores`, ``initial`` or ``final``).
            Failed parses are simply absent.
        dimension: The dimension to compute alpha on.
        level: ``nominal``, ``ordinal`` or ``interval``.

    Returns:
        The coefficient with its counts, or NaN and a reason.

    """
    units = [
        {member: scores[dimension] for member, scores in members.items() if dimension in scores}
        for members in members_by_sample
    ]
    return units_alpha(units, level)
