"""The package's disk cache: one JSON file per key, under ``$INSPECT_PLURAL_CACHE``.

Persona work that costs model calls (MAJ-Eval persona sets, CINEMETRIC character
panels) is stored here, so a rerun or ``inspect eval-retry`` reuses it instead of
paying for it again. Each kind of entry has its own folder; a key is the SHA-256 of
everything the entry depends on. Files are written to a temporary file and renamed,
so concurrent runs never read half a file; an unreadable entry counts as a miss.

A cache that cannot be written (a read-only file system, ``$INSPECT_PLURAL_CACHE``
naming a regular file, a folder where an entry's file goes, a full disk) never stops a
run: the write is skipped with one warning per folder naming the path, and the caller
keeps the result in memory (a rerun pays for it again).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "cache_key", "cache_root", "read_entry", "write_entry"]

logger = logging.getLogger(__name__)
_warned: set[Path] = set()
"""Folders whose failed write was already reported (one warning per folder and process)."""


def cache_root() -> Path:
    """``$INSPECT_PLURAL_CACHE``, else ``~/.cache/inspect_plural``."""
    root = os.environ.get("INSPECT_PLURAL_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "inspect_plural"


def cache_dir(kind: str) -> Path:
    """The folder of one kind of entry (e.g. ``personas``, ``panels``)."""
    return cache_root() / kind


def cache_key(parts: dict[str, Any]) -> str:
    """SHA-256 of the parts as canonical JSON (values that are not JSON as ``str``)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _path(kind: str, key: str) -> Path:
    return cache_dir(kind) / f"{key}.json"


def read_entry(kind: str, key: str) -> str | None:
    """The text stored under ``key``, or None when there is none (or it is unreadable)."""
    path = _path(kind, key)
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _unwritable(path: Path, error: OSError) -> None:
    """Warn, once per folder, that an entry could not be stored."""
    if path.parent in _warned:
        return
    _warned.add(path.parent)
    reason = error.strerror or type(error).__name__
    logger.warning(
        f"inspect_plural cache: cannot write {path} ({reason}); the run goes on with the "
        "result in memory only. Set INSPECT_PLURAL_CACHE to a writable folder to keep it."
    )


def write_entry(kind: str, key: str, text: str) -> Path | None:
    """Store ``text`` under ``key`` atomically (a temporary file, then a rename).

    Returns:
        The cache file, or None when it could not be written (warned once per folder).
    """
    path = _path(kind, key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError as error:
        _unwritable(path, error)
        return None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text if text.endswith("\n") else text + "\n")
        os.replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if not isinstance(error, OSError):
            raise
        _unwritable(path, error)
        return None
    return path
