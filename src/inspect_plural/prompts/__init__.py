"""Prompt templates (package data), overridable with a folder of the user's own.

A task's ``prompts=DIR`` parameter points at a folder; any template file found there
(same file name) replaces the packaged one, so the papers' exact wording can be used.
Templates use ``str.format`` fields; a replacement must use the same fields. The filled
examples the prompts show are drawn per sample (:mod:`inspect_plural.prompts._examples`).
"""

from __future__ import annotations

import functools
import string
from importlib import resources
from pathlib import Path

from inspect_plural.prompts._examples import (
    example_choice,
    example_distribution,
    example_key,
    example_rng,
    example_score,
)

__all__ = [
    "PromptTemplateError",
    "example_choice",
    "example_distribution",
    "example_key",
    "example_rng",
    "example_score",
    "load_template",
]


class PromptTemplateError(ValueError):
    """A prompt template is missing or does not use the expected fields."""


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def load_template(
    name: str,
    fields: set[str],
    required: set[str],
    prompts_dir: str | Path | None = None,
) -> str:
    """Load a template by file name, preferring the user's folder.

    Templates are cached per process and re-read when the file changes.

    Args:
        name: File name (e.g. ``role_identification.txt``).
        fields: The ``str.format`` fields the template may use.
        required: The fields it must use.
        prompts_dir: Optional folder of replacement templates.

    Returns:
        The template text.

    Raises:
        PromptTemplateError: The folder does not exist, or the fields differ.
    """
    if prompts_dir is not None and (Path(prompts_dir) / name).is_file():
        path = Path(prompts_dir) / name
        stat = path.stat()
        return _checked(
            str(path), stat.st_mtime_ns, stat.st_size, frozenset(fields), frozenset(required)
        )
    if prompts_dir is not None and not Path(prompts_dir).is_dir():
        raise PromptTemplateError(f"prompts folder not found: {prompts_dir}")
    return _checked(f"package:{name}", 0, 0, frozenset(fields), frozenset(required))


@functools.lru_cache(maxsize=64)
def _checked(
    source: str, mtime_ns: int, size: int, fields: frozenset[str], required: frozenset[str]
) -> str:
    """Read a template (``package:NAME`` for packaged ones) and check its fields."""
    if source.startswith("package:"):
        name = source.split(":", 1)[1]
        template = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
        source = f"inspect_plural/prompts/{name}"
    else:
        template = Path(source).read_text(encoding="utf-8")
    try:
        used = _fields(template)
    except ValueError as ex:
        raise PromptTemplateError(f"{source}: not a valid str.format template: {ex}") from ex
    if not used <= fields or not required <= used:
        raise PromptTemplateError(
            f"{source}: template fields {sorted(used)}; allowed {sorted(fields)}, required "
            f"{sorted(required)} (write literal braces as {{{{ and }}}})"
        )
    return template
