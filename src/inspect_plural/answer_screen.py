"""The check every answer passes before a parser reads it: not an echo, not the example.

:func:`screen_answer` runs on a model's answer and the messages it was shown: an answer
that repeats the prompt (:func:`inspect_plural.parsing.echo_check`) fails as ``echo``
and one that is word for word the prompt's filled example, where that example cannot be
an honest answer (the declared format's ``example``,
:meth:`~inspect_plural.answer_format.AnyFormat.copy_is_no_answer`), fails as
``copied_example``. Every method calls it before parsing, so no parser ever finds the
prompt's own example inside an echoed prompt. :func:`copied_distribution` does the same
for a distribution whose values are the example's (an answer may wrap a copied example
in reasoning of its own); :func:`refused_answer` is the failed
:class:`~inspect_plural.prediction.ModelAnswer` a refusal makes.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from inspect_ai.model import ChatMessage

from inspect_plural.answer_format import DistributionFormat, declared_answer_format
from inspect_plural.parsing import (
    FailureReason,
    copies_example,
    echo_check,
    parse_distribution,
)
from inspect_plural.prediction import ModelAnswer

__all__ = ["Refusal", "copied_distribution", "prompt_text", "refused_answer", "screen_answer"]


@dataclass(frozen=True)
class Refusal:
    """Why an answer is refused before parsing.

    Attributes:
        failure: ``echo`` or ``copied_example``.
        error: The message recorded with the failed answer.

    """

    failure: FailureReason
    error: str


def prompt_text(messages: Sequence[ChatMessage]) -> str:
    """What the model was shown: the text of every system and user message.

    The model's own earlier turns are left out (repeating oneself is not an echo of
    the prompt).

    Args:
        messages: The conversation sent.

    Returns:
        The texts, one paragraph each.
    """
    return "\n\n".join(m.text for m in messages if m.role in ("system", "user"))


def screen_answer(text: str, messages: Sequence[ChatMessage]) -> Refusal | None:
    """Refuse an answer that echoes the prompt or copies its example.

    Args:
        text: The model's answer.
        messages: The conversation it answers (its last declaring message gives the
            answer format and the example).

    Returns:
        The refusal, or None when the answer may be parsed.
    """
    check = echo_check(text, prompt_text(messages))
    if check.echo:
        return Refusal("echo", check.reason())
    declared = declared_answer_format(list(messages))
    if (
        declared is not None
        and declared.example is not None
        and declared.copy_is_no_answer()
        and copies_example(text, declared.example)
    ):
        return Refusal("copied_example", "the answer is the prompt's example, word for word")
    return None


def refused_answer(
    text: str, messages: Sequence[ChatMessage], persona: str | None = None
) -> ModelAnswer | None:
    """The failed answer an echo or a copied example makes (None: the answer may be parsed).

    Args:
        text: The model's output.
        messages: What it was shown (:func:`~inspect_plural.answer_screen.screen_answer`).
        persona: Who answered.

    Returns:
        The failed answer, or None.
    """
    refusal = screen_answer(text, messages)
    if refusal is None:
        return None
    return ModelAnswer(
        raw=text, parse_ok=False, error=refusal.error, failure=refusal.failure, persona=persona
    )


def copied_distribution(
    distribution: Mapping[str, float] | None, declared: DistributionFormat | None
) -> Refusal | None:
    """Refuse a distribution that is the prompt's example distribution (made-up shares).

    Args:
        distribution: The parsed distribution.
        declared: The format the prompt declared (its ``example``).

    Returns:
        The refusal, or None.
    """
    if not distribution or declared is None or declared.example is None:
        return None
    example = parse_distribution(declared.example, declared.options).distribution
    if not example or set(example) != set(distribution):
        return None
    if all(math.isclose(distribution[k], example[k], abs_tol=1e-9) for k in example):
        return Refusal("copied_example", "the distribution is the prompt's example")
    return None
