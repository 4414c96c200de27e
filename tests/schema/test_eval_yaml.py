"""The task families' ``eval.yaml`` files against the registered tasks and the code.

Every registered task is listed in exactly one ``eval.yaml`` and every listed task is
registered; every file validates against the inspect_evals format (unknown keys
rejected); each task's demo run has the sample count the file records and the version it
records; the pinned revisions and URLs equal the constants the source modules download
from, so that the files cannot drift from the code.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import Task, eval
from inspect_ai._util.registry import registry_find, registry_info, registry_lookup
from pydantic import ValidationError
from tests.conftest import FAST_LOG

import inspect_plural._registry  # noqa: F401  (registers the tasks)
import inspect_plural.sources
from inspect_plural.sources import dices
from inspect_plural.sources.mslr import _load as mslr
from inspect_plural.tasks._metadata import (
    EvalYaml,
    UnknownTaskError,
    eval_families,
    family_of,
    load_eval_yaml,
    task_version,
)

EVALS = Path(inspect_plural.__file__).parent / "evals"
FAMILIES = {
    "cinemetric": ["opinionqa", "dp"],
    "perseval": ["brexit", "epic", "mhs", "md_agreement", "dices", "perspective"],
    "personaeval": ["personaeval_literary", "personaeval_drama", "personaeval_expertise"],
    "maj_eval": ["mslr_cochrane", "storysparkqa"],
    "perse": ["per_mpst", "per_doc"],
    "lewidi": ["armis", "convabuse", "csc", "mp", "paraphrase", "varierrnli"],
}
"""The families and their tasks, as docs/eval_yaml.md groups them."""
NOT_YET = {"perspective": "perspective task not registered yet"}
"""Listed tasks another change registers; skipped (only they) until it lands."""
PIN_NAME = re.compile(r"^[A-Z][A-Z0-9_]*_(REPO|REVISION|COMMIT|URL|WORKSHEET)$")
"""Source-module constants that say where data comes from: each must be in the pins."""
SHA = re.compile(r"^[0-9a-f]{40}$")


def _registered() -> set[str]:
    infos = registry_find(lambda info: info.type == "task")
    names = {registry_info(obj).name for obj in infos}
    return {n.removeprefix("inspect_plural/") for n in names if n.startswith("inspect_plural/")}


def _listed() -> list[str]:
    return [name for family in eval_families().values() for name in family.task_names]


def _task(name: str, **args: Any) -> Task:
    factory = registry_lookup("task", f"inspect_plural/{name}")
    assert factory is not None, f"task {name} is not registered"
    if name in NOT_YET and name not in _registered():
        pytest.skip(NOT_YET[name])
    task = factory(**args)
    assert isinstance(task, Task)
    return task


def _plain(value: Any) -> Any:
    """A constant as YAML would hold it: tuples as lists, mapping keys as strings."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _pins() -> dict[str, Any]:
    return {path: v for f in eval_families().values() for path, v in f.plural.pins.items()}


def _constant(path: str) -> Any:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


# -- files and the registry ------------------------------------------------------------


def test_each_family_has_one_eval_yaml_with_its_tasks() -> None:
    found = sorted(p.parent.name for p in EVALS.glob("*/eval.yaml"))
    assert found == sorted(FAMILIES)
    assert {fid: f.task_names for fid, f in eval_families().items()} == FAMILIES


@pytest.mark.parametrize("path", sorted(EVALS.glob("*/eval.yaml")), ids=lambda p: p.parent.name)
def test_eval_yaml_validates(path: Path) -> None:
    family = load_eval_yaml(path, path.parent.name)
    assert family.id == path.parent.name
    assert family.version == task_version(family.task_names[0])
    assert family.plural.demo.keys() == set(family.task_names)
    assert all(run.task_args.get("demo") is True for run in family.plural.demo.values())


@pytest.mark.parametrize("name", sorted(_registered() | set(_listed())))
def test_task_is_registered_and_listed_once(name: str) -> None:
    if name not in _registered():
        if name in NOT_YET:
            pytest.skip(NOT_YET[name])
        pytest.fail(f"{name} is listed in {family_of(name).id}/eval.yaml but not registered")
    owners = [fid for fid, f in eval_families().items() if name in f.task_names]
    assert len(owners) == 1, f"{name} is listed in {owners or 'no eval.yaml'}"


def test_unknown_task_has_no_version() -> None:
    with pytest.raises(UnknownTaskError, match="no_such_task"):
        task_version("inspect_plural/no_such_task")
    assert task_version("inspect_plural/dices") == task_version("dices")


# -- the format rejects what inspect_evals rejects ------------------------------------


def _raw(family: str) -> dict[str, Any]:
    data = yaml.safe_load((EVALS / family / "eval.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return {**data, "id": family}


def _nested_set(data: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        data = data[key]
    data[last] = value


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("typo_key", "x"),  # the format forbids unknown top-level keys
        ("metadata.demo", {}),  # ... and unknown keys in metadata (extras is the place)
        ("version", "1.0.0"),  # N-X only
        ("group", "Pluralism"),  # inspect_evals' groups only
        ("metadata.extras.inspect_plural.demo", {}),  # every task needs its demo run
        ("metadata.extras.inspect_plural.samples", 3),  # our block is strict too
    ],
)
def test_schema_rejects(path: str, value: Any) -> None:
    data = _raw("perse")
    _nested_set(data, path, value)
    with pytest.raises(ValidationError):
        EvalYaml.model_validate(data)


def test_schema_rejects_a_task_without_its_demo_run() -> None:
    data = _raw("perse")
    data["tasks"] = [*data["tasks"], {"name": "per_extra", "dataset_samples": 3}]
    with pytest.raises(ValidationError, match="per_extra"):
        EvalYaml.model_validate(data)


# -- demo runs and versions ------------------------------------------------------------


@pytest.mark.parametrize("name", _listed())
def test_demo_sample_count_and_version(name: str) -> None:
    family = family_of(name)
    run = family.plural.demo[name]
    task = _task(name, **run.task_args)
    assert len(task.dataset) == run.samples, f"{name}: demo samples differ from eval.yaml"
    assert task.version == family.version


def test_perspective_demo_has_the_same_samples_as_its_dataset_task() -> None:
    run = family_of("perspective").plural.demo["perspective"]
    generic = _task("perspective", **run.task_args)
    args = {k: v for k, v in run.task_args.items() if k != "dataset"}
    builtin = _task(str(run.task_args["dataset"]), **args)
    assert [s.id for s in generic.dataset] == [s.id for s in builtin.dataset]


@pytest.mark.slow
@pytest.mark.e2e
def test_logged_versions_equal_eval_yaml(tmp_path: Path) -> None:
    names = [n for n in _listed() if n not in NOT_YET or n in _registered()]
    tasks = [_task(n, **family_of(n).plural.demo[n].task_args) for n in names]
    logs = eval(
        tasks,
        model="plural/random",
        limit=1,
        log_dir=str(tmp_path),
        display="log",  # "none" still renders the results tables with rich (seconds per task)
        max_tasks=len(tasks),
        **FAST_LOG,
    )
    logged = {log.eval.task.removeprefix("inspect_plural/"): log.eval.task_version for log in logs}
    assert logged == {n: family_of(n).version for n in names}


# -- pins ------------------------------------------------------------------------------


def _source_constants() -> list[str]:
    """Every location constant a source module defines (not the ones it imports)."""
    found = []
    for module_info in pkgutil.iter_modules(inspect_plural.sources.__path__):
        module = importlib.import_module(f"inspect_plural.sources.{module_info.name}")
        source = inspect.getsource(module)
        if module_info.ispkg:  # a dataset package: its modules define what it re-exports
            for inner in pkgutil.iter_modules(module.__path__, f"{module.__name__}."):
                source += inspect.getsource(importlib.import_module(inner.name))
        for name in vars(module):
            if PIN_NAME.match(name) and re.search(rf"^{name}\b[^=\n]*=", source, re.MULTILINE):
                found.append(f"{module.__name__}.{name}")
    return found


@pytest.mark.parametrize("path", sorted(_pins()))
def test_pin_equals_the_code(path: str) -> None:
    if path.endswith("PERSONAEVAL_HF_REVISION") and os.environ.get(
        "INSPECT_PLURAL_PERSONAEVAL_REVISION"
    ):
        pytest.skip("the revision is overridden in this environment")
    assert _plain(_constant(path)) == _pins()[path]


def test_every_location_constant_is_pinned() -> None:
    assert len(_source_constants()) >= 15
    missing = sorted(set(_source_constants()) - set(_pins()))
    assert not missing, f"source-module constants missing from the eval.yaml pins: {missing}"


def test_pinned_urls_are_the_ones_the_loaders_fetch() -> None:
    expected = {
        dices.DICES_URL.format(commit=dices.DICES_COMMIT, path=p)
        for p in dices.DICES_FILES.values()
    }
    expected |= {mslr._url(rater) for rater in mslr.MSLR_FILES}
    raw = {
        a.source
        for f in eval_families().values()
        for a in f.external_assets
        if a.source.startswith("https://raw.githubusercontent.com/")
    }
    assert raw == expected


@pytest.mark.parametrize(
    ("repo", "revision", "family"),
    [
        ("inspect_plural.sources.brexit.BREXIT_HF_REPO", "BREXIT_HF_REVISION", "perseval"),
        ("inspect_plural.sources.epic.EPIC_HF_REPO", "EPIC_HF_REVISION", "perseval"),
        ("inspect_plural.sources.mhs.MHS_HF_REPO", "MHS_HF_REVISION", "perseval"),
        (
            "inspect_plural.sources.personaeval.PERSONAEVAL_HF_REPO",
            "PERSONAEVAL_HF_REVISION",
            "personaeval",
        ),
        (
            "inspect_plural.sources.storysparkqa.STORYSPARKQA_HF_REPO",
            "STORYSPARKQA_REVISION",
            "maj_eval",
        ),
    ],
)
def test_hub_asset_state_follows_its_revision(repo: str, revision: str, family: str) -> None:
    pins = eval_families()[family].plural.pins
    value = pins[f"{repo.rpartition('.')[0]}.{revision}"]
    [asset] = [a for a in eval_families()[family].external_assets if a.source == pins[repo]]
    assert asset.type == "huggingface"
    assert asset.state == ("pinned" if SHA.match(str(value)) else "floating")
    if asset.state == "pinned":
        assert asset.comment is not None and str(value) in asset.comment


def test_pinned_assets_name_a_pinned_commit() -> None:
    shas = {str(v) for v in _pins().values() if SHA.match(str(v))}
    for family in eval_families().values():
        for asset in family.external_assets:
            if asset.state == "pinned":
                text = f"{asset.source} {asset.comment or ''}"
                assert any(sha in text for sha in shas), f"{family.id}: {asset.source} pins nothing"


def test_arxiv_or_paper_per_family() -> None:
    for family in eval_families().values():
        assert (family.arxiv is None) != (family.plural.paper is None), family.id
