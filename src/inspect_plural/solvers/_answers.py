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

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, ModelOutput
from inspect_ai.util import Store

from inspect_plural.answer_format import DistributionFormat, LabelFormat, declare_answer_format
from inspect_plural.parsing import extract_field, parse_distribution, parse_label
from inspect_plural.prediction import ModelAnswer, Prediction
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
    "uniform_example",
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


def uniform_example(names: Sequence[str]) -> dict[str, float]:
    """A filled example distribution: every name equally likely, in hundredths summing to 1.

    ``1/n`` is floored to hundredths and the remaining hundredths go one each to the
    first names (three labels: 0.34, 0.33, 0.33). An answer that copies the example is
    then a chance-level answer, as uninformative as a distribution can be.

    Args:
        names: The labels or candidates, in listed order.

    Returns:
        Name -> probability.
    """
    share = 100 // len(names)
    rest = 100 - share * len(names)
    return {name: (share + (i < rest)) / 100 for i, name in enumerate(names)}


def quoted(names: Sequence[str]) -> str:
    """The names in double quotes, comma-separated, as the answer must spell them.

    Args:
        names: The labels or candidates.

    Returns:
        The list.
    """
    return ", ".join(json.dumps(name, ensure_ascii=False) for name in names)


def _json_example(labels: Sequence[str], mode: AnswerMode) -> str:
    """The filled example: the first label (label mode), the uniform distribution."""
    if mode == "label":
        example: dict[str, object] = {"label": labels[0]}
    else:
        example = dict(uniform_example(labels))
    return f"```json\n{json.dumps(example, ensure_ascii=False)}\n```"


Field = tuple[str, str] | tuple[str, str, str]
"""A line the answer opens with: its name, what it holds and a filled example."""


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
) -> tuple[str, DistributionFormat | LabelFormat]:
    """The closing instruction of a prompt and the answer format it declares.

    The instruction lists the allowed labels literally, as they must be spelled, and
    shows a filled example answer, never a placeholder a model could copy (issue 24):
    in label mode the example chooses the first label, in distribution mode it gives
    every label the same probability (:func:`uniform_example`), and it says it is an
    example. A copied example is then a constant first-label or chance-level answer,
    not a garbage answer that parses as something else.

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

    Returns:
        The instruction text and the format to declare on the prompt message.
    """
    allowed = quoted(labels)
    if fields:
        names = [field[0] for field in fields]
        described, filled = _field_lines(fields)
        if mode == "label":
            text = (
                "Answer in exactly this format, one line each, in this order:\n\n"
                f"{described}\n- Answer: exactly one of these labels, spelled as listed: "
                f"{allowed}\n\nFor example (the wording only illustrates the format):\n\n"
                f"{filled}\nAnswer: {labels[0]}"
            )
            return text, LabelFormat(labels=list(labels), style="lines", fields=names)
        text = (
            f"Answer in this format, one line each, in this order:\n\n{described}\n\n"
            "Then give the probability of each label as a JSON object in a ```json code "
            f"block with every one of these labels as a key, spelled as listed: {allowed}. "
            "Each value is a probability from 0 to 1 and the values sum to 1. For example "
            "(the wording only illustrates the format; this example finds every label "
            f"equally likely):\n\n{filled}\n\n{_json_example(labels, mode)}"
        )
        return text, DistributionFormat(options=list(labels), fields=names)
    lead = (lead or _REASONING) if reasoning else "Give no analysis."
    if mode == "label":
        text = (
            f"{lead} End your answer with a JSON object in a ```json code block whose "
            f'"label" is exactly one of these labels, spelled as listed: {allowed}. For '
            "example, an answer choosing the first label ends with:\n\n"
            f"{_json_example(labels, mode)}"
        )
        return text, LabelFormat(labels=list(labels), reasoning=reasoning)
    text = (
        f"{lead} End your answer with the probability that this person chose each label, as a "
        "JSON object in a ```json code block with every one of these labels as a key, "
        f"spelled as listed: {allowed}. Each value is a probability from 0 to 1 and the "
        "values sum to 1. For example, an answer that finds every label equally likely "
        f"ends with:\n\n{_json_example(labels, mode)}"
    )
    return text, DistributionFormat(options=list(labels), reasoning=reasoning)


def parse_answer(
    text: str,
    labels: Sequence[str],
    mode: AnswerMode,
    persona: str | None = None,
    aspect_field: str | None = None,
) -> ModelAnswer:
    """Parse one model answer into a :class:`ModelAnswer` (never raises on model text).

    Args:
        text: The model's output.
        labels: The labels of the sample's scale.
        mode: ``label`` or ``distribution`` (the top-1 option becomes the label).
        persona: Who answered, recorded with the answer.
        aspect_field: A field to read the persona's aspect from (``Character's aspect``).

    Returns:
        The parsed answer.
    """
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
        )
    dist = parse_distribution(text, list(labels))
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
    answer = parse_answer(output.completion, labels, mode, persona, aspect_field)
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
    ).write_to(store)
