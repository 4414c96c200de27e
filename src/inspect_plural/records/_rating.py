"""Rating records (MAJ-Eval): the rated dimensions and a generated output with its ratings.

:class:`RatingDimension` declares a dimension with its human scale;
:class:`RatedOutput` holds each rater's ratings, and its gold is their mean.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from inspect_plural.records._base import _Record

__all__ = ["RatedOutput", "RatingDimension"]


class RatingDimension(_Record):
    """One dimension humans rated generated content on (fluency, relevancy, ...).

    Attributes:
        name: Short key used in predictions and metrics (``fluency``, ``overall``).
        title: Human-readable name shown to models (``Fluency``).
        description: What the dimension measures, shown to models.
        low: The lowest value of the *human* scale.
        high: The highest value of the *human* scale.

    """

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    description: str
    low: float
    high: float

    @model_validator(mode="after")
    def _check(self) -> RatingDimension:
        if self.low >= self.high:
            raise ValueError(f"dimension {self.name}: needs low < high")
        return self


class RatedOutput(_Record):
    """Generated content with human ratings on one or more dimensions.

    Attributes:
        id: Stable identifier (e.g. ``"{system}/{review}"``).
        content: The generated output being rated.
        context: What the output should be judged against (a target summary, a story
            section), shown to evaluators.
        references: Reference outputs for reference-based metrics (ROUGE-L).
        parts: Structured parts of the content (e.g. ``question`` and ``answer``) and
            where it comes from (e.g. ``section_id``), when the dataset has them.
        ratings: Per dimension, rater id -> rating on the human scale; a rater who gave no
            usable rating for that dimension is absent.
        group: What the output belongs to, for per-group correlations (a review, a story).
        system: The system that generated it, when known.
        raw: Per rater, the raw answers behind the ratings (facet -> text), for audit.

    """

    id: str
    content: str
    context: str | None = None
    references: list[str] = Field(default_factory=list)
    parts: dict[str, str] = Field(default_factory=dict)
    ratings: dict[str, dict[str, float]] = Field(default_factory=dict)
    group: str | None = None
    system: str | None = None
    raw: dict[str, dict[str, str]] = Field(default_factory=dict)

    def gold(self) -> dict[str, float]:
        """The mean rating per dimension over the raters who gave one."""
        return {
            name: sum(by_rater.values()) / len(by_rater)
            for name, by_rater in self.ratings.items()
            if by_rater
        }
