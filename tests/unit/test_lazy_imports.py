"""Importing the package, its Inspect entry point or its command line loads no heavy library.

Every ``inspect eval`` (of any task, once this package is installed: Inspect loads every
``inspect_ai`` entry point at start-up) imports ``inspect_plural._registry``, and every
``inspect-plural`` command imports ``inspect_plural.cli``; issue 30 holds their start-up
to at most 1.3x Inspect's own (``python -m benchmarks --only startup``). scikit-learn,
pandas, scipy, nltk (through rouge-score), pyarrow and sacrebleu cost seconds each, so
they are imported inside the functions that use them.

Two checks: a quick one reads every module these imports reach with :mod:`ast` and
names the module and line of a module-level import of a heavy library; a slow one
imports them in a fresh interpreter and reads ``sys.modules`` (which also catches a
light dependency that imports a heavy one).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
ENTRY_MODULES = ("inspect_plural", "inspect_plural._registry", "inspect_plural.cli")
HEAVY = ("sklearn", "pandas", "scipy", "nltk", "rouge_score", "pyarrow", "sacrebleu")


def _module_file(name: str) -> Path | None:
    base = SRC.joinpath(*name.split("."))
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _module_level_imports(tree: ast.Module) -> list[ast.stmt]:
    """Import statements run when the module is imported (not under TYPE_CHECKING)."""
    found: list[ast.stmt] = []

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                visit(node.orelse)
                visit(node.finalbody)
                for handler in node.handlers:
                    visit(handler.body)

    visit(tree.body)
    return found


def _targets(node: ast.stmt, name: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        parts = name.split(".") if is_package else name.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        module = ".".join([*parts, *([node.module] if node.module else [])])
    else:
        module = node.module or ""
    return [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _heavy_imports_reached() -> list[str]:
    """``module:line imports lib`` for each module-level heavy import the entry modules reach."""
    seen: set[str] = set()
    todo = list(ENTRY_MODULES)
    found: list[str] = []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]  # parent packages
        path = _module_file(name)
        if path is None:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        is_package = path.name == "__init__.py"
        for node in _module_level_imports(tree):
            for target in _targets(node, name, is_package):
                if target.split(".")[0] in HEAVY:
                    found.append(f"{name}:{node.lineno} imports {target}")
                elif target.startswith("inspect_plural") and _module_file(target):
                    todo.append(target)
    return sorted(set(found))


def test_no_module_the_entry_points_reach_imports_a_heavy_library_at_import() -> None:
    assert _heavy_imports_reached() == []


def test_the_check_reads_run_time_imports_only() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pandas\n")
    [node] = _module_level_imports(tree)  # the TYPE_CHECKING block is skipped
    assert node.lineno == 1
    tree = ast.parse("try:\n    import sklearn.metrics\nexcept ImportError:\n    pass\n")
    [node] = _module_level_imports(tree)
    assert _targets(node, "m", False) == ["sklearn.metrics"]
    tree = ast.parse("def f():\n    import pandas\n")
    assert _module_level_imports(tree) == []
    [node] = _module_level_imports(ast.parse("from .._corpus import x\n"))
    assert _targets(node, "inspect_plural.sources.brexit", False)[0] == "inspect_plural._corpus"


@pytest.mark.slow
def test_a_fresh_interpreter_imports_no_heavy_library() -> None:
    code = (
        "import importlib, json, sys\n"
        f"for name in {list(ENTRY_MODULES)!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in {list(HEAVY)!r} if m in sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
