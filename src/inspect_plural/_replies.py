"""Provider replies Inspect cannot read: retried a few times, then a failed answer.

A broken proxy or server can answer HTTP 200 with a body that is not a completion: the
JSON cut short, an HTML page, ``choices: []`` or ``choices: null``. Inspect's providers
raise ``JSONDecodeError`` / ``TypeError`` for some (which Inspect does not retry: they are
not HTTP errors) and return an output without choices for others, which then fails
with ``IndexError`` wherever the answer is read. Either way the sample ends in an error
and, by default, the run stops, after the other samples' calls were paid for.

:func:`generate_reply` is how the package calls a model: such a reply is tried again,
:data:`REPLY_ATTEMPTS` times in all, waiting 1 s and then 2 s (Inspect's own retries of
429 and 5xx answers happen inside each attempt, unchanged); after the last it returns
an output with an empty answer and ``error`` saying what came back, which the method
records as a failed answer (counted in ``parse_failures``), and a transcript entry. Any
other error (a 400, a limit, a cancellation) propagates as before.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import (
    CachePolicy,
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Model,
    ModelOutput,
)
from pydantic import ValidationError

__all__ = ["REPLY_ATTEMPTS", "generate_reply", "reply_error", "unreadable_reply"]

REPLY_ATTEMPTS = 3
"""Attempts at a call whose reply cannot be read (the first and two retries)."""
RETRY_WAIT = 1.0
"""Seconds before the second attempt; doubled before each later one."""
_READING_ERRORS = (ValidationError, TypeError, KeyError, IndexError, AttributeError)
_READERS = ("inspect_ai.model._providers.", "openai.", "anthropic.")
_REASON_CHARS = 200


def _raised_reading_reply(error: BaseException) -> bool:
    """Whether the error came from a provider's code (reading its reply), not ours."""
    frame = error.__traceback__
    while frame is not None:
        module = str(frame.tb_frame.f_globals.get("__name__", ""))
        if module.startswith(_READERS):
            return True
        frame = frame.tb_next
    return False


def unreadable_reply(error: BaseException) -> bool:
    """Whether ``model.generate`` failed because the provider's reply could not be read.

    A ``JSONDecodeError``, the OpenAI SDK's ``APIResponseValidationError``, or a
    ``TypeError`` / ``KeyError`` / ``IndexError`` / ``AttributeError`` / pydantic
    ``ValidationError`` raised inside a provider's code (reading the reply).
    """
    if isinstance(error, json.JSONDecodeError):
        return True
    from openai import APIResponseValidationError

    if isinstance(error, APIResponseValidationError):
        return True
    return isinstance(error, _READING_ERRORS) and _raised_reading_reply(error)


def _flat(text: str) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat[:_REASON_CHARS]


def reply_error(output: ModelOutput) -> str | None:
    """Why an output of :func:`generate_reply` holds no answer (None: it holds one)."""
    error = getattr(output, "error", None)
    return error if error and not output.completion else None


async def generate_reply(
    model: Model,
    messages: Sequence[ChatMessage],
    config: GenerateConfig,
    cache: bool | CachePolicy | None = None,
) -> ModelOutput:
    """``model.generate``, with replies that cannot be read tried again, then failed.

    Args:
        model: The model to ask.
        messages: The conversation.
        config: The call's generation config.
        cache: Inspect's cache policy (None: the eval's own setting).

    Returns:
        The model's output; after :data:`REPLY_ATTEMPTS` unreadable replies, an output
        with one empty answer, ``stop_reason`` ``unknown`` and ``error`` saying why.
    """
    reasons: list[str] = []
    for attempt in range(REPLY_ATTEMPTS):
        if attempt:
            await anyio.sleep(RETRY_WAIT * 2 ** (attempt - 1))
        try:
            if cache is None:
                output = await model.generate(list(messages), config=config)
            else:
                output = await model.generate(list(messages), config=config, cache=cache)
        except Exception as error:
            if not unreadable_reply(error):
                raise
            reasons.append(f"{type(error).__name__}: {_flat(str(error))}")
            continue
        if not isinstance(output, ModelOutput) or output.choices:
            return output  # (a test double is taken as it is)
        reasons.append("a reply without choices (choices: [])")
    reason = f"unreadable reply from {model} ({REPLY_ATTEMPTS} attempts): {reasons[-1]}"
    transcript().info(reason, source="provider reply")
    answer = ChatMessageAssistant(content="", model=str(model), source="generate")
    return ModelOutput(
        model=str(model),
        choices=[ChatCompletionChoice(message=answer, stop_reason="unknown")],
        error=reason,
    )
