"""End-to-end runs of every annotator-level method on every task, read back from the log.

Each test calls ``inspect_ai.eval`` with the offline ``plural/random`` model and checks the
written log: the method's ``Prediction`` (and CINEMETRIC's ``CharacterPanel``) in every
sample store, the scores, the metrics, and the model calls recorded as events.

Speed: the file has to stay well under two minutes on two cores. Two things keep it there,
and neither changes what the log contains:

- ``log_realtime=False`` and a large ``log_buffer`` (no realtime sample database, and
  the ``.eval`` file is written once instead of flushed every few samples);
- the method x task matrix runs the registered task's own dataset, solver, scorer and
  config, but with two corpus metrics instead of the several hundred trait metrics that
  OpinionQA and DP define. Computing those metrics and laying out Inspect's results
  table for them takes seconds per run, and the matrix checks per-sample behaviour only.
  The other tests run the tasks by registry name with their full metrics.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

import pytest
from tests.e2e.method_runs import (
    BASELINES,
    BREXIT,
    CALIBRATION,
    LIMIT,
    N_PERSONAS,
    NEEDS_NAMED,
    ONE_CALL,
    PER_ANNOTATOR,
    TASKS,
    character_keys,
    check_cinemetric_budget,
    is_persona_call,
    is_selection,
    known_traits,
    lean_task,
    majority,
    mean_distribution,
    meta_of,
    metrics_of,
    model_calls_of,
    model_events_of,
    panels_of,
    prompt_of,
    run_eval,
    run_task,
    samples_of,
    score_of,
    task_args_for,
    value_of,
)

from inspect_plural.analysis import method_of
from inspect_plural.prediction import Prediction
from inspect_plural.solvers.cinemetric import CharacterPanel
from inspect_plural.tasks import perspective

pytestmark = pytest.mark.e2e


# --------------------------------------------------------------------------- matrix


MATRIX = [pytest.param(t, m, id=f"{t}-{m}") for t in TASKS for m in PER_ANNOTATOR]


@pytest.mark.parametrize(("task", "method"), MATRIX)
def test_every_method_runs_on_every_task(task: str, method: str, tmp_path: Path) -> None:
    if task == "md_agreement" and method in NEEDS_NAMED:
        # no traits: named=false only, and these methods need the annotator's traits
        expected = "has none" if method == "trait_ensemble" else "needs named=true"
        with pytest.raises(ValueError, match=rf"{method} .*{expected}"):
            perspective.md_agreement(demo=True, method=method)
        if method == "trait_ensemble":  # also the official every-trait variant
            with pytest.raises(ValueError, match="has none"):
                perspective.md_agreement(demo=True, method=method, trait_scope="all")
        with pytest.raises(ValueError, match="no annotator traits"):
            perspective.md_agreement(demo=True, method=method, named=True)
        return

    log = run_eval(lean_task(task, **task_args_for(task, method)), tmp_path, limit=LIMIT)
    samples = samples_of(log)
    assert len(samples) == LIMIT
    assert method_of(log) == method  # the method that ran, as Inspect records it
    # cinemetric cannot match an unnamed annotator without examples: a recorded failure,
    # with no model call; every other sample parses
    unmatched = [
        s
        for s in samples
        if method == "cinemetric" and not meta_of(s).traits and not meta_of(s).training
    ]
    assert metrics_of(log)["parse_failures"] == len(unmatched)
    for sample in unmatched:
        prediction = sample.store_as(Prediction)
        assert not prediction.parse_ok and "nothing to match" in (prediction.error or "")
        assert model_calls_of(sample) == 0
    samples = [s for s in samples if s not in unmatched]

    for sample in samples:
        metadata = meta_of(sample)
        labels = metadata.labels
        assert metadata.named is (task != "md_agreement")
        score, value = score_of(sample), value_of(sample)
        assert value["parse_ok"] == 1.0 and value["gold"] == labels.index(str(sample.target))
        prediction = sample.store_as(Prediction)
        assert sample.store["Prediction:method"] == prediction.method == method
        assert prediction.parse_ok and prediction.error is None
        assert prediction.label in labels and score.answer == prediction.label
        assert value["pred"] == labels.index(prediction.label)
        calls = model_calls_of(sample)
        assert prediction.model_calls == calls

        if method in ONE_CALL:
            assert calls == 1 and len(prediction.answers) == 1
            [answer] = prediction.answers
            assert answer.parse_ok and answer.label == prediction.label
            prompt = prompt_of(model_events_of(sample)[0])
            assert ("# The Person" in prompt) is (method != "llm_judge" and metadata.named)
        elif method in BASELINES:
            assert calls == 0 and prediction.answers == []
            assert prediction.aggregate in ("annotator", "item", "pool")
        elif method == "trait_ensemble":
            known = known_traits(metadata.traits)
            assert known, f"{sample.id}: no known trait"
            assert calls == len(known) == len(prediction.answers)
            assert [a.persona for a in prediction.answers] == [f"{d}={v}" for d, v in known]
            assert prediction.label == majority([a.label for a in prediction.answers])
        else:
            assert method == "cinemetric"
            assert len(prediction.answers) == N_PERSONAS
            assert prediction.label == majority([a.label for a in prediction.answers])
            for answer in prediction.answers:
                assert answer.aspect is not None  # "Character's aspect" line parsed
            panel = sample.store_as(CharacterPanel)
            for event in model_events_of(sample):
                prompt = prompt_of(event)
                if is_selection(event):
                    shows = "# How This Person Labelled Other Content" in prompt
                    assert shows is bool(metadata.training)
                elif is_persona_call(event):
                    assert "Character's aspect" in prompt and "# Why This Character" in prompt
                    assert any(f"You are {c.name} from" in prompt for c in panel.characters)
        if method == "retrieval_examples":
            assert prediction.rationale is not None
            retrieved = prediction.rationale.removeprefix("retrieved: ").split(", ")
            shown = {ex.item.id for ex in metadata.training}
            if not shown:  # an annotator without examples is asked without any
                assert retrieved == ["none"]
                continue
            assert len(retrieved) == min(3, len(shown)) and set(retrieved) <= shown
            assert metadata.item_id not in retrieved

    if method == "cinemetric":
        check_cinemetric_budget(log)


# --------------------------------------------------------------------------- budget


@pytest.mark.slow
def test_cinemetric_budget_on_real_brexit(tmp_path: Path) -> None:
    task = perspective.brexit(data_dir=str(BREXIT), method="cinemetric")
    by_annotator: dict[str, list[str]] = defaultdict(list)
    for sample in task.dataset:
        assert sample.metadata is not None and sample.id is not None
        by_annotator[sample.metadata["annotator_id"]].append(str(sample.id))
    assert len(by_annotator) == 2  # PersEval's two BREXIT test users
    # the samples are in annotator order, so a plain limit would see one annotator
    chosen = [i for ids in by_annotator.values() for i in ids[:30]]

    log = run_eval(task, tmp_path, sample_id=chosen)
    samples = samples_of(log)
    annotators = {str(meta_of(s).annotator_id) for s in samples}
    assert len(samples) == 60 and annotators == set(by_annotator)

    calls = [model_calls_of(s) for s in samples]
    assert statistics.median(calls) == N_PERSONAS
    assert sum(calls) <= N_PERSONAS * len(samples) + 12 * len(annotators)
    panels = panels_of(log)
    assert sum(calls) == N_PERSONAS * len(samples) + sum(
        p.model_calls for ps in panels.values() for p in ps if p.built_here
    )
    for annotator_panels in panels.values():
        assert sum(p.built_here for p in annotator_panels) == 1
        assert len({tuple(character_keys(p)) for p in annotator_panels}) == 1
    check_cinemetric_budget(log)
    assert metrics_of(log)["parse_failures"] == 0


# --------------------------------------------------------------------------- distributions


@pytest.mark.parametrize("method", PER_ANNOTATOR)
def test_distribution_answers_on_brexit_demo(method: str, tmp_path: Path) -> None:
    log = run_task(
        "brexit", tmp_path, LIMIT, demo=True, method=method, answer_format="distribution"
    )
    assert log.eval.metadata is not None and log.eval.metadata["answer_format"] == "distribution"
    samples = samples_of(log)
    metrics = metrics_of(log)
    assert set(CALIBRATION) <= set(metrics)
    values = [value_of(s) for s in samples]
    for name in ("top1", "top2", "ece"):
        assert 0.0 <= metrics[name] <= 1.0
    assert metrics["mean_rank"] == pytest.approx(statistics.fmean(v["rank"] for v in values))
    assert metrics["brier_score"] == pytest.approx(statistics.fmean(v["brier"] for v in values))
    assert metrics["top2"] == pytest.approx(statistics.fmean(v["top2"] for v in values))

    for sample, value in zip(samples, values):
        labels = meta_of(sample).labels
        n = int(value["n_options"])
        assert n == len(labels) == value["n_labels"]
        probs = [value[f"p_{i}"] for i in range(n)]
        assert f"p_{n}" not in value
        assert sum(probs) == pytest.approx(1.0, abs=1e-6)
        assert all(0.0 <= p <= 1.0 for p in probs)
        assert value["gold_index"] == value["gold"] == labels.index(str(sample.target))
        assert value["p_true"] == probs[int(value["gold_index"])]
        assert 1.0 <= value["rank"] <= n

        prediction = sample.store_as(Prediction)
        assert prediction.parse_ok and prediction.distribution is not None
        assert probs == pytest.approx([prediction.distribution[name] for name in labels])
        assert value["pred"] == labels.index(str(prediction.label))
        answers = prediction.answers
        if method in BASELINES:
            assert not answers
            # vote shares: the predicted label is one of the most voted
            assert prediction.distribution[str(prediction.label)] == max(probs)
            continue
        assert answers and all(a.parse_ok and a.distribution for a in answers)
        for answer in answers:  # each answer's label is its own top label
            assert answer.distribution is not None
            assert answer.label == max(labels, key=lambda name: answer.distribution[name])  # type: ignore[index]
        assert probs == pytest.approx(mean_distribution(answers, labels))
        assert prediction.label == majority([a.label for a in answers])
        if method == "cinemetric":
            assert len(answers) == N_PERSONAS
            panel = sample.store_as(CharacterPanel)
            assert [a.persona for a in answers] == [c.label for c in panel.characters]
    if method == "cinemetric":
        check_cinemetric_budget(log)
