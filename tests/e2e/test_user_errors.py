"""User errors as a user meets them: `inspect eval ...` exits non-zero in at most 10 lines.

Each case runs the real command line in a subprocess (no traceback may reach the user:
Inspect prints an ``inspect_plural.errors.UserError`` as its message alone), and checks
that the message names the option or the file. (A bug in the package is any other
exception, which Inspect prints with its traceback.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import pytest

from inspect_plural.errors import UserError

pytestmark = pytest.mark.e2e

MAX_LINES = 10


def _inspect(args: list[str], tmp_path: Path) -> tuple[int, str]:
    env = {**os.environ, "COLUMNS": "100", "INSPECT_PLURAL_CACHE": str(tmp_path / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", *args, "--model", "plural/random"]
        + ["--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    return done.returncode, (done.stdout + done.stderr).strip()


def _files(tmp_path: Path) -> dict[str, Path]:
    empty, header = tmp_path / "empty", tmp_path / "header"
    empty.mkdir()
    header.mkdir()
    for name in ("train.csv", "validation.csv", "test.csv", "Literary.csv", "ratings.csv"):
        (empty / name).write_text("", encoding="utf-8")
    for name in ("train.csv", "validation.csv", "test.csv"):
        (header / name).write_text("text,annotations\n", encoding="utf-8")
    (header / "Literary.csv").write_text("prompt,gt,option1\n", encoding="utf-8")
    return {"empty": empty, "header": header}


CLI_CASES = [
    (["inspect_plural/personaeval_literary", "-T", "demo=true", "-T", "few_shots=3"], "few_shot"),
    (["inspect_plural/brexit", "-T", "data_dir={header}"], "train.csv: the file has a header"),
]
"""Through the real command line: the mechanism (a ``UserError`` prints alone)."""

CASES = [
    ("personaeval_literary", {"demo": True, "few_shots": 3}, "few_shot"),
    ("brexit", {"demo": True, "split": "cinemetric", "n_annotators": "abc"}, "n_annotators"),
    ("brexit", {"demoo": True}, "did you mean demo?"),
    ("brexit", {"data_dir": "{empty}"}, "train.csv: the file is empty"),
    ("brexit", {"data_dir": "{header}"}, "train.csv: the file has a header"),
    ("personaeval_literary", {"data_dir": "{empty}"}, "Literary.csv: the file is empty"),
    ("personaeval_literary", {"data_dir": "{header}"}, "Literary.csv: the file has a header"),
    ("storysparkqa", {"ratings": "{empty}/ratings.csv"}, "ratings.csv"),
    ("dices", {"demo": True, "method": "personalized_judge", "named": False}, "option named"),
    ("mslr_cochrane", {"demo": True, "max_rounds": "abc"}, "max_rounds"),
    ("per_mpst", {"demo": True, "kk": 3}, "did you mean k?"),
]
"""Every kind of user error, in-process: a ``UserError`` whose message fits 10 lines."""


def _data_mistakes(tmp_path: Path) -> dict[str, Path]:
    """Folders holding the data mistakes a user makes (copies of the demo files, broken)."""
    demo = Path(str(resources.files("inspect_plural").joinpath("demo")))
    made: dict[str, Path] = {}
    columns = made["columns"] = tmp_path / "columns"
    columns.mkdir()
    for name in ("train.csv", "validation.csv", "test.csv"):
        (columns / name).write_text("text,annotations\nhello,1\n", encoding="utf-8")
    for dataset in ("epic", "brexit", "dp"):
        folder = made[f"latin1_{dataset}"] = tmp_path / f"latin1_{dataset}"
        folder.mkdir()
        for file in (demo / dataset).iterdir():
            text = file.read_text(encoding="utf-8").replace("e", "\u00e9", 3)
            (folder / file.name).write_bytes(text.encode("latin-1", "replace"))
    deep = made["deep"] = tmp_path / "deep"
    shutil.copytree(demo / "brexit", deep)
    (deep / "HS-Brexit_train.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    made["long"] = tmp_path / ("a" * 300)
    made["missing"] = tmp_path / "no-such-folder"
    return made


DATA_CASES = [
    (["inspect_plural/brexit", "-T", "data_dir={columns}"], ["{columns}/train.csv", "tweet"]),
    (["inspect_plural/epic", "-T", "data_dir={latin1_epic}"], ["EPICorpus.csv", "not UTF-8"]),
    (["inspect_plural/brexit", "-T", "data_dir={latin1_brexit}"], ["HS-Brexit_", "not UTF-8"]),
    (["inspect_plural/dp", "-T", "data_dir={latin1_dp}"], [".jsonl", "not UTF-8"]),
    (["inspect_plural/brexit", "-T", "data_dir={deep}"], ["HS-Brexit_train.json", "nested"]),
    (["inspect_plural/brexit", "-T", "data_dir={long}"], ["data_dir", "longer than"]),
    (["inspect_plural/brexit", "-T", "data_dir={missing}"], ["{missing}", "does not exist"]),
    (["inspect_plural/brexit", "-T", "demo=true", "--model", "plural/randm"], ["plural/random"]),
]
"""Issue 28's data and name mistakes: each ends in at most 10 lines naming the file or name."""


Outcomes = dict[int, tuple[int, str, dict[str, str]]]
"""Case -> (exit code, output, the folders made)."""


@pytest.fixture(scope="module")
def data_mistakes(
    tmp_path_factory: pytest.TempPathFactory,
) -> Outcomes:
    """Every case of :data:`DATA_CASES` run at once (each is a separate ``inspect eval``)."""
    tmp_path = tmp_path_factory.mktemp("mistakes")
    made = {k: str(v) for k, v in _data_mistakes(tmp_path).items()}
    env = {**os.environ, "COLUMNS": "100", "INSPECT_PLURAL_CACHE": str(tmp_path / "cache")}
    running = []
    for n, (args, _) in enumerate(DATA_CASES):
        model = [] if "--model" in args else ["--model", "plural/random"]
        command = [sys.executable, "-m", "inspect_ai", "eval"]
        command += [a.format(**made) for a in args] + model
        command += ["--log-dir", str(tmp_path / f"logs{n}")]
        running.append(
            subprocess.Popen(
                command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
            )
        )
    results = {}
    for n, process in enumerate(running):
        out, _ = process.communicate(timeout=600)
        results[n] = (process.returncode, out.decode("utf-8", "replace").strip(), made)
    return results


@pytest.mark.slow
@pytest.mark.parametrize("case", range(len(DATA_CASES)))
def test_a_data_or_model_name_mistake_ends_short(case: int, data_mistakes: Outcomes) -> None:
    code, output, made = data_mistakes[case]
    lines = output.splitlines()
    assert code != 0, output
    assert len(lines) <= MAX_LINES, output
    assert "Traceback" not in output, output
    joined = "".join(line.strip() for line in lines)  # a long path wraps across lines
    for needle in DATA_CASES[case][1]:
        assert needle.format(**made).replace(" ", "") in joined.replace(" ", ""), output


@pytest.mark.slow
@pytest.mark.parametrize(("args", "named"), CLI_CASES)
def test_the_command_line_prints_a_user_error_alone(
    args: list[str], named: str, tmp_path: Path
) -> None:
    folders = _files(tmp_path)
    args = [a.format(**{k: str(v) for k, v in folders.items()}) for a in args]
    code, output = _inspect(args, tmp_path)
    lines = output.splitlines()
    assert code != 0, output
    assert len(lines) <= MAX_LINES, output
    assert "Traceback" not in output, output
    assert named in " ".join(line.strip() for line in lines), output


@pytest.mark.parametrize(("task", "options", "named"), CASES)
def test_a_user_error_is_short_and_names_what_to_fix(
    task: str, options: dict[str, object], named: str, tmp_path: Path
) -> None:
    import inspect_plural

    folders = {k: str(v) for k, v in _files(tmp_path).items()}
    given = {k: v.format(**folders) if isinstance(v, str) else v for k, v in options.items()}
    with pytest.raises(UserError) as raised:
        getattr(inspect_plural, task)(**given)
    message = str(raised.value)
    wrapped = [w for line in message.splitlines() for w in textwrap.wrap(line, 80) or [""]]
    assert len(wrapped) <= MAX_LINES - 2, message  # Inspect adds a blank line each side
    assert named in " ".join(wrapped), message


def test_the_demo_command_runs_an_eval_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_plural.cli import main

    code = main(
        ["demo", "--tasks", "brexit,per_doc", "--limit", "2", "--log-dir", str(tmp_path / "d")]
    )
    out = capsys.readouterr().out
    assert code == 0 and "2 logs in" in out and "all tasks succeeded" in out
    assert len(list((tmp_path / "d").glob("*.eval"))) == 2


def test_the_demo_command_names_an_unknown_task(capsys: pytest.CaptureFixture[str]) -> None:
    from inspect_plural.cli import main

    assert main(["demo", "--tasks", "brexit,brexitt"]) == 2
    assert "unknown task(s) brexitt" in capsys.readouterr().err


def test_the_demo_holds_a_cinemetric_and_a_maj_eval_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from inspect_ai.log import read_eval_log

    from inspect_plural._demo import DEMO_RUNS, run_demo

    assert "brexit_cinemetric" in DEMO_RUNS
    success, n = run_demo(
        tasks=["brexit_cinemetric", "mslr_cochrane"], log_dir=str(tmp_path), limit=2
    )
    assert success and n == 2
    methods = set()
    for path in tmp_path.glob("*.eval"):
        log = read_eval_log(str(path), header_only=True)
        assert log.eval.task_args.get("demo") is True
        methods |= {step.solver.split("/")[-1] for step in log.plan.steps}
    assert {"cinemetric", "maj_eval"} <= methods, methods
