"""Steering styles of ``distribution_judge``: how a prompt says whose answers it asks for.

Santurkar et al. (2023, OpinionQA) steer a model towards a group in three ways (their
code's contexts ``steer-qa``, ``steer-bio`` and ``steer-portray``): a question about the
group attribute answered with the group's value placed before the survey question, a
short first-person biography stating it, and an instruction to answer as a person
holding it. Steered representativeness is then the best of the three per group. This
package asks for the distribution of the answers of people like the one described
(:func:`steered_population` returns the subject of the prompt's first sentence); the
style ``population`` is the package's own wording ("people whose profile reads
"POLPARTY: Republican""). The sentences are written for this package, with each
OpinionQA attribute named in words (:data:`ATTRIBUTE_NAMES`; other dimensions by their
own name).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_plural.item_records import split_group_key

__all__ = [
    "ATTRIBUTE_NAMES",
    "SANTURKAR_STYLES",
    "STEER_STYLES",
    "SteerStyle",
    "attribute_name",
    "steer_styles",
    "steered_population",
]

SteerStyle = Literal["population", "qa", "bio", "portray"]
STEER_STYLES: tuple[SteerStyle, ...] = ("population", "qa", "bio", "portray")
"""Every style; ``santurkar`` (an alias) means their three: ``qa``, ``bio``, ``portray``."""
SANTURKAR_STYLES: tuple[SteerStyle, ...] = ("qa", "bio", "portray")

ATTRIBUTE_NAMES = {
    "CREGION": "region of the United States",
    "AGE": "age group",
    "SEX": "sex",
    "EDUCATION": "education",
    "CITIZEN": "US citizenship",
    "MARITAL": "marital status",
    "RELIG": "religion",
    "RELIGATTEND": "religious attendance",
    "POLPARTY": "political party",
    "INCOME": "income",
    "POLIDEOLOGY": "political ideology",
    "RACE": "race",
}
"""OpinionQA's demographic attributes in words (the Pew ATP codes of ``metadata.csv``)."""


def attribute_name(dimension: str) -> str:
    """A trait dimension in words (OpinionQA's codes named; others as written)."""
    return ATTRIBUTE_NAMES.get(dimension, dimension.replace("_", " "))


def steer_styles(value: str | Sequence[str] | None) -> list[SteerStyle]:
    """The styles a ``steer_style`` option names (``santurkar``: their three), in order.

    Raises:
        ValueError: An unknown style.
    """
    names = value.split(",") if isinstance(value, str) else list(value or ["population"])
    styles: list[SteerStyle] = []
    for raw in names:
        name = raw.strip()
        expanded: Sequence[str] = SANTURKAR_STYLES if name == "santurkar" else (name,)
        for style in expanded:
            known = next((s for s in STEER_STYLES if s == style), None)
            if known is None:
                raise ValueError(
                    f"unknown steering style {style!r}; one of {', '.join(STEER_STYLES)} "
                    "or santurkar (qa, bio and portray)"
                )
            if known not in styles:
                styles.append(known)
    return styles or ["population"]


def steered_population(group: str, style: SteerStyle = "population") -> str:
    """Who a steered prompt says labelled the item, with the style's steering context.

    Args:
        group: A group key ``<dimension>=<value>``.
        style: ``population`` (the package's), or Santurkar et al.'s ``qa``, ``bio`` and
            ``portray``.

    Returns:
        The opening of the prompt up to its first verb ("... each chose one of the
        labels below"): the steering context, then the people asked about.
    """
    dimension, value = split_group_key(group)
    name = attribute_name(dimension)
    if style == "qa":
        return (
            f"Question: What is your {name}?\nAnswer: {value}\n\n"
            "Several people who gave this answer"
        )
    if style == "bio":
        return (
            "Below, a person first describes themselves.\n"
            f"Description: My {name} is {value}.\n\n"
            "Several people like the person described"
        )
    if style == "portray":
        return (
            f"Answer the following as if you were a person whose {name} is {value}.\n\n"
            "Several people like you"
        )
    return f'Several people whose profile reads "{dimension.replace("_", " ")}: {value}"'
