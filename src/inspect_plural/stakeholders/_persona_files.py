"""Persona files read back: a saved set, a packaged default by name, or the paper's layout.

:func:`load_personas` also accepts the paper's spelling of the persona attributes
(``Name``, ``Demographic Information``, ``Perspective``, ``Specialty``, ``Psychological
Traits``, ``Social Relationships``);
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from inspect_plural._disk_cache import ENTRY_FORMAT
from inspect_plural.sources._paths import DataFileError, check_path
from inspect_plural.sources._read import read_json_file
from inspect_plural.stakeholders._personas import DEFAULT_PERSONA_SETS, PersonaFileError, PersonaSet

__all__ = ["default_personas", "load_personas", "parse_persona_set"]


def _paper_layout(data: dict[str, Any]) -> dict[str, Any] | None:
    """The paper's persona answer ``{group: [persona, ...]}`` as a persona-set dict."""
    if not data or not all(
        isinstance(v, list) and v and all(isinstance(p, dict) for p in v) for v in data.values()
    ):
        return None
    return {"groups": [{"name": str(name), "personas": list(v)} for name, v in data.items()]}


def _coerce(data: Any) -> Any:
    if isinstance(data, dict) and data.get("format") == ENTRY_FORMAT:
        data = data.get("content")  # a disk-cache entry: the set inside its label
    if isinstance(data, dict) and "groups" not in data:
        paper = _paper_layout(data)
        if paper is not None:
            return paper
    return data


def _validation_message(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:5]:
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f"; and {more} more" if more > 0 else "")


def parse_persona_set(data: Any, source: str) -> PersonaSet:
    """Validate a persona set from decoded JSON.

    Args:
        data: The decoded JSON (the persona-set format, or the paper's
            ``{group: [persona, ...]}`` answer).
        source: What to name in an error (a file path).

    Returns:
        The persona set.

    Raises:
        PersonaFileError: The data does not follow the format.
    """
    try:
        return PersonaSet.model_validate(_coerce(data))
    except ValidationError as ex:
        raise PersonaFileError(
            f"{source}: not a valid persona file: {_validation_message(ex)}"
        ) from ex


def default_personas(task: str) -> PersonaSet:
    """The persona set shipped for a task (written by us from the groups the paper reports).

    Args:
        task: ``mslr_cochrane`` or ``storysparkqa``.

    Returns:
        The persona set (``origin.kind == "default"``).

    Raises:
        PersonaFileError: No default set exists for that task.
    """
    if task not in DEFAULT_PERSONA_SETS:
        raise PersonaFileError(
            f"no default persona set for task {task!r}; defaults: {list(DEFAULT_PERSONA_SETS)}"
        )
    source = f"inspect_plural/stakeholders/defaults/{task}.json"
    text = (
        resources.files("inspect_plural.stakeholders")
        .joinpath("defaults")
        .joinpath(f"{task}.json")
        .read_text(encoding="utf-8")
    )
    return parse_persona_set(json.loads(text), source)


def load_personas(path_or_name: str | Path) -> PersonaSet:
    """Read a persona file, or a packaged default by task name.

    Args:
        path_or_name: A JSON file (the persona-set format, or the paper's
            ``{group: [persona, ...]}`` answer), or ``mslr_cochrane`` /
            ``storysparkqa`` for the shipped defaults.

    Returns:
        The persona set.

    Raises:
        PersonaFileError: The file is missing, not JSON or not a persona set (the
            message names the file).
    """
    path = Path(path_or_name)
    try:
        check_path(path, "the persona file")
    except DataFileError as ex:
        raise PersonaFileError(str(ex)) from None
    if str(path_or_name) in DEFAULT_PERSONA_SETS and not path.is_file():
        return default_personas(str(path_or_name))
    if not path.is_file():
        raise PersonaFileError(
            f"{path}: persona file not found (give a JSON file written by `inspect-plural "
            f"personas`, or one of the defaults {list(DEFAULT_PERSONA_SETS)})"
        )
    try:
        data = read_json_file(path, "a JSON persona file (inspect-plural personas writes one)")
    except DataFileError as ex:
        raise PersonaFileError(str(ex)) from None
    return parse_persona_set(data, str(path))
