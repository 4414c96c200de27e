"""The base of every record and the answer space of a judgment.

``_Record`` makes records frozen and strict (unknown fields rejected);
:class:`LabelScale` is the nominal, ordinal or interval scale a judgment, an example and
a sample's metadata refer to.
"""

from __future__ import annotations

import math
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = ["LabelScale"]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LabelScale(_Record):
    """The answer space of a judgment.

    Attributes:
        kind: ``nominal`` (unordered choices), ``ordinal`` (ordered choices) or
            ``interval`` (a numeric range from ``low`` to ``high``).
        labels: The choices, in order, for nominal and ordinal scales.
        low: Lowest value of an interval scale.
        high: Highest value of an interval scale.
        description: What the scale measures, shown to the model.
        ordinal_values: The options' own numeric values, one per label, when the data
            gives them (OpinionQA's ``option_ordinal``: ``[1, 2, 4]`` is not evenly
            spaced, and ``[1, 2, 1.5]`` puts the third option between the first two);
            representativeness measures distances on them (Santurkar et al.'s code).
            None: the labels' positions.

    """

    kind: Literal["nominal", "ordinal", "interval"]
    labels: list[str] = Field(default_factory=list)
    low: float | None = None
    high: float | None = None
    description: str = ""
    ordinal_values: list[float] | None = None

    @model_validator(mode="after")
    def _check(self) -> LabelScale:
        if self.kind == "interval":
            if self.low is None or self.high is None or self.low >= self.high:
                raise ValueError("an interval scale needs low < high")
        elif len(self.labels) < 2 or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"a {self.kind} scale needs at least two distinct labels")
        values = self.ordinal_values
        if values is not None and (
            len(values) != len(self.labels)
            or len(set(values)) < 2
            or not all(math.isfinite(v) for v in values)
        ):
            raise ValueError("ordinal_values needs one finite value per label, not all equal")
        return self
