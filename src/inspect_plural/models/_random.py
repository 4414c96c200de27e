"""``plural/random``: a seeded chance-level model that answers in the declared format."""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from typing import Any

from inspect_ai.model import (
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    GenerateConfig,
    Logprob,
    Logprobs,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    TopLogprob,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_plural._schema_instance import random_instance
from inspect_plural.answer_format import (
    JsonFormat,
    NumberFormat,
    ScoreLinesFormat,
    TextFormat,
    declared_answer_format,
)
from inspect_plural.errors import UserError, closest

__all__ = ["MODEL_NAMES", "RandomModelAPI", "UnknownModelError", "plural"]

MODEL_NAMES = ("random",)


class UnknownModelError(UserError, ValueError):
    """``--model plural/NAME`` with a name the provider does not have (no traceback).

    Args:
        name: The name given after ``plural/``.
    """

    def __init__(self, name: str) -> None:
        valid = ", ".join(f"plural/{n}" for n in MODEL_NAMES)
        close = closest(name, MODEL_NAMES)
        hint = f" (did you mean plural/{close[0]}?)" if close else ""
        super().__init__(
            f"--model plural/{name}: no such model{hint}. The valid names are: {valid} "
            "(the offline chance model). For a real model, name its provider, e.g. "
            "--model openai/gpt-4.1."
        )


def _approx_tokens(text: str) -> int:
    """A tokenizer-free token estimate (about four characters a token)."""
    return max(1, len(text) // 4)


class RandomModelAPI(ModelAPI):
    """Answers every inspect_plural prompt uniformly at random, in its declared format.

    The answer shape comes from the :mod:`inspect_plural.answer_format` declaration
    attached to the prompt, so the model never guesses from prompt text. Each call
    draws from a generator seeded by ``seed``, the prompt and the call's generation
    seed (the package's solvers give replicate i the seed ``task seed + i``), so runs
    are reproducible whatever the concurrency and however many runs share a process,
    and self-consistency replicates get independent answers. Without a call seed,
    repeats of one prompt are told apart by how often it was seen before. A call that
    carries a JSON schema (structured output: ``response_schema``, or llama-cpp-python's
    ``response_format`` in ``extra_body``) is answered as a server that constrains
    decoding answers: a random instance of the schema and nothing else.
    Token usage is estimated from text length, so nothing is downloaded.

    Args:
        model_name: Must be ``random``.
        base_url: Unused.
        api_key: Unused.
        config: Generation config (ignored apart from being recorded).
        seed: Seed of the chance model (``-M seed=N``).
        **model_args: ``answer_tokens=N`` pads free-text and JSON answers with about N
            tokens of prose, so token counts approach those of a real model's answers
            (for cost measurement); ``any_prompt=true`` answers a prompt that declares no
            format (any other Inspect task's) with a seeded chance-level remark instead of
            refusing it, so a task that has nothing to do with this package can run
            offline (e.g. to try the ``panel`` scorer on its log); other arguments are
            unused.

    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (the ModelAPI convention)
        seed: int = 0,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in MODEL_NAMES:
            raise UnknownModelError(model_name)
        self.seed = int(seed)
        self.answer_tokens = int(model_args.pop("answer_tokens", 0))
        self.any_prompt = _flag(model_args.pop("any_prompt", False))
        self._seen: Counter[str] = Counter()

    def max_connections(self) -> int:
        """No network, so no reason to throttle."""
        return 1000

    def _rng(self, messages: list[ChatMessage], call_seed: int | None) -> random.Random:
        digest = hashlib.sha256()
        for message in messages:
            digest.update(message.role.encode())
            digest.update(message.text.encode("utf-8", "replace"))
        key = digest.hexdigest()
        if call_seed is not None:  # the solver's per-call seed: fully reproducible
            return random.Random(f"{self.seed}:{key}:seed={call_seed}")
        occurrence = self._seen[key]
        self._seen[key] += 1
        return random.Random(f"{self.seed}:{key}:{occurrence}")

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Answer the prompt at random in its declared format."""
        answer_format = declared_answer_format(input)
        if answer_format is None and self.any_prompt:
            answer_format = TextFormat()
        if answer_format is None:
            raise ValueError(
                "plural/random answers only prompts sent by inspect_plural solvers, which "
                "declare their answer format (inspect_plural.answer_format); this prompt "
                "declares none (-M any_prompt=true answers any prompt with chance-level "
                "text)."
            )
        rng = self._rng(input, config.seed)
        n = max(1, config.num_choices or 1)
        choices = []
        for _ in range(n):
            logprobs = None
            schema = _constraining_schema(config)
            if config.logprobs and isinstance(answer_format, NumberFormat):
                content, logprobs = _score_logprobs(answer_format, rng, config.top_logprobs)
            elif schema is not None:
                content = json.dumps(random_instance(schema, rng), ensure_ascii=False)
            else:
                content = answer_format.random_answer(rng)
                if self.answer_tokens and isinstance(
                    answer_format, (JsonFormat, ScoreLinesFormat, TextFormat)
                ):
                    # prose before the structured part, about answer_tokens tokens long
                    words = " ".join(["filler"] * max(1, self.answer_tokens * 4 // 7))
                    content = f"Padding for token measurement: {words}.\n\n{content}"
            choices.append(
                ChatCompletionChoice(
                    message=ChatMessageAssistant(content=content, model=self.model_name),
                    stop_reason="stop",
                    logprobs=logprobs,
                )
            )
        output = ModelOutput(model=self.model_name, choices=choices)
        input_tokens = sum(_approx_tokens(m.text) for m in input)
        output_tokens = sum(_approx_tokens(c.message.text) for c in choices)
        output.usage = ModelUsage(
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            total_tokens=input_tokens + output_tokens,
        )
        return output


def _constraining_schema(config: GenerateConfig) -> dict[str, Any] | None:
    """The JSON schema a call constrains its answer to, if any (either dialect)."""
    if config.response_schema is not None:
        return config.response_schema.json_schema.model_dump(exclude_none=True)
    response_format = (config.extra_body or {}).get("response_format")
    if isinstance(response_format, dict) and isinstance(response_format.get("schema"), dict):
        return dict(response_format["schema"])
    return None


def _flag(value: Any) -> bool:
    """A boolean model argument, given as a bool or as ``true``/``false`` text (``-M``)."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "1")
    return bool(value)


def _score_logprobs(
    answer_format: NumberFormat, rng: random.Random, top: int | None
) -> tuple[str, Logprobs]:
    """A random distribution over the score tokens, answered with its most likely one."""
    tokens = [str(v) for v in range(answer_format.low, answer_format.high + 1)]
    draws = [rng.gammavariate(1.0, 1.0) for _ in tokens]
    total = sum(draws)
    ranked = sorted(zip(tokens, (d / total for d in draws)), key=lambda tp: -tp[1])
    ranked = ranked[: max(1, top or len(ranked))]
    best, p_best = ranked[0]
    logprob = Logprob(
        token=best,
        logprob=math.log(p_best),
        top_logprobs=[TopLogprob(token=t, logprob=math.log(p)) for t, p in ranked],
    )
    return best, Logprobs(content=[logprob])


@modelapi(name="plural")
def plural() -> type[ModelAPI]:
    """The ``plural`` model API provider (``--model plural/random``)."""
    return RandomModelAPI
