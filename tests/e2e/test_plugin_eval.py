"""The example dataset plugin (tests/plugin_example) through the entry points, end to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log
from tests.conftest import FAST_LOG, log_metrics, log_samples, score_value

from inspect_plural.adapters import DatasetPluginError, available_datasets
from inspect_plural.analysis import method_of
from inspect_plural.records import annotator_sample
from inspect_plural.tasks import METHODS
from inspect_plural.tasks.annotator._options import ITEM_METHODS
from inspect_plural.tasks.extension import perspective

pytestmark = pytest.mark.e2e

PLUGIN = "kitchen_notes"
METHOD_ARGS: dict[str, dict[str, Any]] = {name: {} for name in METHODS}


def _run(task: str, log_dir: Path, **task_args: Any) -> EvalLog:
    [log] = eval(
        task,
        task_args=task_args,
        model="plural/random",
        log_dir=str(log_dir),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def _expected_label(annotator: str, item: str) -> str:
    from plural_toy.data import NOTES, RATERS, _label

    role, age = next((r, a) for rid, r, a in RATERS if rid == annotator)
    blunt = next(b for nid, _, b in NOTES if nid == item)
    return _label(role, age, blunt)


def test_the_plugin_is_found_beside_the_built_in_datasets(toy_plugin: Path) -> None:
    found = available_datasets()
    assert PLUGIN in found and found[PLUGIN].value == "plural_toy.data:load_kitchen_notes"
    assert {"dices", "mhs", "opinionqa"} <= set(found)


@pytest.mark.parametrize("method", sorted(set(METHODS) - set(ITEM_METHODS)))
def test_every_annotator_level_method_runs_on_the_plugin(
    toy_plugin: Path, tmp_path: Path, method: str
) -> None:
    log = _run("inspect_plural/perspective", tmp_path, dataset=PLUGIN, method=method)
    assert log.eval.task == "inspect_plural/perspective"
    assert log.eval.task_args["dataset"] == PLUGIN
    metadata = log.eval.metadata or {}
    assert metadata["dataset"] == PLUGIN and method_of(log) == method
    assert metadata["data_source"] == "plural_toy example data (invented)"
    assert metadata["split"]["protocol"] == "perseval"
    samples = log_samples(log)
    assert samples
    correct = []
    for sample in samples:
        info = annotator_sample(sample.metadata)
        assert sample.id == f"{info.annotator_id}:{info.item_id}"
        # the gold label is the adapter's, and the traits reach the sample
        assert sample.target == _expected_label(info.annotator_id or "", info.item_id)
        assert set(info.metric_traits) == {"role", "age_group"}
        value = score_value(sample)
        assert value["gold"] == ["fine", "rude"].index(str(sample.target))
        correct.append(value["correct"])
    assert log_metrics(log)["accuracy"] == pytest.approx(sum(correct) / len(correct))


@pytest.mark.parametrize("method", ["distribution_judge", "llm_judge"])
def test_the_plugin_runs_under_the_distribution_target(
    toy_plugin: Path, tmp_path: Path, method: str
) -> None:
    log = _run(
        "inspect_plural/perspective",
        tmp_path,
        dataset=PLUGIN,
        method=method,
        target="distribution",
    )
    samples = log_samples(log)
    assert samples and all(s.metadata["target"] == "distribution" for s in samples)
    assert {"manhattan", "error_rate", "rep/role"} <= set(log_metrics(log))
    for sample in samples:
        annotators = sample.metadata["annotators"]
        gold = sample.metadata["gold"]
        for label in ("fine", "rude"):  # no weights, no soft label: the judgments' shares
            share = sum(a["label"] == label for a in annotators) / len(annotators)
            assert gold[label] == pytest.approx(share)


@pytest.mark.slow
def test_the_plugin_package_own_task_uses_the_public_factory(
    toy_plugin: Path, tmp_path: Path
) -> None:
    # through the inspect CLI in a fresh process, as a user who pip-installed the package
    result = subprocess.run(
        [
            str(Path(sys.executable).with_name("inspect")),
            "eval",
            "plural_toy/kitchen_notes_task",
            "-T",
            "method=item_majority",
            "--model",
            "plural/random",
            "--log-dir",
            str(tmp_path / "own"),
            "--display",
            "none",
        ],
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(toy_plugin), *sys.path])},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    [location] = (tmp_path / "own").glob("*.eval")
    direct = read_eval_log(str(location))
    assert direct.status == "success"
    assert direct.eval.task == "plural_toy/kitchen_notes_task"
    assert direct.eval.task_version == "0.1.0"
    generic = _run(
        "inspect_plural/perspective", tmp_path / "gen", dataset=PLUGIN, method="item_majority"
    )
    # the same records, split and method: the same samples and per-sample scores
    assert [s.id for s in log_samples(direct)] == [s.id for s in log_samples(generic)]
    assert [score_value(s) for s in log_samples(direct)] == [
        score_value(s) for s in log_samples(generic)
    ]


def test_built_in_datasets_through_the_generic_task_match_their_own_task() -> None:
    for name in ("dp", "brexit", "dices"):
        own = __import__("inspect_plural.tasks", fromlist=[name]).__dict__[name](demo=True)
        generic = perspective(dataset=name, demo=True)
        assert [s.id for s in own.dataset] == [s.id for s in generic.dataset], name
        assert own.metadata["split"] == generic.metadata["split"], name


@pytest.mark.parametrize(
    ("dataset", "message"),
    [
        (
            "kitchen_notes_missing_field",
            r"dataset plugin 'kitchen_notes_missing_field' \(plural_toy.broken:missing_field\): "
            r"judgment record 2 \{'annotator_id': 'r01', 'item_id': 'n03'\} is malformed: "
            r"label: Field required",
        ),
        (
            "kitchen_notes_bad_label",
            r"dataset plugin 'kitchen_notes_bad_label' \(plural_toy.broken:bad_label\): "
            r"judgment record 5 \(annotator 'r01', item 'n06'\): label 'very rude' is outside "
            r"the scale \['fine', 'rude'\]",
        ),
        (
            "kitchen_notes_wrong_type",
            r"dataset plugin 'kitchen_notes_wrong_type' \(plural_toy.broken:wrong_type from "
            r"package plural-toy 0\.1\.0\): returned a list; expected DatasetRecords",
        ),
        (
            "kitchen_notes_import_error",
            r"dataset plugin 'kitchen_notes_import_error' \(plural_toy.no_such_module:load "
            r"from package plural-toy 0\.1\.0\): cannot be imported: ModuleNotFoundError",
        ),
        ("no_such_dataset", r"dataset plugin 'no_such_dataset': not installed; .*kitchen_notes"),
    ],
)
def test_malformed_plugins_are_named_in_the_error(
    toy_plugin: Path, dataset: str, message: str
) -> None:
    with pytest.raises(DatasetPluginError, match=message):
        perspective(dataset=dataset)


def test_options_the_adapter_does_not_take_are_refused_by_name(toy_plugin: Path) -> None:
    with pytest.raises(
        DatasetPluginError,
        match=r"option colour is neither an annotator-level task option nor one of the adapter's",
    ):
        perspective(dataset=PLUGIN, colour="red")
    with pytest.raises(DatasetPluginError, match=r"name one with -T dataset=NAME"):
        perspective()
