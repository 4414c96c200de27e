"""Role identification (PersonaEval): a probability distribution over candidate speakers."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Literal

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural.answer_format import DistributionFormat, declare_answer_format
from inspect_plural.answer_screen import copied_distribution, refused_answer
from inspect_plural.models import role_model
from inspect_plural.parsing import parse_distribution
from inspect_plural.prediction import ModelAnswer, Prediction, main_failure
from inspect_plural.prompts import example_distribution, example_key, load_template
from inspect_plural.records import RoleCandidate, RoleExample, RoleSampleMetadata
from inspect_plural.solvers._limits import ROLE_ANSWER_MAX_TOKENS
from inspect_plural.structured import Structured, generate_answer, structured_value

__all__ = ["aggregate_answers", "render_role_prompt", "role_identification"]

SELF_CONSISTENCY_TEMPERATURE = 0.7
"""PersonaEval's sampling temperature for self-consistency (K > 1 answers)."""

TEMPLATE = "role_identification.txt"
EXAMPLE_TEMPLATE = "role_identification_example.txt"
TEMPLATE_FIELDS = {
    "n_candidates",
    "examples",
    "conversation",
    "candidates",
    "reasoning_instruction",
    "json_skeleton",
}
EXAMPLE_FIELDS = {"number", "conversation", "candidates", "answer"}

REASONING_INSTRUCTIONS = {
    True: "First reason through the evidence step by step.",
    False: "Give no analysis.",
}

Aggregate = Literal["majority", "mean"]


def _render_candidates(candidates: list[RoleCandidate]) -> str:
    return "\n\n".join(f"## {i}. {c.name}\n{c.profile}" for i, c in enumerate(candidates, 1))


def json_skeleton(metadata: RoleSampleMetadata) -> str:
    """The filled example answer: made-up probabilities drawn for the sample.

    They favour no candidate (the largest goes to a candidate drawn uniformly per
    sample), so a model that copies the example is right as often as chance, and an
    answer equal to them is refused as ``copied_example``
    (:mod:`inspect_plural.prompts._examples`). Never a placeholder to copy.

    Args:
        metadata: The sample's metadata.

    Returns:
        The example JSON object.
    """
    example = example_distribution(metadata.candidate_names, example_key(metadata))
    return json.dumps(example, ensure_ascii=False, indent=2)


def _render_example(number: int, example: RoleExample, template: str) -> str:
    answer = {c.name: (1.0 if c.name == example.true_role else 0.0) for c in example.candidates}
    return template.format(
        number=number,
        conversation=example.conversation,
        candidates=_render_candidates(example.candidates),
        answer=json.dumps(answer, ensure_ascii=False, indent=2),
    )


def render_role_prompt(
    metadata: RoleSampleMetadata,
    reasoning: bool = True,
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
) -> str:
    """The prompt for one role-identification sample.

    Args:
        metadata: The sample's metadata.
        reasoning: Ask for step-by-step analysis before the JSON answer.
        prompts: Folder of replacement templates.
        prompt_source: ``template`` (our wording, candidates in presentation order) or
            ``dataset`` (the dataset's own prompt, verbatim).

    Returns:
        The prompt text.

    """
    if prompt_source == "dataset":
        if not metadata.source_prompt:
            raise ValueError(f"sample {metadata.item_id} has no dataset prompt")
        if metadata.examples:
            raise ValueError("few-shot examples need prompt_source='template'")
        return metadata.source_prompt
    template = load_template(TEMPLATE, TEMPLATE_FIELDS, {"conversation", "candidates"}, prompts)
    examples = ""
    if metadata.examples:
        example_template = load_template(EXAMPLE_TEMPLATE, EXAMPLE_FIELDS, EXAMPLE_FIELDS, prompts)
        rendered = [
            _render_example(i, ex, example_template) for i, ex in enumerate(metadata.examples, 1)
        ]
        examples = "\n# Solved Examples\n\n" + "\n\n".join(rendered) + "\n"
    return template.format(
        n_candidates=len(metadata.candidates),
        examples=examples,
        conversation=metadata.conversation,
        candidates=_render_candidates(metadata.candidates),
        reasoning_instruction=REASONING_INSTRUCTIONS[reasoning],
        json_skeleton=json_skeleton(metadata),
    )


def _answer(
    output: ModelOutput,
    names: list[str],
    schema: str | None,
    messages: list[ChatMessage],
    declared: DistributionFormat,
) -> ModelAnswer:
    text = output.completion
    refused = refused_answer(text, messages)
    if refused is not None:
        refused.schema_name = schema
        return refused
    parsed = parse_distribution(text, names)
    copied = copied_distribution(parsed.distribution, declared)
    if copied is not None:
        return ModelAnswer(
            raw=text, parse_ok=False, error=copied.error, failure=copied.failure, schema_name=schema
        )
    if not parsed.ok or parsed.distribution is None:
        return ModelAnswer(
            raw=text,
            parse_ok=False,
            error=parsed.error,
            schema_name=schema,
            failure=parsed.failure,
        )
    dist = parsed.distribution
    return ModelAnswer(
        raw=text,
        parse_ok=True,
        distribution=dist,
        label=max(names, key=lambda n: dist[n]),  # first listed on ties
        renormalised=parsed.renormalised,
        read_as=parsed.read_as,
        schema_name=schema,
    )


def aggregate_answers(
    answers: list[ModelAnswer], names: list[str], aggregate: Aggregate
) -> tuple[dict[str, float] | None, str | None]:
    """Combine several parsed answers into one distribution and label.

    ``mean`` averages the distributions; ``majority`` takes the vote shares of the
    answers' top-1 choices as the distribution. The label is the option with the most
    probability (mean) or votes (majority); ties go to the higher mean probability,
    then to the candidate listed first. Failed answers are left out.

    Args:
        answers: The parsed answers.
        names: Candidate names in presentation order.
        aggregate: ``mean`` or ``majority``.

    Returns:
        The distribution and label, or ``(None, None)`` when no answer parsed.

    """
    parsed = [a.distribution for a in answers if a.parse_ok and a.distribution]
    if not parsed:
        return None, None
    mean = {n: sum(d[n] for d in parsed) / len(parsed) for n in names}
    if aggregate == "mean":
        return mean, max(names, key=lambda n: mean[n])
    votes = Counter(a.label for a in answers if a.parse_ok and a.label)
    shares = {n: votes.get(n, 0) / len(parsed) for n in names}
    return shares, max(names, key=lambda n: (shares[n], mean[n]))


def _rationale(text: str) -> str | None:
    cut = text.rfind("```")
    head = text[: text.rfind("```", 0, cut)] if cut > 0 else text
    return head.strip() or None


@solver
def role_identification(
    reasoning: bool = True,
    self_consistency: int = 1,
    aggregate: Aggregate = "mean",
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
    seed: int | None = 42,
    temperature: float | None = None,
    max_tokens: int | None = ROLE_ANSWER_MAX_TOKENS,
    structured: Structured = False,
) -> Solver:
    """Ask for a probability distribution over the candidate speakers.

    Follows PersonaEval's formulation: the conversation, the candidates with their
    profiles, and a JSON object mapping each candidate to a probability, optionally
    after step-by-step analysis. Few-shot examples come from the sample metadata
    (the task's ``few_shot`` parameter). The model may be given the ``judge`` role.

    Args:
        reasoning: Ask for step-by-step analysis before the JSON.
        self_consistency: K answers per sample, issued concurrently (K calls).
        aggregate: How K answers combine: ``mean`` of distributions or ``majority`` of top-1.
        prompts: Folder of replacement prompt templates.
        prompt_source: ``template`` (our wording) or ``dataset`` (the dataset's prompt).
        seed: Generation seed of the first answer; answer i uses ``seed + i``, so K
            answers stay distinct under ``--cache`` and seeded providers. None: unseeded.
        temperature: Sampling temperature of every call (None: 0.0, or 0.7 with
            self-consistency, PersonaEval's settings). Passed on every call, so a
            separate ``--model-role judge`` model samples as the task says.
        max_tokens: Output token cap of every call (None: the provider's).
        structured: Constrain each answer to the distribution's JSON schema: ``True``
            (Inspect's structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`~inspect_plural.prediction.Prediction`.

    """
    if self_consistency < 1:
        raise ValueError("self_consistency must be at least 1")
    if aggregate not in ("mean", "majority"):
        raise ValueError("aggregate must be 'mean' or 'majority'")
    if temperature is None:
        temperature = 0.0 if self_consistency == 1 else SELF_CONSISTENCY_TEMPERATURE
    base = GenerateConfig(temperature=temperature, max_tokens=max_tokens)
    structured = structured_value(structured)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RoleSampleMetadata)
        names = metadata.candidate_names
        text = render_role_prompt(metadata, reasoning, prompts, prompt_source)
        kept: list[ChatMessage] = [m for m in state.messages if m.role == "system"]
        rest = [m for m in state.messages if m.role != "system"]
        if len(rest) == 1 and isinstance(rest[0], ChatMessageUser):
            # the sample's input message becomes the prompt (fewer changes to log than
            # a new message in its place)
            prompt = rest[0]
            prompt.content = text
        else:
            prompt = ChatMessageUser(content=text)
        declared = DistributionFormat(
            options=names,
            reasoning=reasoning,
            example=json_skeleton(metadata) if prompt_source == "template" else None,
        )
        declare_answer_format(prompt, declared)
        state.messages = [*kept, prompt]

        model = role_model("judge")
        results = await asyncio.gather(
            *[
                generate_answer(
                    model,
                    state.messages,
                    base.merge(GenerateConfig(seed=None if seed is None else seed + i)),
                    structured,
                )
                for i in range(self_consistency)
            ]
        )
        outputs = [output for output, _ in results]
        shown = list(state.messages)
        answers = [_answer(output, names, schema, shown, declared) for output, schema in results]
        state.output = outputs[0]
        state.messages.append(outputs[0].message)

        distribution, label = aggregate_answers(answers, names, aggregate)
        Prediction.detached(
            method="role_identification",
            label=label,
            distribution=distribution,
            parse_ok=distribution is not None,
            error=None if distribution is not None else "; ".join(a.error or "" for a in answers),
            renormalised=any(a.renormalised for a in answers if a.parse_ok),
            rationale=_rationale(outputs[0].completion),
            answers=answers,
            aggregate="single" if self_consistency == 1 else aggregate,
            model_calls=len(outputs),
            failure=None if distribution is not None else main_failure(a.failure for a in answers),
        ).write_to(state.store)
        return state

    return solve
