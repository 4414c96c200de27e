"""The ``panel`` scorer's rubric: the dimensions a panel scores, each with its scale.

Given as ``dimensions`` (``"helpfulness:1-5,safety:0-10"``; a bare name is on 1–5; a list
of such strings; or a mapping name -> scale or entry) or as a YAML/JSON ``rubric`` file:

.. code-block:: yaml

    dimensions:
      - name: helpfulness
        description: Does the answer help a parent reading the story with a child?
        scale: 1-5
      - name: safety
        description: Is the answer free of anything frightening for a young child?
        scale: 0-3

(a bare list of entries, or a mapping ``name: entry`` works too; an entry may give
``low`` and ``high`` instead of ``scale``, and a ``title``). Without either, the panel
scores one ``overall`` dimension on 1–5. Scales are integers, low below high.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from inspect_plural.errors import OptionError, UserError
from inspect_plural.records import RatingDimension

__all__ = [
    "DEFAULT_DIMENSION",
    "load_rubric",
    "parse_dimensions",
    "rubric_dimensions",
]

DEFAULT_DIMENSION = RatingDimension(
    name="overall",
    title="Overall",
    description="How good the response is for this task, all things considered, from your "
    "point of view.",
    low=1,
    high=5,
)
"""The dimension a panel scores when no rubric is given."""

DEFAULT_SCALE = (1, 5)
MAX_SCALE_POINTS = 101
_SCALE = re.compile(r"^\s*(-?\d+)\s*(?:-|–|\.\.|to)\s*(-?\d+)\s*$", re.IGNORECASE)


class _RubricProblem(ValueError):
    """One entry of a rubric is wrong (turned into an error naming the option or file)."""


def _key(name: object) -> str:
    key = re.sub(r"[^0-9a-z]+", "_", str(name).strip().casefold()).strip("_")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", key):
        raise _RubricProblem(
            f"dimension name {name!r} must start with a letter (letters, digits, _)"
        )
    return key


def _scale(value: object) -> tuple[int, int]:
    if isinstance(value, (list, tuple)) and len(value) == 2:
        low, high = value
    else:
        match = _SCALE.match(str(value))
        if match is None:
            raise _RubricProblem(f"scale {value!r} is not LOW-HIGH (e.g. 1-5)")
        low, high = match.group(1), match.group(2)
    try:
        bounds = (int(str(low)), int(str(high)))
    except ValueError:
        raise _RubricProblem(f"scale {value!r} must have integer bounds") from None
    if bounds[0] >= bounds[1]:
        raise _RubricProblem(f"scale {value!r}: the low end must be below the high end")
    if bounds[1] - bounds[0] + 1 > MAX_SCALE_POINTS:
        raise _RubricProblem(f"scale {value!r} has more than {MAX_SCALE_POINTS} points")
    return bounds


def _dimension(
    name: object,
    scale: object = None,
    description: object = None,
    title: object = None,
    low: object = None,
    high: object = None,
) -> RatingDimension:
    key = _key(name)
    if low is not None or high is not None:
        bounds = _scale([low, high])
    else:
        bounds = DEFAULT_SCALE if scale is None else _scale(scale)
    shown = str(title).strip() if title else key.replace("_", " ").capitalize()
    about = (
        str(description).strip()
        if description
        else f"How good the response is on {shown.lower()}, from your point of view."
    )
    try:
        return RatingDimension(
            name=key, title=shown, description=about, low=bounds[0], high=bounds[1]
        )
    except ValidationError as ex:
        raise _RubricProblem(f"dimension {name!r}: {ex.errors()[0]['msg']}") from None


def _entry(item: object, name: object = None) -> RatingDimension:
    """One dimension from a string (``name`` or ``name:scale``) or a mapping."""
    if isinstance(item, Mapping):
        fields = {str(k).strip().casefold(): v for k, v in item.items()}
        unknown = set(fields) - {"name", "title", "description", "scale", "low", "high"}
        if unknown:
            raise _RubricProblem(f"unknown field(s) {sorted(unknown)} in {dict(item)!r}")
        given = fields.pop("name", name)
        if given is None:
            raise _RubricProblem(f"an entry has no name: {dict(item)!r}")
        return _dimension(given, **fields)
    if name is not None:  # name: scale, or name: description
        text = "" if item is None else str(item)
        if item is None or _SCALE.match(text) or isinstance(item, (list, tuple)):
            return _dimension(name, scale=item)
        return _dimension(name, description=text)
    text = str(item).strip()
    dimension, _, scale = text.partition(":")
    return _dimension(dimension, scale=scale.strip() or None)


def _unique(dimensions: list[RatingDimension]) -> list[RatingDimension]:
    seen: set[str] = set()
    for d in dimensions:
        if d.name in seen:
            raise _RubricProblem(f"dimension {d.name!r} is given twice")
        seen.add(d.name)
    if not dimensions:
        raise _RubricProblem("no dimension given")
    return dimensions


def _dimensions(value: object) -> list[RatingDimension]:
    if isinstance(value, Mapping):
        if set(value) == {"dimensions"}:
            return _dimensions(value["dimensions"])
        return _unique([_entry(item, name) for name, item in value.items()])
    if isinstance(value, str):
        value = [part for part in value.split(",") if part.strip()]
    if isinstance(value, Sequence):
        return _unique([_entry(item) for item in value])
    raise _RubricProblem(f"expected a list of dimensions, not {value!r}")


def parse_dimensions(value: str | Sequence[Any] | Mapping[str, Any]) -> list[RatingDimension]:
    """The ``dimensions`` option: ``"helpfulness:1-5,safety:0-10"`` and the like.

    Args:
        value: Comma-separated ``name[:LOW-HIGH]`` (1–5 without a scale), a list of
            those or of entries, or a mapping name -> scale, description or entry.

    Returns:
        The dimensions, in the order given.

    Raises:
        OptionError: A name, scale or entry is wrong (the message says which).
    """
    try:
        return _dimensions(value)
    except _RubricProblem as ex:
        raise OptionError(
            "dimensions", str(ex), 'e.g. -S dimensions="helpfulness:1-5,safety:0-3"'
        ) from None


def load_rubric(path: str | Path) -> list[RatingDimension]:
    """A YAML or JSON rubric file (module docstring).

    Args:
        path: The file.

    Returns:
        The dimensions, in file order.

    Raises:
        UserError: The file is missing, not YAML/JSON, or an entry is wrong (the message
            names the file).
    """
    file = Path(path)
    if not file.is_file():
        raise UserError(f"option rubric: {file}: rubric file not found")
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as ex:
        raise UserError(f"option rubric: {file}: cannot read YAML or JSON: {ex}") from None
    try:
        return _dimensions(data)
    except _RubricProblem as ex:
        raise UserError(f"option rubric: {file}: {ex}") from None


def rubric_dimensions(
    dimensions: str | Sequence[Any] | Mapping[str, Any] | None, rubric: str | None
) -> list[RatingDimension]:
    """The dimensions a panel scores: from ``dimensions``, a ``rubric`` file, or the default.

    Raises:
        OptionError: Both are given, or ``dimensions`` is wrong.
        UserError: The rubric file is wrong.
    """
    if dimensions is not None and rubric is not None:
        raise OptionError("rubric", "give dimensions=... or rubric=FILE, not both")
    if rubric is not None:
        return load_rubric(rubric)
    if dimensions is not None:
        return parse_dimensions(dimensions)
    return [DEFAULT_DIMENSION]
