"""End-to-end runs of the rating tasks (MSLR-Cochrane, StorySparkQA), read back from the log.

Each test calls ``inspect_ai.eval`` on a registered task (``inspect_plural/...``) with the
offline ``plural/random`` model (or ``none/none`` for ROUGE-L, which makes no call) and
checks the written log: the corpus metrics against scipy, ROUGE-L against
``rouge-score``, every sample's stored debate (:class:`StakeholderPanel`,
:class:`PanelDebate`) and G-Eval / ChatEval records, and the model calls recorded as
events against the protocol's budget.

Issue 5's "must show" runs are here: ROUGE-L on all 600 real MSLR-Cochrane summaries,
and ``maj_eval``, ``geval`` and ``chateval`` on 3 real MSLR items and on the StorySparkQA
demo, with persona creation making no call. Speed: the 600-sample ROUGE-L run takes
about 25 s; everything else uses ``limit`` of 2 or 3.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from rouge_score import rouge_scorer
from scipy import stats
from tests.conftest import log_metrics as _metrics
from tests.conftest import log_samples as _samples
from tests.conftest import model_events as _model_events
from tests.conftest import score_value as _value
from tests.e2e.rating_runs import (
    COEFFICIENTS,
    DIMENSIONS,
    PAPER_ROUGE_OVERALL,
    check_debate,
    persona_file,
    run_rating,
)

from inspect_plural.errors import OptionError
from inspect_plural.prediction import Prediction
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.solvers.chateval import ChatEvalRecord
from inspect_plural.solvers.geval import GEvalRecord
from inspect_plural.solvers.maj_eval import PanelDebate, StakeholderPanel
from inspect_plural.solvers.rouge import RougeRecord
from inspect_plural.stakeholders import default_personas

pytestmark = pytest.mark.e2e


# --------------------------------------------------------------------------- ROUGE-L


@pytest.mark.slow
def test_rouge_l_on_all_600_real_mslr_summaries(tmp_path: Path) -> None:
    log = run_rating(
        "mslr_cochrane", tmp_path, limit=None, model="none/none", method="rouge_l", metrics="full"
    )
    samples = _samples(log)
    assert len(samples) == 600
    assert sum(len(_model_events(s)) for s in samples) == 0
    metrics = _metrics(log)
    values = [_value(s) for s in samples]
    for dim in DIMENSIONS["mslr_cochrane"]:
        pairs = [
            (v[f"pred/{dim}"], v[f"gold/{dim}"])
            for v in values
            if f"pred/{dim}" in v and f"gold/{dim}" in v
        ]
        pred, gold = [p for p, _ in pairs], [g for _, g in pairs]
        assert metrics[f"{dim}/n"] == len(pairs)
        expected = {
            "spearman": stats.spearmanr(pred, gold).statistic,
            "kendall": stats.kendalltau(pred, gold).statistic,  # tau-b
            "pearson": stats.pearsonr(pred, gold).statistic,
        }
        for coefficient in COEFFICIENTS:
            assert math.isfinite(metrics[f"{dim}/{coefficient}"])
            assert metrics[f"{dim}/{coefficient}"] == pytest.approx(
                expected[coefficient], abs=1e-12
            ), f"{dim}/{coefficient}"
    assert metrics["overall/n"] == 598
    for coefficient, known in PAPER_ROUGE_OVERALL.items():
        assert round(metrics[f"overall/{coefficient}"], 3) == known, coefficient

    # the prediction is rouge-score's ROUGE-L F1 of the summary against the target
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for sample in samples[::97]:
        meta = RatedSampleMetadata.model_validate(sample.metadata)
        [target] = meta.output.references
        assert target == meta.output.context
        f1 = scorer.score(target, meta.output.content)["rougeL"].fmeasure
        value = _value(sample)
        for dim in DIMENSIONS["mslr_cochrane"]:
            assert value[f"pred/{dim}"] == pytest.approx(f1, abs=1e-12)
        record = sample.store_as(RougeRecord)
        assert record.best is not None and record.best.fmeasure == pytest.approx(f1)
        assert sample.store_as(Prediction).model_calls == 0


# --------------------------------------------------------------------------- the three methods


@pytest.mark.parametrize("task", ["mslr_cochrane", "storysparkqa"])
def test_maj_eval_completes_with_the_full_debate(task: str, tmp_path: Path) -> None:
    log = run_rating(task, tmp_path, method="maj_eval", metrics="full")
    defaults = default_personas(task)
    groups = defaults.group_names()
    sizes = [len(g.personas) for g in defaults.groups]
    samples = _samples(log)
    assert len(samples) == 3
    for sample in samples:
        assert check_debate(sample, groups, sizes) == 0  # no persona-creation call
        panel = sample.store_as(StakeholderPanel)
        assert panel.origin == "default"
        assert sample.store_as(Prediction).method == "maj_eval"
        assert sample.store["PanelDebate:max_rounds"] == 3  # in the log as written
    metrics = _metrics(log)
    for group in groups:
        assert f"calls/{group}" in metrics and f"alpha/{group}/initial" in metrics


@pytest.mark.parametrize(
    ("task", "method", "options", "calls"),
    [
        ("mslr_cochrane", "geval", {}, 5),
        ("storysparkqa", "geval", {}, 5),
        ("mslr_cochrane", "chateval", {}, 4),
        ("storysparkqa", "chateval", {}, 4),
        ("mslr_cochrane", "chateval", {"chateval_strategy": "simultaneous_summarizer"}, 5),
    ],
)
def test_baselines_complete_with_their_call_counts(
    task: str, method: str, options: dict[str, Any], calls: int, tmp_path: Path
) -> None:
    log = run_rating(task, tmp_path, method=method, **options)
    samples = _samples(log)
    assert len(samples) == 3
    for sample in samples:
        prediction = sample.store_as(Prediction)
        assert len(_model_events(sample)) == prediction.model_calls == calls
        if method == "geval":  # one call per dimension, scored from logprobs
            record = sample.store_as(GEvalRecord)
            assert [d.name for d in record.dimensions] == DIMENSIONS[task]
            assert all(d.mode == "logprobs" and d.model_calls == 1 for d in record.dimensions)
            assert all(e.config.logprobs for e in _model_events(sample))
            assert record.model_calls == calls
        else:
            chat = sample.store_as(ChatEvalRecord)
            assert chat.strategy == options.get("chateval_strategy", "one_by_one")
            assert chat.model_calls == calls and chat.rounds == 2
            assert len(chat.roles) == 2
    assert "overall/spearman" in _metrics(log)


# --------------------------------------------------------------------------- options


def test_persona_file_simple_roles_and_groups(tmp_path: Path) -> None:
    personas = persona_file(tmp_path / "personas.json")
    log = run_rating("mslr_cochrane", tmp_path / "file", limit=2, personas=str(personas))
    for sample in _samples(log):
        assert check_debate(sample, ["Pharmacists", "Patients"], [2, 1]) == 0
        assert sample.store_as(StakeholderPanel).origin == "file"
    systems = [str(e.input[0].text) for s in _samples(log) for e in _model_events(s)]
    assert any("MARKER-DEMOGRAPHICS" in text for text in systems)

    log = run_rating(
        "mslr_cochrane",
        tmp_path / "simple",
        limit=2,
        personas=str(personas),
        simple_roles=True,
        groups="Pharmacists",
    )
    for sample in _samples(log):
        assert check_debate(sample, ["Pharmacists"], [2]) == 0
        assert sample.store_as(PanelDebate).simple_roles is True
        assert sample.store_as(Prediction).method == "maj_eval/simple_roles"
        persona_calls = [e for e in _model_events(sample) if e.input[0].role == "system"]
        assert persona_calls
        for event in persona_calls:
            system = str(event.input[0].text)
            assert ", a hospital pharmacist." in system
            assert "MARKER-DEMOGRAPHICS" not in system and "Clinical pharmacology" not in system
    assert log.eval.task_args.get("simple_roles") is True

    # a subset of the shipped groups
    log = run_rating("storysparkqa", tmp_path / "groups", limit=2, groups="Children,Teachers")
    for sample in _samples(log):
        assert check_debate(sample, ["Children", "Teachers"], [3, 3]) == 0


def test_an_option_of_another_method_fails_before_any_call(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="option geval_n: configures method geval, not maj_eval"):
        run_rating("mslr_cochrane", tmp_path, method="maj_eval", geval_n=5)
    assert not list(tmp_path.iterdir())  # no log: nothing ran
