"""The private Inspect names the package uses still exist and still mean what we rely on.

Every private import lives in ``inspect_plural._inspect_private``; when an Inspect release
moves or changes one of them, a test here fails naming it (and nothing else needs to
change but that module).
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import inspect_ai
import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, generate, solver
from tests.conftest import scripted_model

import inspect_plural
from inspect_plural import _inspect_private
from inspect_plural._inspect_private import PRIVATE_NAMES, PROGRESS_METRICS_MODULE
from inspect_plural.errors import UserError

SOURCE = Path(inspect_plural.__file__).parent


def _moved(what: str) -> str:
    return (
        f"Inspect {inspect_ai.__version__} moved or changed {what}: update "
        "src/inspect_plural/_inspect_private.py (the one home of private Inspect names)"
    )


@pytest.mark.parametrize(("name", "module"), sorted(PRIVATE_NAMES.items()))
def test_each_private_name_is_still_where_inspect_had_it(name: str, module: str) -> None:
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as ex:
        pytest.fail(f"{_moved(f'{module}.{name}')} ({ex})")
    assert found is getattr(_inspect_private, name), _moved(f"{module}.{name}")


def test_the_progress_display_module_still_exists() -> None:
    try:
        importlib.import_module(PROGRESS_METRICS_MODULE)
    except ImportError as ex:
        pytest.fail(f"{_moved(PROGRESS_METRICS_MODULE)} ({ex})")


def test_no_other_module_imports_a_private_inspect_module() -> None:
    offenders = []
    for path in sorted(SOURCE.rglob("*.py")):
        if path.name == "_inspect_private.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            modules = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for module in modules:
                parts = module.split(".")
                if parts[0] == "inspect_ai" and any(p.startswith("_") for p in parts[1:]):
                    offenders.append(f"{path.relative_to(SOURCE)}:{node.lineno} {module}")
    assert offenders == [], "import these through inspect_plural._inspect_private"


def test_inspect_still_prints_a_prerequisite_error_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import rich
    from inspect_ai._util.error import exception_hook

    # Inspect prints it through rich's console, which an earlier eval(display="none")
    # in this process leaves quiet; the command line's console is not
    monkeypatch.setattr(rich.get_console(), "quiet", False)

    error = UserError("option few_shot: must be a whole number")
    exception_hook()(UserError, error, None)
    printed = capsys.readouterr()
    assert "option few_shot: must be a whole number" in printed.out
    assert "Traceback" not in printed.out + printed.err


def test_sample_total_tokens_counts_the_running_sample(tmp_path: Path) -> None:
    seen: list[int] = []

    @solver
    def record() -> object:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            seen.append(_inspect_private.sample_total_tokens())
            return state

        return solve

    @scorer(metrics=[mean()])
    def tokens() -> object:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=_inspect_private.sample_total_tokens())

        return score

    model = scripted_model(["a"], input_tokens=7, output_tokens=4)
    task = Task(
        dataset=[Sample(input="x", id="s1")],
        solver=[record(), generate(), record()],
        scorer=tokens(),
    )
    [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert seen == [0, 11]
    assert log.results is not None
    assert log.results.scores[0].metrics["mean"].value == 11
