"""The answer of an annotator-level method: a label or a distribution over the labels.

Every annotator-level method takes ``answer_format="label"|"distribution"``. This module
holds what they share: the response-format instruction that ends each prompt, the
matching :mod:`~inspect_plural.answer_format` declaration, the parse into a
:class:`~inspect_plural.prediction.ModelAnswer`, the combination of several answers
(majority vote, mean distribution) and the final :class:`Prediction`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Literal

from inspect_ai.model import ChatMessage, ChatMessageUser, GenerateConfig, Model, ModelOutput
from inspect_ai.util import Store

from inspect_plural._replies import reply_error
from inspect_plural.answer_format import (
    DistributionFormat,
    LabelFormat,
    declare_answer_format,
    declared_answer_format,
)
from inspect_plural.answer_screen import copied_distribution, refused_answer
from inspect_plural.parsing import FailureReason, extract_field, parse_distribution, parse_label
from inspect_plural.prediction import ModelAnswer, Prediction, main_failure
from inspect_plural.prompts import example_choice, example_distribution
from inspect_plural.structured import Structured, generate_answer

__all__ = [
    "ANSWER_FORMATS",
    "AnswerMode",
    "ask",
    "check_answer_format",
    "combine",
    "parse_answer",
    "quoted",
    "response_format",
    "write_prediction",
]

AnswerMode = Literal["label", "distribution"]
ANSWER_FORMATS: tuple[AnswerMode, ...] = ("label", "distribution")
"""Values of every annotator-level method's ``answer_format`` option."""

_REASONING = "First think briefly about how this person would see the content."


def check_answer_format(answer_format: str) -> AnswerMode:
    """Validate an ``answer_format`` option.

    Args:
        answer_format: The option value.

    Returns:
        The value, typed.

    Raises:
        ValueError: It is not ``label`` or ``distribution``.
    """
    if answer_format not in ANSWER_FORMATS:
        raise ValueError(
            f"answer_format must be one of {list(ANSWER_FORMATS)}, not {answer_format!r}"
        )
    return answer_format


def quoted(names: Sequence[str]) -> str:
    """The names in double quotes, comma-separated, as the answer must spell them.

    Args:
        names: The labels or candidates.

    Returns:
        The list.
    """
    return ", ".join(json.dumps(name, ensure_ascii=False) for name in names)


def _json_example(labels: Sequence[str], mode: AnswerMode, key: str) -> str:
    """The filled example, drawn for the prompt's key: a label, or made-up shares."""
    if mode == "label":
        example: dict[str, object] = {"label": example_choice(labels, key)}
    else:
        example = dict(example_distribution(labels, key))
    return json.dumps(example, ensure_ascii=False)


Field = tuple[str, str] | tuple[str, str, str]
"""A line the answer opens with: its name, what it holds and a filled example."""


def _fenced(body: str) -> str:
    return f"```json\n{body}\n```"


def _field_lines(fields: Sequence[Field]) -> tuple[str, str]:
    """The description of each line, and the same lines filled in as an example."""
    described = "\n".join(f"- {field[0]}: {field[1]}" for field in fields)
    examples = [
        field[2] if len(field) == 3 else field[1][:1].upper() + field[1][1:] for field in fields
    ]
    filled = "\n".join(
        f"{field[0]}: {example.rstrip('.')}." for field, example in zip(fields, examples)
    )
    return described, filled


def response_format(
    mode: AnswerMode,
    labels: Sequence[str],
    reasoning: bool = True,
    fields: Sequence[Field] = (),
    lead: str | None = None,
    example_key: str = "",
) -> tuple[str, DistributionFormat | LabelFormat]:
    """The closing instruction of a prompt and the answer format it declares.

    The instruction lists the allowed labels literally, as they must be spelled, and
    shows a filled example answer, never a placeholder a model could copy (issue 24),
    and says it is an example. The example is drawn for ``example_key`` (the sample,
    :mod:`inspect_plural.prompts._examples`): in label mode a label drawn uniformly, in
    distribution mode made-up shares. A model that copies it answers at chance (no
    example favours a label, issue 34), and a copied distribution or copied free-text
    lines are refused as ``copied_example`` (the declared format's ``example``).

    Args:
        mode: ``label`` or ``distribution``.
        labels: The labels of the sample's scale.
        reasoning: Ask for brief reasoning first (ignored when ``fields`` are given).
        fields: ``(name, description)`` or ``(name, description, example)`` lines the
            answer opens with, e.g. ``("Reasoning", ...)`` and ``("Character's aspect",
            ...)``; with fields a label is asked as a final ``Answer:`` line (the
            CINEMETRIC format). The example fills each line with ``example`` (or the
            description itself).
        lead: The sentence asking for reasoning first (default: about how "this
            person" sees the content; a persona answering as itself is asked about
            how it sees it).
        example_key: What the example is drawn for: the sample's id (and the persona,
            when a sample asks several).

    Returns:
        The instruction text and the format to declare on the prompt message.
    """
    allowed = quoted(labels)
    if fields:
        names = [field[0] for field in fields]
        described, filled = _field_lines(fields)
        if mode == "label":
            example = f"{filled}\nAnswer: {example_choice(labels, example_key)}"
            text = (
                "Answer in exactly this format, one line each, in this order:\n\n"
                f"{described}\n- Answer: exactly one of these labels, spelled as listed: "
                f"{allowed}\n\nFor example (the wording and the label only illustrate "
                f"the format):\n\n{example}"
            )
            return text, LabelFormat(
                labels=list(labels), style="lines", fields=names, example=example
            )
        body = _json_example(labels, mode, example_key)
        text = (
            f"Answer in this format, one line each, in this order:\n\n{described}\n\n"
            "Then give the probability of each label as a JSON object in a ```json code "
            f"block with every one of these labels as a key, spelled as listed: {allowed}. "
            "Each value is a probability from 0 to 1 and the values sum to 1. For example "
            "(the wording and the numbers are made up and only illustrate the format):"
            f"\n\n{filled}\n\n{_fenced(body)}"
        )
        return text, DistributionFormat(options=list(labels), fields=names, example=body)
    lead = (lead or _REASONING) if reasoning else "Give no analysis."
    body = _json_example(labels, mode, example_key)
    if mode == "label":
        text = (
            f"{lead} End your answer with a JSON object in a ```json code block whose "
            f'"label" is exactly one of these labels, spelled as listed: {allowed}. For '
            "example (the label only illustrates the format), an answer could end "
            f"with:\n\n{_fenced(body)}"
        )
        return text, LabelFormat(
            labels=list(labels), reasoning=reasoning, example=body, example_is_answer=True
        )
    text = (
        f"{lead} End your answer with the probability that this person chose each label, as a "
        "JSON object in a ```json code block with every one of these labels as a key, "
        f"spelled as listed: {allowed}. Each value is a probability from 0 to 1 and the "
        "values sum to 1. For example (the numbers are made up and only illustrate the "
        f"format), an answer could end with:\n\n{_fenced(body)}"
    )
    return text, DistributionFormat(options=list(labels), reasoning=reasoning, example=body)


def parse_answer(
    text: str,
    labels: Sequence[str],
    mode: AnswerMode,
    persona: str | None = None,
    aspect_field: str | None = None,
    messages: Sequence[ChatMessage] = (),
) -> ModelAnswer:
    """Parse one model answer into a :class:`ModelAnswer` (never raises on model text).

    Given the messages the model was shown, an echo of them or a copy of their example
    is refused first (:func:`refused_answer`), and a distribution equal to the example's
    made-up one is refused after parsing.

    Args:
        text: The model's output.
        labels: The labels of the sample's scale.
        mode: ``label`` or ``distribution`` (the top-1 option becomes the label).
        persona: Who answered, recorded with the answer.
        aspect_field: A field to read the persona's aspect from (``Character's aspect``).
        messages: The conversation the answer replies to (none: not screened).

    Returns:
        The parsed answer.
    """
    refused = refused_answer(text, messages, persona) if messages else None
    if refused is not None:
        return refused
    aspect = extract_field(text, aspect_field) if aspect_field else None
    if mode == "label":
        parsed = parse_label(text, list(labels))
        return ModelAnswer(
            raw=text,
            parse_ok=parsed.ok,
            error=parsed.error,
            label=parsed.label,
            persona=persona,
            aspect=aspect,
            read_as=parsed.read_as,
            failure=parsed.failure,
        )
    dist = parse_distribution(text, list(labels))
    declared = declared_answer_format(list(messages)) if messages else None
    copied = copied_distribution(
        dist.distribution, declared if isinstance(declared, DistributionFormat) else None
    )
    if copied is not None:
        return ModelAnswer(
            raw=text,
            parse_ok=False,
            error=copied.error,
            failure=copied.failure,
            persona=persona,
            aspect=aspect,
        )
    label = None
    if dist.ok and dist.distribution:
        label = max(labels, key=lambda name: dist.distribution.get(name, 0.0))  # type: ignore[union-attr]
    return ModelAnswer(
        raw=text,
        parse_ok=dist.ok,
        error=dist.error,
        distribution=dist.distribution,
        label=label,
        renormalised=dist.renormalised,
        persona=persona,
        aspect=aspect,
        read_as=dist.read_as,
        failure=dist.failure,
    )


async def ask(
    model: Model,
    prompt: str,
    answer_format: DistributionFormat | LabelFormat,
    config: GenerateConfig,
    labels: Sequence[str],
    mode: AnswerMode,
    persona: str | None = None,
    aspect_field: str | None = None,
    structured: Structured = False,
) -> tuple[ModelAnswer, ModelOutput]:
    """One model call: send the prompt with its declared format and parse the answer.

    Args:
        model: The model to ask.
        prompt: The user prompt.
        answer_format: The format the prompt asks for (see :func:`response_format`).
        config: Generation config (temperature and seed, given explicitly).
        labels: The labels of the sample's scale.
        mode: ``label`` or ``distribution``.
        persona: Who answers, recorded with the answer.
        aspect_field: A field to read the persona's aspect from.
        structured: Constrain the answer to its format's schema (see
            :mod:`inspect_plural.structured`).

    Returns:
        The parsed answer (with the schema that constrained it) and the raw model output.
    """
    message = declare_answer_format(ChatMessageUser(content=prompt), answer_format)
    output, schema = await generate_answer(model, [message], config, structured)
    answer = parse_answer(output.completion, labels, mode, persona, aspect_field, [message])
    answer.error = reply_error(output) or answer.error
    if schema is not None:
        answer.schema_name = schema
    return answer, output


def combine(
    answers: Sequence[ModelAnswer], labels: Sequence[str]
) -> tuple[str | None, dict[str, float] | None]:
    """Majority vote over the answers' labels, and the mean of their distributions.

    Unparsed answers do not vote. Ties go to the label of the earliest answer among the
    tied ones, so with three different answers the first-listed persona's answer wins
    (CINEMETRIC's rule).

    Args:
        answers: The answers, in listed order.
        labels: The labels of the scale.

    Returns:
        The voted label (None when no answer parsed) and the mean distribution over the
        labels of the answers that have one (None when none has).
    """
    votes = [a.label for a in answers if a.parse_ok and a.label in labels]
    label = None
    if votes:
        counts = Counter(votes)  # insertion order = first occurrence
        best = max(counts.values())
        label = next(name for name in counts if counts[name] == best)
    dists = [a.distribution for a in answers if a.parse_ok and a.distribution]
    mean = None
    if dists:
        mean = {name: sum(d.get(name, 0.0) for d in dists) / len(dists) for name in labels}
    return label, mean


def write_prediction(
    store: Store,
    method: str,
    answers: Sequence[ModelAnswer],
    labels: Sequence[str],
    model_calls: int,
    aggregate: str = "single",
    error: str | None = None,
    rationale: str | None = None,
    failure: FailureReason | None = None,
) -> None:
    """Combine the answers and write the sample's :class:`Prediction`.

    Args:
        store: The sample's store.
        method: The method's name.
        answers: Every answer behind the prediction, in listed order.
        labels: The labels of the scale.
        model_calls: The model calls this sample made (persona work included).
        aggregate: How the answers were combined (``single``, ``majority``).
        error: Why there is no prediction, when it is known before any answer.
        rationale: What the prediction rests on (default: the vote, for several answers).
        failure: Why there is no prediction, when it is known before any answer
            (default: the most frequent reason of the failed answers).
    """
    label, distribution = combine(answers, labels)
    ok = label is not None and error is None
    if not ok and error is None:
        failed = [a.error for a in answers if a.error]
        error = "; ".join(dict.fromkeys(failed)) or "no answer"
    voted = ", ".join(
        f"{a.persona or i + 1}: {a.label or 'unparsed'}" for i, a in enumerate(answers)
    )
    if rationale is None and len(answers) > 1:
        rationale = f"{voted} -> {label}"
    Prediction.detached(
        method=method,
        label=label,
        distribution=distribution,
        parse_ok=ok,
        error=None if ok else error,
        renormalised=any(a.renormalised for a in answers),
        rationale=rationale,
        answers=list(answers),
        aggregate=aggregate,
        model_calls=model_calls,
        failure=None if ok else (failure or main_failure(a.failure for a in answers)),
    ).write_to(store)
