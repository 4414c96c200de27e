"""``distribution_judge``: ask the model for the population's label distribution of an item.

One call per item (distribution target): the model is shown the item and the labels and
asked for the share of the people who labelled it that chose each label, as a JSON
object; the answer is read with the package's distribution parser (keys matched to the
labels, probabilities renormalised when they do not sum to 1).

Steering (Santurkar et al. 2023): with ``steer=[DIMENSION, ...]`` the model is also asked,
once per trait group of the item (a value of a steered dimension held by some of the
item's annotators) and steering style, for the distribution of *that group's* answers.
The styles (``steer_style``, :mod:`inspect_plural.solvers._steering`) are the package's
``population`` ("people whose profile reads "POLPARTY: Republican"", the default) and
Santurkar et al.'s three, ``qa``, ``bio`` and ``portray`` (``santurkar`` names all
three). The unsteered answer is the prediction; the steered ones are kept as
:class:`~inspect_plural.item_records.SteeredDistributions`, so one run reports
representativeness unsteered and steered in every style side by side.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural._concurrency import gather, named
from inspect_plural.answer_format import DistributionFormat
from inspect_plural.item_records import (
    ItemSampleMetadata,
    SteeredDistributions,
    is_item_sample,
    item_sample,
    split_group_key,
)
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer
from inspect_plural.prompts import example_distribution, example_key, load_template
from inspect_plural.solvers._answers import ask, write_prediction
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._render import render_item, render_labels
from inspect_plural.solvers._steering import SteerStyle, steer_styles, steered_population
from inspect_plural.solvers.judge import DEFAULT_TASK
from inspect_plural.structured import Structured, structured_value

__all__ = [
    "UNSTEERED",
    "distribution_judge",
    "distribution_response_format",
    "render_distribution_prompt",
    "steered_population",
]

TEMPLATE = "distribution_judge.txt"
TEMPLATE_FIELDS = {"population", "task", "item", "labels", "response_format"}
UNSTEERED = "Several people"
"""Who the unsteered prompt says labelled the item."""

_LEADS = {
    True: "First think briefly about how differently people could see the content.",
    False: "Give no analysis.",
}


def _persona(style: SteerStyle, group: str) -> str:
    """A steered answer's ``persona``: the group key (``population``), else ``style:group``."""
    return group if style == "population" else f"{style}:{group}"


def distribution_response_format(
    labels: Sequence[str], reasoning: bool = True, example_key: str = ""
) -> tuple[str, DistributionFormat]:
    """The closing instruction of a distribution prompt and the answer format it declares.

    The example's made-up shares are drawn for ``example_key`` (the item and the
    population asked about): they favour no label, and an answer that repeats them is
    refused as ``copied_example`` (:mod:`inspect_plural.prompts._examples`).

    Args:
        labels: The scale's labels.
        reasoning: Ask for brief reasoning before the JSON.
        example_key: What the example is drawn for.

    Returns:
        The instruction (every label spelled out, and a filled example) and the format.
    """
    example = json.dumps(example_distribution(labels, example_key), ensure_ascii=False)
    text = (
        f"{_LEADS[reasoning]} End your answer with a JSON object in a ```json code block, "
        "with every label above as a key, spelled exactly as listed, and as its value the "
        "share of these people who chose that label (a number from 0 to 1; the shares sum "
        "to 1). For example, with made-up shares that only show the format:\n\n"
        f"```json\n{example}\n```"
    )
    return text, DistributionFormat(options=list(labels), example=example)


def render_distribution_prompt(
    metadata: ItemSampleMetadata,
    population: str = UNSTEERED,
    reasoning: bool = True,
    prompts: str | None = None,
) -> tuple[str, DistributionFormat]:
    """The distribution prompt of an item, and the answer format it asks for.

    Args:
        metadata: The item sample's metadata.
        population: Who labelled the item (:data:`UNSTEERED`, or a steered group).
        reasoning: Ask for brief reasoning before the JSON.
        prompts: Folder of replacement templates.

    Returns:
        The prompt text and its answer format.
    """
    template = load_template(TEMPLATE, TEMPLATE_FIELDS, TEMPLATE_FIELDS, prompts)
    if metadata.scale is None:
        raise ValueError(f"item {metadata.item_id} has no label scale")
    instruction, declared = distribution_response_format(
        metadata.labels, reasoning, example_key(metadata, population)
    )
    text = template.format(
        population=population,
        task=metadata.scale.description or DEFAULT_TASK,
        item=render_item(metadata.item),
        labels=render_labels(metadata.scale),
        response_format=instruction,
    )
    return text, declared


@solver
def distribution_judge(
    steer: list[str] | None = None,
    steer_style: str | list[str] | None = None,
    reasoning: bool = True,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    max_tokens: int | None = None,
    structured: Structured = False,
) -> Solver:
    """The population's label distribution of an item, asked directly (1 call per item).

    Args:
        steer: Trait dimensions to steer: one more call per group of the item in each
            (a value of the dimension held by some of its annotators) and style, asking
            for that group's distribution.
        steer_style: How a steered prompt names the group: ``population`` (default),
            ``qa``, ``bio``, ``portray`` or ``santurkar`` (those three), or a list.
        reasoning: Ask for brief reasoning before the JSON answer.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature (None: the provider's default).
        seed: Generation seed (None: unseeded).
        max_tokens: Output token cap (None: 1,024 with reasoning, 256 without).
        structured: Constrain each answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver for item samples (``-T target=distribution``) that writes a
        :class:`~inspect_plural.prediction.Prediction` (the unsteered distribution) and,
        when steering, :class:`~inspect_plural.item_records.SteeredDistributions`.
    """
    dimensions = list(steer or [])
    styles = steer_styles(steer_style)
    structured = structured_value(structured)
    load_template(TEMPLATE, TEMPLATE_FIELDS, TEMPLATE_FIELDS, prompts)  # checked now
    config = GenerateConfig(
        temperature=temperature, seed=seed, max_tokens=answer_cap(reasoning, max_tokens)
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if not is_item_sample(state.metadata):
            raise ValueError(
                "distribution_judge predicts an item's label distribution: run the task "
                "with -T target=distribution"
            )
        metadata = item_sample(state.metadata)
        labels = metadata.labels
        groups = [
            key
            for dimension in dimensions
            for key in metadata.groups
            if split_group_key(key)[0] == dimension
        ]
        model = role_model("judge")
        prompts_sent: list[str] = []

        async def answer(population: str, persona: str | None) -> ModelAnswer:
            text, declared = render_distribution_prompt(metadata, population, reasoning, prompts)
            if persona is None:
                prompts_sent.append(text)
            parsed, output = await ask(
                model, text, declared, config, labels, "distribution", persona, None, structured
            )
            if persona is None:
                state.output = output
            return parsed

        answers = await gather(
            named("unsteered", answer(UNSTEERED, None)),
            *(
                named(
                    f"steered: {_persona(style, g)}",
                    answer(steered_population(g, style), _persona(style, g)),
                )
                for style in styles
                for g in groups
            ),
        )
        kept: list[ChatMessage] = [m for m in state.messages if m.role == "system"]
        state.messages = [*kept, ChatMessageUser(content=prompts_sent[0]), state.output.message]
        write_prediction(
            state.store, "distribution_judge", [answers[0]], labels, model_calls=len(answers)
        )
        if dimensions:
            steered = answers[1:]
            parsed = {
                a.persona: a.distribution
                for a in steered
                if a.persona and a.parse_ok and a.distribution
            }
            SteeredDistributions.detached(
                dimensions=dimensions,
                distributions={g: d for g, d in parsed.items() if g in groups},
                answers=steered,
                model_calls=len(steered),
                styles=list(styles),
                styled={
                    style: {g: parsed[p] for g in groups if (p := _persona(style, g)) in parsed}
                    for style in styles
                    if style != "population"
                },
            ).write_to(state.store)
        return state

    return solve
