"""Sampling protocols of the rating tasks: our deterministic default, or the papers' own.

``-T protocol=default`` (the default) runs every model call at temperature 0 with the
task's seed, so a run can be repeated. ``-T protocol=paper`` applies the settings the
papers publish:

- ``maj_eval``: the temperature of MAJ-Eval §4.4 for the model family that plays the
  personas (the ``persona`` role): 0.6 for Qwen (the paper's Qwen3-235B, served with
  sglang), 1.0 for Claude (Claude-3.7-Sonnet at the AWS API's default). The paper ran no
  other family; any other model samples at 1.0, the provider default the paper kept for
  Claude. The seed is kept (providers that honour it stay repeatable).
- ``geval``: the official code's sampling (``geval_official``: n=20 at temperature 2,
  ``gpt4_eval.py``), unless ``geval_official`` or ``geval_mode`` is given; for a Claude
  judge at 1.0, the highest temperature Anthropic's API accepts.
- ``chateval``: ChatEval's ``config.yaml`` (temperature 0, max_tokens 512), which is
  also our default.
- ``rouge_l``: no model call, nothing to set.
- ``mslr_cochrane``: MAJ-Eval's evaluation set, 17 summaries drawn per system (102 in
  all; §4.1), unless ``sample_per_system`` is given or the data is the demo.

An option given explicitly (``temperature``, ``geval_official``, ``sample_per_system``)
wins over the protocol; the task metadata records what was applied and why
(``protocol_settings``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from inspect_plural._inspect_private import PrerequisiteError
from inspect_plural.models import role_model

__all__ = [
    "DEFAULT_TEMPERATURE",
    "MAJ_EVAL_TEMPERATURES",
    "METHOD_ROLES",
    "PAPER_SAMPLE_PER_SYSTEM",
    "PROTOCOLS",
    "Protocol",
    "ProtocolSettings",
    "maj_eval_paper_temperature",
    "resolve_protocol",
    "role_model_name",
]

Protocol = Literal["default", "paper"]
PROTOCOLS: tuple[Protocol, ...] = ("default", "paper")

DEFAULT_TEMPERATURE = 0.0
"""Every call of the default protocol (seeded, so repeatable)."""

MAJ_EVAL_TEMPERATURES: tuple[tuple[str, float, str], ...] = (
    ("qwen", 0.6, "MAJ-Eval §4.4: Qwen3-235B served with sglang at temperature 0.6"),
    ("claude", 1.0, "MAJ-Eval §4.4: Claude-3.7-Sonnet through the AWS API at its default, 1.0"),
)
"""(substring of the model name, temperature, source) per model family MAJ-Eval ran."""

OTHER_FAMILY = (
    1.0,
    "MAJ-Eval §4.4 ran only Qwen (0.6) and Claude (the provider default, 1.0); other "
    "models sample at 1.0, the provider default the paper kept",
)

CHATEVAL_PAPER = (0.0, "ChatEval config.yaml: temperature 0, max_tokens 512 (our default too)")

GEVAL_PAPER = "G-Eval gpt4_eval.py: n=20 samples at temperature 2 (geval_official=true)"

ANTHROPIC_MAX_TEMPERATURE = 1.0
"""The highest temperature Anthropic's API accepts (G-Eval's official 2 is refused)."""

PAPER_SAMPLE_PER_SYSTEM = 17
"""MAJ-Eval §4.1: 17 summaries drawn from each of MSLR-Cochrane's six systems (102)."""

METHOD_ROLES: dict[str, str] = {"maj_eval": "persona", "chateval": "referee", "geval": "judge"}
"""The model role whose model answers most of a method's calls."""


class ProtocolSettings(BaseModel):
    """The sampling settings a run applies, with where they come from.

    Attributes:
        protocol: ``default`` or ``paper``.
        temperature: The temperature of the method's calls (G-Eval's sampling mode
            uses its own, recorded in ``method_options``).
        seed: The generation seed.
        source: Why this temperature (the paper's section, or the option).
        model: The model whose family decided the temperature (MAJ-Eval's paper
            protocol), when known.
        method_options: Method options the protocol set (not given by the user).
        dataset_options: Dataset options the protocol set (``sample_per_system``).
    """

    protocol: Protocol
    temperature: float
    seed: int
    source: str
    model: str | None = None
    method_options: dict[str, Any] = Field(default_factory=dict)
    dataset_options: dict[str, Any] = Field(default_factory=dict)


def role_model_name(role: str) -> str | None:
    """The ``api/name`` of the model that plays ``role`` in this eval, if one is active.

    Inspect makes the eval's model and model roles active before it builds a task, so
    the task can see which model will answer. Outside an eval (a task built directly
    in Python) there may be none.
    """
    try:
        return str(role_model(role))
    except (ValueError, PrerequisiteError):  # no model specified (or none can be made)
        return None


def maj_eval_paper_temperature(model: str | None) -> tuple[float, str]:
    """MAJ-Eval's temperature for a model, by family (§4.4), and its source.

    Args:
        model: The model's ``api/name`` (None: unknown).

    Returns:
        (temperature, source).
    """
    name = (model or "").lower()
    for pattern, temperature, source in MAJ_EVAL_TEMPERATURES:
        if pattern in name:
            return temperature, source
    return OTHER_FAMILY


def resolve_protocol(
    protocol: Protocol,
    method: str,
    seed: int,
    temperature: float | None,
    given: Mapping[str, Any],
) -> ProtocolSettings:
    """The settings a run applies under a protocol.

    Args:
        protocol: ``default`` or ``paper``.
        method: The rating method.
        seed: The task's seed.
        temperature: The ``temperature`` option when given (it wins).
        given: The method options the user gave (they win over the protocol's).

    Returns:
        The settings, with their sources.
    """
    if protocol == "default":
        value = DEFAULT_TEMPERATURE if temperature is None else temperature
        source = "option temperature" if temperature is not None else "default: deterministic"
        return ProtocolSettings(protocol=protocol, temperature=value, seed=seed, source=source)
    model = role_model_name(METHOD_ROLES[method]) if method in METHOD_ROLES else None
    value, source = DEFAULT_TEMPERATURE, "no model call"
    options: dict[str, Any] = {}
    if method == "maj_eval":
        value, source = maj_eval_paper_temperature(model)
    elif method == "chateval":
        value, source = CHATEVAL_PAPER
    elif method == "geval":
        source = "logprob calls at temperature 0"
        if "geval_official" not in given and "geval_mode" not in given:
            options["geval_official"] = True
            source = GEVAL_PAPER
            if "claude" in (model or "").lower() and "geval_temperature" not in given:
                options["geval_temperature"] = ANTHROPIC_MAX_TEMPERATURE
                source += "; at 1.0 for Claude (Anthropic's API refuses temperatures above 1)"
    if temperature is not None:
        value, source = temperature, "option temperature (given, wins over the protocol)"
    return ProtocolSettings(
        protocol=protocol,
        temperature=value,
        seed=seed,
        source=source,
        model=model,
        method_options=options,
    )
