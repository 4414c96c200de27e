"""The import graph of the package and the benchmarks: no circles, and layers import downwards.

Every ``import`` and ``from ... import`` of ``src/inspect_plural`` and ``benchmarks/``
(module level and inside functions alike: a lazy import is still a dependency) is read
with :mod:`ast`, resolved to the module it names (``from pkg import name`` is the
submodule ``pkg.name`` when one exists, else ``pkg``), and

- the graph must have no circle (a strongly connected component of two or more
  modules), which would make import order matter and the layers meaningless;
- an import between two top-level parts of the package must not run upwards through
  the layers of ``docs/architecture.md`` (:data:`LAYERS`);
- the package never imports the benchmarks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LAYERS: dict[str, int] = {
    # 0: foundations, importable by everything (the circle check orders them)
    **dict.fromkeys(
        (
            "errors",
            "records",
            "options",
            "prediction",
            "answer_format",
            "answer_screen",
            "_schema_instance",
            "parsing",
            "rating_parsing",
            "label_sets",
            "item_records",
            "structured",
            "prompts",
            "models",
            "_concurrency",
            "_disk_cache",
            "_inspect_private",
            "_escape",
            "_replies",
            "preflight",
        ),
        0,
    ),
    # 1: official files -> records, and the split protocols
    **dict.fromkeys(("sources", "splits", "adapters", "_dataset_entry_points"), 1),
    # 2: stakeholder personas (made from documents or the datasets' task descriptions)
    "stakeholders": 2,
    # 3: methods
    "solvers": 3,
    # 4: scorers (the panel scorer runs the MAJ-Eval debate engine, solvers.debate)
    "scorers": 4,
    # 5: tasks: records -> samples, a method, a scorer
    "tasks": 5,
    # 6: what reads logs, the command line and the entry points
    **dict.fromkeys(("analysis", "report", "profile", "cli", "_demo", "_registry"), 6),
}
"""Top-level part of ``inspect_plural`` -> its layer; an import may not go to a higher one."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT / "src" if "src" in path.parts else ROOT).parts)
    parts[-1] = parts[-1].removesuffix(".py")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    files = [*(ROOT / "src" / "inspect_plural").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]
    return {_module_name(path): path for path in files}


def _imported(tree: ast.AST, known: dict[str, Path]) -> Iterator[str]:
    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            targets = [
                f"{node.module}.{alias.name}"
                if f"{node.module}.{alias.name}" in known
                else node.module
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            module = resolve(target)
            if module is not None:
                yield module


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {
        name: set(_imported(ast.parse(path.read_text(encoding="utf-8")), known)) - {name}
        for name, path in known.items()
    }


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of two or more modules (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "inspect_plural" and len(parts) > 1 else None


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return _graph()


def test_the_graph_covers_the_package_and_the_benchmarks(graph: dict[str, set[str]]) -> None:
    assert len(graph) > 200
    assert "inspect_plural.solvers.debate" in graph["inspect_plural.solvers.maj_eval"]
    assert "benchmarks.families" in graph["benchmarks.fuzz"]


def test_no_import_circle(graph: dict[str, set[str]]) -> None:
    assert _circles(graph) == []


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(graph) == [["a", "b", "c"]]


def test_every_top_level_part_has_a_layer(graph: dict[str, set[str]]) -> None:
    parts = {_part(module) for module in graph} - {None}
    assert parts == set(LAYERS)


def test_imports_run_down_the_layers(graph: dict[str, set[str]]) -> None:
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if (source := _part(module)) is not None
        and (dest := _part(target)) is not None
        and LAYERS[dest] > LAYERS[source]
    )
    assert upward == []


def test_the_package_never_imports_the_benchmarks(graph: dict[str, set[str]]) -> None:
    assert not [
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module.startswith("inspect_plural")
        for target in targets
        if target.startswith("benchmarks")
    ]
