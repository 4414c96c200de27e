"""The package's disk cache: one JSON file per key, under ``$INSPECT_PLURAL_CACHE``.

Persona work that costs model calls (MAJ-Eval persona sets, CINEMETRIC character
panels) is stored here, so a rerun or ``inspect eval-retry`` reuses it instead of
paying for it again. Each kind of entry has its own folder; a key is the SHA-256 of
everything the entry depends on. Files are written to a temporary file and renamed,
so concurrent runs never read half a file; an unreadable entry counts as a miss.

An entry is stored with its label (:class:`EntryLabel`): what it was made for (kind, key,
annotator or task, model, prompt version, seed) and its sizes (characters, personas,
groups). :func:`read_labelled` checks the label against what the run needs and the
sizes against the content: an entry made for another annotator or model, copied under
another key, cut short, empty, or of an older layout is a miss, with a note saying why
(the caller rebuilds it and records the note in the sample). Cache files are not
trusted: they are read as JSON into validated models, never executed.

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
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, Field

__all__ = [
    "ENTRY_FORMAT",
    "EntryLabel",
    "cache_dir",
    "cache_key",
    "cache_root",
    "read_entry",
    "read_labelled",
    "text_version",
    "write_entry",
    "write_labelled",
]

ENTRY_FORMAT = "inspect_plural/cache-entry@1"
"""The layout of a labelled entry: ``{"format", "label", "content"}``."""
_LABEL_FIELDS = ("kind", "key", "made_for", "model", "prompt_version", "seed")
T = TypeVar("T")

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


class EntryLabel(BaseModel):
    """What a cache entry was made for, stored with it and checked when it is read.

    Attributes:
        kind: The kind of entry (its folder: ``panels``, ``personas``, ...).
        key: The entry's key (a file copied under another key no longer matches).
        made_for: Whose it is, in words (``annotator Ann1 of brexit``, ``task panel``).
        model: The model that made it.
        prompt_version: A short hash of the prompt templates it was made with.
        seed: The generation seed (None: unseeded).
        sizes: Counts of its parts (``{"characters": 3}``); none may be 0. In the label
            the run expects, the counts it needs (others are not checked).

    """

    kind: str
    key: str
    made_for: str
    model: str
    prompt_version: str
    seed: int | None = None
    sizes: dict[str, int] = Field(default_factory=dict)


def text_version(*texts: str) -> str:
    """A short hash of prompt texts, for :attr:`EntryLabel.prompt_version`."""
    return hashlib.sha256("\x1e".join(texts).encode("utf-8")).hexdigest()[:16]


def write_labelled(label: EntryLabel, content: Any) -> Path | None:
    """Store JSON-able ``content`` with its label (see :func:`write_entry`).

    Returns:
        The cache file, or None when it could not be written.
    """
    entry = {"format": ENTRY_FORMAT, "label": label.model_dump(), "content": content}
    return write_entry(label.kind, label.key, json.dumps(entry, ensure_ascii=False, indent=1))


def _mismatch(found: EntryLabel, expected: EntryLabel, actual: dict[str, int]) -> str | None:
    differs = [f for f in _LABEL_FIELDS if getattr(found, f) != getattr(expected, f)]
    if differs:
        return (
            f"made for {found.made_for} ({found.model}), this run needs {expected.made_for} "
            f"({expected.model}); differs in {', '.join(differs)}"
        )
    if actual != found.sizes:
        return f"its content has {actual}, its label says {found.sizes}"
    empty = [name for name, n in found.sizes.items() if n == 0]
    if empty:
        return f"it holds no {', '.join(empty)}"
    short = {n: v for n, v in expected.sizes.items() if found.sizes.get(n) != v}
    if short:
        return f"it has {found.sizes}, this run needs {short}"
    return None


def read_labelled(
    expected: EntryLabel, parse: Callable[[Any], T], sizes_of: Callable[[T], dict[str, int]]
) -> tuple[T | None, str | None]:
    """The entry stored under ``expected.key``, if it is what the run needs.

    Args:
        expected: The label the run needs (its ``sizes``: the counts it requires).
        parse: Turns the stored content into the value (raises on invalid content).
        sizes_of: The counts of a value's parts, compared with the label's.

    Returns:
        ``(value, None)`` for a fitting entry; ``(None, None)`` when there is none;
        ``(None, note)`` when there is one that does not fit, the note saying why (and
        naming the file): the caller rebuilds it.
    """
    text = read_entry(expected.kind, expected.key)
    if text is None:
        return None, None
    where = f"cache entry {_path(expected.kind, expected.key)}"
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != ENTRY_FORMAT:
            return None, f"{where} is of an older layout or damaged; rebuilt"
        found = EntryLabel.model_validate(data["label"])
        value = parse(data["content"])
        actual = sizes_of(value)
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        return None, f"{where} is unreadable ({type(error).__name__}); rebuilt"
    problem = _mismatch(found, expected, actual)
    if problem is not None:
        return None, f"{where} ignored: {problem}; rebuilt"
    return value, None
