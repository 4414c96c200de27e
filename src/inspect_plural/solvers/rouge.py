"""ROUGE-L: the output's overlap with its references, as the score of every dimension.

No model call. The F1 of ``rouge-score``'s ROUGE-L (``RougeScorer([rouge_type],
use_stemmer=...)``, the reference as the target, the output as the prediction) is the
predicted score of every dimension; with several references, the best one counts
(``score_multi``). MSLR's authors use ``rougeL`` without stemming, the defaults here.

What the package does to the text: it lowercases it and replaces every run of
characters other than ``a-z0-9`` by a space, so non-ASCII text is dropped; the stemmer
touches only tokens longer than three characters; ``rougeLsum`` differs from ``rougeL``
only on text with newlines (it splits sentences there). An empty output scores 0. A
sample without a reference gets no score and the error ``no reference`` (never 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from inspect_ai.solver import Generate, Solver, TaskState, solver
from pydantic import BaseModel, Field

from inspect_plural.prediction import StoredRecord
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.solvers._ratings import write_rating_prediction

if TYPE_CHECKING:
    from rouge_score import rouge_scorer

__all__ = ["ROUGE_TYPES", "RougeRecord", "RougeScore", "rouge_l"]

RougeType = Literal["rougeL", "rougeLsum"]
ROUGE_TYPES: tuple[RougeType, ...] = ("rougeL", "rougeLsum")
"""Values of the ``rouge_type`` option."""
NO_REFERENCE = "no reference"


class RougeScore(BaseModel):
    """ROUGE of the output against one reference.

    Attributes:
        precision: LCS length over the output's tokens.
        recall: LCS length over the reference's tokens.
        fmeasure: Their harmonic mean (F1).

    """

    precision: float
    recall: float
    fmeasure: float


class RougeRecord(StoredRecord):
    """ROUGE-L's evidence for one sample, kept in the sample store.

    Attributes:
        rouge_type: ``rougeL`` or ``rougeLsum``.
        use_stemmer: Whether the Porter stemmer was applied.
        per_reference: The scores against each non-empty reference, in order.
        best: The best of them by F1 (what ``score_multi`` returns), None without a
            reference.

    """

    rouge_type: str = Field(default="rougeL")
    use_stemmer: bool = Field(default=False)
    per_reference: list[RougeScore] = Field(default_factory=list)
    best: RougeScore | None = Field(default=None)


@solver
def rouge_l(rouge_type: str = "rougeL", use_stemmer: bool = False) -> Solver:
    """ROUGE-L F1 against the references, as the score of every dimension (no model call).

    Args:
        rouge_type: ``rougeL`` (the whole text as one sequence) or ``rougeLsum`` (split
            into sentences at newlines).
        use_stemmer: Apply the Porter stemmer to tokens longer than three characters.

    Returns:
        A solver that writes a :class:`RougeRecord` and a
        :class:`~inspect_plural.prediction.Prediction` (0 model calls).

    Raises:
        ValueError: An unknown ``rouge_type``.
    """
    from rouge_score import rouge_scorer

    if rouge_type not in ROUGE_TYPES:
        raise ValueError(f"rouge_type must be one of {list(ROUGE_TYPES)}, not {rouge_type!r}")
    # built at the first sample, not with the task: building it logs through the root
    # logger, which before Inspect sets up its logging adds a handler (warnings twice)
    scorers: list[rouge_scorer.RougeScorer] = []
    method = "rouge_l" if rouge_type == "rougeL" else f"rouge_l/{rouge_type}"
    if use_stemmer:
        method += "/stemmed"

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        if not scorers:
            scorers.append(rouge_scorer.RougeScorer([rouge_type], use_stemmer=use_stemmer))
        scorer = scorers[0]
        references = [r for r in metadata.output.references if r.strip()]
        content = metadata.output.content
        per_reference: list[RougeScore] = []
        best: RougeScore | None = None
        scores: dict[str, float] = {}
        if references:
            for reference in references:  # target first: .score(target, prediction)
                s = scorer.score(reference, content)[rouge_type]
                per_reference.append(
                    RougeScore(precision=s.precision, recall=s.recall, fmeasure=s.fmeasure)
                )
            multi = scorer.score_multi(references, content)[rouge_type]
            best = RougeScore(
                precision=multi.precision, recall=multi.recall, fmeasure=multi.fmeasure
            )
            scores = {d.name: float(best.fmeasure) for d in metadata.dimensions}
        RougeRecord.detached(
            rouge_type=rouge_type,
            use_stemmer=use_stemmer,
            per_reference=per_reference,
            best=best,
        ).write_to(state.store)
        write_rating_prediction(
            state.store,
            method,
            metadata.dimensions,
            scores,
            model_calls=0,
            error=None if references else NO_REFERENCE,
            aggregate="max_over_references" if len(references) > 1 else "single",
        )
        return state

    return solve
