"""Local paths as a report shows them: never a home folder or an absolute path it can avoid.

A report is shared (a page, a paper's table), so a path from the user's machine is
shown relative to the working directory when it lies under it, with ``~`` for the
home folder otherwise; a row label never holds a path at all, only its last part
(:func:`path_tail`).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

__all__ = ["looks_like_path", "path_tail", "shown_path"]

_PATH = re.compile(r"^(~|\.{1,2}|[A-Za-z]:)?[\\/]")
"""A value that starts like a local path (``/data/x``, ``~/x``, ``../x``, ``C:\\x``); a
name with a slash inside (``openai/gpt-4``, ``data/brexit``) does not."""


def looks_like_path(value: str) -> bool:
    """Whether a setting's value is a local path: absolute, from home, or ``./``/``../``."""
    return bool(_PATH.match(value.strip()))


def path_tail(value: str) -> str:
    """The last part of a path (``/work/shared/data/brexit/`` -> ``brexit``)."""
    parts = [p for p in re.split(r"[\\/]+", value) if p]
    return parts[-1] if parts else value


def shown_path(path: str | os.PathLike[str]) -> str:
    """A local path relative to the working directory, else with ``~`` for the home folder.

    Args:
        path: The path (relative paths are taken from the working directory).

    Returns:
        ``logs/demo`` for a folder under the working directory, ``~/runs/x`` under the
        home folder, else the absolute path.
    """
    absolute = Path(os.path.abspath(os.fspath(path)))
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            relative = absolute.relative_to(base).as_posix()
        except ValueError:
            continue
        return prefix + relative if relative != "." else (prefix.rstrip("/") or ".")
    return absolute.as_posix()
