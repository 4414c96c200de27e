"""The sample-list columns of each task family (``Task(viewer=...)``) against real logs.

One eval of a task per family (and per viewer variant) on the demo data with the offline
``plural/random`` model, read back from disk: every score column the viewer config names
is a per-sample score key of that log, the built-in columns are ids the viewer knows, the
``answer`` column is the prediction and ``target`` the human judgment, and the config
survives the log's round trip unchanged.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest
from inspect_ai import Task, eval
from inspect_ai._util.registry import registry_lookup
from inspect_ai.log import (
    EvalLog,
    headline_metric,
    read_eval_log,
    read_eval_log_sample_summaries,
)
from inspect_ai.viewer import ScoreColorScale, TaskSamplesColumnId, ViewerConfig
from tests.conftest import FAST_LOG, log_samples

from inspect_plural.scorers._values import values_of
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._viewer import SCORE_COLUMN_PREFIX, SCORE_TAG, score_columns

pytestmark = pytest.mark.e2e

RUNS: dict[str, tuple[str, dict[str, Any]]] = {
    "cinemetric": ("dp", {}),  # ordinal labels: abs_error
    "perseval": ("dices", {"answer_format": "distribution"}),  # nominal; p_true, brier
    "perspective": ("perspective", {"dataset": "epic"}),  # the generic annotator task
    "personaeval": ("personaeval_expertise", {}),
    "maj_eval": ("mslr_cochrane", {}),
    "perse_review": ("per_mpst", {}),
    "perse_choice": ("per_doc", {"both_orders": True}),  # consistent
    "distribution": ("mp", {"target": "distribution", "method": "distribution_judge"}),
}
"""Run id -> (task, task arguments besides ``demo=true``)."""
LIMIT = 4


def _task(name: str, args: dict[str, Any]) -> Task:
    factory = registry_lookup("task", f"inspect_plural/{name}")
    if factory is None and name == "perspective":
        pytest.skip("perspective task not registered yet")
    assert factory is not None, f"{name} is not registered"
    task = factory(demo=True, **args)
    assert isinstance(task, Task)
    return task


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Task, EvalLog]]:
    """Each run's task and its log as read back from disk."""
    tasks = {run: _task(name, args) for run, (name, args) in RUNS.items()}
    logs = eval(
        list(tasks.values()),
        model="plural/random",
        limit=LIMIT,
        log_dir=str(tmp_path_factory.mktemp("viewer_logs")),
        display="log",  # "none" still renders the results tables with rich (seconds per task)
        max_tasks=len(tasks),
        **FAST_LOG,
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return {
        run: (task, read_eval_log(log.location)) for (run, task), log in zip(tasks.items(), logs)
    }


def _viewer(log: EvalLog) -> ViewerConfig:
    assert log.eval.viewer is not None, f"{log.eval.task} has no viewer config"
    return log.eval.viewer


def _score_keys(log: EvalLog) -> dict[str, set[str]]:
    keys: dict[str, set[str]] = {}
    for sample in log_samples(log):
        for scorer, score in (sample.scores or {}).items():
            assert isinstance(score.value, dict)
            keys.setdefault(scorer, set()).update(score.value)
    return keys


@pytest.mark.parametrize("run", list(RUNS))
def test_every_score_column_is_a_logged_score(
    runs: dict[str, tuple[Task, EvalLog]], run: str
) -> None:
    _, log = runs[run]
    keys = _score_keys(log)
    columns = score_columns(_viewer(log))
    assert columns, "no score column"
    for scorer, key in columns:
        assert key in keys.get(scorer, set()), f"{run}: column {scorer}/{key} is not in the log"
    view = _viewer(log).task_samples_view
    assert not isinstance(view, list) and view is not None
    named = {key for _, key in columns}
    assert set(view.score_labels or {}) <= named
    assert set(view.score_color_scales or {}) <= named


@pytest.mark.parametrize("run", list(RUNS))
def test_builtin_columns_are_viewer_ids(runs: dict[str, tuple[Task, EvalLog]], run: str) -> None:
    view = _viewer(runs[run][1]).task_samples_view
    assert not isinstance(view, list) and view is not None
    builtin = [c.id for c in view.columns or [] if not c.id.startswith(SCORE_COLUMN_PREFIX)]
    assert builtin[:2] == ["sampleId", "input"]
    assert set(builtin) <= set(get_args(TaskSamplesColumnId))


@pytest.mark.parametrize("run", list(RUNS))
def test_viewer_round_trips(runs: dict[str, tuple[Task, EvalLog]], run: str) -> None:
    task, log = runs[run]
    assert task.viewer is not None
    assert _viewer(log) == task.viewer
    assert ViewerConfig.model_validate_json(_viewer(log).model_dump_json()) == task.viewer
    assert log.eval.task_version == task_version(log.eval.task)


def test_annotator_answer_is_the_predicted_label(runs: dict[str, tuple[Task, EvalLog]]) -> None:
    for run in ("cinemetric", "perseval"):
        for sample in log_samples(runs[run][1]):
            [score] = (sample.scores or {}).values()
            assert isinstance(score.value, dict)
            labels = sample.metadata["scale"]["labels"]
            assert sample.target == labels[int(values_of(score)["gold"])]
            if values_of(score)["parse_ok"]:
                assert score.answer == labels[int(values_of(score)["pred"])]


def test_item_answer_is_the_top_label(runs: dict[str, tuple[Task, EvalLog]]) -> None:
    for sample in log_samples(runs["distribution"][1]):
        [score] = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        labels = sample.metadata["scale"]["labels"]
        assert sample.target == labels[int(values_of(score)["gold"])]
        assert score.answer == labels[int(values_of(score)["pred"])]


def test_numeric_columns_match_answer_and_target(runs: dict[str, tuple[Task, EvalLog]]) -> None:
    for sample in log_samples(runs["perse_review"][1]):
        [score] = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        assert float(str(sample.target)) == values_of(score)["gold"]
        if "pred" in values_of(score):
            assert float(str(score.answer)) == values_of(score)["pred"]


def test_traits_reach_the_sample_list(runs: dict[str, tuple[Task, EvalLog]]) -> None:
    """Traits cannot be a column, but the list's filter reads its summaries' metadata.

    So ``metadata.metric_traits.<dimension> == "<value>"`` selects an annotator group
    without opening a sample: the summaries (what the list loads) keep the traits.
    """
    _, log = runs["cinemetric"]
    summaries = {s.id: s for s in read_eval_log_sample_summaries(log.location)}
    assert summaries.keys() == {s.id for s in log_samples(log)}
    for sample in log_samples(log):
        traits = summaries[sample.id].metadata["metric_traits"]
        assert traits == sample.metadata["metric_traits"]
        assert traits and all(isinstance(v, str) for v in traits.values())


@pytest.mark.parametrize("run", list(RUNS))
def test_the_log_lists_score_is_the_headline_and_a_tag_names_it(
    runs: dict[str, tuple[Task, EvalLog]], run: str
) -> None:
    """The log list shows one unlabelled Score: it is the declared headline, tagged."""
    _, log = runs[run]
    resolved = headline_metric(log)
    assert resolved is not None
    tags = [t for t in log.eval.tags or [] if t.startswith(SCORE_TAG)]
    assert tags == [SCORE_TAG + resolved.name], run
    assert log.eval.headline_metric is not None and log.eval.headline_metric.metric == resolved.name
    expected = {"perse_choice": "accuracy", "personaeval": "top1", "maj_eval": "overall/spearman"}
    if run in expected:  # Per-DOC's first metric was one aspect's accuracy
        assert resolved.name == expected[run]


def test_rating_pred_and_gold_name_their_scales(runs: dict[str, tuple[Task, EvalLog]]) -> None:
    """MAJ-Eval predicts on its 1-5 rubric, MSLR's humans on 0-1: both scales are named."""
    view = _viewer(runs["maj_eval"][1]).task_samples_view
    assert not isinstance(view, list) and view is not None
    labels, colors = view.score_labels or {}, view.score_color_scales or {}
    assert labels["pred/overall"] == "pred 1–5"  # the shown dimension: a narrow column
    assert labels["gold/overall"] == "human 0–1"
    pred, gold = colors["pred/overall"], colors["gold/overall"]
    assert isinstance(pred, ScoreColorScale) and isinstance(gold, ScoreColorScale)
    assert (pred.min, pred.max, gold.min, gold.max) == (1.0, 5.0, 0.0, 1.0)
    for sample in log_samples(runs["maj_eval"][1]):
        [score] = (sample.scores or {}).values()
        values = values_of(score)
        if "pred/overall" in values:
            assert 1.0 <= values["pred/overall"] <= 5.0 and 0.0 <= values["gold/overall"] <= 1.0
        # the sample's Scoring tab names both scales beside the values
        assert (score.metadata or {})["scales"]["overall"] == "pred 1–5, human 0–1"
