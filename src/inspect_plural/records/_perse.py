"""PERSE records: Per-MPST reviews, Per-DOC plot preferences, the training pool's factors.

Per-MPST: :class:`ScoredReview` and :class:`PersonalReview` (k prior reviews and the
target). Per-DOC: :class:`PlotPair`, :class:`PairExample` and
:class:`PairwisePreference`. :class:`MovieFactors` and :class:`TrainingFactors` are
what a factorisation fitted on training reviewers learnt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from inspect_plural.records._base import _Record

__all__ = [
    "MovieFactors",
    "PairExample",
    "PairwisePreference",
    "PersonalReview",
    "PlotPair",
    "ScoredReview",
    "TrainingFactors",
]


class ScoredReview(_Record):
    """One reviewer's review and score of one story (a Per-MPST history or target item).

    Attributes:
        item_id: The story's id (an IMDb title id in Per-MPST).
        title: The story's title (never shown to methods: the plots are anonymised).
        plot: The (anonymised, summarised) plot the review is about.
        review: The review text.
        score: The reviewer's score on the task's scale.

    """

    item_id: str
    title: str = ""
    plot: str
    review: str
    score: float


class PersonalReview(_Record):
    """A Per-MPST instance: a reviewer's k prior reviews and the new story to score.

    Attributes:
        id: Stable identifier (``{reviewer}/{story}``).
        reviewer_id: The reviewer.
        history: The reviewer's prior reviews shown to methods, oldest first (empty in
            PERSE's zero-shot setting, k = 0).
        target: The held-out review: its plot is shown, its review and score are the gold.

    """

    id: str
    reviewer_id: str
    history: list[ScoredReview]
    target: ScoredReview


class PlotPair(_Record):
    """Two story plots written from the same premise (Per-DOC).

    Attributes:
        premise: The shared premise, when it can be told apart from the plots.
        plot_a: The plot shown first.
        plot_b: The plot shown second.

    """

    premise: str = ""
    plot_a: str
    plot_b: str

    def swapped(self) -> PlotPair:
        """The same pair with the plots in the other order."""
        return PlotPair(premise=self.premise, plot_a=self.plot_b, plot_b=self.plot_a)


class PairExample(_Record):
    """A comparison the annotator made before (the k = 1 profile of Per-DOC).

    Attributes:
        pair: The two plots.
        choice: The plot the annotator preferred (``Plot A`` or ``Plot B``).

    """

    pair: PlotPair
    choice: Literal["Plot A", "Plot B"]


class PairwisePreference(_Record):
    """A Per-DOC instance: which of two plots one annotator preferred on one aspect.

    Attributes:
        id: Stable identifier (``{aspect}/{annotator}/{row}``).
        annotator_id: The annotator.
        aspect: The aspect's key (``interestingness``, ``surprise``, ...).
        pair: The plots to compare.
        choice: The annotator's preferred plot.
        example: The annotator's earlier comparison on the same aspect.

    """

    id: str
    annotator_id: str
    aspect: str
    pair: PlotPair
    choice: Literal["Plot A", "Plot B"]
    example: PairExample


class MovieFactors(_Record):
    """What a matrix factorisation fitted on training reviewers learnt about one story.

    Attributes:
        bias: The story's rating bias (its mean offset from the global mean).
        factors: Its latent factor vector.

    """

    bias: float
    factors: list[float]


class TrainingFactors(_Record):
    """Training-pool statistics a sample's matrix-factorisation baseline may use.

    Fitted once per task on the *training* reviewers' full histories (never on a
    validation reviewer), and restricted to the stories a sample needs.

    Attributes:
        global_mean: The mean training rating.
        n_factors: Length of the factor vectors.
        reviewers: Training reviewers behind the fit.
        ratings: Distinct (reviewer, story) ratings behind the fit.
        reg: Regularisation of the biases, used again to fold in a new reviewer.
        movies: Story id -> its learnt bias and factors, for the sample's target and
            history stories that some training reviewer rated (absent: unseen).

    """

    global_mean: float
    n_factors: int
    reviewers: int
    ratings: int
    reg: float
    movies: dict[str, MovieFactors] = Field(default_factory=dict)
