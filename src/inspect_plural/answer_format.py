"""Answer formats: the contract between a method's prompt and its parser.

Every solver declares, once, the shape of the answer it asks for by attaching an
:data:`AnswerFormat` to the prompt message it sends (``declare_answer_format``).
Real providers never see it (Inspect does not send message metadata); the offline
chance model ``plural/random`` reads it and answers with a uniformly random,
well-formed answer of exactly that shape. Adding a method therefore means adding
(or reusing) a format here, never teaching the chance model to read prompts.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Literal

from inspect_ai.model import ChatMessage
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

__all__ = [
    "ANSWER_FORMAT_KEY",
    "AnswerFormat",
    "CharacterListFormat",
    "DistributionFormat",
    "LabelFormat",
    "declare_answer_format",
    "declared_answer_format",
]

ANSWER_FORMAT_KEY = "inspect_plural/answer_format"
"""Key of the answer format in ``ChatMessage.metadata``."""


class DistributionFormat(BaseModel):
    """A JSON object mapping every option to a probability (summing to 1).

    Attributes:
        options: The option names, exactly as they must appear as keys.

    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["distribution"] = "distribution"
    options: list[str] = Field(min_length=2)

    def random_answer(self, rng: random.Random) -> str:
        """A uniformly random distribution over the options (a flat Dirichlet draw).

        Args:
            rng: Source of randomness.

        Returns:
            A short analysis line and the distribution as a fenced JSON block.

        """
        draws = [rng.gammavariate(1.0, 1.0) for _ in self.options]
        total = sum(draws)
        # millionths, floored, the remainder to the last: none negative, the sum exactly 1
        units = [int(d / total * 1_000_000) for d in draws[:-1]]
        units.append(1_000_000 - sum(units))
        probs = [u / 1_000_000 for u in units]
        body = json.dumps(dict(zip(self.options, probs)), ensure_ascii=False, indent=2)
        return f"Chance-level answer (plural/random).\n\n```json\n{body}\n```"


class LabelFormat(BaseModel):
    """A single label of a scale.

    Attributes:
        labels: The allowed labels.
        style: ``json`` (a fenced ``{"label": ...}`` object), ``lines`` (``Name: value``
            lines, one per entry of ``fields``, then ``Answer: <label>``, as in the
            CINEMETRIC prompts) or ``bare`` (the label alone, e.g. VALID/INVALID).
        fields: The lines written before the answer in the ``lines`` style.

    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["label"] = "label"
    labels: list[str] = Field(min_length=2)
    style: Literal["json", "lines", "bare"] = "json"
    fields: list[str] = Field(default_factory=list)

    def random_answer(self, rng: random.Random) -> str:
        """A uniformly random label, in the declared style.

        Args:
            rng: Source of randomness.

        Returns:
            The answer text.

        """
        label = rng.choice(self.labels)
        if self.style == "bare":
            return label
        if self.style == "lines":
            lines = [f"{name}: chance-level answer (plural/random)" for name in self.fields]
            return "\n".join([*lines, f"Answer: {label}"])
        return f"```json\n{json.dumps({'label': label}, ensure_ascii=False)}\n```"


class CharacterListFormat(BaseModel):
    """A numbered list of movie characters, each with its movie and a rationale.

    Each entry is written as ``Character Name: ...``, ``Movie Title: ...`` and
    ``Reasoning: ...`` lines (the CINEMETRIC selection format).

    Attributes:
        count: How many characters are asked for.

    """

    model_config = ConfigDict(frozen=True)

    kind: Literal["characters"] = "characters"
    count: int = Field(ge=1)

    def random_answer(self, rng: random.Random) -> str:
        """``count`` distinct made-up characters (clearly marked as chance-level).

        Args:
            rng: Source of randomness.

        Returns:
            The list, one blank-line-separated block per character.

        """
        numbers = rng.sample(range(1, 1000), self.count)
        blocks = [
            f"{i}. Character Name: Demo Character {n}\n"
            f"Movie Title: Demo Movie {n % 97}\n"
            "Reasoning: chosen at random by the chance-level model (plural/random)."
            for i, n in enumerate(numbers, start=1)
        ]
        return "\n\n".join(blocks)


AnswerFormat = Annotated[
    DistributionFormat | LabelFormat | CharacterListFormat, Field(discriminator="kind")
]
"""Every answer format a method can declare."""

_ADAPTER: TypeAdapter[DistributionFormat | LabelFormat | CharacterListFormat] = TypeAdapter(
    AnswerFormat
)


def declare_answer_format(
    message: ChatMessage, answer_format: DistributionFormat | LabelFormat | CharacterListFormat
) -> ChatMessage:
    """Attach an answer format to the message that asks for the answer.

    Args:
        message: The prompt message (normally the last user message).
        answer_format: The shape of the answer the prompt asks for.

    Returns:
        The same message, with the format in its metadata.

    """
    message.metadata = {
        **(message.metadata or {}),
        ANSWER_FORMAT_KEY: answer_format.model_dump(),
    }
    return message


def declared_answer_format(
    messages: list[ChatMessage],
) -> DistributionFormat | LabelFormat | CharacterListFormat | None:
    """The answer format declared by the most recent message that declares one.

    Args:
        messages: The conversation sent to the model.

    Returns:
        The format, or None when no message declares one.

    """
    for message in reversed(messages):
        if message.metadata and ANSWER_FORMAT_KEY in message.metadata:
            return _ADAPTER.validate_python(message.metadata[ANSWER_FORMAT_KEY])
    return None
