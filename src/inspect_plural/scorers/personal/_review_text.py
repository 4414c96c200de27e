"""How close a written review is to the reviewer's own: ROUGE-1 and BLEU (PERSE Table 3).

PERSE compares the review a method writes with the one the reviewer wrote, by BLEU and
ROUGE (ROUGE-1, its footnote 2), among others. Neither its code nor its paper says how
BLEU was computed; here it is ``sacrebleu``'s sentence BLEU with the library's defaults
(13a tokenisation, exponential smoothing, effective n-gram order), on its 0–100 scale,
which is the scale of the paper's numbers (2.2–4.1). ROUGE-1 is ``rouge-score``'s F1
without stemming. Both are per sample; the task's metrics are their means.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rouge_score import rouge_scorer
    from sacrebleu.metrics.bleu import BLEU

__all__ = ["review_bleu", "review_rouge1"]


@cache
def _bleu() -> BLEU:
    """The sentence BLEU of sacrebleu, built at first use (importing sacrebleu is slow)."""
    from sacrebleu.metrics.bleu import BLEU

    return BLEU(effective_order=True)


@cache
def _rouge() -> rouge_scorer.RougeScorer:
    """The ROUGE-1 scorer, built at first use (importing rouge_score imports nltk).

    Building it logs through the root logger, which before Inspect has set up its
    logging adds a second handler that prints every warning of the run twice.
    """
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)


def review_rouge1(reference: str, review: str) -> float:
    """ROUGE-1 F1 of a written review against the reviewer's own.

    Args:
        reference: The review the reviewer wrote.
        review: The review the method wrote.

    Returns:
        The F1, in [0, 1].
    """
    return float(_rouge().score(reference, review)["rouge1"].fmeasure)


def review_bleu(reference: str, review: str) -> float:
    """Sentence BLEU of a written review against the reviewer's own (sacrebleu defaults).

    Args:
        reference: The review the reviewer wrote.
        review: The review the method wrote.

    Returns:
        BLEU on sacrebleu's 0–100 scale.
    """
    return float(_bleu().sentence_score(review, [reference]).score)
