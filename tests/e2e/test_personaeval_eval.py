"""End-to-end eval() runs offline; assertions read the written log back."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import ChatMessage, ModelOutput, get_model
from tests.conftest import offline_output, scripted_model

from inspect_plural.answer_format import declared_answer_format
from inspect_plural.prediction import Prediction
from inspect_plural.records import RoleSampleMetadata
from inspect_plural.scorers import top_k_correct
from inspect_plural.scorers._values import values_of
from inspect_plural.tasks import personaeval_drama, personaeval_expertise, personaeval_literary

pytestmark = pytest.mark.e2e

TRACKS = {
    "literary": personaeval_literary,
    "drama": personaeval_drama,
    "expertise": personaeval_expertise,
}


def _run(task: object, log_dir: Path, model: object = "plural/random", **kwargs: object) -> EvalLog:
    [log] = eval(task, model=model, log_dir=str(log_dir), display="none", **kwargs)  # type: ignore[arg-type]
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def _model_calls(sample: EvalSample) -> int:
    return sum(1 for event in sample.events if event.event == "model")


def _metric(log: EvalLog, name: str) -> float:
    assert log.results is not None
    return log.results.scores[0].metrics[name].value


@pytest.mark.parametrize("track", sorted(TRACKS))
def test_demo_track_log_carries_distributions_and_consistent_top1(
    track: str, tmp_path: Path
) -> None:
    log = _run(TRACKS[track](demo=True), tmp_path)
    assert log.samples and len(log.samples) == 20
    assert log.eval.metadata is not None and log.eval.metadata["demo"] is True
    correct = []
    for sample in log.samples:
        prediction = sample.store_as(Prediction)
        metadata = RoleSampleMetadata.model_validate(sample.metadata)
        assert prediction.parse_ok and prediction.distribution is not None
        assert set(prediction.distribution) == set(metadata.candidate_names)
        assert sum(prediction.distribution.values()) == pytest.approx(1.0)
        assert _model_calls(sample) == 1 and prediction.model_calls == 1
        probs = np.array([[prediction.distribution[n] for n in metadata.candidate_names]])
        gold = np.array([metadata.candidate_names.index(metadata.true_role)])
        is_correct = bool(top_k_correct(probs, gold, 1)[0])
        correct.append(is_correct)
        assert sample.scores is not None
        value = values_of(sample.scores["role_scorer"])
        assert isinstance(value, dict)
        assert value["correct"] == float(is_correct)
        assert value["p_true"] == pytest.approx(prediction.distribution[metadata.true_role])
    assert _metric(log, "top1") == pytest.approx(np.mean(correct))
    assert _metric(log, "parse_failures") == 0


def test_self_consistency_makes_k_concurrent_calls(tmp_path: Path) -> None:
    log = _run(personaeval_literary(demo=True, self_consistency=3, aggregate="majority"), tmp_path)
    assert log.samples
    for sample in log.samples:
        assert _model_calls(sample) == 3
        assert sample.store["Prediction:model_calls"] == 3
        assert sample.store["Prediction:aggregate"] == "majority"
        shares = sample.store["Prediction:distribution"]
        assert all(round(v * 3) == pytest.approx(v * 3) for v in shares.values())
    model_event = next(e for e in log.samples[0].events if e.event == "model")
    assert model_event.config.temperature == pytest.approx(0.7)


def test_few_shot_prompt_and_personaeval_preset(tmp_path: Path) -> None:
    log = _run(personaeval_expertise(demo=True, few_shot=3, metrics_preset="personaeval"), tmp_path)
    assert log.samples
    prompt = log.samples[0].messages[0].text
    assert prompt.count("## Solved example") == 3
    assert log.results is not None
    names = set(log.results.scores[0].metrics)
    assert {"top1", "top2", "mean_rank", "ece", "brier_score", "parse_failures"} <= names


def _scripted_model(texts: list[str]) -> object:
    return scripted_model(texts, output_tokens=10)


def test_parse_failures_are_scored_not_dropped(tmp_path: Path) -> None:
    task = personaeval_literary(demo=True, shuffle_candidates=False)
    first = RoleSampleMetadata.model_validate(list(task.dataset)[0].metadata)
    right = json.dumps({first.true_role: 1.0})
    texts = [f"```json\n{right}\n```", "I cannot tell.", "still no json"] + ["nope"] * 17
    log = _run(task, tmp_path, model=_scripted_model(texts), max_samples=1)
    assert _metric(log, "parse_failures") == 19
    assert _metric(log, "top1") == pytest.approx(1 / 20)  # failures count as wrong
    assert log.samples is not None
    failed = [s for s in log.samples if not s.store_as(Prediction).parse_ok]
    assert len(failed) == 19
    assert all(s.store_as(Prediction).error for s in failed)

    dropped = _run(
        personaeval_literary(demo=True, shuffle_candidates=False, metrics_preset="personaeval"),
        tmp_path,
        model=_scripted_model(texts),
        max_samples=1,
    )
    assert _metric(dropped, "top1") == pytest.approx(1.0)  # the official code drops failures
    assert _metric(dropped, "parse_failures") == 19


def test_cache_keeps_self_consistency_answers_distinct(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "cache"))
    for _ in range(2):  # the second run is served from the cache
        log = _run(personaeval_drama(demo=True, self_consistency=3), tmp_path, cache=True)
        assert log.samples
        for sample in log.samples:
            raws = [a["raw"] for a in sample.store["Prediction:answers"]]
            assert len(set(raws)) == 3


def test_runs_are_reproducible_within_one_process(tmp_path: Path) -> None:
    first = _run(personaeval_literary(demo=True), tmp_path)
    second = _run(personaeval_literary(demo=True), tmp_path)
    assert first.samples and second.samples
    assert [s.store["Prediction:distribution"] for s in first.samples] == [
        s.store["Prediction:distribution"] for s in second.samples
    ]


def test_epochs_count_a_failure_in_any_epoch(tmp_path: Path) -> None:
    task = personaeval_literary(demo=True)
    calls = {"n": 0}

    def answer(messages: list[ChatMessage], *args: object) -> ModelOutput:
        calls["n"] += 1
        answer_format = declared_answer_format(messages)
        assert answer_format is not None
        # every third answer is unparseable; the others are well-formed
        text = "no idea" if calls["n"] % 3 == 0 else answer_format.random_answer(Random(calls["n"]))
        return offline_output(text, "mockllm", input_tokens=1, output_tokens=1)

    model = get_model("mockllm/model", custom_outputs=answer, memoize=False)
    log = _run(task, tmp_path, model=model, epochs=2)
    assert log.samples is not None and len(log.samples) == 40
    assert log.eval.config.epochs_reducer == ["role_mean"]
    failed_ids = {s.id for s in log.samples if not s.store_as(Prediction).parse_ok}
    assert 0 < len(failed_ids) < 20
    # a sample failing in one epoch only is still a failure after the epoch mean
    assert _metric(log, "parse_failures") == len(failed_ids)
    assert _metric(log, "failed_answers") == pytest.approx(
        sum(1 for s in log.samples if not s.store_as(Prediction).parse_ok) / 40
    )
