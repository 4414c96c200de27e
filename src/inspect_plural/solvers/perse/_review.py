"""PERSE's two personalised evaluation methods (Wang et al.): one call per order.

- :func:`perse_review` (review-enhanced, Per-MPST): the reviewer's k prior plots with
  their reviews and scores, then the new plot; the model writes the review this
  reviewer would write *first* and the score after it, as ``{"review", "score"}``.
  At k = 0 (PERSE's zero-shot row) the prompt has the instruction and the new plot
  only (``perse_review_zero_shot.txt``); with ``review_content=False`` (the paper's
  "w/o review content" ablation, Table 5) the prior plots are shown with their scores
  and no review text (``perse_review_scores_only.txt``); with ``shuffle_reviews`` the
  prior reviews are shown in an order shuffled per sample and epoch with the seed
  (PERSE's order-robustness test, Figure 4).
- :func:`perse_aspect` (aspect-enhanced, Per-DOC; in :mod:`._aspect`): the
  annotator's earlier comparison (two plots and the one preferred on the aspect), then
  the new pair; the model answers ``{"choice": "Plot A" | "Plot B"}``. With
  ``both_orders`` the pair is asked a second time with the plots swapped
  (concurrently); the prediction is the plot chosen in both orders, and ``N/A``
  (flagged ``orders_disagree``) when the choice follows the order.

The defaults are deterministic (temperature 0, seeded, at most 600 new tokens); PERSE
samples at temperature 0.8 (§4.2), which the tasks' ``protocol=paper`` applies. Its
prompts prefill the assistant turn; providers differ in whether they allow that, so
ours ask for the JSON object instead. Reviews in the prompt are shortened as the
official code does (:func:`~inspect_plural.sources.perse.clean_review`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from inspect_ai.model import ChatMessageUser, GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.answer_screen import screen_answer
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.prompts import example_key, example_score, load_template
from inspect_plural.rating_parsing import EXAMPLE_REVIEW, ReviewParse, parse_review
from inspect_plural.records import ReviewSampleMetadata, ScoredReview
from inspect_plural.solvers._ratings import tokens_of
from inspect_plural.solvers.perse._aspect import (
    ASPECT_FIELDS,
    ASPECT_TEMPLATE,
    CHOICE_FORMAT,
    ORDER_UNPARSED,
    ORDERS_DISAGREE,
    perse_aspect,
    render_aspect_prompt,
)
from inspect_plural.sources.perse import clean_review
from inspect_plural.structured import Structured, generate_answer, structured_value

__all__ = [
    "ASPECT_FIELDS",
    "ASPECT_TEMPLATE",
    "CHOICE_FORMAT",
    "ORDERS_DISAGREE",
    "ORDER_UNPARSED",
    "SHUFFLED_REVIEWS",
    "perse_aspect",
    "perse_review",
    "render_aspect_prompt",
    "render_review_prompt",
    "review_template",
    "shuffled_history",
]

REVIEW_TEMPLATE = "perse_review.txt"
REVIEW_FIELDS = {"history", "plot", "low", "high"}
EXAMPLE_FIELD = "example"
"""The filled example of ``perse_review.txt`` (a template may leave it out)."""
ZERO_SHOT_TEMPLATE = "perse_review_zero_shot.txt"
ZERO_SHOT_FIELDS = {"plot", "low", "high"}
SCORES_ONLY_TEMPLATE = "perse_review_scores_only.txt"
SHUFFLED_REVIEWS = "shuffled_reviews"
"""Prediction flag: the prior reviews were shown in the epoch's shuffled order (the
scorer then keeps the prediction as ``shuffle{epoch}/pred``)."""
ORDER_KEY = "PerseReview:order"
"""Store key of the story ids of the prior reviews in the order they were shown, when
shuffled."""


def _scale(metadata: ReviewSampleMetadata) -> tuple[float, float]:
    scale = metadata.scale
    if scale is None or scale.low is None or scale.high is None:
        raise ValueError(f"sample {metadata.item_id} has no interval score scale")
    return scale.low, scale.high


def review_template(k: int, review_content: bool = True, prompts: str | None = None) -> str:
    """The template of a review-enhanced prompt, checked for its fields.

    Args:
        k: Prior reviews shown (0: ``perse_review_zero_shot.txt``).
        review_content: Show the prior reviews' text (False:
            ``perse_review_scores_only.txt``, the "w/o review content" ablation).
        prompts: Folder of replacement templates.

    Returns:
        The template text.

    Raises:
        PromptTemplateError: The folder is missing or a template's fields are wrong.
    """
    if k == 0:
        return load_template(ZERO_SHOT_TEMPLATE, ZERO_SHOT_FIELDS, ZERO_SHOT_FIELDS, prompts)
    name = REVIEW_TEMPLATE if review_content else SCORES_ONLY_TEMPLATE
    return load_template(name, REVIEW_FIELDS | {EXAMPLE_FIELD}, REVIEW_FIELDS, prompts)


def shuffled_history(
    history: Sequence[ScoredReview], seed: int, sample_id: str | int, epoch: int
) -> list[ScoredReview]:
    """The prior reviews in an order drawn from the seed, the sample and the epoch only.

    Args:
        history: The prior reviews in the data's order.
        seed: The task's seed.
        sample_id: The sample's id.
        epoch: The epoch (1-based): each epoch is one shuffle.

    Returns:
        A shuffled copy (the same for the same arguments, whatever the run's order).
    """
    shuffled = list(history)
    random.Random(f"{seed}:perse_shuffle:{sample_id}:{epoch}").shuffle(shuffled)
    return shuffled


def _history_block(history: Sequence[ScoredReview], review_words: int, content: bool) -> str:
    return "\n\n".join(
        f"[Plot {i}]\n{item.plot.strip()}\n"
        + (f"[Review] {clean_review(item.review, review_words)}\n" if content else "")
        + f"[Score] {item.score:g}"
        for i, item in enumerate(history, start=1)
    )


def render_review_prompt(
    metadata: ReviewSampleMetadata,
    review_words: int = 150,
    prompts: str | None = None,
    review_content: bool = True,
    history: Sequence[ScoredReview] | None = None,
) -> str:
    """The review-enhanced prompt of one Per-MPST sample.

    Args:
        metadata: The sample's metadata.
        review_words: Word budget of each prior review shown.
        prompts: Folder of replacement templates.
        review_content: Show the prior reviews' text (False: plots and scores only).
        history: The prior reviews in the order to show them (None: the data's order).

    Returns:
        The prompt text.
    """
    shown = list(metadata.review.history if history is None else history)
    template = review_template(len(shown), review_content, prompts)
    low, high = _scale(metadata)
    fields = {"plot": metadata.review.target.plot.strip(), "low": f"{low:g}", "high": f"{high:g}"}
    if shown:
        fields["history"] = _history_block(shown, review_words, review_content)
    return template.format(**fields, example=review_example(metadata))


def review_example(metadata: ReviewSampleMetadata) -> str:
    """The filled example of the review prompt: the example review, a score for the sample.

    The score is drawn per sample (:mod:`inspect_plural.prompts._examples`); a copy of
    the review is refused (:data:`~inspect_plural.rating_parsing.EXAMPLE_REVIEW`).

    Args:
        metadata: The sample's metadata.

    Returns:
        The example JSON object.
    """
    low, high = _scale(metadata)
    score = example_score(int(low), int(high), example_key(metadata))
    return json.dumps({"review": EXAMPLE_REVIEW, "score": score}, ensure_ascii=False)


def _review_format(low: float, high: float) -> JsonFormat:
    return JsonFormat(
        name="review",
        json_schema={
            "type": "object",
            "properties": {
                "review": {"type": "string"},
                "score": {"type": "integer", "minimum": int(low), "maximum": int(high)},
            },
            "required": ["review", "score"],
        },
    )


def _config(temperature: float | None, max_tokens: int | None, seed: int | None) -> GenerateConfig:
    # passed explicitly: a separate --model-role judge does not inherit the task's config
    return GenerateConfig(temperature=temperature, max_tokens=max_tokens, seed=seed)


@solver
def perse_review(
    review_words: int = 150,
    temperature: float | None = 0.0,
    max_tokens: int | None = 600,
    seed: int | None = 42,
    prompts: str | None = None,
    review_content: bool = True,
    shuffle_reviews: bool = False,
    structured: Structured = False,
) -> Solver:
    """Review-enhanced personalised scoring (PERSE, individual setting): 1 call.

    Args:
        review_words: Word budget of each prior review in the prompt (PERSE: 150).
        temperature: Sampling temperature (default 0; PERSE: 0.8; None: the provider's).
        max_tokens: Most new tokens (PERSE: 600; None: the provider's default).
        seed: Generation seed, and the seed of the shuffles (None: unseeded, and
            shuffles seeded with 0).
        prompts: Folder of replacement prompt templates (``perse_review.txt``,
            ``perse_review_zero_shot.txt``, ``perse_review_scores_only.txt``).
        review_content: Show the prior reviews' text (False: the "w/o review content"
            ablation, plots and scores only).
        shuffle_reviews: Show the prior reviews in an order shuffled per sample and
            epoch with the seed (run it over several epochs: ``-T shuffle_reviews=N``).
        structured: Constrain the answer to ``{"review": ..., "score": ...}``: ``True``
            (Inspect's structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction` with
        ``score`` and the written review as ``rationale``.
    """
    config = _config(temperature, max_tokens, seed)
    structured = structured_value(structured)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(ReviewSampleMetadata)
        low, high = _scale(metadata)
        history = list(metadata.review.history)
        if shuffle_reviews:
            history = shuffled_history(history, seed or 0, state.sample_id, state.epoch)
            state.store.set(ORDER_KEY, [item.item_id for item in history])
        text = render_review_prompt(metadata, review_words, prompts, review_content, history)
        declared = _review_format(low, high).model_copy(
            update={"example": review_example(metadata) if review_content else None}
        )
        prompt = declare_answer_format(ChatMessageUser(content=text), declared)
        state.messages = [*(m for m in state.messages if m.role == "system"), prompt]
        model = role_model("judge")
        output, schema = await generate_answer(model, state.messages, config, structured)
        state.output = output
        state.messages.append(output.message)
        refusal = screen_answer(output.completion, state.messages[:-1])
        parsed = (
            parse_review(output.completion, low, high)
            if refusal is None
            else ReviewParse(ok=False, error=refusal.error, failure=refusal.failure)
        )
        answer = ModelAnswer(
            raw=output.completion,
            parse_ok=parsed.ok,
            error=parsed.error,
            review=parsed.review,
            scores=None if parsed.score is None else {"score": parsed.score},
            read_as=parsed.read_as,
            schema_name=schema,
            failure=parsed.failure,
        )
        Prediction.detached(
            method="perse_review",
            score=parsed.score,
            parse_ok=parsed.ok,
            error=parsed.error,
            rationale=parsed.review,
            answers=[answer],
            model_calls=1,
            tokens=tokens_of(output),
            flags=[SHUFFLED_REVIEWS] if shuffle_reviews else [],
            failure=parsed.failure,
        ).write_to(state.store)
        return state

    return solve
