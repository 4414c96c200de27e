"""What MHS values mean here: the two label scales and PersEval's trait mappings.

:data:`MHS_LABELS` holds the ``hateful`` (``hatespeech > 0``) and ``hatespeech``
(no/unclear/yes) scales. The tables :data:`MHS_EDUCATION`, :data:`MHS_IDEOLOGY` and
:data:`MHS_INCOME` and :func:`generation_of_age` give PersEval's traits
(:data:`MHS_TRAIT_DIMENSIONS`) from an annotator's demographics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from inspect_plural.records import LabelScale

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MHS_EDUCATION",
    "MHS_IDEOLOGY",
    "MHS_INCOME",
    "MHS_LABELS",
    "MHS_TRAIT_DIMENSIONS",
    "UNKNOWN",
    "generation_of_age",
]

MHS_EDUCATION = {
    "college_grad_aa": "educ-high",
    "college_grad_ba": "educ-high",
    "masters": "educ-high",
    "phd": "educ-high",
    "high_school_grad": "educ-low",
    "professional_degree": "educ-low",
    "some_college": "educ-low",
    "some_high_school": "educ-low",
}
"""PersEval's ``Education`` of each ``annotator_educ`` (newer code: ``masters`` is high)."""

MHS_IDEOLOGY = {
    "extremely_conservative": "conservative",
    "conservative": "conservative",
    "slightly_conservative": "conservative",
    "extremely_liberal": "liberal",
    "liberal": "liberal",
    "slightly_liberal": "liberal",
    "neutral": "neutral",
    "no_opinion": "neutral",
}
"""PersEval's ``Ideology`` of each ``annotator_ideology``."""

MHS_INCOME = {
    "<10k": "income-low",
    "10k-50k": "income-low",
    "50k-100k": "income-high",
    "100k-200k": "income-high",
    ">200k": "income-high",
}
"""PersEval's ``Income`` of each ``annotator_income``."""

MHS_TRAIT_DIMENSIONS = ["Education", "Gender", "Ideology", "Income", "Age"]
"""The PersEval trait dimensions of MHS, in the official code's order."""

_HATEFUL = LabelScale(
    kind="nominal",
    labels=["not hateful", "hateful"],
    description=(
        "Would you say this comment is hate speech, that is, does it attack or demean "
        "people because of who they are (for example their race, religion, gender or "
        "sexuality)? Any answer other than a clear no counts as hateful."
    ),
)
_HATESPEECH = LabelScale(
    kind="ordinal",
    labels=["no", "unclear", "yes"],
    description=(
        "Would you say this comment is hate speech, that is, does it attack or demean "
        "people because of who they are (for example their race, religion, gender or "
        "sexuality)? Answer no, unclear or yes."
    ),
)
MHS_LABELS: dict[str, LabelScale] = {"hateful": _HATEFUL, "hatespeech": _HATESPEECH}
"""Label name -> scale. ``hateful`` = ``hatespeech > 0``; ``hatespeech`` is 0/1/2 as is."""

UNKNOWN = "UNK"


def generation_of_age(age: pd.Series) -> pd.Series:
    """PersEval's MHS generation (for 2020) of ``annotator_age``; missing stays missing.

    Args:
        age: Ages as numbers (NaN where missing).

    Returns:
        ``Boomer`` (>= 56), ``GenX`` (>= 40), ``GenY`` (>= 24), ``GenZ``, or NaN.

    """
    import pandas as pd

    years = np.trunc(pd.to_numeric(age, errors="coerce").to_numpy(dtype=float))
    binned = np.select(
        [years >= 56, years >= 40, years >= 24, ~np.isnan(years)],
        ["Boomer", "GenX", "GenY", "GenZ"],
        default="",
    )
    result: pd.Series = pd.Series(binned, index=age.index, dtype=object).replace("", np.nan)
    return result
