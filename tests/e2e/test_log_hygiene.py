"""No API key and no local path in the logs, the test fixtures or the shipped data.

One ``eval()`` runs tasks of every family the way a user with local data would: absolute
``data_dir`` paths (the real data in ``../shared/data`` and copies of the demo files in a
temporary folder), an absolute ``ratings`` file, ``prompts`` folder, ``persona_docs``
document and ``personas`` file, sentinel values in ``OPENAI_API_KEY`` and
``ANTHROPIC_API_KEY``, and a sentinel ``api_key`` model argument. Every member of every
``.eval`` file (header, journal, summaries, every sample with its events) is parsed, and
every string in it, keys included, is searched for the sentinels, for strings shaped like
API keys, and for absolute local paths: the repository root, ``$HOME``, the temporary
folders, the shared data folder, and any ``/work/``, ``/tmp/``, ``/home/``, ``/root/`` or
``/Users/`` path.

Two records of Inspect's are allowed to hold paths, each only for the path-valued
arguments and only in ``header.json`` and ``_journal/start.json``:

- the task arguments (``eval.task_args``, ``eval.task_args_passed``): Inspect writes every
  ``-T`` value as given, has no option to leave one out, and ``inspect eval-retry``
  rebuilds the task from them, so a path the user passes is in the log (docs/running.md says
  how to avoid it);
- the solver's parameters in the plan (``plan.steps[i].params``, ``params_passed``):
  Inspect records a registered solver's arguments, and the methods take the ``prompts``
  folder and MAJ-Eval's ``persona_docs``/``personas`` files as arguments. Keeping those
  out would need solvers that take template texts and documents instead of paths.

Everything else, the package's own task metadata included, must be free of them.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from inspect_ai import eval
from inspect_ai._eval.registry import task_create
from tests.conftest import FAST_LOG, SHARED_DATA, write_personaeval_fixture

import inspect_plural

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
PACKAGE = Path(inspect_plural.__file__).resolve().parent
SENTINEL_OPENAI = "sk-hygieneSENTINELopenai0123456789abcdef"
SENTINEL_ANTHROPIC = "sk-ant-hygieneSENTINELanthropic0123456789"
SENTINEL_MODEL_ARG = "sk-hygieneSENTINELmodelarg0123456789abcd"
SENTINELS = (SENTINEL_OPENAI, SENTINEL_ANTHROPIC, SENTINEL_MODEL_ARG, "SENTINEL")
KEY_SHAPES = re.compile(
    r"sk-ant-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|hf_[A-Za-z0-9]{30,}"
    r"|AIza[0-9A-Za-z_-]{35}"
)
PATH_SHAPES = re.compile(r"(?<![\w.])/(?:work|tmp|home|root|Users)/")
PATH_ARGS = ("data_dir", "ratings", "prompts", "persona_docs", "personas")
"""Task and solver arguments that take paths, which Inspect logs as given."""
ALLOWED_MEMBERS = ("header.json", "_journal/start.json")
ALLOWED_PLACES = re.compile(
    r"(?P<place>eval\.task_args|eval\.task_args_passed|plan\.steps\[\d+\]\.params"
    r"|plan\.steps\[\d+\]\.params_passed)\.(?P<arg>" + "|".join(PATH_ARGS) + r")(\[\d+\])?"
)
"""Inspect's records of the task arguments and of the solver's parameters (module docstring)."""
KNOWN_FIXTURE_PATHS = {
    "tests/unit/test_perse_parsing.py": "/work/shared/data/perse",
}
"""Absolute paths already in test code, reported to be replaced by
``tests.conftest.SHARED_DATA``; each entry allows that one string in that one file."""
LIMIT = 2
DOCUMENT = "Fixture document written for the tests: parents and teachers read stories."
RATINGS = (
    "qa_id,story_name,section_id,question,answer,rater_id,grammar_correctness,"
    "answer_relevancy,contextual_consistency,educational_appropriateness,section_text\n"
    "fixture-1,fixture-story,1,Who sings?,The fox.,rater-a,5,4,4,5,A fox sings at night.\n"
    "fixture-1,fixture-story,1,Who sings?,The fox.,rater-b,4,4,3,5,A fox sings at night.\n"
    "fixture-2,fixture-story,2,Why?,To call friends.,rater-a,3,2,4,4,It calls its friends.\n"
)
"""A FIXTURE ratings file in docs/storysparkqa_ratings.md's format (text written for the test)."""


@dataclass(frozen=True)
class Leak:
    """A suspicious string: where it is and what it matched."""

    where: str
    found: str

    def __str__(self) -> str:
        return f"{self.where}: {self.found!r}"


def _roots() -> list[str]:
    roots = {str(REPO), str(Path.home()), tempfile.gettempdir(), str(SHARED_DATA)}
    roots |= {str(Path(r).resolve()) for r in roots}
    return sorted((r for r in roots if len(r) > 1), key=len, reverse=True)


LEAK = re.compile(
    "|".join(
        [
            *(re.escape(s) for s in SENTINELS),  # whole sentinels before their parts
            *(re.escape(r) for r in _roots()),  # whole roots before the generic shapes
            KEY_SHAPES.pattern,
            PATH_SHAPES.pattern,
        ]
    )
)
"""Everything :func:`leaks` looks for, in one pattern (logs hold many strings)."""


def leaks(text: str, where: str) -> list[Leak]:
    """Every sentinel, key-shaped string and absolute local path in ``text``."""
    return [Leak(where, found) for found in dict.fromkeys(LEAK.findall(text))]


def _strings(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string in a JSON value (keys included), with its JSON path."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield f"{path}.{key}", str(key)
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, f"{path}[{i}]")
    elif isinstance(value, str):
        yield path, value


def _allowed(member: str, path: str) -> bool:
    """Whether a JSON path is Inspect's record of a path-valued argument."""
    return member in ALLOWED_MEMBERS and ALLOWED_PLACES.fullmatch(path) is not None


def log_leaks(log_file: Path) -> tuple[list[Leak], list[Leak]]:
    """Scan every member of an ``.eval`` file.

    Returns:
        The leaks, and the allowed ones (task arguments, module docstring).
    """
    found: list[Leak] = []
    allowed: list[Leak] = []
    with zipfile.ZipFile(log_file) as archive:  # inspect_ai registers its zstd codec
        for member in archive.namelist():
            data = json.loads(archive.read(member))
            for path, text in _strings(data, ""):
                path = path.lstrip(".")
                for leak in leaks(text, f"{log_file.name}:{member}:{path}"):
                    (allowed if _allowed(member, path) else found).append(leak)
    return found, allowed


def test_the_scanner_finds_what_it_looks_for() -> None:
    samples = {
        "key sk-proj-" + "a1B2" * 6: "sk-proj-",
        "key sk-ant-api03-" + "x" * 12: "sk-ant-",
        f"read {REPO}/data/x.csv": str(REPO),
        f"cache {Path.home()}/.cache": str(Path.home()),
        "from /home/someone/data": "/home/",
        f"OPENAI_API_KEY={SENTINEL_OPENAI}": SENTINEL_OPENAI,
    }
    for text, expected in samples.items():
        assert any(expected in leak.found for leak in leaks(text, "sample")), text
    clean = "local perse/: PerMPST.k3.sample.jsonl (sha256 0123456789abcdef); A/B w/o sk-1"
    assert leaks(clean, "sample") == []
    assert _allowed("header.json", "eval.task_args.data_dir")
    assert _allowed("header.json", "plan.steps[0].params_passed.persona_docs[1]")
    assert not _allowed("header.json", "eval.metadata.data_source")
    assert not _allowed("samples/x_epoch_1.json", "eval.task_args.data_dir")


# --------------------------------------------------------------------------- the runs


def _copy_demo(name: str, target: Path) -> str:
    return str(shutil.copytree(PACKAGE / "demo" / name, target / name))


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The ``.eval`` files of one run of every family with absolute paths and fake keys."""
    root = tmp_path_factory.mktemp("hygiene")
    prompts = root / "prompts"
    prompts.mkdir()
    shutil.copy(PACKAGE / "prompts" / "annotator_judge.txt", prompts)
    doc = root / "stakeholder notes.txt"
    doc.write_text(DOCUMENT, encoding="utf-8")
    personas = Path(shutil.copy(PACKAGE / "stakeholders" / "defaults" / "storysparkqa.json", root))
    ratings = root / "ratings.csv"
    ratings.write_text(RATINGS, encoding="utf-8")
    personaeval = root / "personaeval"
    personaeval.mkdir()
    write_personaeval_fixture(personaeval, "literary", 6, 4)
    perse = str(SHARED_DATA / "perse")
    runs: list[tuple[str, dict[str, Any]]] = [
        ("brexit", {"data_dir": str(SHARED_DATA / "brexit"), "prompts": str(prompts)}),
        ("epic", {"data_dir": _copy_demo("epic", root), "method": "cinemetric"}),
        ("dices", {"data_dir": _copy_demo("dices", root)}),
        ("md_agreement", {"data_dir": _copy_demo("md_agreement", root)}),
        ("mhs", {"data_dir": _copy_demo("mhs", root), "method": "trait_ensemble"}),
        (
            "mslr_cochrane",
            {"data_dir": str(SHARED_DATA / "mslr_cochrane"), "persona_docs": str(doc)},
        ),
        (
            "storysparkqa",
            {
                "ratings": str(ratings),
                "data_dir": str(SHARED_DATA / "storysparkqa" / "data-merged-in-csv"),
                "method": "geval",
            },
        ),
        (
            "storysparkqa",
            {"demo": True, "personas": str(personas), "n_personas": 1, "max_rounds": 1},
        ),
        ("per_mpst", {"data_dir": perse, "split": "all"}),
        ("per_doc", {"data_dir": perse, "split": "all", "aspects": "I"}),
        ("personaeval_literary", {"data_dir": str(personaeval)}),
    ]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_API_KEY", SENTINEL_OPENAI)
        env.setenv("ANTHROPIC_API_KEY", SENTINEL_ANTHROPIC)
        env.setenv("INSPECT_CACHE_DIR", str(root / "inspect_cache"))
        env.setenv("INSPECT_PLURAL_CACHE", str(root / "plural_cache"))
        results = eval(
            [task_create(f"inspect_plural/{name}", **args) for name, args in runs],
            model="plural/random",
            model_args={"api_key": SENTINEL_MODEL_ARG},
            limit=LIMIT,
            cache=True,
            log_dir=str(root / "logs"),
            display="log",  # "none" lays out every results table with rich: slow
            log_level="error",
            max_tasks=len(runs),
            **FAST_LOG,
        )
    assert [r.status for r in results] == ["success"] * len(runs), [r.error for r in results]
    return [Path(r.location) for r in results]


@pytest.mark.slow
def test_logs_hold_no_key_and_no_path(logs: list[Path]) -> None:
    found = [leak for log in logs for leak in log_leaks(log)[0]]
    assert not found, "\n".join(map(str, found[:30]))


@pytest.mark.slow
def test_the_allowance_is_exercised(logs: list[Path]) -> None:
    """The scan does see the paths passed (so a clean result means something)."""
    allowed = [leak for log in logs for leak in log_leaks(log)[1]]
    seen = set()
    for leak in allowed:
        match = ALLOWED_PLACES.fullmatch(leak.where.rsplit(":", 1)[1])
        assert match is not None
        seen.add((re.sub(r"\[\d+\]", "[]", match["place"]), match["arg"]))
    task_args = set(PATH_ARGS)
    assert {arg for place, arg in seen if place == "eval.task_args"} == task_args
    assert {arg for place, arg in seen if place == "eval.task_args_passed"} == task_args
    assert {arg for place, arg in seen if place == "plan.steps[].params"} == {
        "prompts",
        "persona_docs",
        "personas",
    }


@pytest.mark.slow
def test_task_metadata_names_data_without_paths(logs: list[Path]) -> None:
    for log in logs:
        with zipfile.ZipFile(log) as archive:
            header = json.loads(archive.read("header.json"))
        source = header["eval"]["metadata"]["data_source"]
        assert source and not leaks(source, log.name), source
        assert source == "demo" or "sha256" in source or "blob" in source, source


ANNOTATOR_TASKS = ("opinionqa", "dp", "brexit", "epic", "mhs", "md_agreement", "dices")


@pytest.mark.parametrize("name", ANNOTATOR_TASKS)
def test_every_annotator_source_names_its_data_without_paths(name: str, tmp_path: Path) -> None:
    """Each annotator-level loader's ``data_source`` with an absolute ``data_dir``.

    The run above covers some of them; building the task is enough to see the metadata
    every log of it would carry, so the rest (with hundreds of metrics) are not run.
    """
    task = task_create(f"inspect_plural/{name}", data_dir=_copy_demo(name, tmp_path))
    assert task.metadata is not None
    assert str(tmp_path) not in json.dumps(task.metadata)
    assert leaks(json.dumps(task.metadata), name) == []
    assert "sha256" in task.metadata["data_source"]


# --------------------------------------------------------------------------- files


def _text_files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            yield path


def _file_text(path: Path) -> str:
    if path.suffix == ".parquet":
        return pd.read_parquet(path).to_csv(index=False)
    return path.read_bytes().decode("utf-8", "replace")


def _file_leaks(paths: Iterator[Path]) -> list[Leak]:
    found = []
    for path in paths:
        name = path.relative_to(REPO).as_posix()
        if name == Path(__file__).relative_to(REPO).as_posix():
            continue  # this file spells out the patterns it looks for
        text = _file_text(path)
        if name in KNOWN_FIXTURE_PATHS:  # that one string only; anything else still counts
            text = text.replace(KNOWN_FIXTURE_PATHS[name], "")
        found += leaks(text, name)
    return found


def test_test_fixtures_hold_no_key_and_no_path() -> None:
    found = _file_leaks(_text_files(REPO / "tests"))
    assert not found, "\n".join(map(str, found))


def test_shipped_data_holds_no_key_and_no_path() -> None:
    """The demo data and every other data file shipped in the package (not its code)."""
    shipped = (p for p in _text_files(PACKAGE) if p.suffix != ".py" and p.name != "py.typed")
    found = _file_leaks(shipped)
    assert not found, "\n".join(map(str, found))
