"""The disk cache of created persona sets: one JSON file per key (``personas/``)."""

from __future__ import annotations

from pathlib import Path

from inspect_plural._disk_cache import cache_dir, cache_key, write_entry
from inspect_plural.stakeholders.records import PersonaFileError, PersonaSet, load_personas

__all__ = ["cache_key", "persona_cache_dir", "read_cached", "write_cached"]

KIND = "personas"


def persona_cache_dir() -> Path:
    """``$INSPECT_PLURAL_CACHE/personas``, else ``~/.cache/inspect_plural/personas``."""
    return cache_dir(KIND)


def read_cached(key: str) -> PersonaSet | None:
    """The set stored under ``key``, or None (missing or unreadable: it is rebuilt)."""
    path = persona_cache_dir() / f"{key}.json"
    if not path.is_file():
        return None
    try:
        return load_personas(path)
    except PersonaFileError:
        return None


def write_cached(key: str, persona_set: PersonaSet) -> Path | None:
    """Store a set under ``key`` (written to a temporary file, then renamed).

    Returns:
        The cache file, or None when the cache cannot be written (warned once).
    """
    return write_entry(KIND, key, persona_set.to_json())
