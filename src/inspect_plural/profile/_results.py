"""The profile's numbers: per model and mode a headline, per cell its figures, differences.

Every number carries its 95% interval (``low``, ``high``; None when there are too few
units for one, with a ``note`` saying so), ``n`` (its units: samples, items or
questions) and the log it came from. ``profile.json`` is :class:`Profile` as JSON.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field

from inspect_plural.profile._cells import Mode
from inspect_plural.report import Estimate

__all__ = ["CellResult", "Difference", "ModeResult", "NotMeasured", "Profile", "Value"]


def _finite(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


class Value(BaseModel):
    """A number with its 95% interval and units.

    Attributes:
        estimate: The point estimate (None: undefined).
        low: Lower end of the interval (None: no interval).
        high: Upper end of the interval.
        n: Units behind it.
        note: Why there is no interval or no estimate.
    """

    estimate: float | None
    low: float | None = None
    high: float | None = None
    n: int = 0
    note: str | None = None

    @classmethod
    def of(cls, estimate: Estimate) -> Value:
        """From the report's bootstrap estimate."""
        return cls(
            estimate=_finite(estimate.value),
            low=_finite(estimate.low),
            high=_finite(estimate.high),
            n=estimate.n,
            note=estimate.note,
        )

    @property
    def has_interval(self) -> bool:
        """Whether both ends of the interval are known."""
        return self.low is not None and self.high is not None


class CellResult(Value):
    """One figure of a mode's section: a cell (or a comparison of cells) for one model.

    Attributes:
        key: The cell (``<mode>/<group>/<role>``), or a comparison's name.
        mode: The mode.
        group: The dataset.
        model: The model (``none/none`` for a no-call baseline).
        metric: What the number is (e.g. ``accuracy gain``, ``manhattan``).
        chance: The chance level of the metric, when it has one.
        logs: The log files behind it.
        extra: Further named figures (e.g. ``n_eff``, ``worst groups``).
    """

    key: str
    mode: Mode
    group: str
    model: str
    metric: str
    chance: float | None = None
    logs: list[str] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)


class ModeResult(Value):
    """A model's headline in one mode (the summary table's cell).

    Attributes:
        mode: The mode.
        model: The model.
        metric: What the number is.
        chance: Its chance level.
        logs: Every log behind it.
    """

    mode: Mode
    model: str
    metric: str
    chance: float | None = None
    logs: list[str] = Field(default_factory=list)


class Difference(Value):
    """A paired difference between two models in one mode (``model_a - model_b``).

    Attributes:
        mode: The mode.
        model_a: The first model.
        model_b: The second model.
        metric: What is compared.
    """

    mode: Mode
    model_a: str
    model_b: str
    metric: str


class NotMeasured(BaseModel):
    """A cell without a number, and why.

    Attributes:
        key: The cell.
        mode: Its mode.
        note: Why (``not measured: data missing, see ...``, no log, ...).
    """

    key: str
    mode: Mode
    note: str


class Profile(BaseModel):
    """The whole profile.

    Attributes:
        demo: Whether any log ran on demo data (then every output says DEMO).
        models: The models, in the order given.
        budgets: The budgets of the logs read.
        summary: Mode -> model -> headline.
        cells: Mode -> the figures behind it.
        differences: Paired differences between models.
        not_measured: Cells without a number.
        notes: Anything the reader should know (logs left out, ...).
    """

    demo: bool
    models: list[str]
    budgets: list[str] = Field(default_factory=list)
    summary: dict[Mode, dict[str, ModeResult]] = Field(default_factory=dict)
    cells: dict[Mode, list[CellResult]] = Field(default_factory=dict)
    differences: list[Difference] = Field(default_factory=list)
    not_measured: list[NotMeasured] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
