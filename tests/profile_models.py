"""Scripted models for the profile's validity tests: an oracle and an anti-model.

Both are Inspect's ``mockllm`` provider fed by a function of the prompt and of the sample
being run (``sample_active()``: its target and metadata, the truth the method is asked
to predict), answering in the format the prompt declares
(:mod:`inspect_plural.answer_format`), so they go through the same parsers and scorers as
any model. Each mode's measurement must move with them:

- ``mockllm/oracle`` knows the truth about whoever it is asked about: told a person's
  traits, that person's label; not told, a random label (so telling it is what helps);
  an item's people's distribution, or a steered group's; a panel persona votes a label
  drawn from the item's people (the persona's place in the draw from its prompt); the
  speaker in PersonaEval, with certainty;
- ``mockllm/anti`` always answers the least likely: told a person's traits, a label
  that person did not give (not told, a random label); a one-hot distribution on the
  item's (or group's) least likely label; every persona votes it; a wrong speaker.

Formats with nothing to predict (persona writing) get the chance model's valid answer.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any, Literal

from inspect_ai.log._samples import sample_active
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput, get_model
from tests.conftest import offline_output

from inspect_plural.answer_format import DistributionFormat, LabelFormat, declared_answer_format
from inspect_plural.item_records import ItemSampleMetadata, item_sample
from inspect_plural.records import annotator_sample
from inspect_plural.solvers._render import render_traits
from inspect_plural.solvers._steering import STEER_STYLES, steered_population

Kind = Literal["oracle", "anti"]


def _label_answer(fmt: LabelFormat, label: str) -> str:
    if fmt.style == "bare":
        return label
    if fmt.style == "lines":
        return "\n".join([*(f"{name}: scripted" for name in fmt.fields), f"Answer: {label}"])
    return f"Scripted answer.\n\n```json\n{json.dumps({'label': label})}\n```"


def _distribution_answer(options: list[str], shares: Mapping[str, float]) -> str:
    total = sum(max(0.0, shares.get(o, 0.0)) for o in options)
    body = (
        {o: max(0.0, shares.get(o, 0.0)) / total for o in options}
        if total > 0
        else {o: 1.0 / len(options) for o in options}
    )
    return f"Scripted answer.\n\n```json\n{json.dumps(body, indent=2)}\n```"


def _least(shares: Mapping[str, float], options: list[str]) -> str:
    """The least likely option (the last in option order on ties)."""
    return min(reversed(options), key=lambda o: shares.get(o, 0.0))


def _set_shares(meta: ItemSampleMetadata, options: list[str]) -> dict[str, float]:
    """The item's people's distribution over the options (label sets: their own sets)."""
    if meta.base_labels:
        labels = [a.label for a in meta.annotators]
        return {o: labels.count(o) / max(len(labels), 1) for o in options}
    return {o: meta.gold.get(o, 0.0) for o in options}


def _quantile_label(shares: Mapping[str, float], options: list[str], text: str) -> str:
    q = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16) / 16**8
    total = 0.0
    for option in options:
        total += shares.get(option, 0.0)
        if q < total:
            return option
    return max(options, key=lambda o: shares.get(o, 0.0))


def _item(kind: Kind, fmt: Any, meta: ItemSampleMetadata, text: str) -> str | None:
    if isinstance(fmt, DistributionFormat):
        shares = _set_shares(meta, fmt.options)
        for group, dist in meta.groups.items():
            if any(steered_population(group, style) in text for style in STEER_STYLES):
                shares = {o: dist.get(o, 0.0) for o in fmt.options}
        if kind == "anti":
            shares = {_least(shares, fmt.options): 1.0}
        return _distribution_answer(fmt.options, shares)
    if isinstance(fmt, LabelFormat):  # a panel persona's vote
        shares = _set_shares(meta, fmt.labels)
        if kind == "anti":
            return _label_answer(fmt, _least(shares, fmt.labels))
        return _label_answer(fmt, _quantile_label(shares, fmt.labels, text))
    return None


def _annotator(
    kind: Kind, fmt: Any, meta: Mapping[str, Any], gold: str, text: str, rng: random.Random
) -> str | None:
    if not isinstance(fmt, LabelFormat):
        return None
    # the traits live in the run's context, not in the sample's stored keys (issue 32)
    traits = annotator_sample(meta).traits
    told = bool(traits) and render_traits(traits) in text
    if not told:
        return _label_answer(fmt, rng.choice(fmt.labels))
    if kind == "oracle":
        return _label_answer(fmt, gold)
    others = [label for label in fmt.labels if label != gold] or fmt.labels
    return _label_answer(fmt, others[-1])


def _role(kind: Kind, fmt: Any, gold: str) -> str | None:
    if not isinstance(fmt, DistributionFormat) or gold not in fmt.options:
        return None
    if kind == "oracle":
        return _distribution_answer(fmt.options, {gold: 1.0})
    wrong = next(o for o in fmt.options if o != gold)
    return _distribution_answer(fmt.options, {wrong: 1.0})


def _content(kind: Kind, input: list[ChatMessage]) -> str:
    fmt = declared_answer_format(input)
    text = "\n".join(m.text for m in input)
    rng = random.Random(f"{kind}:{hashlib.sha256(text.encode()).hexdigest()}")
    active = sample_active()
    answer = None
    if active is not None and fmt is not None:
        sample = active.sample
        meta = sample.metadata or {}
        gold = sample.target if isinstance(sample.target, str) else ""
        if meta.get("target") == "distribution":
            answer = _item(kind, fmt, item_sample(meta), text)
        elif "candidates" in meta:
            answer = _role(kind, fmt, gold)
        elif "annotator_id" in meta:
            answer = _annotator(kind, fmt, meta, gold, text, rng)
    if answer is None:
        if fmt is None:
            raise ValueError("the scripted profile models answer inspect_plural prompts only")
        answer = fmt.random_answer(rng)
    return answer


def profile_model(kind: Kind) -> Model:
    """``mockllm/oracle`` or ``mockllm/anti`` (see the module docstring)."""

    def generate(
        input: list[ChatMessage], tools: Any, choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        return offline_output(_content(kind, input), f"mockllm/{kind}", 50, 20)

    return get_model(f"mockllm/{kind}", custom_outputs=generate, memoize=False)
