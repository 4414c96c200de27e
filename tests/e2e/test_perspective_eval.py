"""End-to-end runs of the annotator-level tasks; assertions read the written log back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from sklearn.metrics import accuracy_score, f1_score
from tests.conftest import SHARED_DATA

from inspect_plural.prediction import Prediction
from inspect_plural.records import annotator_sample
from inspect_plural.scorers._values import values_of

pytestmark = pytest.mark.e2e

BREXIT = SHARED_DATA / "brexit"
TASKS = ["opinionqa", "dp", "brexit", "epic", "mhs", "md_agreement", "dices"]


def _run(task: str, log_dir: Path, limit: int | None = None, **task_args: Any) -> EvalLog:
    [log] = eval(
        f"inspect_plural/{task}",
        task_args=task_args,
        model="plural/random",
        log_dir=str(log_dir),
        display="none",
        limit=limit,
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location)


def _metrics(log: EvalLog) -> dict[str, Any]:
    assert log.results is not None
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


def _model_calls(sample: EvalSample) -> int:
    return sum(1 for event in sample.events if event.event == "model")


def _arrays(log: EvalLog) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    assert log.samples
    gold, pred, annotators, items = [], [], [], []
    for sample in log.samples:
        assert sample.scores is not None
        value = values_of(next(iter(sample.scores.values())))
        assert isinstance(value, dict)
        assert isinstance(value["pred"], float) and isinstance(value["gold"], float)
        gold.append(int(value["gold"]))
        pred.append(int(value["pred"]))
        metadata = annotator_sample(sample.metadata)
        assert metadata.annotator_id
        annotators.append(metadata.annotator_id)
        items.append(metadata.item_id)
    return np.array(gold), np.array(pred), annotators, items


def _per_group_macro_f1(
    gold: np.ndarray, pred: np.ndarray, groups: list[str], labels: list[int]
) -> float:
    keys = np.array(groups)
    values = [
        f1_score(gold[keys == g], pred[keys == g], labels=labels, average="macro", zero_division=0)
        for g in dict.fromkeys(groups)
    ]
    return float(np.mean(values))


@pytest.mark.slow
def test_brexit_real_data_annotator_macro_f1_matches_sklearn(tmp_path: Path) -> None:
    log = _run("brexit", tmp_path, data_dir=str(BREXIT))
    assert log.samples is not None and len(log.samples) == 640  # PersEval's BREXIT test set
    gold, pred, annotators, items = _arrays(log)
    assert len(set(annotators)) == 2
    metrics = _metrics(log)
    assert metrics["annotator_macro_f1"] == pytest.approx(
        _per_group_macro_f1(gold, pred, annotators, [0, 1])
    )
    assert metrics["text_macro_f1"] == pytest.approx(_per_group_macro_f1(gold, pred, items, [0, 1]))
    assert metrics["macro_f1"] == pytest.approx(
        f1_score(gold, pred, labels=[0, 1], average="macro", zero_division=0)
    )
    assert metrics["accuracy"] == pytest.approx(accuracy_score(gold, pred))
    assert metrics["parse_failures"] == 0
    for sample in log.samples:
        assert _model_calls(sample) == 1
        assert sample.store_as(Prediction).method == "llm_judge"
        assert sample.metadata["metric_traits"]["group"] in ("target group", "control group")
    assert log.eval.metadata is not None
    assert log.eval.metadata["split"]["test_users"] == 2


def test_perseval_preset_matches_inferred_label_sets(tmp_path: Path) -> None:
    log = _run("brexit", tmp_path, demo=True, metrics_preset="perseval")
    gold, pred, annotators, _ = _arrays(log)
    keys = np.array(annotators)
    expected = np.mean(
        [f1_score(gold[keys == a], pred[keys == a], average="macro") for a in set(annotators)]
    )
    assert len(set(annotators)) == 2
    assert _metrics(log)["annotator_macro_f1"] == pytest.approx(expected)


@pytest.mark.parametrize("method", ["annotator_majority", "item_majority"])
def test_brexit_baselines_make_no_model_call(method: str, tmp_path: Path) -> None:
    log = _run("brexit", tmp_path, data_dir=str(BREXIT), method=method, limit=200)
    assert log.samples is not None and len(log.samples) == 200
    for sample in log.samples:
        prediction = sample.store_as(Prediction)
        assert prediction.method == method and prediction.parse_ok
        assert prediction.model_calls == 0 and _model_calls(sample) == 0
        assert prediction.aggregate in ("annotator", "item", "pool")
    gold, pred, _, _ = _arrays(log)
    assert _metrics(log)["accuracy"] == pytest.approx(accuracy_score(gold, pred))


@pytest.mark.parametrize("task", TASKS)
def test_every_task_runs_on_demo_data(task: str, tmp_path: Path) -> None:
    log = _run(task, tmp_path, demo=True)
    assert log.samples
    assert log.eval.metadata is not None and log.eval.metadata["demo"] is True
    for sample in log.samples:
        metadata = annotator_sample(sample.metadata)
        assert metadata.demo and metadata.dataset.endswith("_demo")
        assert _model_calls(sample) == 1
        value = values_of(next(iter(sample.scores.values())))  # type: ignore[union-attr]
        assert value["gold"] == metadata.labels.index(sample.target)  # type: ignore[index]
    metrics = _metrics(log)
    for name in ("accuracy", "macro_f1", "annotator_macro_f1", "text_macro_f1"):
        assert 0.0 <= metrics[name] <= 1.0


def test_cinemetric_split_on_demo_samples_carry_training_examples(tmp_path: Path) -> None:
    log = _run("brexit", tmp_path, demo=True, split="cinemetric", k_train=5, m_test=10)
    assert log.samples is not None and len(log.samples) == 6 * 10
    for sample in log.samples:
        metadata = annotator_sample(sample.metadata)
        assert len(metadata.training) == 5
        assert metadata.item_id not in {ex.item.id for ex in metadata.training}


def test_unnamed_hides_traits_from_methods_but_not_from_metrics(tmp_path: Path) -> None:
    log = _run(
        "brexit", tmp_path, demo=True, named=False, method="annotator_majority", metrics="full"
    )
    assert log.samples
    for sample in log.samples:
        assert annotator_sample(sample.metadata).traits == {}
        assert "traits" not in sample.metadata  # the view derives them from named
        assert sample.metadata["metric_traits"]["group"]
    assert "macro_f1/group" in _metrics(log)


def test_forbidden_and_impossible_combinations_fail_clearly() -> None:
    from inspect_plural.tasks.perspective import brexit, md_agreement

    with pytest.raises(ValueError, match="no annotator traits"):
        md_agreement(demo=True, named=True)
    with pytest.raises(ValueError, match="PersEval forbids"):
        brexit(demo=True, named=False, adaptation="none")
    with pytest.raises(ValueError, match="not an option of brexit\ndid you mean n_annotators"):
        brexit(demo=True, n_annotator=3)
    with pytest.raises(ValueError, match="option method: 'nope' is not one of"):
        brexit(demo=True, method="nope")


def test_epochs_reduce_label_indices_by_mode(tmp_path: Path) -> None:
    [log] = eval(
        "inspect_plural/brexit",
        task_args={"demo": True},
        model="plural/random",
        log_dir=str(tmp_path),
        display="none",
        epochs=3,
        limit=10,
    )
    assert log.status == "success", log.error
    assert log.eval.config.epochs_reducer == ["modal_row"]
    log = read_eval_log(log.location)
    assert log.samples is not None and len(log.samples) == 30
    assert log.reductions is not None
    epochs: dict[Any, list[dict[str, Any]]] = {}
    for sample in log.samples:
        assert sample.scores is not None
        epochs.setdefault(sample.id, []).append(dict(values_of(next(iter(sample.scores.values())))))  # type: ignore[arg-type]
    for reduced in log.reductions[0].samples:
        assert isinstance(reduced.value, dict)
        assert float(values_of(reduced)["pred"]).is_integer()
        rows = epochs[reduced.sample_id]
        preds = [row["pred"] for row in rows]
        modal = max(preds, key=lambda p: (preds.count(p), -preds.index(p)))
        # the whole row of the first epoch with the modal prediction, not a per-key mode
        assert values_of(reduced) == rows[preds.index(modal)]
