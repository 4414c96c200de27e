"""PERSE's aspect-enhanced comparison (Per-DOC): ``perse_aspect``, one call per order.

The annotator's earlier comparison (two plots and the one preferred on the aspect), then
the new pair; the model answers ``{"choice": "Plot A" | "Plot B"}``. With
``both_orders`` the pair is asked a second time with the plots swapped (concurrently);
the prediction is the plot chosen in both orders, and ``N/A`` (flagged
``orders_disagree``) when the choice follows the order. Re-exported by
:mod:`inspect_plural.solvers.perse`, with the review-enhanced method.
"""

from __future__ import annotations

import asyncio
import json
from typing import Literal

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.answer_screen import screen_answer
from inspect_plural.models import role_model
from inspect_plural.parsing import LabelParse, parse_choice
from inspect_plural.prediction import ModelAnswer, Prediction, main_failure
from inspect_plural.prompts import example_choice, example_key, load_template
from inspect_plural.records import PairSampleMetadata
from inspect_plural.solvers._ratings import tokens_of
from inspect_plural.structured import Structured, generate_answer, structured_value

__all__ = [
    "ASPECT_FIELDS",
    "ASPECT_TEMPLATE",
    "CHOICE_FORMAT",
    "ORDERS_DISAGREE",
    "ORDER_UNPARSED",
    "Order",
    "example_plot",
    "perse_aspect",
    "render_aspect_prompt",
]

ASPECT_TEMPLATE = "perse_aspect.txt"
ASPECT_FIELDS = {
    "aspect",
    "question",
    "example_a",
    "example_b",
    "example_choice",
    "plot_a",
    "plot_b",
}
ORDERS_DISAGREE = "orders_disagree"
"""Flag of a ``both_orders`` prediction whose choice changed with the order."""
ORDER_UNPARSED = "order_unparsed"
"""Flag of a ``both_orders`` prediction where one of the two answers did not parse."""

Order = Literal["AB", "BA"]


def render_aspect_prompt(
    metadata: PairSampleMetadata, order: Order = "AB", prompts: str | None = None
) -> str:
    """The aspect-enhanced prompt of one Per-DOC sample.

    Args:
        metadata: The sample's metadata.
        order: ``AB`` (the data's order) or ``BA`` (the new pair's plots swapped; the
            annotator's example is always shown as recorded).
        prompts: Folder of replacement templates.

    Returns:
        The prompt text.
    """
    template = load_template(
        ASPECT_TEMPLATE, ASPECT_FIELDS | {"example_plot"}, ASPECT_FIELDS, prompts
    )
    preference = metadata.preference
    pair = preference.pair if order == "AB" else preference.pair.swapped()
    return template.format(
        aspect=metadata.aspect_title,
        question=metadata.aspect_question,
        example_a=preference.example.pair.plot_a.strip(),
        example_b=preference.example.pair.plot_b.strip(),
        example_choice=preference.example.choice,
        plot_a=pair.plot_a.strip(),
        plot_b=pair.plot_b.strip(),
        example_plot=example_plot(metadata, order),
    )


def example_plot(metadata: PairSampleMetadata, order: Order = "AB") -> str:
    """The plot the prompt's JSON example chooses: drawn per sample and order.

    Args:
        metadata: The sample's metadata.
        order: The order asked in.

    Returns:
        ``Plot A`` or ``Plot B``.
    """
    return example_choice(["Plot A", "Plot B"], example_key(metadata, order))


CHOICE_FORMAT = JsonFormat(
    name="plot_choice",
    json_schema={
        "type": "object",
        "properties": {"choice": {"enum": ["Plot A", "Plot B"]}},
        "required": ["choice"],
    },
)
"""The answer ``perse_aspect`` asks for."""


def _unswap(label: str | None, order: Order) -> str | None:
    """A choice given under ``order``, in the data's order."""
    if label is None or order == "AB" or label == "N/A":
        return label
    return "Plot B" if label == "Plot A" else "Plot A"


def _combine(answers: list[ModelAnswer]) -> tuple[str | None, list[str], str | None]:
    """The prediction from the answers of one or two orders, its flags and any error."""
    parsed = [a for a in answers if a.parse_ok and a.label is not None]
    if not parsed:
        return None, [], "; ".join(dict.fromkeys(a.error or "no answer" for a in answers))
    flags = [ORDER_UNPARSED] if len(parsed) < len(answers) else []
    labels = {a.label for a in parsed}
    if len(labels) == 1:
        return parsed[0].label, flags, None
    return "N/A", [*flags, ORDERS_DISAGREE], None


@solver
def perse_aspect(
    both_orders: bool = False,
    temperature: float | None = 0.0,
    max_tokens: int | None = 600,
    seed: int | None = 42,
    prompts: str | None = None,
    structured: Structured = False,
) -> Solver:
    """Aspect-enhanced personalised comparison (PERSE, pairwise setting): 1 or 2 calls.

    Args:
        both_orders: Also ask with the new pair's plots swapped (2 concurrent calls); the
            prediction is the plot chosen in both orders, else ``N/A``.
        temperature: Sampling temperature (default 0; PERSE: 0.8; None: the provider's).
        max_tokens: Most new tokens (PERSE: 600; None: the provider's default).
        seed: Generation seed (None: unseeded).
        prompts: Folder of replacement prompt templates (``perse_aspect.txt``).
        structured: Constrain each answer to ``{"choice": "Plot A" | "Plot B"}``:
            ``True`` (Inspect's structured output) or ``"json_object"``
            (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction` with
        ``label`` = ``Plot A``, ``Plot B`` or ``N/A`` (in the data's order); each answer
        keeps the order it was given under.
    """
    # passed explicitly: a separate --model-role judge does not inherit the task's config
    config = GenerateConfig(temperature=temperature, max_tokens=max_tokens, seed=seed)
    structured = structured_value(structured)
    orders: list[Order] = ["AB", "BA"] if both_orders else ["AB"]

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(PairSampleMetadata)
        system = [m for m in state.messages if m.role == "system"]
        model = role_model("judge")

        async def ask(order: Order) -> tuple[ChatMessage, ModelOutput, str | None]:
            text = render_aspect_prompt(metadata, order, prompts)
            example = json.dumps({"choice": example_plot(metadata, order)})
            declared = CHOICE_FORMAT.model_copy(
                update={"example": example, "example_is_answer": True}
            )
            prompt = declare_answer_format(ChatMessageUser(content=text), declared)
            output, schema = await generate_answer(model, [*system, prompt], config, structured)
            return prompt, output, schema

        results = await asyncio.gather(*(ask(order) for order in orders))
        answers: list[ModelAnswer] = []
        messages: list[ChatMessage] = list(system)
        for order, (prompt, output, schema) in zip(orders, results):
            refusal = screen_answer(output.completion, [*system, prompt])
            parsed = (
                parse_choice(output.completion)
                if refusal is None
                else LabelParse(ok=False, error=refusal.error, failure=refusal.failure)
            )
            answers.append(
                ModelAnswer(
                    raw=output.completion,
                    parse_ok=parsed.ok,
                    error=parsed.error,
                    label=_unswap(parsed.label, order),
                    order=order,
                    read_as=parsed.read_as,
                    schema_name=schema,
                    failure=parsed.failure,
                )
            )
            messages += [prompt, output.message]
        state.messages = messages
        state.output = results[0][1]
        label, flags, error = _combine(answers)
        Prediction.detached(
            method="perse_aspect",
            label=label,
            parse_ok=label is not None,
            error=error,
            answers=answers,
            aggregate="both_orders" if both_orders else "single",
            model_calls=len(orders),
            tokens=sum(tokens_of(output) for _, output, _ in results),
            flags=flags,
            failure=None if label is not None else main_failure(a.failure for a in answers),
        ).write_to(state.store)
        return state

    return solve
