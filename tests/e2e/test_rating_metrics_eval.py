"""End-to-end: what a rating task's log holds by default, under ``metrics=full`` and under
the ``maj_eval`` preset, and the paper protocol's sampling settings, read back from logs of
the demo data with the offline ``plural/random`` model.

- Every default log has at most 25 metric values (the headline set: 18 for the 5
  dimensions of each shipped dataset), for every method.
- The ``maj_eval`` preset logs exactly the paper's table cells, |Spearman| per dimension
  for the panel and each stakeholder group: 25 for MSLR-Cochrane (4 groups), 30 for
  StorySparkQA (5 groups, over the cap: the paper's table has 30 cells).
- Per-group correlations (final and before the debate) equal scipy's on the per-sample
  ``group/{g}/{dim}`` and ``group_initial/{g}/{dim}`` values.
"""

from __future__ import annotations

import logging
import math
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog
from scipy import stats
from tests.conftest import log_metrics as _metrics
from tests.conftest import log_samples as _samples
from tests.conftest import model_events as _model_events
from tests.conftest import score_value as _value
from tests.e2e.rating_runs import DIMENSIONS, run_rating

from inspect_plural.analysis import method_of
from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.prediction import Prediction
from inspect_plural.solvers.geval import GEvalRecord
from inspect_plural.stakeholders import default_personas

pytestmark = pytest.mark.e2e

DEMO = {"demo": True, "data_dir": None}  # run_rating reads the real MSLR sheets by default
METHODS = ("maj_eval", "geval", "chateval", "rouge_l")
CORRELATIONS = {"spearman": stats.spearmanr, "kendall": stats.kendalltau, "pearson": stats.pearsonr}


def _count(log: EvalLog) -> int:
    assert log.results is not None
    return sum(len(score.metrics) for score in log.results.scores)


def _column(log: EvalLog, key: str, dim: str) -> tuple[list[float], list[float]]:
    """The (prediction, gold) pairs of one per-sample key, pairwise complete."""
    pairs = [
        (value[key], value[f"gold/{dim}"])
        for value in (_value(s) for s in _samples(log))
        if key in value and f"gold/{dim}" in value
    ]
    return [p for p, _ in pairs], [g for _, g in pairs]


def _expected(pred: list[float], gold: list[float], coefficient: str) -> float:
    if len(pred) < 2 or len(set(pred)) < 2 or len(set(gold)) < 2:
        return math.nan
    return float(CORRELATIONS[coefficient](pred, gold).statistic)


def _same(actual: float, expected: float) -> bool:
    return (math.isnan(actual) and math.isnan(expected)) or actual == pytest.approx(expected)


@pytest.mark.parametrize("task", sorted(DIMENSIONS))
@pytest.mark.parametrize("method", METHODS)
def test_default_log_has_at_most_25_metrics(task: str, method: str, tmp_path: Path) -> None:
    log = run_rating(task, tmp_path, limit=2, method=method, **DEMO)
    assert _count(log) <= MAX_HEADLINE_METRICS
    dims = DIMENSIONS[task]
    expected = {f"{d}/{c}" for d in dims for c in CORRELATIONS}
    expected |= {"parse_failures", "failed_answers", "failed/any"}
    expected |= {"calls_per_sample", "tokens_per_sample"}
    assert set(_metrics(log)) == expected
    meta = log.eval.metadata or {}
    assert method_of(log) == method  # the method is the log's plan, not task metadata
    assert (meta["protocol"], meta["metrics"]) == ("default", "headline")
    # the cost metric is the mean of the per-sample keys, which stay in every sample
    calls = [_value(s)["model_calls"] for s in _samples(log)]
    assert _metrics(log)["calls_per_sample"] == pytest.approx(sum(calls) / len(calls))


@pytest.mark.parametrize(("task", "cells"), [("mslr_cochrane", 25), ("storysparkqa", 30)])
def test_maj_eval_preset_logs_the_papers_table(task: str, cells: int, tmp_path: Path) -> None:
    log = run_rating(task, tmp_path, limit=8, metrics_preset="maj_eval", **DEMO)
    groups = default_personas(task).group_names()
    dims = DIMENSIONS[task]
    assert len(groups) * len(dims) + len(dims) == cells == _count(log)
    metrics = _metrics(log)
    for dim in dims:
        expected = abs(_expected(*_column(log, f"pred/{dim}", dim), "spearman"))
        assert _same(metrics[f"{dim}/spearman"], expected), dim
        for group in groups:
            pred, gold = _column(log, f"group/{group}/{dim}", dim)
            key = f"group/{group}/{dim}/spearman"
            assert _same(metrics[key], abs(_expected(pred, gold, "spearman"))), key
            assert math.isnan(metrics[key]) or metrics[key] >= 0
    meta = log.eval.metadata or {}
    assert (meta["metrics_preset"], meta["absolute"], meta["correlation"]) == (
        "maj_eval",
        True,
        "pooled",
    )


@pytest.fixture(scope="module")
def full_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    return run_rating(
        "storysparkqa", tmp_path_factory.mktemp("full"), limit=None, metrics="full", **DEMO
    )


def test_full_metrics_have_group_correlations_from_samples(full_log: EvalLog) -> None:
    metrics = _metrics(full_log)
    groups = default_personas("storysparkqa").group_names()
    for dim in DIMENSIONS["storysparkqa"]:
        for group in groups:
            for phase, key, prefix in (
                ("final", f"group/{group}/{dim}", "group/"),
                ("initial", f"group_initial/{group}/{dim}", "initial/group/"),
            ):
                pred, gold = _column(full_log, key, dim)
                assert metrics[f"{prefix}{group}/{dim}/n"] == len(pred), phase
                for coefficient in CORRELATIONS:
                    name = f"{prefix}{group}/{dim}/{coefficient}"
                    assert _same(metrics[name], _expected(pred, gold, coefficient)), name
    for group in groups:
        assert f"alpha/{group}/initial" in metrics and f"calls/{group}" in metrics
    assert "initial/overall/spearman" in metrics and "overall/n" in metrics


def test_group_initial_is_the_members_mean(full_log: EvalLog) -> None:
    for sample in _samples(full_log):
        value = _value(sample)
        panels = sample.store_as(Prediction).panels
        for group, panel in panels.items():
            for dim in DIMENSIONS["storysparkqa"]:
                scores = [s[dim] for s in panel.initial.values() if dim in s]
                key = f"group_initial/{group}/{dim}"
                if scores:
                    assert value[key] == pytest.approx(sum(scores) / len(scores))
                else:
                    assert key not in value


def test_a_good_run_warns_once_per_undefined_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="inspect_plural"):
        run_rating("mslr_cochrane", tmp_path, limit=10, metrics="full", **DEMO)
    undefined = [r.getMessage() for r in caplog.records if "is undefined" in r.getMessage()]
    keys = [message.split(" is undefined")[0] for message in undefined]
    assert len(keys) == len(set(keys)), undefined
    # nothing from recomputations on the first few samples
    assert not [m for m in undefined if "(n=0)" in m or "(n=1)" in m], undefined


def test_paper_protocol_samples_maj_eval_at_the_papers_temperature(tmp_path: Path) -> None:
    log = run_rating("storysparkqa", tmp_path, limit=1, protocol="paper", **DEMO)
    settings = (log.eval.metadata or {})["protocol_settings"]
    # plural/random is neither Qwen (0.6) nor Claude (1.0): the provider default, 1.0
    assert (settings["protocol"], settings["temperature"], settings["seed"]) == ("paper", 1.0, 42)
    assert settings["model"] == "plural/random"
    [sample] = _samples(log)
    events = _model_events(sample)
    assert events and {(e.config.temperature, e.config.seed) for e in events} == {(1.0, 42)}


def test_paper_protocol_runs_geval_as_the_official_code(tmp_path: Path) -> None:
    log = run_rating("storysparkqa", tmp_path, limit=1, protocol="paper", method="geval", **DEMO)
    settings = (log.eval.metadata or {})["protocol_settings"]
    assert settings["method_options"] == {"geval_official": True}
    [sample] = _samples(log)
    record = sample.store_as(GEvalRecord)
    assert {d.mode for d in record.dimensions} == {"sampling"}
    assert sample.store_as(Prediction).method == "geval/official"
    temperatures = {e.config.temperature for e in _model_events(sample)}
    assert temperatures == {2.0}
