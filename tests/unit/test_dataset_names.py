"""Which adapter a dataset name means, and that the entry points are read once, lazily."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from inspect_plural import _dataset_entry_points as names
from inspect_plural._dataset_entry_points import (
    DatasetPluginError,
    available_datasets,
    plugin_identity,
    resolve_dataset,
)


def _entry(name: str, value: str, package: str | None) -> Any:
    dist = SimpleNamespace(name=package, version="1.0") if package else None
    return SimpleNamespace(name=name, value=value, dist=dist)


BUILT_IN = _entry("brexit", "inspect_plural.sources.brexit:load_brexit", "inspect-plural")
DICES = _entry("dices", "inspect_plural.sources.dices:load_dices", "inspect_plural")
SHADOW = _entry("brexit", "toy.data:load", "toy-pack")
OWN = _entry("kitchen", "toy.data:kitchen", "toy-pack")
TWIN_A = _entry("panel", "a_mod:load", "alpha")
TWIN_B = _entry("panel", "b_mod:load", "Beta_Pack")


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Fake entry points (in an order where a plugin comes before the built-in); the
    list records each scan."""
    scans: list[str] = []

    def fake(group: str) -> list[Any]:
        scans.append(group)
        return [SHADOW, OWN, TWIN_A, BUILT_IN, TWIN_B, DICES]

    monkeypatch.setattr(names, "entry_points", fake)
    names._scan.cache_clear()
    yield scans
    names._scan.cache_clear()


def test_a_built_in_name_stays_the_built_in_and_the_plugin_is_qualified(
    installed: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        assert resolve_dataset("brexit") is BUILT_IN
    assert resolve_dataset("toy-pack:brexit") is SHADOW
    [warning] = [r.getMessage() for r in caplog.records if "built-in" in r.getMessage()]
    assert warning == (
        "dataset plugin 'brexit' (toy.data:load from package toy-pack 1.0) has the name of "
        "the built-in dataset 'brexit' (inspect_plural.sources.brexit:load_brexit): 'brexit' "
        "is the built-in; the plugin is 'toy-pack:brexit'"
    )
    assert plugin_identity("brexit")["package"] == "inspect-plural"
    assert plugin_identity("toy-pack:brexit")["entry_point"] == "toy.data:load"


def test_every_adapter_answers_to_its_qualified_name(installed: list[str]) -> None:
    assert resolve_dataset("kitchen") is OWN
    assert resolve_dataset("toy-pack:kitchen") is OWN
    assert resolve_dataset("Toy_Pack:kitchen") is OWN  # matched as pip matches names
    assert resolve_dataset("inspect-plural:brexit") is BUILT_IN
    assert resolve_dataset("inspect-plural:dices") is DICES  # dist spelled inspect_plural


def test_a_name_two_plugins_register_must_be_qualified(installed: list[str]) -> None:
    with pytest.raises(
        DatasetPluginError,
        match=r"'panel': is registered by several packages; name one: "
        r"\['alpha:panel', 'beta-pack:panel'\]",
    ):
        resolve_dataset("panel")
    assert resolve_dataset("alpha:panel") is TWIN_A
    assert resolve_dataset("beta_pack:panel") is TWIN_B


def test_an_unknown_name_lists_what_is_installed(installed: list[str]) -> None:
    with pytest.raises(DatasetPluginError) as caught:
        resolve_dataset("nope")
    listed = str(caught.value).split("(inspect_plural.datasets): ")[1]
    # qualified names only where the bare name does not reach the adapter
    assert listed == (
        "['alpha:panel', 'beta-pack:panel', 'brexit', 'dices', 'kitchen', 'toy-pack:brexit']"
    )


def test_the_entry_points_are_read_once_per_sys_path(
    installed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert installed == []  # nothing read until a name is looked up
    available_datasets()
    resolve_dataset("brexit")
    plugin_identity("kitchen")
    assert installed == ["inspect_plural.datasets"]
    monkeypatch.setattr(sys, "path", [*sys.path, "/a/new/site-packages"])
    resolve_dataset("brexit")
    assert len(installed) == 2  # a changed sys.path may hold new plugins


@pytest.mark.slow
def test_importing_and_building_a_built_in_task_reads_no_dataset_entry_points() -> None:
    code = """
import importlib.metadata as metadata
groups = []
original = metadata.entry_points
def recording(**params):
    groups.append(params.get("group"))
    return original(**params)
metadata.entry_points = recording
import inspect_plural._registry
from inspect_plural.tasks import brexit
brexit(demo=True)
print("inspect_plural.datasets" in groups)
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"
