"""Every component the docs list is registered with Inspect, and every registered one is listed.

The README's task and method tables name every task and solver of the package (no more,
no fewer); ``docs/architecture.md`` holds the full component table (tasks, solvers,
scorers, the model API).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai._util.registry import registry_find, registry_info, registry_lookup
from inspect_ai.model import get_model

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
ROW = re.compile(r"^\| (task|solver|scorer|model API) \| `([^`]+)` \|", re.MULTILINE)
PREFIX = "inspect_plural/"


def _listed() -> list[tuple[str, str]]:
    rows = ROW.findall(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(rows) >= 6, "docs/architecture.md's component table was not found"
    return rows


SETUP_SOLVERS = {PREFIX + "preflight"}
"""Registered solvers that are every task's setup, not methods (no README method row)."""


def _registered(kind: str) -> set[str]:
    import inspect_plural._registry  # noqa: F401  (registers everything)

    names = {registry_info(obj).name for obj in registry_find(lambda i: i.type == kind)}
    return {n for n in names if n.startswith(PREFIX)}


def _readme_table(header: str) -> list[str]:
    """The first column's names of the README table whose header row starts with ``header``."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {header} |"))
    names = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        names.append(re.findall(r"`([^`]+)`", line.split("|")[1])[0])
    return names


@pytest.mark.parametrize(("kind", "name"), _listed())
def test_listed_component_is_registered(kind: str, name: str) -> None:
    if kind == "model API":
        assert get_model(name, memoize=False).api.model_name == name.split("/", 1)[1]
    else:
        assert registry_lookup(kind, name) is not None, f"{kind} {name} is not registered"


@pytest.mark.parametrize("kind", ["task", "solver", "scorer"])
def test_every_registered_component_is_in_the_architecture_table(kind: str) -> None:
    listed = {name for k, name in _listed() if k == kind}
    assert _registered(kind) == listed


def test_readme_task_table_is_every_registered_task() -> None:
    names = _readme_table("task")
    assert len(names) == len(set(names)), "a task is listed twice"
    assert {PREFIX + n for n in names} == _registered("task")


def test_readme_method_table_is_every_registered_solver() -> None:
    names = _readme_table("method")
    assert len(names) == len(set(names)), "a method is listed twice"
    assert {PREFIX + n for n in names} == _registered("solver") - SETUP_SOLVERS


def test_entry_point_is_declared() -> None:
    from importlib.metadata import entry_points

    names = {ep.name: ep.value for ep in entry_points(group="inspect_ai")}
    assert names.get("inspect_plural") == "inspect_plural._registry"


def test_built_in_annotator_datasets_are_dataset_adapters() -> None:
    from importlib.metadata import entry_points

    from inspect_plural.tasks.lewidi import LEWIDI_TASKS
    from inspect_plural.tasks.perspective import DATASET_PROTOCOLS

    adapters = {ep.name: ep.value for ep in entry_points(group="inspect_plural.datasets")}
    for name in DATASET_PROTOCOLS:
        module = "lewidi" if name in LEWIDI_TASKS else name  # one module, six loaders
        assert adapters.get(name) == f"inspect_plural.sources.{module}:load_{name}", name
