"""The model calls of persona creation: one config for all, calls and tokens counted."""

from __future__ import annotations

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, get_model

from inspect_plural._replies import generate_reply
from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.stakeholders.records import PersonaUsage

__all__ = ["PERSONA_SEED", "Asker", "default_config", "persona_config", "resolve_model"]

PERSONA_SEED = 42
"""Generation seed of persona creation when none is given (as ``maj_eval``'s default)."""


PERSONA_MAX_TOKENS = 4096
"""Output token cap of each persona-creation call (an extraction, a grouping, a group's
personas): room for a long JSON answer, and a stop for a model that loops."""


def persona_config(seed: int | None = PERSONA_SEED) -> GenerateConfig:
    """The generation config of persona creation: temperature 0, a seed and a token cap.

    Args:
        seed: The generation seed (None: unseeded). ``maj_eval`` passes its own ``seed``.

    Returns:
        The config.
    """
    return GenerateConfig(temperature=0.0, seed=seed, max_tokens=PERSONA_MAX_TOKENS)


def default_config(config: GenerateConfig | None) -> GenerateConfig:
    """The config given, else :func:`persona_config` with :data:`PERSONA_SEED`."""
    return persona_config() if config is None else config


def resolve_model(model: Model | str | None) -> Model:
    """The model given, else the named one, else the active model."""
    if isinstance(model, Model):
        return model
    # called at sample time by solvers, or by the CLI (which names the model)
    return get_model(model)  # inspect-evals-lint: ignore[IEBP001] -- in solve, or the CLI


class Asker:
    """Asks the model one prompt at a time under one config, counting calls and tokens.

    Attributes:
        model: The model asked.
        config: The generation config of every call.
        calls: Calls made so far.
        input_tokens: Input tokens spent so far.
        output_tokens: Output tokens spent so far.
    """

    def __init__(self, model: Model, config: GenerateConfig) -> None:
        self.model = model
        self.config = config
        self.calls = 0
        self.input_tokens = 0
        self.output_tokens = 0

    async def ask(self, prompt: str, answer_format: JsonFormat) -> str:
        """Ask one prompt, declaring its JSON answer format.

        Args:
            prompt: The filled-in template.
            answer_format: The answer's format (what ``plural/random`` answers from).

        Returns:
            The answer's text.
        """
        message = declare_answer_format(ChatMessageUser(content=prompt), answer_format)
        output = await generate_reply(self.model, [message], self.config)
        self.calls += 1
        if output.usage is not None:
            self.input_tokens += output.usage.input_tokens
            self.output_tokens += output.usage.output_tokens
        return output.completion

    def usage(self) -> PersonaUsage:
        """The calls and tokens spent so far."""
        return PersonaUsage(
            calls=self.calls, input_tokens=self.input_tokens, output_tokens=self.output_tokens
        )
