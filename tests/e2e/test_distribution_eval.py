"""The distribution target end to end with ``plural/random``: the eight LeWiDi datasets,
pooled per-annotator methods, steered representativeness, and the uniform baseline on
the real MP test file against the JSON.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai._util.registry import registry_unqualified_name
from inspect_ai.log import EvalLog, EvalSample, resolve_sample_attachments
from inspect_ai.model import ModelName
from inspect_ai.scorer import SampleScore, Target
from inspect_ai.solver import TaskState
from tests.conftest import FAST_LOG, SHARED_DATA, log_samples

from inspect_plural.analysis import method_of
from inspect_plural.item_records import AnnotatorPredictions
from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.scorers import LEWIDI_METRICS
from inspect_plural.scorers._values import values_of
from inspect_plural.solvers._pooling import ANNOTATOR_SPAN
from inspect_plural.tasks import brexit, md_agreement, opinionqa
from inspect_plural.tasks.lewidi import LEWIDI_TASKS, mp

pytestmark = pytest.mark.e2e

DATASETS = {**LEWIDI_TASKS, "brexit": brexit, "md_agreement": md_agreement}
MP_TEST = SHARED_DATA / "lewidi" / "2025" / "MP_test.json"
OFFICIAL = {
    2023: {"cross_entropy", "hard_micro_f1"},
    "manhattan": {"manhattan", "error_rate"},
    "multilabel_manhattan": {"manhattan", "error_rate"},
    "wasserstein": {"wasserstein", "norm_abs_distance"},
}
"""Each official soft metric -> the distribution metrics the lewidi preset logs."""
OTHER = {"parse_failures", "failed_answers", "failed/any", "calls_per_sample", "tokens_per_sample"}


def _eval(tasks: list[Task], tmp_path: Path, limit: int | None = 4) -> list[EvalLog]:
    logs = eval(
        tasks,
        model="plural/random",
        limit=limit,
        log_dir=str(tmp_path),
        display="log",
        max_tasks=len(tasks),
        **FAST_LOG,
    )
    assert all(log.status == "success" for log in logs), [log.error for log in logs]
    return logs


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {k: m.value for score in log.results.scores for k, m in score.metrics.items()}


def _expected(name: str) -> set[str]:
    official = LEWIDI_METRICS[name]
    if official.edition == 2023:
        return OFFICIAL[2023] | {"error_rate"}
    return OFFICIAL[official.soft]


def test_every_lewidi_dataset_runs_with_both_methods_under_the_lewidi_preset(
    tmp_path: Path,
) -> None:
    runs = [(name, method) for name in DATASETS for method in ("distribution_judge", "uniform")]
    tasks = [
        DATASETS[name](demo=True, target="distribution", method=method, metrics_preset="lewidi")
        for name, method in runs
    ]
    for (name, method), log in zip(runs, _eval(tasks, tmp_path)):
        metrics = _metrics(log)
        distribution = set(metrics) - OTHER - {k for k in metrics if k.startswith("rep/")}
        assert distribution == _expected(name), (name, method)
        assert len(metrics) <= MAX_HEADLINE_METRICS
        assert metrics["parse_failures"] == 0
        assert metrics["calls_per_sample"] == (1.0 if method == "distribution_judge" else 0.0)
        assert method_of(log) == method
        assert log.eval.metadata is not None
        assert log.eval.metadata["lewidi_edition"] == LEWIDI_METRICS[name].edition
        assert log.eval.metadata["target"] == "distribution"
        assert log.eval.metadata["split"]["protocol"] == "lewidi"
        for sample in log_samples(log):
            [score] = (sample.scores or {}).values()
            assert isinstance(score.value, dict)
            assert all(isinstance(v, float) for v in values_of(score).values())
            assert len(sample.metadata["annotators"]) == values_of(score)["n_annotators"] >= 1


def _events(sample: EvalSample, kind: str) -> list[Any]:
    return [e for e in sample.events if e.event == kind]


def test_pooled_methods_make_exactly_the_annotators_calls(tmp_path: Path) -> None:
    judge = brexit(demo=True, target="distribution", method="llm_judge")
    panel = brexit(demo=True, target="distribution", method="cinemetric")
    logs = _eval([judge, panel], tmp_path, limit=3)
    for sample in log_samples(logs[0]):
        annotators = [a["annotator_id"] for a in sample.metadata["annotators"]]
        runs = sample.store_as(AnnotatorPredictions).runs
        assert [r.annotator_id for r in runs] == annotators
        assert len(_events(sample, "model")) == len(annotators)  # one call each, no more
        spans = {e.name for e in _events(sample, "span_begin")}
        assert {ANNOTATOR_SPAN.format(a) for a in annotators} <= spans
        [score] = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        value = values_of(score)
        assert value["pooled"] == 1.0 and value["model_calls"] == len(annotators)
        labelled = [r.label for r in runs if r.parse_ok]
        assert sum(sample.store["Prediction:distribution"].values()) == pytest.approx(1.0)
        assert labelled, "plural/random answers are well formed"
    # CINEMETRIC: each annotator's panel is built once across the items, role-play 3 each
    built: dict[str, int] = {}
    for sample in log_samples(logs[1]):
        runs = sample.store_as(AnnotatorPredictions).runs
        calls = 0
        for run in runs:
            panel_calls = run.records.get("CharacterPanel:model_calls", 0)
            if run.records.get("CharacterPanel:built_here"):
                built[run.annotator_id] = built.get(run.annotator_id, 0) + 1
                calls += panel_calls
            calls += len(run.records.get("CharacterPanel:characters", []))
            assert run.model_calls == len(run.answers) + (
                panel_calls if run.records.get("CharacterPanel:built_here") else 0
            )
        assert len(_events(sample, "model")) == calls
    assert built and set(built.values()) == {1}


def test_opinionqa_demo_representativeness_steered_and_unsteered_per_group(
    tmp_path: Path,
) -> None:
    task = opinionqa(
        demo=True,
        target="distribution",
        method="distribution_judge",
        steer="POLPARTY",
        metrics="full",
    )
    [log] = _eval([task], tmp_path, limit=None)
    metrics = _metrics(log)
    samples = log_samples(log)
    groups = sorted({k for s in samples for k in s.metadata["groups"] if k.startswith("POLP")})
    assert len(groups) >= 2
    for group in groups:
        for prefix in ("rep/", "rep_steered/"):
            values = [
                float(values_of(score)[prefix + group])
                for s in samples
                for score in (s.scores or {}).values()
                if prefix + group in values_of(score)
            ]
            assert values, (prefix, group)
            assert metrics[prefix + group] == pytest.approx(sum(values) / len(values))
            assert all(0.0 <= v <= 1.0 for v in values)
    assert {"rep/POLPARTY", "rep_steered/POLPARTY", "rep/SEX"} <= set(metrics)
    for sample in samples:
        party = [k for k in sample.metadata["groups"] if k.startswith("POLPARTY=")]
        assert len(_events(sample, "model")) == 1 + len(party)  # unsteered + one per group
        [score] = (sample.scores or {}).values()
        assert isinstance(score.value, dict)
        assert values_of(score)["model_calls"] == 1 + len(party)
    headline = opinionqa(
        demo=True, target="distribution", method="distribution_judge", steer="POLPARTY"
    )
    [short] = _eval([headline], tmp_path / "headline", limit=2)
    keys = set(_metrics(short))
    assert {k for k in keys if k.startswith("rep")} == {"rep/POLPARTY", "rep_steered/POLPARTY"}
    assert len(keys) <= MAX_HEADLINE_METRICS


def test_opinionqa_demo_santurkar_steering_styles_each_scored_per_group(tmp_path: Path) -> None:
    task = opinionqa(
        demo=True,
        target="distribution",
        method="distribution_judge",
        steer="POLPARTY",
        steer_style="santurkar",
        metrics="full",
    )
    [log] = _eval([task], tmp_path, limit=3)
    metrics = _metrics(log)
    styles = ("qa", "bio", "portray")
    for sample in log_samples(log):
        party = [k for k in sample.metadata["groups"] if k.startswith("POLPARTY=")]
        calls = 1 + len(styles) * len(party)  # unsteered + one per group and style
        assert len(_events(sample, "model")) == calls
        resolved = resolve_sample_attachments(sample)
        prompts = [str(e.input[-1].content) for e in _events(resolved, "model")]
        assert sum("Question: What is your political party?" in p for p in prompts) == len(party)
        assert sum("Description: My political party is" in p for p in prompts) == len(party)
        assert sum("as if you were a person whose political party" in p for p in prompts) == (
            len(party)
        )
        [score] = (sample.scores or {}).values()
        values = values_of(score)
        assert values["model_calls"] == calls
        for style in styles:
            assert {f"rep_steered_{style}/{g}" for g in party} <= set(values)
        assert not any(k.startswith("rep_steered/") for k in values)  # population not asked
        record = sample.store
        assert record["SteeredDistributions:styles"] == list(styles)
        styled = record["SteeredDistributions:styled"]
        assert set(styled) == set(styles)
        assert all(set(styled[s]) <= set(party) for s in styles)
    for style in styles:
        assert f"rep_steered_{style}/POLPARTY" in metrics


@pytest.mark.slow
@pytest.mark.skipif(not MP_TEST.is_file(), reason="no ../shared/data/lewidi here")
def test_uniform_method_on_mp_test_gives_the_json_manhattan() -> None:
    records = json.loads(MP_TEST.read_text(encoding="utf-8"))
    per_item = [
        round(sum(abs(0.5 - float(v)) for v in record["soft_label"].values()), 5)
        for record in records.values()
    ]
    expected = round(sum(per_item) / len(per_item), 5)  # the official average_MD

    task = mp(
        data_dir=str(MP_TEST.parent),
        target="distribution",
        method="uniform",
        metrics_preset="lewidi",
    )
    assert len(task.dataset) == len(records)

    async def scores() -> list[SampleScore]:
        result = []
        for sample in task.dataset:
            state = TaskState(
                model=ModelName("plural/random"),
                sample_id=str(sample.id),
                epoch=1,
                input=sample.input,
                messages=[],
                metadata=sample.metadata,
            )
            state = await task.solver(state, None)  # type: ignore[arg-type]
            score = await task.scorer[0](state, Target(sample.target))  # type: ignore[index]
            result.append(SampleScore(score=score, sample_id=sample.id))
        return result

    sample_scores = asyncio.run(scores())
    metrics = {registry_unqualified_name(m): m for m in task.metrics or []}
    assert set(metrics) >= {"manhattan", "error_rate"}
    assert metrics["manhattan"](sample_scores) == expected == 0.61931  # type: ignore[call-arg,arg-type]
    # everyone predicted "not ironic" (the first label on the uniform tie): the error rate
    # is each item's share of "1" annotations, rounded per item as the official code does
    errors = [
        round(sum(v == "1" for v in r["annotations"].values()) / len(r["annotations"]), 5)
        for r in records.values()
    ]
    assert metrics["error_rate"](sample_scores) == pytest.approx(  # type: ignore[call-arg,arg-type]
        sum(errors) / len(errors), abs=1e-12
    )


@pytest.mark.parametrize("method", ["cinemetric", "retrieval_examples"])
def test_a_solver_that_shows_examples_stops_where_the_task_did_not_load_them(
    method: str, tmp_path: Path
) -> None:
    """``--solver`` on a task built for another method: an error, not a silent ablation."""
    from inspect_plural.solvers import cinemetric, retrieval_examples

    make = {"cinemetric": cinemetric, "retrieval_examples": retrieval_examples}[method]
    lean = mp(demo=True, target="distribution", method="uniform")
    [log] = eval(
        lean, solver=make(), model="plural/random", limit=1, log_dir=str(tmp_path), **FAST_LOG
    )
    assert log.status == "error" and log.error is not None
    assert f"-T method={method}" in log.error.message
    assert "did not load" in log.error.message
    # built for the method, the same run shows the examples and succeeds
    built = mp(demo=True, target="distribution", method=method)
    [log] = eval(built, model="plural/random", limit=1, log_dir=str(tmp_path), **FAST_LOG)
    assert log.status == "success", log.error
    # on the annotator target every run loads the examples: --solver works there
    annotator = mp(demo=True, method="llm_judge")
    [log] = eval(
        annotator, solver=make(), model="plural/random", limit=1, log_dir=str(tmp_path), **FAST_LOG
    )
    assert log.status == "success", log.error


def test_cinemetric_without_examples_runs_where_the_task_did_not_load_them(
    tmp_path: Path,
) -> None:
    from inspect_plural.solvers import cinemetric

    lean = mp(demo=True, target="distribution", method="uniform")
    [log] = eval(
        lean,
        solver=cinemetric(training_examples=False),
        model="plural/random",
        limit=1,
        log_dir=str(tmp_path),
        **FAST_LOG,
    )
    assert log.status == "success", log.error
