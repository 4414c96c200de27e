"""Every import the README and docs/*.md show works from the path they show.

Two kinds of reference are read from the Markdown: ``from inspect_plural... import a, b``
lines (in code blocks; the names must be importable from that module), and dotted paths
``inspect_plural.x.y`` in code blocks and inline code (the longest prefix that is a
module must import and the rest must be attributes of it), except the names of the
package's entry-point groups, which are not modules.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`([^`\n]+)`")
FROM_IMPORT = re.compile(
    r"^\s*from\s+(inspect_plural(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n#]+)", re.MULTILINE
)
DOTTED = re.compile(r"(?<![\w./])inspect_plural(?:\.[A-Za-z_]\w*)+")


def _code(text: str) -> str:
    blocks = [match.group(0) for match in FENCE.finditer(text)]
    inline = [match.group(1) for match in INLINE.finditer(FENCE.sub("", text))]
    return "\n".join([*blocks, *inline])


def _from_imports() -> list[tuple[str, str, str]]:
    found = []
    for page in PAGES:
        for module, names in FROM_IMPORT.findall(_code(page.read_text(encoding="utf-8"))):
            for name in names.strip("()").replace("\n", " ").split(","):
                if name.strip():
                    found.append((page.name, module, name.split(" as ")[0].strip()))
    return sorted(set(found))


def _entry_point_groups() -> set[str]:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return set(re.findall(r'^\[project\.entry-points\."?([\w.]+)"?\]', pyproject, re.MULTILINE))


def _dotted_paths() -> list[tuple[str, str]]:
    groups = _entry_point_groups()
    return sorted(
        {
            (page.name, path)
            for page in PAGES
            for path in DOTTED.findall(_code(page.read_text(encoding="utf-8")))
            if path not in groups
        }
    )


def _resolve(path: str) -> object:
    parts = path.split(".")
    module: ModuleType | None = None
    for end in range(len(parts), 0, -1):
        try:
            module = importlib.import_module(".".join(parts[:end]))
        except ModuleNotFoundError:
            continue
        break
    assert module is not None, path
    value: object = module
    for attribute in parts[end:]:
        value = getattr(value, attribute)
    return value


def test_the_docs_show_imports_and_paths() -> None:
    assert len(_from_imports()) >= 5
    assert len(_dotted_paths()) >= 10


@pytest.mark.parametrize(("page", "module", "name"), _from_imports())
def test_documented_from_import(page: str, module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), f"{page}: from {module} import {name}"


@pytest.mark.parametrize(("page", "path"), _dotted_paths())
def test_documented_dotted_path(page: str, path: str) -> None:
    _resolve(path)


def test_a_wrong_path_fails() -> None:
    with pytest.raises(AttributeError):
        _resolve("inspect_plural.scorers.no_such_scorer")
