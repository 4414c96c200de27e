"""A mode's headline from one value per unit: each stratum's mean, averaged over strata.

The steerable mode (an accuracy gain per judgment, strata the datasets) and the role
mode (top-1 correctness per sample, strata the PersonaEval tracks) both weigh every
dataset or track equally, whatever its size, with the report's bootstrap resampling the
units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from inspect_plural.profile._cells import Mode
from inspect_plural.profile._index import LogIndex, Unit, codes_of
from inspect_plural.profile._intervals import paired_value, stratified_mean_statistic
from inspect_plural.profile._logs import CellLog
from inspect_plural.profile._results import ModeResult, Value
from inspect_plural.report import Bootstrap

__all__ = ["stratified_headline"]


def stratified_headline(
    index: LogIndex,
    boot: Bootstrap,
    mode: Mode,
    model: str,
    units: Mapping[Unit, float],
    logs: Sequence[CellLog | None],
    *,
    metric: str,
    chance: float | None,
    empty: str,
) -> ModeResult:
    """The unweighted mean over strata of the units' mean, with its interval.

    Args:
        index: The profile's logs.
        boot: The bootstrap settings.
        mode: The mode.
        model: The model.
        units: One value per (stratum, unit id).
        logs: The logs behind the units (linked from the headline).
        metric: What the value is.
        chance: The chance level shown beside it.
        empty: The note when no unit was measured.

    Returns:
        The headline.
    """
    keys = list(units)
    value = (
        paired_value(
            boot,
            [np.array([units[k] for k in keys]), codes_of(keys)],
            stratified_mean_statistic,
            f"{mode}/{model}",
        )
        if keys
        else Value(estimate=None, note=empty)
    )
    return ModeResult(
        **value.model_dump(),
        mode=mode,
        model=model,
        metric=metric,
        chance=chance,
        logs=index.paths(logs),
    )
