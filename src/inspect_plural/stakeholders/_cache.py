"""The disk cache of created persona sets: one JSON file per key."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from inspect_plural.stakeholders.records import PersonaFileError, PersonaSet, load_personas

__all__ = ["cache_key", "persona_cache_dir", "read_cached", "write_cached"]


def persona_cache_dir() -> Path:
    """``$INSPECT_PLURAL_CACHE/personas``, else ``~/.cache/inspect_plural/personas``."""
    root = os.environ.get("INSPECT_PLURAL_CACHE")
    base = Path(root) if root else Path.home() / ".cache" / "inspect_plural"
    return base / "personas"


def cache_key(parts: dict[str, Any]) -> str:
    """SHA-256 of the parts as canonical JSON (values that are not JSON as ``str``)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _path(key: str) -> Path:
    return persona_cache_dir() / f"{key}.json"


def read_cached(key: str) -> PersonaSet | None:
    """The set stored under ``key``, or None (missing or unreadable: it is rebuilt)."""
    path = _path(key)
    if not path.is_file():
        return None
    try:
        return load_personas(path)
    except PersonaFileError:
        return None


def write_cached(key: str, persona_set: PersonaSet) -> Path:
    """Store a set under ``key`` (written to a temporary file, then renamed).

    Returns:
        The cache file.
    """
    path = _path(key)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(persona_set.to_json() + "\n")
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return path
