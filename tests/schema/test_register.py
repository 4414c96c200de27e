"""The Inspect Evals Register entries in ``register/``: the register's schema, one entry per
task, and agreement with the task families' ``eval.yaml`` and with the code.

The register (inspect_evals ``register/<id>/eval.yaml``, validated there by
``inspect_evals.metadata.ExternalEvalMetadata``) takes one mapping per entry: a title
(``title`` or ``full_title``), ``common_title``, a one-line ``description``, ``arxiv``,
``contributors``, ``tasks`` (each with the ``task_path`` of its ``@task`` file), ``tags``,
``metadata`` (the eval.yaml runtime block, ``extras`` free-form), ``source``
(``repository_url``, ``repository_commit``, ``maintainers``, ``comment``), ``paper_title``
and ``evaluation_report``; unknown keys are rejected at every level, and the id is the
folder's name. The models below restate that field list (inspect_evals 0.26); the parts
the in-repo eval.yaml shares come from ``inspect_plural.tasks._metadata``.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any, Literal

import pytest
import yaml
from pydantic import BaseModel, ConfigDict, Field, HttpUrl, model_validator

from inspect_plural.tasks._metadata import (
    EXTRAS_KEY,
    DemoRun,
    RuntimeMetadata,
    TaskEntry,
    eval_families,
)

ROOT = Path(__file__).resolve().parents[2]
REGISTER = ROOT / "register"
ENTRIES = sorted(REGISTER.glob("*/eval.yaml"))
PREFIX = "inspect_plural_"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location(
        "register_entries", ROOT / "tools/register_entries.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOOL = _tool()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Source(_Strict):
    """``source``: where the code lives, pinned to one commit."""

    repository_url: HttpUrl
    repository_commit: str
    maintainers: list[str] = Field(default_factory=list)
    comment: str | None = None


class RegisterEntry(_Strict):
    """One register entry (``ExternalEvalMetadata``'s fields)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str
    title: str | None = None
    full_title: str | None = None
    common_title: str
    description: str
    arxiv: HttpUrl | None = None
    contributors: list[str]
    tasks: list[TaskEntry] = Field(min_length=1)
    tags: list[str] | None = None
    runtime_metadata: RuntimeMetadata | None = Field(default=None, alias="metadata")
    source: Source
    paper_title: str | None = None
    evaluation_report: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _register_rules(self) -> RegisterEntry:
        if not (self.title or self.full_title):
            raise ValueError("an entry needs title (or full_title)")
        if "\n" in self.description.strip():
            raise ValueError("description must be one line")
        missing = [t.name for t in self.tasks if not t.task_path]
        if missing:
            raise ValueError(f"every task needs task_path; missing for {missing}")
        return self


class DatasetAvailability(_Strict):
    """How the full data is had, and the demo run every task has."""

    availability: Literal["downloaded", "local-files", "user-supplied", "plugin"]
    how: str
    demo: DemoRun


class PluralEntryExtras(_Strict):
    """This package's block in an entry, ``metadata.extras.inspect_plural``."""

    family: str
    version: str
    paper: HttpUrl | None = None
    dataset_citation: str | None = None
    dataset: DatasetAvailability


def _raw(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return {**data, "id": path.parent.name}


def _entry(path: Path) -> RegisterEntry:
    return RegisterEntry.model_validate(_raw(path))


def _extras(entry: RegisterEntry) -> PluralEntryExtras:
    assert entry.runtime_metadata is not None
    return PluralEntryExtras.model_validate(entry.runtime_metadata.extras[EXTRAS_KEY])


def test_there_is_one_entry_per_task_of_every_family() -> None:
    tasks = sorted(name for family in eval_families().values() for name in family.task_names)
    assert len(tasks) == 21
    assert [p.parent.name for p in ENTRIES] == sorted(PREFIX + name for name in tasks)
    for path in ENTRIES:
        [task] = _entry(path).tasks  # the register wants one task per entry
        assert PREFIX + task.name == path.parent.name


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.parent.name)
def test_each_entry_validates_against_the_register_schema(path: Path) -> None:
    entry = _entry(path)
    extras = _extras(entry)
    assert entry.title and entry.common_title and entry.paper_title
    # a task that downloads its data needs the internet on its first run, and says so;
    # one that says so belongs to a family with something to download
    assert entry.runtime_metadata is not None
    requires = entry.runtime_metadata.requires
    internet = requires is not None and requires.internet is True
    if extras.dataset.availability == "downloaded":
        assert internet
    if internet:
        assets = eval_families()[extras.family].external_assets
        assert any(a.fetch_method != "other" for a in assets)


README_DATA = {
    "downloaded": "downloaded",
    "local files": "local-files",
    "user-supplied": "user-supplied",
    "plugin": "plugin",
}
"""The README task table's data column -> the entries' ``dataset.availability``."""


def test_availability_is_what_the_readme_table_says() -> None:
    readme_text = (ROOT / "README.md").read_text(encoding="utf-8")
    tasks_section = readme_text.split("\n## Tasks\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \|.*\| ([^|]+) \|$", tasks_section, re.M)
    readme = {task: README_DATA.get(data.strip(), "user-supplied") for task, data in rows}
    entries = {_entry(p).tasks[0].name: _extras(_entry(p)).dataset.availability for p in ENTRIES}
    assert readme == entries


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.parent.name)
def test_each_entry_agrees_with_its_family_eval_yaml(path: Path) -> None:
    entry = _entry(path)
    extras = _extras(entry)
    [task] = entry.tasks
    family = eval_families()[extras.family]
    assert task.name in family.task_names
    listed = family.task(task.name)
    assert (task.dataset_samples, task.comment) == (listed.dataset_samples, listed.comment)
    assert extras.version == family.version
    assert entry.paper_title == family.title
    assert entry.arxiv == family.arxiv
    assert extras.paper == family.plural.paper
    assert extras.dataset.demo == family.plural.demo[task.name]
    assert entry.contributors == family.contributors


@pytest.mark.parametrize("path", ENTRIES, ids=lambda p: p.parent.name)
def test_each_task_path_defines_its_task(path: Path) -> None:
    [task] = _entry(path).tasks
    assert task.task_path is not None
    module = ROOT / task.task_path
    assert module.is_file(), task.task_path
    defined = {
        node.name
        for node in ast.parse(module.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef)
        and any(getattr(d, "id", None) == "task" for d in node.decorator_list)
    }
    assert task.name in defined, f"{task.task_path} defines no @task {task.name}"


def test_unknown_keys_and_missing_fields_are_rejected_as_the_register_rejects_them() -> None:
    good = _raw(REGISTER / "inspect_plural_brexit" / "eval.yaml")
    RegisterEntry.model_validate(good)
    for bad in (
        {**good, "colour": "red"},
        {**good, "tasks": [{**good["tasks"][0], "task_path": None}]},
        {**good, "source": {**good["source"], "branch": "main"}},
        {k: v for k, v in good.items() if k != "common_title"},
        {**good, "description": "two\nlines"},
    ):
        with pytest.raises(ValueError):
            RegisterEntry.model_validate(bad)


def test_the_source_holds_the_placeholders_the_tool_fills(tmp_path: Path) -> None:
    for path in ENTRIES:
        source = _entry(path).source
        assert str(source.repository_url) == TOOL.URL_PLACEHOLDER
        assert source.repository_commit == TOOL.COMMIT_PLACEHOLDER
    url, commit = "https://github.com/someone/inspect_plural", "0123456789abcdef" * 2 + "01234567"
    assert TOOL.write_entries(url, commit, tmp_path) == len(ENTRIES)
    for path in ENTRIES:
        stamped = RegisterEntry.model_validate(_raw(tmp_path / path.parent.name / "eval.yaml"))
        assert str(stamped.source.repository_url) == url
        assert stamped.source.repository_commit == commit
        assert TOOL.SHA.fullmatch(stamped.source.repository_commit)
    with pytest.raises(ValueError, match="40-character"):
        TOOL.write_entries(url, "main", tmp_path)
    with pytest.raises(ValueError, match="github.com/OWNER/REPO"):
        TOOL.write_entries("https://example.com/x", commit, tmp_path)
