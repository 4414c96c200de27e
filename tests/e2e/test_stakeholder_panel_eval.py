"""``stakeholder_panel`` end to end with ``plural/random`` on brexit's and MP's demo items.

The default panel (one persona per trait value of the dataset) labels each item: the
item's distribution sums to 1, it costs one call per persona (plus the panel's creation,
one call per profile, in the one item that built it), every persona's vote is in the
store and in a transcript span named for the persona, each annotator has a label for the
perspectivist metrics, and the annotator target refuses the method.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample
from tests.conftest import FAST_LOG, log_metrics, log_samples, model_events, score_value

from inspect_plural.analysis import method_of
from inspect_plural.errors import OptionError
from inspect_plural.item_records import AnnotatorPredictions, item_sample
from inspect_plural.prediction import Prediction
from inspect_plural.solvers.stakeholder_panel import PANEL_SPAN, StakeholderVotes
from inspect_plural.tasks import brexit, mp

pytestmark = pytest.mark.e2e

TRAIT_VALUES = {"brexit": 2, "mp": 19}
"""Known trait values of each demo dataset: the default panel's personas."""


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, EvalLog]:
    folder = tmp_path_factory.mktemp("stakeholder_panel")
    tasks = {
        "brexit": brexit(demo=True, target="distribution", method="stakeholder_panel"),
        "mp": mp(
            demo=True, target="distribution", method="stakeholder_panel", metrics_preset="lewidi"
        ),
    }
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_PLURAL_CACHE", str(folder / "cache"))  # persona creation: cold
        result = eval(
            list(tasks.values()),
            model="plural/random",
            limit=3,
            log_dir=str(folder / "logs"),
            display="none",
            max_tasks=2,
            **FAST_LOG,
        )
    assert all(log.status == "success" for log in result), [log.error for log in result]
    return dict(zip(tasks, result))


def _spans(sample: EvalSample) -> dict[str, str]:
    return {e.id: e.name for e in sample.events if e.event == "span_begin"}


def _calls_under(sample: EvalSample, names: set[str]) -> int:
    """Model calls whose enclosing span is one of ``names``."""
    spans = _spans(sample)
    return sum(1 for e in model_events(sample) if spans.get(e.span_id or "") in names)


@pytest.mark.parametrize("dataset", list(TRAIT_VALUES))
def test_the_panel_labels_each_item_at_one_call_per_persona(
    logs: dict[str, EvalLog], dataset: str
) -> None:
    log = logs[dataset]
    assert method_of(log) == "stakeholder_panel"
    personas = TRAIT_VALUES[dataset]
    builders = 0
    for sample in log_samples(log):
        record = sample.store_as(StakeholderVotes)
        assert record.origin == "traits" and len(record.personas) == personas
        assert all(m.trait and m.profile for m in record.personas)
        assert len(record.votes) == personas  # every persona's vote is recorded
        assert [v.persona for v in record.votes] == [m.name for m in record.personas]
        prediction = sample.store_as(Prediction)
        assert prediction.parse_ok and prediction.distribution is not None
        assert sum(prediction.distribution.values()) == pytest.approx(1.0)
        assert len(prediction.answers) == personas
        # one call per persona, each in a span named for it; creation once per run
        labels = {m.label for m in record.personas}
        assert labels <= set(_spans(sample).values())
        assert _calls_under(sample, labels) == personas
        calls = len(model_events(sample))
        assert calls == personas + record.creation_calls
        assert prediction.model_calls == calls == score_value(sample)["model_calls"]
        if record.creation_calls:
            builders += 1
            assert record.creation_calls == personas  # one call per profile
            assert PANEL_SPAN in _spans(sample).values()
        # the votes are shown in the transcript
        [info] = [e for e in sample.events if e.event == "info" and e.source == "vote"]
        text = str(info.data)
        text = sample.attachments.get(text.removeprefix("attachment://"), text)
        assert "Stakeholder panel" in text
        assert all(m.label in text for m in record.personas)
        # each annotator has a label for the perspectivist metrics
        runs = sample.store_as(AnnotatorPredictions).runs
        annotators = [a["annotator_id"] for a in sample.metadata["annotators"]]
        assert [r.annotator_id for r in runs] == annotators
        assert all(r.label in sample.metadata["scale"]["labels"] for r in runs)
        assert all(r.model_calls == 0 for r in runs)
    assert builders == 1, "the panel is built once per run"


def test_metrics_follow_the_preset(logs: dict[str, EvalLog]) -> None:
    brexit_metrics = log_metrics(logs["brexit"])
    assert {"manhattan", "cross_entropy", "hard_micro_f1", "error_rate"} <= set(brexit_metrics)
    assert brexit_metrics["parse_failures"] == 0 and brexit_metrics["failed_answers"] == 0
    mp_metrics = log_metrics(logs["mp"])
    assert {"manhattan", "error_rate"} <= set(mp_metrics)
    assert 0.0 <= mp_metrics["error_rate"] <= 1.0
    samples = log_samples(logs["mp"])
    mean_calls = sum(len(model_events(s)) for s in samples) / len(samples)
    assert mp_metrics["calls_per_sample"] == pytest.approx(mean_calls)


@pytest.mark.parametrize("options", [{}, {"target": "annotator"}])
def test_the_annotator_target_refuses_the_method(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError, match="target=distribution") as raised:
        brexit(demo=True, method="stakeholder_panel", **options)
    assert raised.value.option == "method"


def test_inline_profiles_named_after_trait_values_decide_their_annotators(
    tmp_path: Path,
) -> None:
    personas = "target group: a person the tweets talk about; control group: someone else"
    task = brexit(demo=True, target="distribution", method="stakeholder_panel", personas=personas)
    [log] = eval(
        task, model="plural/random", limit=2, log_dir=str(tmp_path), display="none", **FAST_LOG
    )
    assert log.status == "success", log.error
    assert log.eval.metadata is not None
    assert log.eval.metadata["method_options"] == {"personas": personas}
    for sample in log_samples(log):
        record = sample.store_as(StakeholderVotes)
        assert record.origin == "profiles"
        assert [m.group for m in record.personas] == ["target group", "control group"]
        votes = {v.group: v.label for v in record.votes}
        annotators = item_sample(sample.metadata).annotators  # traits: the run's context
        traits = {a.annotator_id: a.traits["group"] for a in annotators}
        for run in sample.store_as(AnnotatorPredictions).runs:
            assert run.label == votes[traits[run.annotator_id]]  # their own group's vote


def test_persona_max_tokens_caps_the_panels_creation_and_max_tokens_its_votes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))  # creation: cold
    task = brexit(
        demo=True,
        target="distribution",
        method="stakeholder_panel",
        max_tokens=11,
        persona_max_tokens=9,
    )
    [log] = eval(task, model="plural/random", limit=1, log_dir=str(tmp_path), **FAST_LOG)
    assert log.status == "success", log.error
    [sample] = log_samples(log)
    record = sample.store_as(StakeholderVotes)
    caps = [e.config.max_tokens for e in model_events(sample)]
    assert record.creation_calls == TRAIT_VALUES["brexit"]
    assert sorted(caps) == sorted([9] * record.creation_calls + [11] * len(record.votes))
