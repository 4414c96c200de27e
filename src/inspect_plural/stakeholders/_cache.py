"""The disk cache of created persona sets: one labelled JSON file per key.

Document-created sets live in ``personas/``, the panel scorer's expanded profiles in
``panel_personas/``. Each entry carries its :class:`~inspect_plural._disk_cache.EntryLabel`
(the task, model, prompt version, seed, and its group and persona counts); an entry that
does not fit the run, or whose content disagrees with its label, is rebuilt, with a note
in the new set's ``notes``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from inspect_plural._disk_cache import (
    EntryLabel,
    cache_dir,
    cache_key,
    read_labelled,
    text_version,
    write_labelled,
)
from inspect_plural.stakeholders.records import PersonaSet

__all__ = [
    "cache_key",
    "persona_cache_dir",
    "read_cached",
    "set_label",
    "set_sizes",
    "write_cached",
]

KIND = "personas"


def persona_cache_dir() -> Path:
    """``$INSPECT_PLURAL_CACHE/personas``, else ``~/.cache/inspect_plural/personas``."""
    return cache_dir(KIND)


def set_sizes(persona_set: PersonaSet) -> dict[str, int]:
    """A set's group and persona counts, as its cache label records them."""
    return {"groups": len(persona_set.groups), "personas": len(persona_set.personas)}


def set_label(
    key: str,
    made_for: str,
    model: str,
    templates: Iterable[str],
    seed: int | None,
    kind: str = KIND,
    personas: int | None = None,
) -> EntryLabel:
    """The label a run needs for a persona set.

    Args:
        key: The cache key.
        made_for: The task (or panel) it is for, in words.
        model: The model that writes it.
        templates: The prompt templates it is written with.
        seed: The generation seed.
        kind: The cache folder.
        personas: The number of personas the run needs (None: any).
    """
    sizes = {} if personas is None else {"personas": personas}
    return EntryLabel(
        kind=kind,
        key=key,
        made_for=made_for,
        model=model,
        prompt_version=text_version(*templates),
        seed=seed,
        sizes=sizes,
    )


def read_cached(expected: EntryLabel) -> tuple[PersonaSet | None, str | None]:
    """The set stored for ``expected``, or None and why a stored one was not used."""
    return read_labelled(expected, PersonaSet.model_validate, set_sizes)


def write_cached(label: EntryLabel, persona_set: PersonaSet) -> Path | None:
    """Store a set with its label (its counts filled in).

    Returns:
        The cache file, or None when the cache cannot be written (warned once).
    """
    stored = label.model_copy(update={"sizes": set_sizes(persona_set)})
    return write_labelled(stored, persona_set.model_dump(mode="json"))
