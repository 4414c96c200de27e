"""The filled examples prompts show: drawn per sample, so no example favours an answer.

A prompt shows a filled example answer (never a ``<placeholder>`` a model could echo),
and a small model often copies it. An example that always chose the first label, or
weighted it most, turned a copying model into a constant first-label predictor, which on
a skewed dataset beats chance (Gemma 3 270M scored accuracy 0.900 on HS-Brexit that
way). Each example is therefore drawn from a seeded choice per sample (the key: the
sample's id and what is asked), so copying it is right as often as a random answer:

- a label or a plot: one of the allowed answers, uniformly;
- a score: uniformly on the scale;
- a distribution: made-up shares in hundredths, none a multiple of 0.05 (an honest
  answer rarely writes 0.37; an answer that equals the example is then a copy, see
  :func:`inspect_plural.parsing.copies_example`), the largest on a uniformly drawn option.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

__all__ = [
    "example_choice",
    "example_distribution",
    "example_key",
    "example_rng",
    "example_score",
]


class _Identified(Protocol):
    @property
    def dataset(self) -> str: ...

    @property
    def item_id(self) -> str: ...


def example_key(metadata: _Identified, *parts: object) -> str:
    """The key of a sample's examples: its dataset, item, annotator, and what is asked.

    Args:
        metadata: The sample's metadata (any of the package's sample metadata).
        *parts: What is asked, when a sample asks several things (a persona, an order).

    Returns:
        The key.
    """
    annotator = getattr(metadata, "annotator_id", None)
    return ":".join(str(p) for p in (metadata.dataset, metadata.item_id, annotator, *parts))


_TRIES = 1000


def example_rng(key: str) -> random.Random:
    """The random source of one prompt's example.

    Args:
        key: What identifies the prompt: the sample's id, and the part of the protocol
            when a sample asks several things (a persona, a dimension).

    Returns:
        A generator seeded from the key (the same key, the same example, in any process).
    """
    return random.Random(f"inspect_plural/example:{key}")


def example_choice(options: Sequence[str], key: str) -> str:
    """One of the options, uniformly (the example label, plot or candidate).

    Args:
        options: The allowed answers.
        key: The prompt's key (:func:`example_rng`).

    Returns:
        The option.
    """
    return example_rng(key).choice(list(options))


def example_score(low: int, high: int, key: str) -> int:
    """A score drawn uniformly on the scale ``low..high``.

    Args:
        low: The lowest score.
        high: The highest score.
        key: The prompt's key (:func:`example_rng`).

    Returns:
        The score.
    """
    return example_rng(key).randint(low, high)


def example_distribution(names: Sequence[str], key: str) -> dict[str, float]:
    """Made-up shares over the names, in hundredths summing to 1, none a multiple of 0.05.

    With more than 40 names (where hundredths run short) the shares are in thousandths.

    Args:
        names: The labels or candidates, in listed order.
        key: The prompt's key (:func:`example_rng`).

    Returns:
        Name -> share (in listed order).
    """
    rng = example_rng(key)
    n = len(names)
    units = 100 if n <= 40 else 1000
    shares: list[int] = []
    for _ in range(_TRIES):
        cuts = sorted(rng.sample(range(1, units), n - 1))
        shares = [b - a for a, b in zip([0, *cuts], [*cuts, units])]
        if all(share % 5 for share in shares):
            break
    return {name: share / units for name, share in zip(names, shares)}
