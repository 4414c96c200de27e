"""``bench/counting``: the package's chance model, with every real call counted per sample.

:class:`CountingModelAPI` answers exactly as ``plural/random`` (it delegates to
:class:`~inspect_plural.models.RandomModelAPI` with the same seed and model args, so
answer formats, ``num_choices`` and logprobs are honoured) and records each call that
reaches the API, with its tokens, under the sample that made it (the active sample's
eval id, sample id and epoch). Counting at the API catches calls a log could hide;
cache hits never reach it. :func:`log_calls` and :func:`log_tokens` count the same from
a log's model events (cache reads excluded), for the cross-check and for the other
benchmarks, which read only logs.

Importing this module registers the provider (``--model bench/counting``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspect_ai.log import EvalSample
from inspect_ai.log._samples import sample_active
from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_plural.models import RandomModelAPI

__all__ = [
    "COUNTER",
    "MODEL",
    "CallCounter",
    "CountingModelAPI",
    "SampleKey",
    "Usage",
    "log_calls",
    "log_tokens",
]

MODEL = "bench/counting"
"""The model name to pass to ``eval``."""


@dataclass(frozen=True)
class SampleKey:
    """Which sample made a call: its eval, id and epoch (empty outside any sample)."""

    eval_id: str
    sample_id: str
    epoch: int


@dataclass
class Usage:
    """Calls and tokens counted for one sample."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


OUTSIDE = SampleKey("", "", 0)
"""The key of calls made outside any running sample."""


class CallCounter:
    """Calls and tokens per sample, as the model API saw them."""

    def __init__(self) -> None:
        self._usage: dict[SampleKey, Usage] = {}

    def record(self, key: SampleKey, input_tokens: int, output_tokens: int) -> None:
        """Count one call of the sample ``key``."""
        usage = self._usage.setdefault(key, Usage())
        usage.calls += 1
        usage.input_tokens += input_tokens
        usage.output_tokens += output_tokens

    def usage(self, eval_id: str, sample: EvalSample) -> Usage:
        """What one logged sample of the eval ``eval_id`` cost (zero if it made no call)."""
        key = SampleKey(eval_id, str(sample.id), sample.epoch)
        return self._usage.get(key, Usage())

    def eval_calls(self, eval_id: str) -> int:
        """Every call counted for the eval ``eval_id``."""
        return sum(u.calls for k, u in self._usage.items() if k.eval_id == eval_id)

    def outside(self) -> Usage:
        """Calls made outside any running sample."""
        return self._usage.get(OUTSIDE, Usage())

    def reset(self) -> None:
        """Forget every count."""
        self._usage.clear()


COUNTER = CallCounter()
"""The process-wide counter every :class:`CountingModelAPI` writes to."""


def _current_key() -> SampleKey:
    active = sample_active()
    if active is None:
        return OUTSIDE
    return SampleKey(active.eval_id, str(active.sample.id), active.epoch)


class CountingModelAPI(ModelAPI):
    """``plural/random``'s answers, with each call counted in :data:`COUNTER`.

    Args:
        model_name: Must be ``counting``.
        base_url: Unused.
        api_key: Unused.
        config: Generation config.
        **model_args: Passed to the random model (``seed``, ``answer_tokens``).

    """

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (the ModelAPI convention)
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name != "counting":
            raise ValueError(f"unknown bench model {model_name!r}: the only one is 'counting'")
        self._random = RandomModelAPI("random", config=config, **model_args)

    def max_connections(self) -> int:
        """No network, so no reason to throttle."""
        return self._random.max_connections()

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Answer as the random model does, and count the call under the active sample."""
        key = _current_key()
        output = await self._random.generate(input, tools, tool_choice, config)
        usage = output.usage
        COUNTER.record(
            key,
            usage.input_tokens if usage else 0,
            usage.output_tokens if usage else 0,
        )
        return output


@modelapi(name="bench")
def bench() -> type[ModelAPI]:
    """The ``bench`` model API provider (``--model bench/counting``)."""
    return CountingModelAPI


def log_calls(sample: EvalSample) -> int:
    """Model calls of a logged sample: its model events, cache reads excluded."""
    return sum(1 for e in sample.events if e.event == "model" and e.cache != "read")


def log_tokens(sample: EvalSample) -> int:
    """Input plus output tokens of those calls, from their events."""
    total = 0
    for event in sample.events:
        if event.event == "model" and event.cache != "read" and event.output.usage:
            total += event.output.usage.input_tokens + event.output.usage.output_tokens
    return total
