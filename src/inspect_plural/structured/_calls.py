"""Structured output on a model call: the ``structured`` option and the constrained call.

``-T structured=true`` on a task (``-S structured=true`` on the ``panel`` scorer) passes
each JSON answer's schema (:func:`~inspect_plural.structured.answer_schema`) to
Inspect's structured output, ``GenerateConfig(response_schema=...)``, which each
provider sends its own way (OpenAI-compatible servers: ``response_format`` of type
``json_schema``). ``-T structured=json_object`` sends the schema in llama-cpp-python's
dialect instead, ``response_format={"type": "json_object", "schema": ...}`` through
``extra_body``: its server (0.3.x) refuses ``json_schema`` with a 500 error that Inspect
retries without end by default. ``true`` with ``--model llama-cpp-python/...`` uses
that dialect by itself.

Calls whose answer is not JSON by design (G-Eval's score, ChatEval's score lines and
turns) are sent unchanged. The name of the schema that constrained an answer is recorded
with it (``ModelAnswer.schema``, ``Evaluation.schema`` for debates), and the schema
itself is in the log's model event (``config.response_schema`` or ``config.extra_body``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from inspect_ai.model import CachePolicy, ChatMessage, GenerateConfig, Model, ModelOutput

from inspect_plural._replies import generate_reply
from inspect_plural.answer_format import AnyFormat, declared_answer_format
from inspect_plural.options import TaskOption
from inspect_plural.structured._schemas import answer_schema

__all__ = [
    "STRUCTURED_CHOICES",
    "Structured",
    "StructuredMode",
    "constrain",
    "generate_answer",
    "structured_mode",
    "structured_option",
    "structured_value",
]

Structured = bool | Literal["json_object"]
"""A method's ``structured`` parameter: off, Inspect's ``response_schema``, or the
llama-cpp-python dialect."""

StructuredMode = Literal["off", "response_schema", "json_object"]
"""How a run constrains its JSON answers (recorded in the task metadata)."""

STRUCTURED_CHOICES = ("false", "true", "json_object")
"""The values of the ``structured`` option as written on the command line."""

LLAMA_CPP_PYTHON_API = "LlamaCppPythonAPI"
"""Inspect's ``llama-cpp-python/`` provider class, whose server takes ``json_object`` only."""


def structured_value(value: Any) -> Structured:
    """A ``structured`` option's value: ``False``, ``True`` or ``"json_object"``.

    Args:
        value: As given: a bool, ``true``/``false``/``yes``/``no``/``1``/``0`` or
            ``json_object`` (None: off).

    Returns:
        The value.

    Raises:
        ValueError: Anything else.
    """
    if value is None or isinstance(value, bool):
        return bool(value)
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0", ""):
        return False
    if text == "json_object":
        return "json_object"
    raise ValueError(f"structured must be true, false or json_object, not {value!r}")


def structured_mode(value: Any) -> StructuredMode:
    """How a ``structured`` value constrains answers (for the task metadata).

    Args:
        value: The option's value (see :func:`structured_value`).

    Returns:
        ``off``, ``response_schema`` or ``json_object``.
    """
    parsed = structured_value(value)
    if parsed == "json_object":
        return "json_object"
    return "response_schema" if parsed else "off"


def structured_option(method: str | None = None, default: bool | None = False) -> TaskOption:
    """The ``structured`` option every task (and the ``panel`` scorer) declares.

    Args:
        method: The one method it configures, on tasks where only one method calls a model.
        default: Its default (None, as for every method option of PERSE's tasks: off).

    Returns:
        The option.
    """
    return TaskOption(
        "structured",
        default,
        "str",
        choices=STRUCTURED_CHOICES,
        method=method,
        help="constrain JSON answers to their schema: true (Inspect's response_schema) "
        "or json_object (llama-cpp-python's dialect)",
    )


def _json_object_server(model: Model | None) -> bool:
    return model is not None and type(model.api).__name__ == LLAMA_CPP_PYTHON_API


def constrain(
    config: GenerateConfig,
    answer_format: AnyFormat | None,
    structured: Any,
    model: Model | None = None,
) -> tuple[GenerateConfig, str | None]:
    """A call's config with its answer's schema, when structured output is on.

    Args:
        config: The call's generation config.
        answer_format: The format the prompt declares (None: nothing to constrain).
        structured: The method's ``structured`` value.
        model: The model that answers (``llama-cpp-python/`` gets its own dialect).

    Returns:
        The config to send, and the name of the schema it carries (None: unconstrained).
    """
    mode = structured_mode(structured)
    if mode == "off" or answer_format is None:
        return config, None
    schema = answer_schema(answer_format)
    if schema is None:
        return config, None
    if mode == "json_object" or _json_object_server(model):
        body = {**(config.extra_body or {}), "response_format": schema.json_object()}
        return config.merge(GenerateConfig(extra_body=body)), schema.name
    return config.merge(GenerateConfig(response_schema=schema.response_schema())), schema.name


async def generate_answer(
    model: Model,
    messages: Sequence[ChatMessage],
    config: GenerateConfig,
    structured: Any = False,
    cache: bool | CachePolicy | None = None,
) -> tuple[ModelOutput, str | None]:
    """One model call, constrained to its declared answer's schema when structured is on.

    Args:
        model: The model to ask.
        messages: The conversation; its last declaring message gives the answer format.
        config: The call's generation config (passed explicitly, as on every call).
        structured: The method's ``structured`` value.
        cache: Inspect's cache policy for the call (None: the eval's own setting).

    Returns:
        The output, and the name of the schema that constrained it (None: unconstrained).
    """
    declared = declared_answer_format(list(messages)) if structured else None
    call_config, schema = constrain(config, declared, structured, model)
    output = await generate_reply(model, messages, call_config, cache)
    return output, schema
