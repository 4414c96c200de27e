"""Answer formats: the contract between a method's prompt and its parser.

Every solver declares, once, the shape of the answer it asks for by attaching an
:data:`AnswerFormat` to the prompt message it sends (``declare_answer_format``).
Real providers never see it (Inspect does not send message metadata); the offline
chance model ``plural/random`` reads it and answers with a uniformly random,
well-formed answer of exactly that shape. Adding a method therefore means adding
(or reusing) a format here, never teaching the chance model to read prompts.

A format also carries the filled example its prompt shows (``example``), so that an
answer copying it is recognised (:mod:`inspect_plural.answer_screen`) and a test's
scripted model can copy it.
"""

from __future__ import annotations

import json
import random
from typing import Annotated, Any, Literal

from inspect_ai.model import ChatMessage
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from inspect_plural._schema_instance import random_instance

__all__ = [
    "ANSWER_FORMAT_KEY",
    "AnyFormat",
    "AnswerFormat",
    "CharacterListFormat",
    "DistributionFormat",
    "JsonFormat",
    "LabelFormat",
    "NumberFormat",
    "ScoreLinesFormat",
    "TextFormat",
    "declare_answer_format",
    "dump_answer_format",
    "declared_answer_format",
]

ANSWER_FORMAT_KEY = "inspect_plural/answer_format"
"""Key of the answer format in ``ChatMessage.metadata``."""


class _Format(BaseModel):
    """What every answer format has: the filled example its prompt shows.

    Attributes:
        example: The example answer as the prompt shows it (None: the prompt shows none).
        example_is_answer: Whether the example is nothing but one allowed answer (a copy
            of it is then an answer like any other).

    """

    model_config = ConfigDict(frozen=True)

    example: str | None = None
    example_is_answer: bool = False

    def copy_is_no_answer(self) -> bool:
        """Whether an answer identical to the example cannot be an honest answer.

        True where the example holds free text or made-up numbers an honest answer would
        not repeat; False where it is nothing but an allowed answer
        (``example_is_answer``: ``{"label": "hate speech"}``, ``3``, ``{"choice": "Plot
        B"}``): a copy is then indistinguishable from that answer, and the example drawn
        per sample (:mod:`inspect_plural.prompts._examples`) keeps copying at chance.

        Returns:
            Whether a copy of the example is refused.
        """
        return self.example is not None and not self.example_is_answer


class DistributionFormat(_Format):
    """A JSON object mapping every option to a probability (summing to 1).

    Attributes:
        options: The option names, exactly as they must appear as keys.
        reasoning: Whether the prompt asks for free-text reasoning before the answer
            (with structured output the schema then holds a ``reasoning`` string first).
        fields: ``Name: value`` lines the prompt asks for before the distribution
            (CINEMETRIC's role-play; with structured output, strings before it).

    """

    kind: Literal["distribution"] = "distribution"
    options: list[str] = Field(min_length=2)
    reasoning: bool = False
    fields: list[str] = Field(default_factory=list)

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


class LabelFormat(_Format):
    """A single label of a scale.

    Attributes:
        labels: The allowed labels.
        style: ``json`` (a fenced ``{"label": ...}`` object), ``lines`` (``Name: value``
            lines, one per entry of ``fields``, then ``Answer: <label>``, as in the
            CINEMETRIC prompts) or ``bare`` (the label alone, e.g. VALID/INVALID).
        fields: The lines written before the answer in the ``lines`` style.
        reasoning: Whether the prompt asks for free-text reasoning before the answer
            (``json`` style; with structured output the schema then holds a
            ``reasoning`` string first).

    """

    kind: Literal["label"] = "label"
    labels: list[str] = Field(min_length=2)
    style: Literal["json", "lines", "bare"] = "json"
    fields: list[str] = Field(default_factory=list)
    reasoning: bool = False

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


class CharacterListFormat(_Format):
    """A numbered list of movie characters, each with its movie and a rationale.

    Each entry is written as ``Character Name: ...``, ``Movie Title: ...`` and
    ``Reasoning: ...`` lines (the CINEMETRIC selection format).

    Attributes:
        count: How many characters are asked for.

    """

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


class JsonFormat(_Format):
    """A JSON object following a JSON schema (in a fenced block, prose around it allowed).

    Used for every structured answer whose fields the method defines: stakeholder
    extraction, persona writing, debate turns, the moderator's pick. The schema is the
    one pydantic writes (``Model.model_json_schema()``) or a hand-built one.

    Attributes:
        json_schema: The JSON schema the object follows.
        prefix_choices: Optional plain-text markers the answer may carry (e.g.
            ``NO MORE COMMENTS``); the chance model picks one of them or none and
            writes it as the last line of its answer, after the JSON block, where the
            prompts ask for the debate's termination phrase (the name is kept for
            compatibility: the marker used to open the answer).
        name: The schema's name when it constrains the answer (structured output;
            letters, digits, ``_`` and ``-``).

    """

    kind: Literal["json"] = "json"
    json_schema: dict[str, Any]
    prefix_choices: list[str] = Field(default_factory=list)
    name: str = Field(default="answer", pattern=r"^[A-Za-z0-9_-]{1,64}$")

    def random_answer(self, rng: random.Random) -> str:
        """A random instance of the schema, in a fenced JSON block.

        Args:
            rng: Source of randomness.

        Returns:
            The answer text.

        """
        value = random_instance(self.json_schema, rng)
        body = json.dumps(value, ensure_ascii=False, indent=2)
        answer = f"Chance-level answer (plural/random).\n\n```json\n{body}\n```"
        if self.prefix_choices and rng.random() < 0.5:
            answer += f"\n\n{rng.choice(self.prefix_choices)}"
        return answer


class NumberFormat(_Format):
    """A bare integer score (G-Eval's form filling: the score and nothing else).

    The chance model also returns top log-probabilities over the score tokens when the
    call asks for ``logprobs``, and ``num_choices`` samples when asked for several.

    Attributes:
        low: The lowest score.
        high: The highest score.

    """

    kind: Literal["number"] = "number"
    low: int = 1
    high: int = 5

    def random_answer(self, rng: random.Random) -> str:
        """A uniformly random integer score.

        Args:
            rng: Source of randomness.

        Returns:
            The score as text.

        """
        return str(rng.randint(self.low, self.high))


class ScoreLinesFormat(_Format):
    """Free-text evidence then one ``<Dimension> score: X`` line per dimension (ChatEval).

    Attributes:
        titles: The dimension titles, in order.
        low: The lowest score.
        high: The highest score.

    """

    kind: Literal["score_lines"] = "score_lines"
    titles: list[str] = Field(min_length=1)
    low: int = 1
    high: int = 5

    def random_answer(self, rng: random.Random) -> str:
        """Chance-level evidence and a random score per dimension.

        Args:
            rng: Source of randomness.

        Returns:
            The answer text.

        """
        lines = [f"{title} score: {rng.randint(self.low, self.high)}" for title in self.titles]
        return "Evaluation evidence: chance-level answer (plural/random).\n" + "\n".join(lines)


class TextFormat(_Format):
    """Free text with no required structure (a discussion turn, a running summary)."""

    kind: Literal["text"] = "text"

    def random_answer(self, rng: random.Random) -> str:
        """A short chance-level remark.

        Args:
            rng: Source of randomness.

        Returns:
            The answer text.

        """
        return f"Chance-level remark {rng.randint(1, 10_000)} (plural/random)."


AnyFormat = (
    DistributionFormat
    | LabelFormat
    | CharacterListFormat
    | JsonFormat
    | NumberFormat
    | ScoreLinesFormat
    | TextFormat
)
"""The union of the format classes."""

AnswerFormat = Annotated[AnyFormat, Field(discriminator="kind")]
"""Every answer format a method can declare."""

_ADAPTER: TypeAdapter[AnyFormat] = TypeAdapter(AnswerFormat)


def dump_answer_format(answer_format: AnyFormat) -> dict[str, Any]:
    """A format as JSON values, its example fields only when set (every prompt's is logged).

    Args:
        answer_format: The format.

    Returns:
        The dump :func:`declared_answer_format` reads back.
    """
    unset = set()
    if answer_format.example is None:
        unset.add("example")
    if not answer_format.example_is_answer:
        unset.add("example_is_answer")
    return answer_format.model_dump(exclude=unset)


def declare_answer_format(message: ChatMessage, answer_format: AnyFormat) -> ChatMessage:
    """Attach an answer format to the message that asks for the answer.

    Args:
        message: The prompt message (normally the last user message).
        answer_format: The shape of the answer the prompt asks for.

    Returns:
        The same message, with the format in its metadata.

    """
    message.metadata = {
        **(message.metadata or {}),
        ANSWER_FORMAT_KEY: dump_answer_format(answer_format),
    }
    return message


def declared_answer_format(
    messages: list[ChatMessage],
) -> AnyFormat | None:
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
