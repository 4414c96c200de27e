"""The fuzz benchmark's option families: a distribution over candidates, and one label.

:data:`DISTRIBUTION` writes probability objects over candidate names (with ranked lists
and sentences naming one candidate among them) and checks ``parse_distribution``: keys
are the options, values non-negative summing to 1, a text reading one-hot, a ranked one
positive with a single top option. :data:`LABELS` writes one label of a label set in
the judges' styles and checks ``parse_answer(..., "label")`` and ``parse_verdict``.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence

from benchmarks._generator import fence, name_variant, prose, quote
from benchmarks.families._base import Family, require
from benchmarks.families._contexts import CANDIDATE_NAMES, LABEL_SETS
from inspect_plural.parsing import (
    FAILURE_REASONS,
    READ_AS,
    VERDICTS,
    DistributionParse,
    parse_distribution,
    parse_verdict,
)
from inspect_plural.solvers._answers import parse_answer

__all__ = ["DISTRIBUTION", "LABELS"]


def _ranked_answer(rng: random.Random, names: tuple[str, ...]) -> str:
    """A numbered ranking of some candidates (read with the fixed Borda weighting)."""
    order = rng.sample(names, rng.randint(2, len(names)))
    style = rng.choice(["{i}. {name}", "{i}) {name} - fits the tone", "**{i}.** {name}"])
    items = [style.format(i=i, name=name_variant(rng, name)) for i, name in enumerate(order, 1)]
    return prose(rng) + "\n" + "\n".join(items)


def _named_answer(rng: random.Random, names: tuple[str, ...]) -> str:
    """A sentence naming one candidate, possibly with another one negated."""
    name, other = rng.sample(names, 2)
    return rng.choice(
        [
            f"Character2 is most likely {name}.",
            f"It is {name}, not {other}.",
            f"I would not say {other}; the reply sounds like {name}.",
            f"Is it {other}? I think it is {name}.",
        ]
    )


def _distribution_answer(rng: random.Random, names: tuple[str, ...]) -> str:
    roll = rng.random()
    if roll < 0.15:
        return _ranked_answer(rng, names)
    if roll < 0.25:
        return _named_answer(rng, names)
    weights = [rng.random() for _ in names]
    total = sum(weights) or 1.0
    percent = rng.random() < 0.2
    items = []
    for name, weight in zip(names, weights):
        if rng.random() < 0.1:
            continue  # a missing option
        value = f'"{weight / total * 100:.1f}%"' if percent else f"{weight / total:.3f}"
        items.append(f"{quote(rng, name_variant(rng, name))}: {value}")
    body = "{" + ", ".join(items) + "}"
    if rng.random() < 0.2:
        body = f'{{"reasoning": "..." , "probabilities": {body}}}'
    return prose(rng) + "\n" + fence(rng, body)


def _check_distribution(parsed: DistributionParse, options: Sequence[str]) -> bool:
    if not parsed.ok:
        require(parsed.distribution is None, "a failure carries a distribution")
        require(bool(parsed.error), "a failure without a reason")
        require(parsed.read_as is None, "a failure says how it was read")
        require(parsed.failure in FAILURE_REASONS, f"a failure without a reason code {parsed!r}")
        return False
    require(parsed.failure is None, "a success with a failure reason")
    require(parsed.read_as in READ_AS, f"read_as {parsed.read_as!r}")
    values = sorted((parsed.distribution or {}).values(), reverse=True)
    if parsed.read_as == "text":  # the one option named: probability 1
        require(values[0] == 1.0 and sum(values[1:]) == 0.0, "a text reading is not one-hot")
    if parsed.read_as == "ranked":  # Borda weights: every option > 0, one top option
        require(values[-1] > 0 and values[0] > values[1], f"ranked weights {values}")
    dist = parsed.distribution
    require(dist is not None and list(dist) == list(options), "keys are not the options")
    assert dist is not None
    require(all(math.isfinite(v) and v >= 0 for v in dist.values()), "negative or non-finite")
    require(abs(sum(dist.values()) - 1.0) <= 1e-6, f"sums to {sum(dist.values())!r}")
    require(set(parsed.missing) <= set(options), "missing names a non-option")
    require(parsed.error is None, "a success with an error")
    return True


def _distribution(text: str, names: tuple[str, ...]) -> bool:
    return _check_distribution(parse_distribution(text, list(names)), names)


DISTRIBUTION: Family[tuple[str, ...]] = Family(
    name="distribution",
    contexts=CANDIDATE_NAMES,
    valid=_distribution_answer,
    keys=lambda names: [*names, "probabilities", "reasoning"],
    parsers=(("parse_distribution", _distribution),),
)


def _label_answer(rng: random.Random, labels: tuple[str, ...]) -> str:
    label = name_variant(rng, rng.choice(labels)) if rng.random() < 0.3 else rng.choice(labels)
    style = rng.randrange(7)
    if style == 0:
        return prose(rng) + "\n" + fence(rng, json.dumps({"label": label}))
    if style == 1:
        return f"Reasoning: {prose(rng)}\nCharacter's aspect: a detail\nAnswer: {label}"
    if style == 2:
        return f"{prose(rng)}\n**Final answer:** [{label}]"
    if style == 3:
        return f"{prose(rng)}\n{label}"
    if style == 4:
        return f"Answer:\n{label} - because the comment {prose(rng)}"
    if style == 5:  # free text naming the label, possibly another one negated
        other = rng.choice(labels)
        return rng.choice(
            [
                f"This person would likely view the content as {label}, given {prose(rng)}",
                f"Not {other}, I think: {label}.",
                f"Is it {other}? For this person it is {label}.",
            ]
        )
    return rng.choice(["VALID", "INVALID", "Not valid.", "VALID - fits."])


def _label(text: str, labels: tuple[str, ...]) -> bool:
    answer = parse_answer(text, labels, "label", persona="p", aspect_field="Character's aspect")
    require(answer.aspect is None or isinstance(answer.aspect, str), "aspect is not text")
    if not answer.parse_ok:
        require(answer.label is None and bool(answer.error), "failure with a label or no reason")
        require(answer.read_as is None, "a failure says how it was read")
        require(answer.failure in FAILURE_REASONS, f"a failure without a reason code {answer!r}")
        return False
    require(answer.failure is None, "a success with a failure reason")
    require(answer.label in labels and answer.error is None, f"label {answer.label!r}")
    require(answer.read_as in ("json", "text"), f"read_as {answer.read_as!r}")
    return True


def _verdict(text: str, labels: tuple[str, ...]) -> bool:
    parsed = parse_verdict(text)
    if not parsed.ok:
        require(parsed.label is None and bool(parsed.error), "failure with a label or no reason")
        return False
    require(parsed.label in VERDICTS, f"verdict {parsed.label!r}")
    return True


LABELS: Family[tuple[str, ...]] = Family(
    name="labels",
    contexts=LABEL_SETS,
    valid=_label_answer,
    keys=lambda labels: [*labels, "label", "answer", "choice", "rating", "prediction"],
    parsers=(("parse_answer(label)", _label), ("parse_verdict", _verdict)),
)
