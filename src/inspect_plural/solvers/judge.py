"""LLM-as-a-judge methods for annotator-level tasks: one model call per sample.

``llm_judge`` shows the item and the label scale only; ``personalized_judge`` adds the
annotator's traits (Dong et al. 2024), when the task is *named*.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural._replies import reply_error
from inspect_plural.answer_format import DistributionFormat, LabelFormat, declare_answer_format
from inspect_plural.models import role_model
from inspect_plural.prompts import example_key, load_template
from inspect_plural.records import AnnotatorSampleMetadata, annotator_sample
from inspect_plural.solvers._answers import (
    AnswerMode,
    check_answer_format,
    parse_answer,
    response_format,
    write_prediction,
)
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._pooling import pooled
from inspect_plural.solvers._render import render_item, render_labels, render_traits
from inspect_plural.structured import Structured, generate_answer, structured_value

__all__ = ["llm_judge", "personalized_judge", "render_judge_prompt", "task_text"]

TEMPLATE = "annotator_judge.txt"
TEMPLATE_FIELDS = {"persona", "task", "item", "labels", "response_format"}
DEFAULT_TASK = "Choose the label this person gave to the content."


def task_text(metadata: AnnotatorSampleMetadata) -> str:
    """The task sentence of a sample: its scale's description, or a generic one."""
    scale = metadata.scale
    if scale is None:
        raise ValueError(f"sample {metadata.item_id} has no label scale")
    return scale.description or DEFAULT_TASK


def render_judge_prompt(
    metadata: AnnotatorSampleMetadata,
    personalized: bool,
    reasoning: bool = True,
    prompts: str | None = None,
    answer_format: AnswerMode = "label",
) -> tuple[str, DistributionFormat | LabelFormat]:
    """The prompt of the judge methods for one sample, and the answer format it asks for.

    Args:
        metadata: The sample's metadata.
        personalized: Describe the annotator by their (visible) traits.
        reasoning: Ask for brief reasoning before the JSON answer.
        prompts: Folder of replacement templates.
        answer_format: Ask for a ``label`` or a ``distribution`` over the labels.

    Returns:
        The prompt text and its answer format.

    """
    template = load_template(TEMPLATE, TEMPLATE_FIELDS, {"item", "labels"}, prompts)
    persona = ""
    if personalized and metadata.traits:
        persona = "\n# The Person\n\n" + render_traits(metadata.traits) + "\n"
    instruction, declared = response_format(
        answer_format, metadata.labels, reasoning, example_key=example_key(metadata)
    )
    assert metadata.scale is not None  # task_text checks it
    text = template.format(
        persona=persona,
        task=task_text(metadata),
        item=render_item(metadata.item),
        labels=render_labels(metadata.scale),
        response_format=instruction,
    )
    return text, declared


def _judge(
    method: str,
    personalized: bool,
    reasoning: bool,
    prompts: str | None,
    temperature: float | None,
    seed: int | None,
    answer_format: str,
    max_tokens: int | None,
    structured: Structured,
) -> Solver:
    mode = check_answer_format(answer_format)
    structured = structured_value(structured)
    # passed explicitly: a separate --model-role judge does not inherit the task's config
    config = GenerateConfig(
        temperature=temperature, seed=seed, max_tokens=answer_cap(reasoning, max_tokens)
    )

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = annotator_sample(state.metadata)
        if personalized and not metadata.traits and not metadata.named:
            raise ValueError(
                "personalized_judge needs the annotator's traits: run the task with "
                "-T named=true (a dataset without demographics cannot be named)"
            )
        labels = metadata.labels
        text, declared = render_judge_prompt(metadata, personalized, reasoning, prompts, mode)
        prompt = declare_answer_format(ChatMessageUser(content=text), declared)
        kept: list[ChatMessage] = [m for m in state.messages if m.role == "system"]
        state.messages = [*kept, prompt]
        model = role_model("judge")
        output, schema = await generate_answer(model, state.messages, config, structured)
        state.output = output
        state.messages.append(output.message)
        answer = parse_answer(output.completion, labels, mode, messages=[*kept, prompt])
        answer.error = reply_error(output) or answer.error
        answer.schema_name = schema
        write_prediction(state.store, method, [answer], labels, model_calls=1)
        return state

    return pooled(method, solve)


@solver
def llm_judge(
    reasoning: bool = True,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    answer_format: str = "label",
    max_tokens: int | None = None,
    structured: Structured = False,
) -> Solver:
    """LLM-as-a-judge: the item and the label scale, no personal information (1 call).

    Args:
        reasoning: Ask for brief reasoning before the JSON answer.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature of the judge (None: the provider's default).
        seed: Generation seed (None: unseeded).
        answer_format: ``label`` or ``distribution`` (a probability for every label).
        max_tokens: Output token cap (None: 1,024 with reasoning, 256 without).
        structured: Constrain the answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.

    """
    return _judge(
        "llm_judge",
        False,
        reasoning,
        prompts,
        temperature,
        seed,
        answer_format,
        max_tokens,
        structured,
    )


@solver
def personalized_judge(
    reasoning: bool = True,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    answer_format: str = "label",
    max_tokens: int | None = None,
    structured: Structured = False,
) -> Solver:
    """LLM-as-a-personalized-judge: adds the annotator's traits (1 call; Dong et al. 2024).

    Args:
        reasoning: Ask for brief reasoning before the JSON answer.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature of the judge (None: the provider's default).
        seed: Generation seed (None: unseeded).
        answer_format: ``label`` or ``distribution`` (a probability for every label).
        max_tokens: Output token cap (None: 1,024 with reasoning, 256 without).
        structured: Constrain the answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.

    """
    return _judge(
        "personalized_judge",
        True,
        reasoning,
        prompts,
        temperature,
        seed,
        answer_format,
        max_tokens,
        structured,
    )
