"""PersEval's "perspective" prompting: one prediction per trait, combined by majority.

Each call asks the model to be a person with one trait value (``You are a person whose
profile reads "gender: female"``). By default the traits are the annotator's own
(``trait_scope="own"``, values "UNK" and empty skipped). The official PersEval code
instead applied every trait string of the dataset to every test user, so every user of
one item gets the same prediction; ``trait_scope="all"`` reproduces that, with the
dataset's trait values given by the task, and asks each (item, trait) once per epoch,
sharing the answer among the item's annotators.
"""

from __future__ import annotations

from collections.abc import Sequence

import anyio
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural._concurrency import gather, named
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer
from inspect_plural.prompts import load_template
from inspect_plural.records import annotator_sample
from inspect_plural.solvers._answers import (
    ask,
    check_answer_format,
    response_format,
    write_prediction,
)
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._pooling import pooled
from inspect_plural.solvers._render import render_item, render_labels
from inspect_plural.solvers.judge import task_text
from inspect_plural.structured import Structured, structured_value

__all__ = ["TRAIT_SCOPES", "trait_ensemble", "trait_sentence"]

TEMPLATE = "trait_persona.txt"
TRAIT_SCOPES = ("own", "all")
SKIPPED_VALUES = ("", "UNK")
NO_TRAIT = ("person", "")


def trait_sentence(dimension: str, value: str) -> str:
    """How a trait is put to the model: ``a person whose profile reads "<dim>: <value>"``.

    The dimension names of the datasets (``is_parent``, ``RELIGATTEND``) do not make
    sentences, so the trait is quoted as a profile entry.
    """
    if not value:
        return "a person"
    return f'a person whose profile reads "{dimension.replace("_", " ")}: {value}"'


@solver
def trait_ensemble(
    trait_scope: str = "own",
    trait_values: Sequence[Sequence[str]] | None = None,
    reasoning: bool = True,
    answer_format: str = "label",
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    max_tokens: int | None = None,
    structured: Structured = False,
) -> Solver:
    """One prediction per trait ("you are <trait>"), combined by majority vote.

    Ties go to the trait listed first (the dataset's dimension order). An annotator
    without any known trait gets one prediction without a trait, recorded in
    ``Prediction.aggregate``.

    Args:
        trait_scope: ``own`` (the annotator's traits; needs a named task) or ``all``
            (every trait value of the dataset for every annotator, as the official code).
        trait_values: ``(dimension, value)`` pairs for ``trait_scope="all"`` (the tasks
            pass the dataset's).
        reasoning: Ask for brief reasoning before the answer.
        answer_format: ``label`` or ``distribution`` (the vote uses each answer's top
            label; the sample's distribution is the mean).
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature (None: the provider's default).
        seed: Generation seed (None: unseeded).
        max_tokens: Output token cap (None: 1,024 with reasoning, 256 without).
        structured: Constrain each answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.

    """
    mode = check_answer_format(answer_format)
    structured = structured_value(structured)
    if trait_scope not in TRAIT_SCOPES:
        raise ValueError(f"trait_scope must be one of {list(TRAIT_SCOPES)}, not {trait_scope!r}")
    if trait_scope == "all" and not trait_values:
        raise ValueError("trait_scope='all' needs the dataset's trait_values")
    everyone = [(str(d), str(v)) for d, v in (trait_values or []) if str(v) not in SKIPPED_VALUES]
    config = GenerateConfig(
        temperature=temperature, seed=seed, max_tokens=answer_cap(reasoning, max_tokens)
    )
    # trait_scope="all": the prompts do not depend on the annotator, so each (item, trait)
    # is asked once and shared by every annotator of the item
    shared: dict[tuple[str, ...], ModelAnswer] = {}
    locks: dict[tuple[str, ...], anyio.Lock] = {}

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = annotator_sample(state.metadata)
        if trait_scope == "own":
            if not metadata.named:
                raise ValueError("trait_ensemble with trait_scope='own' needs a named task")
            traits = [(d, v) for d, v in metadata.traits.items() if v not in SKIPPED_VALUES]
        else:
            traits = everyone
        aggregate = "majority" if traits else "no_traits"
        traits = traits or [NO_TRAIT]
        labels = metadata.labels
        template = load_template(
            TEMPLATE,
            {"trait", "task", "item", "labels", "response_format"},
            {"trait", "item", "labels", "response_format"},
            prompts,
        )
        assert metadata.scale is not None
        model = role_model("judge")

        scale = metadata.scale

        calls = 0

        async def ask_once(dimension: str, value: str) -> ModelAnswer:
            nonlocal calls
            calls += 1
            # keyed by item and trait only: with trait_scope="all" every annotator shares it
            key = f"{metadata.dataset}:{metadata.item_id}:{dimension}={value}"
            instruction, declared = response_format(mode, labels, reasoning, example_key=key)
            prompt = template.format(
                trait=trait_sentence(dimension, value),
                task=task_text(metadata),
                item=render_item(metadata.item),
                labels=render_labels(scale),
                response_format=instruction,
            )
            persona = f"{dimension}={value}" if value else "no trait"
            parsed, _ = await ask(
                model, prompt, declared, config, labels, mode, persona, structured=structured
            )
            return parsed

        async def answer(dimension: str, value: str) -> ModelAnswer:
            if trait_scope != "all":
                return await ask_once(dimension, value)
            key = (metadata.dataset, metadata.item_id, dimension, value, str(state.epoch))
            async with locks.setdefault(key, anyio.Lock()):
                if key not in shared:
                    shared[key] = await ask_once(dimension, value)
                return shared[key]

        answers = await gather(
            *(named(f"as {d}={v}" if v else "without a trait", answer(d, v)) for d, v in traits)
        )
        write_prediction(state.store, "trait_ensemble", answers, labels, calls, aggregate)
        return state

    return pooled("trait_ensemble", solve)
