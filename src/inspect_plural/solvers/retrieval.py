"""In-prompt augmentation (LaMP, Salemi et al. 2024, as used by PersEval).

The ``k`` judgments of the same annotator whose items are most similar to the test item
(BM25 over the items' text, ``rank-bm25``) are shown in the prompt, with the
annotator's traits when the task is named. One model call per sample.
"""

from __future__ import annotations

import re

from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.models import role_model
from inspect_plural.prompts import example_key, load_template
from inspect_plural.records import LabeledExample, annotator_sample, require_examples
from inspect_plural.solvers._answers import (
    ask,
    check_answer_format,
    response_format,
    write_prediction,
)
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._pooling import pooled
from inspect_plural.solvers._render import (
    render_examples,
    render_item,
    render_labels,
    render_traits,
)
from inspect_plural.solvers.judge import task_text
from inspect_plural.structured import Structured, structured_value

__all__ = ["retrieval_examples", "retrieve"]

TEMPLATE = "retrieval_judge.txt"
NO_EXAMPLES = "(None: this person labelled no other content that can be shown.)"
_WORD = re.compile(r"\w+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


def retrieve(query: str, examples: list[LabeledExample], k: int) -> list[LabeledExample]:
    """The ``k`` examples most similar to ``query`` by BM25 (Okapi), best first.

    Ties keep the examples' order; with ``k`` or fewer examples all are returned, ranked.

    Args:
        query: The test item's text.
        examples: The annotator's example judgments.
        k: How many to keep.

    Returns:
        The retrieved examples.
    """
    from rank_bm25 import BM25Okapi

    if not examples or k <= 0:
        return []
    documents = [_words(render_item(example.item)) or [""] for example in examples]
    scores = BM25Okapi(documents).get_scores(_words(query))
    order = sorted(range(len(examples)), key=lambda i: (-float(scores[i]), i))
    return [examples[i] for i in order[:k]]


@solver
def retrieval_examples(
    k: int = 3,
    reasoning: bool = True,
    answer_format: str = "label",
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    max_tokens: int | None = None,
    structured: Structured = False,
) -> Solver:
    """The annotator's ``k`` most similar example judgments in the prompt (1 call).

    The examples are those the task keeps in the sample (``training``; raise the task's
    ``max_examples`` to retrieve from more). An annotator without any (a PersEval test
    user whose adaptation draw was empty) is asked without examples, and
    ``Prediction.rationale`` says ``retrieved: none``. The traits are shown when the task is
    named (PersEval's "Named with Adaptation-T"), not otherwise.

    Args:
        k: How many examples to retrieve.
        reasoning: Ask for brief reasoning before the answer.
        answer_format: ``label`` or ``distribution``.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature (None: the provider's default).
        seed: Generation seed (None: unseeded).
        max_tokens: Output token cap (None: 1,024 with reasoning, 256 without).
        structured: Constrain each answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`; the ids of
        the retrieved items are in ``Prediction.rationale``.

    """
    mode = check_answer_format(answer_format)
    structured = structured_value(structured)
    if k < 1:
        raise ValueError(f"retrieval_examples needs k >= 1, not {k}")
    config = GenerateConfig(
        temperature=temperature, seed=seed, max_tokens=answer_cap(reasoning, max_tokens)
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        require_examples(state.metadata, "retrieval_examples")
        metadata = annotator_sample(state.metadata)
        labels = metadata.labels
        query = render_item(metadata.item)
        retrieved = retrieve(query, metadata.training, k)
        template = load_template(
            TEMPLATE,
            {"persona", "examples", "task", "item", "labels", "response_format"},
            {"examples", "item", "labels", "response_format"},
            prompts,
        )
        persona = ""
        if metadata.traits:
            persona = "\n# The Person\n\n" + render_traits(metadata.traits) + "\n"
        instruction, declared = response_format(
            mode, labels, reasoning, example_key=example_key(metadata)
        )
        assert metadata.scale is not None
        prompt = template.format(
            persona=persona,
            examples=render_examples(retrieved) or NO_EXAMPLES,
            task=task_text(metadata),
            item=query,
            labels=render_labels(metadata.scale),
            response_format=instruction,
        )
        answer, _ = await ask(
            role_model("judge"), prompt, declared, config, labels, mode, structured=structured
        )
        rationale = "retrieved: " + (", ".join(ex.item.id for ex in retrieved) or "none")
        write_prediction(
            state.store, "retrieval_examples", [answer], labels, 1, rationale=rationale
        )
        return state

    return pooled("retrieval_examples", solve)
