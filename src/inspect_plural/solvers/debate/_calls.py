"""The model calls of a group debate: made, counted, constrained, each in its own span.

:class:`DebateCalls` makes every call of one group's debate (personas, moderator,
aggregator) with the debate's generation config and cache, counts the calls and their
tokens, and with structured output on (``DebateSettings.structured``) constrains each
answer to its declared JSON schema (:mod:`inspect_plural.structured`).
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage

from inspect_plural.models import role_model
from inspect_plural.solvers._ratings import tokens_of
from inspect_plural.solvers.debate._settings import DebateSettings
from inspect_plural.structured import generate_answer

__all__ = ["DebateCalls"]


class DebateCalls:
    """Makes the calls of one group, counting them and their tokens."""

    def __init__(self, settings: DebateSettings) -> None:
        self.config = settings.config
        self.cache = settings.cache
        self.structured = settings.structured
        self.calls = 0
        self.tokens = 0

    async def __call__(self, role: str, messages: list[ChatMessage]) -> tuple[str, str | None]:
        """One call under a model role.

        Args:
            role: The model role (unbound: the active model).
            messages: The conversation, its last message declaring the answer format.

        Returns:
            The answer's text, and the name of the schema that constrained it (None:
            unconstrained).
        """
        model = role_model(role)
        # None: the eval's own cache setting applies
        output, schema = await generate_answer(
            model, messages, self.config, self.structured, self.cache
        )
        self.calls += 1
        self.tokens += tokens_of(output)
        return output.completion, schema
