"""MSLR-Cochrane's rated dimensions and how one annotator's facet answers give them.

:data:`MSLR_DIMENSIONS` declares the five dimensions with their human scales (and the
prompt labels and task description that go with them); :func:`rater_scores` derives
them from one annotator's parsed answers through :func:`pio_consistency`,
:func:`facet_agreement` and :func:`overall_score`, under the ``other`` and ``pio_na``
rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, TypeAlias

from inspect_plural.records import RatingDimension
from inspect_plural.sources.mslr._facets import FacetAnswer

__all__ = [
    "MSLR_CONTENT_LABEL",
    "MSLR_CONTEXT_LABEL",
    "MSLR_DIMENSIONS",
    "MSLR_TASK_DESCRIPTION",
    "OtherRule",
    "PioNa",
    "facet_agreement",
    "overall_score",
    "pio_consistency",
    "rater_scores",
]

OtherRule: TypeAlias = Literal["missing", "official"]
PioNa: TypeAlias = Literal["exclude", "zero"]

MSLR_CONTENT_LABEL = "generated summary"
"""What the rated content is called in prompts."""

MSLR_CONTEXT_LABEL = "target summary"
"""What the context is called in prompts."""

MSLR_TASK_DESCRIPTION = (
    "A system reads the studies included in a medical systematic review and writes a short "
    "summary of what their combined evidence shows, as the conclusions of the review would. "
    "The generated summary is judged against the target summary, the conclusions the "
    "review's own authors wrote: it should be readable, be about the same populations, "
    "interventions and outcomes, and reach the same conclusion about the direction of the "
    "effect and about how strongly the evidence supports it."
)
"""What the rated summaries are for, shown to evaluators (our own wording)."""

MSLR_DIMENSIONS: list[RatingDimension] = [
    RatingDimension(
        name="overall",
        title="Overall quality",
        description=(
            "How well the generated summary conveys the same evidence as the target summary "
            "overall: fluent, about the same population, intervention and outcomes, and "
            "drawing the same conclusion with the same confidence."
        ),
        low=0.0,
        high=1.0,
    ),
    RatingDimension(
        name="fluency",
        title="Fluency",
        description=(
            "Is the generated summary fluent: well-formed, grammatical text whose meaning is "
            "easy to follow, without word or grammar errors that get in the way of "
            "understanding it?"
        ),
        low=0.0,
        high=2.0,
    ),
    RatingDimension(
        name="pio_consistency",
        title="PIO consistency",
        description=(
            "Does the generated summary talk about the same population (who was studied), "
            "intervention (what was tried) and outcomes (what was measured) as the target "
            "summary? Full agreement scores highest, partial agreement in between."
        ),
        low=0.0,
        high=2.0,
    ),
    RatingDimension(
        name="effect_direction",
        title="Effect direction agreement",
        description=(
            "Does the generated summary state the same direction of effect as the target "
            "summary: that the intervention helps, makes no difference, or does harm, or "
            "that no direction can be stated?"
        ),
        low=0.0,
        high=1.0,
    ),
    RatingDimension(
        name="evidence_strength",
        title="Evidence strength agreement",
        description=(
            "Does the generated summary make its claim with the same strength as the target "
            "summary: a strong, moderate or weak claim, or a statement that there is not "
            "enough evidence to conclude?"
        ),
        low=0.0,
        high=1.0,
    ),
]
"""The rated dimensions, ``overall`` first, with the human scale of each."""


def pio_consistency(
    population: FacetAnswer,
    intervention: FacetAnswer,
    outcome: FacetAnswer,
    pio_na: PioNa = "exclude",
) -> float | None:
    """The mean of the numeric population / intervention / outcome answers (0-2).

    Args:
        population: The parsed population answer.
        intervention: The parsed intervention answer.
        outcome: The parsed outcome answer.
        pio_na: ``exclude`` leaves ``N/A`` out; ``zero`` counts it as 0. ``Other`` and empty
            answers are always left out.

    Returns:
        The mean, or None when no answer counts.

    """
    values: list[float] = []
    for answer in (population, intervention, outcome):
        if isinstance(answer, int):
            values.append(float(answer))
        elif answer == "na" and pio_na == "zero":
            values.append(0.0)
    return sum(values) / len(values) if values else None


def facet_agreement(
    target: FacetAnswer,
    generated: FacetAnswer,
    other: OtherRule = "missing",
    na_is_answer: bool = True,
) -> float | None:
    """Whether the target's and the generated summary's categories agree (1) or not (0).

    Args:
        target: The parsed answer about the target summary.
        generated: The parsed answer about the generated summary.
        other: ``missing``: ``Other`` or empty on either side gives None. ``official``: the
            repository's rule, where such an answer is "no value", None only when both sides
            have none and 0 against a value.
        na_is_answer: Under the official rule, whether ``N/A`` is a category (effect
            direction) or "no value" (claim strength). Under ``missing`` ``N/A`` is always
            a category.

    Returns:
        1.0, 0.0 or None (missing).

    """
    if other == "missing":
        if target in ("other", None) or generated in ("other", None):
            return None
        return float(target == generated)
    values = [
        a if isinstance(a, int) or (a == "na" and na_is_answer) else None
        for a in (target, generated)
    ]
    if values[0] is None and values[1] is None:
        return None
    return float(values[0] == values[1])


def overall_score(
    fluency: float | None,
    pio: float | None,
    effect_direction: float | None,
    evidence_strength: float | None,
) -> float | None:
    """The mean of the available ones of fluency/2, pio/2, effect direction and strength.

    Args:
        fluency: The fluency rating (0-2).
        pio: The PIO consistency (0-2).
        effect_direction: The effect-direction agreement (0-1).
        evidence_strength: The evidence-strength agreement (0-1).

    Returns:
        The overall score on 0-1, or None when no dimension is available.

    """
    parts = [
        value
        for value in (
            None if fluency is None else fluency / 2,
            None if pio is None else pio / 2,
            effect_direction,
            evidence_strength,
        )
        if value is not None
    ]
    return sum(parts) / len(parts) if parts else None


def rater_scores(
    answers: Mapping[str, FacetAnswer],
    other: OtherRule = "missing",
    pio_na: PioNa = "exclude",
) -> dict[str, float]:
    """One annotator's dimension values from their parsed answers.

    Args:
        answers: Facet (see :data:`MSLR_FACETS`) -> parsed answer; absent facets are empty.
        other: The rule for ``Other`` and empty answers (see :func:`facet_agreement`).
        pio_na: How PIO ``N/A`` answers count (see :func:`pio_consistency`).

    Returns:
        Dimension -> value, for the dimensions that have one, in :data:`MSLR_DIMENSIONS`
        order.

    """
    fluency_answer = answers.get("fluency")
    fluency = float(fluency_answer) if isinstance(fluency_answer, int) else None
    pio = pio_consistency(
        answers.get("population"), answers.get("intervention"), answers.get("outcome"), pio_na
    )
    effect = facet_agreement(answers.get("ed_target"), answers.get("ed_generated"), other)
    strength = facet_agreement(
        answers.get("strength_target"),
        answers.get("strength_generated"),
        other,
        na_is_answer=False,
    )
    values = {
        "overall": overall_score(fluency, pio, effect, strength),
        "fluency": fluency,
        "pio_consistency": pio,
        "effect_direction": effect,
        "evidence_strength": strength,
    }
    return {name: value for name, value in values.items() if value is not None}
