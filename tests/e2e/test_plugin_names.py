"""A plugin named like a built-in dataset (the example package's ``brexit``) replaces nothing."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from inspect_plural import _dataset_entry_points
from inspect_plural.adapters import available_datasets
from inspect_plural.tasks import brexit
from inspect_plural.tasks.extension import perspective

pytestmark = pytest.mark.e2e


def test_the_built_in_keeps_its_name_and_the_plugin_is_reachable_qualified(
    toy_plugin: Path, caplog: pytest.LogCaptureFixture
) -> None:
    _dataset_entry_points._scan.cache_clear()  # the warning comes with the (first) scan
    with caplog.at_level(logging.WARNING):
        found = available_datasets()
    assert found["brexit"].value == "inspect_plural.sources.brexit:load_brexit"
    assert found["plural-toy:brexit"].value == "plural_toy.data:load_kitchen_notes"
    warnings = [r.getMessage() for r in caplog.records if "name of the built-in" in r.getMessage()]
    assert warnings == [
        "dataset plugin 'brexit' (plural_toy.data:load_kitchen_notes from package plural-toy "
        "0.1.0) has the name of the built-in dataset 'brexit' "
        "(inspect_plural.sources.brexit:load_brexit): 'brexit' is the built-in; the plugin "
        "is 'plural-toy:brexit'"
    ]

    built_in = perspective(dataset="brexit", demo=True)
    assert built_in.metadata is not None
    assert built_in.metadata["adapter"]["package"] == "inspect-plural"
    assert [s.id for s in built_in.dataset] == [s.id for s in brexit(demo=True).dataset]

    plugin = perspective(dataset="plural-toy:brexit")
    assert plugin.metadata is not None
    assert plugin.metadata["adapter"]["package"] == "plural-toy"
    assert plugin.metadata["data_source"] == "plural_toy example data (invented)"
    assert {s.target for s in plugin.dataset} <= {"fine", "rude"}
