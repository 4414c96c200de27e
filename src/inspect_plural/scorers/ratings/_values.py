"""The per-sample values of rating scores, as the corpus metrics read them.

Score value keys (numbers only; a missing value is absent, never NaN):

- ``pred/{dim}``, ``gold/{dim}``, ``pred_initial/{dim}``;
- ``group/{g}/{dim}`` (a panel's final score) and ``group_initial/{g}/{dim}`` (the mean
  of its members' scores before discussion);
- ``parse_ok``, ``n_scored``, ``model_calls``, ``tokens``, ``n_answers``,
  ``failed_answers``.

Score metadata: ``panels`` (every member's initial and final scores, calls and tokens per
panel) and ``group`` (the output's group: the review or the story).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from inspect_ai.scorer import SampleScore

from inspect_plural.scorers._values import values_of

__all__ = [
    "GROUP_PREFIX",
    "INITIAL_GROUP_PREFIX",
    "Phase",
    "PHASES",
    "dimension_order",
    "finite",
    "group_names",
    "groups_in_keys",
    "panels",
    "rows",
    "sample_group",
]

Phase = Literal["initial", "final"]
PHASES: tuple[Phase, ...] = ("initial", "final")

GROUP_PREFIX = "group/"
"""Score key prefix of a panel's final score: ``group/{g}/{dim}``."""

INITIAL_GROUP_PREFIX = "group_initial/"
"""Score key prefix of a panel's score before discussion: ``group_initial/{g}/{dim}``."""


def finite(value: float | None) -> bool:
    """Whether a value is a finite number."""
    return value is not None and math.isfinite(float(value))


def rows(scores: list[SampleScore]) -> Iterator[tuple[dict[str, float], dict[str, Any], Any]]:
    """Per dict-valued score: all its numbers, its metadata, and the sample's metadata."""
    for sample_score in scores:
        if isinstance(sample_score.score.value, dict):
            yield (
                values_of(sample_score.score),
                dict(sample_score.score.metadata or {}),
                sample_score.sample_metadata or {},
            )


def sample_group(metadata: dict[str, Any], sample_metadata: Mapping[str, Any]) -> str | None:
    """The output's group (review, story) for per-item correlations."""
    group = metadata.get("group")
    if group is None:
        output = sample_metadata.get("output")
        group = output.get("group") if isinstance(output, Mapping) else None
    return None if group is None else str(group)


def dimension_order(scores: list[SampleScore], prefix: str) -> list[str]:
    """Dimensions in the task's order, then any other with a ``{prefix}{dim}`` key."""
    names: dict[str, None] = {}
    for value, _, sample_metadata in rows(scores):
        for dim in sample_metadata.get("dimensions") or []:
            if isinstance(dim, Mapping) and "name" in dim:
                names.setdefault(str(dim["name"]), None)
        for key in value:
            if key.startswith(prefix):
                names.setdefault(key[len(prefix) :], None)
    return list(names)


def groups_in_keys(keys: Iterable[str], prefix: str, dimensions: Iterable[str]) -> list[str]:
    """The groups named by ``{prefix}{g}/{dim}`` keys, in first-seen order.

    A group name may contain ``/``: the dimension is matched at the end of the key.

    Args:
        keys: Score keys.
        prefix: :data:`GROUP_PREFIX` or :data:`INITIAL_GROUP_PREFIX`.
        dimensions: The known dimensions.

    Returns:
        The group names.
    """
    suffixes = sorted((f"/{dim}" for dim in dimensions), key=len, reverse=True)
    names: dict[str, None] = {}
    for key in keys:
        if not key.startswith(prefix):
            continue
        for suffix in suffixes:
            if key.endswith(suffix) and len(key) > len(prefix) + len(suffix):
                names.setdefault(key[len(prefix) : -len(suffix)], None)
                break
    return list(names)


def group_names(scores: list[SampleScore], prefix: str, dimensions: list[str]) -> list[str]:
    """The panels with a ``{prefix}{g}/{dim}`` key, in the order samples first show them.

    Args:
        scores: The sample scores.
        prefix: :data:`GROUP_PREFIX` or :data:`INITIAL_GROUP_PREFIX`.
        dimensions: The known dimensions.

    Returns:
        The group names (:func:`groups_in_keys` over every sample's keys).
    """
    keys = (key for value, _, _ in rows(scores) for key in value)
    return groups_in_keys(keys, prefix, dimensions)


def panels(metadata: dict[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The score metadata's panels (group -> the ``model_dump`` of its ``PanelScores``)."""
    found = metadata.get("panels") or {}
    return {str(k): v for k, v in found.items() if isinstance(v, Mapping)}
