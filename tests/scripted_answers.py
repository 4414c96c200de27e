"""Scripted models that answer as broken real models do: an echo, a copy, a first label.

Three offline models (Inspect model APIs, registered on import under
``scripted_answers/<kind>``), each the behaviour of a real small model seen in issue 34:

- ``scripted_answers/echo`` returns its prompt (the system and user messages), as
  Gemma 3 270M, a base model, did for every prompt;
- ``scripted_answers/copy`` returns the prompt's filled example (the declared format's
  ``example``, else the prompt's last fenced JSON block), as SmolLM2-135M did when
  constrained;
- ``scripted_answers/first_label`` returns the first allowed answer of the declared
  format: the first label or plot, all probability on the first option, the lowest
  score on every dimension.

Where a behaviour has nothing to give (a prompt without an example, free text, the
first-label model asked for a CINEMETRIC character list), the answer is
``plural/random``'s, so every protocol still runs to its end. The pluralism profile's
validity tests reuse these models: import this module and pass
``scripted_answers/echo`` (etc.) as the model.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any, Literal

from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelAPI, ModelOutput, modelapi
from inspect_ai.model import get_model as _get_model
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import ScriptedModelAPI

from inspect_plural.answer_format import (
    AnyFormat,
    DistributionFormat,
    JsonFormat,
    LabelFormat,
    NumberFormat,
    ScoreLinesFormat,
    TextFormat,
    declared_answer_format,
)
from inspect_plural.answer_screen import prompt_text

__all__ = ["KINDS", "AnswerKind", "ScriptedAnswersAPI", "answer_model", "scripted_answer"]

AnswerKind = Literal["echo", "copy", "first_label"]
KINDS: tuple[AnswerKind, ...] = ("echo", "copy", "first_label")

_FENCED = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


def _random(declared: AnyFormat | None, messages: list[ChatMessage]) -> str:
    rng = random.Random(prompt_text(messages))
    return (declared or TextFormat()).random_answer(rng)


def _first_of_schema(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """The schema's first allowed value: the first enum entry, the minimum, the first item."""
    if "$ref" in schema:
        return _first_of_schema(root.get("$defs", {})[str(schema["$ref"]).rsplit("/", 1)[-1]], root)
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type", "string")
    if kind == "object":
        return {k: _first_of_schema(v, root) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [_first_of_schema(schema.get("items", {}), root)]
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return "first"


def _first_label(declared: AnyFormat | None, messages: list[ChatMessage]) -> str:
    if isinstance(declared, LabelFormat):
        label = declared.labels[0]
        if declared.style == "lines":
            return "\n".join([*(f"{f}: first" for f in declared.fields), f"Answer: {label}"])
        return label if declared.style == "bare" else json.dumps({"label": label})
    if isinstance(declared, DistributionFormat):
        first = {o: float(i == 0) for i, o in enumerate(declared.options)}
        lines = "".join(f"{f}: first\n" for f in declared.fields)
        return lines + json.dumps(first, ensure_ascii=False)
    if isinstance(declared, NumberFormat):
        return str(declared.low)
    if isinstance(declared, ScoreLinesFormat):
        return "\n".join(f"{t} score: {declared.low}" for t in declared.titles)
    if isinstance(declared, JsonFormat):
        return json.dumps(_first_of_schema(declared.json_schema, declared.json_schema))
    return _random(declared, messages)


def _copy(declared: AnyFormat | None, messages: list[ChatMessage]) -> str:
    if declared is None:
        return _random(declared, messages)
    if declared.example is not None:
        return declared.example
    blocks = _FENCED.findall(messages[-1].text) if messages else []
    return blocks[-1].strip() if blocks else _random(declared, messages)


def scripted_answer(kind: AnswerKind, messages: list[ChatMessage]) -> str:
    """What the ``kind`` model answers to ``messages``.

    Args:
        kind: ``echo``, ``copy`` or ``first_label``.
        messages: The conversation sent.

    Returns:
        The answer text.
    """
    declared = declared_answer_format(messages)
    if kind == "echo":
        return prompt_text(messages)
    if kind == "copy":
        return _copy(declared, messages)
    return _first_label(declared, messages)


class ScriptedAnswersAPI(ScriptedModelAPI):
    """Answers as the model name says: ``echo``, ``copy`` or ``first_label``."""

    connections = 20

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        kind = self.model_name.rsplit("/", 1)[-1]
        if kind not in KINDS:
            raise ValueError(f"scripted_answers/{kind}: choose one of {KINDS}")
        text = scripted_answer(kind, input)  # type: ignore[arg-type]
        return self.reply(text, input_tokens=max(1, len(prompt_text(input)) // 4))


@modelapi(name="scripted_answers")
def _scripted_answers() -> type[ModelAPI]:
    return ScriptedAnswersAPI


def answer_model(kind: AnswerKind) -> Model:
    """The ``kind`` model (``scripted_answers/<kind>``).

    Args:
        kind: ``echo``, ``copy`` or ``first_label``.

    Returns:
        The model.
    """
    return _get_model(f"scripted_answers/{kind}", memoize=False)
