"""The ``cost`` benchmark section compares like with like, and its per-sample arithmetic."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks._bigfiles import write_mp_json
from benchmarks._cost_calls import call_counts, calls_line
from benchmarks._cost_child import bare_task, package_task, write_samples
from benchmarks._cost_memory import _per_sample
from benchmarks.sample_cost import bare_samples
from inspect_ai import eval

from inspect_plural.prediction import Prediction


def test_per_sample_memory_and_log_bytes_worked_example() -> None:
    runs = {
        100: {"eval_peak_mb": 110.0, "rss_before_eval_mb": 100.0, "log_bytes": 50_000},
        300: {"eval_peak_mb": 130.0, "rss_before_eval_mb": 100.0, "log_bytes": 130_000},
    }
    out = _per_sample(runs)
    # 10 MB over 100 samples = 102.4 KB; 30 MB over 300 = 102.4 KB
    assert out["memory_kb_100"] == pytest.approx(102.4)
    assert out["memory_kb_300"] == pytest.approx(102.4)
    assert out["log_bytes_100"] == 500.0
    assert out["log_bytes_300"] == pytest.approx(433.333, abs=1e-3)
    # marginal: (30 - 10) MB over 200 more samples; (130k - 50k) bytes over 200
    assert out["memory_kb_marginal"] == pytest.approx(102.4)
    assert out["log_bytes_marginal"] == 400.0


@pytest.fixture(scope="module")
def mp_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_mp_json(tmp_path_factory.mktemp("mp"), rows=400)


@pytest.mark.parametrize(("method", "target"), [("annotator_majority", "annotator")])
def test_bare_side_runs_the_package_samples(mp_folder: Path, method: str, target: str) -> None:
    task = package_task("mp", str(mp_folder), method, target)
    rows = bare_samples(task, 5)
    assert [row["id"] for row in rows] == [s.id for s in task.dataset[:5]]
    assert [row["input"] for row in rows] == [s.input for s in task.dataset[:5]]
    assert [row["target"] for row in rows] == [s.target for s in task.dataset[:5]]
    assert set(rows[0]["metadata"]) == {"annotator_id", "item_id"}


def test_floor_writes_the_prediction_a_method_writes(mp_folder: Path, tmp_path: Path) -> None:
    task = package_task("mp", str(mp_folder), "annotator_majority", "annotator")
    file = write_samples(tmp_path / "bare.jsonl", bare_samples(task, 3))
    [bare] = eval(bare_task(str(file), "ironic"), model="plural/random", log_dir=str(tmp_path))
    [floor] = eval(
        bare_task(str(file), "ironic", record=True), model="plural/random", log_dir=str(tmp_path)
    )
    assert bare.samples and floor.samples
    assert not any(key.startswith("Prediction:") for key in bare.samples[0].store)
    prediction = Prediction.read(floor.samples[0].store)
    assert (prediction.label, prediction.model_calls) == ("ironic", 0)


def test_call_counts_repeat_and_see_the_prediction_write(mp_folder: Path, tmp_path: Path) -> None:
    task = package_task("mp", str(mp_folder), "annotator_majority", "annotator")
    file = write_samples(tmp_path / "bare.jsonl", bare_samples(task, 8))
    make = {
        "bare": lambda: bare_task(str(file), "ironic"),
        "floor": lambda: bare_task(str(file), "ironic", record=True),
        "package": lambda: bare_task(str(file), "ironic", record=True),
    }
    call_counts(make, 2, None, str(tmp_path))  # warm-up: first-use imports and caches
    first, again = (call_counts(make, 4, 8, str(tmp_path)) for _ in range(2))
    for kind in make:  # the same work counts the same (event-loop polls aside)
        assert again["calls_per_sample"][kind] == pytest.approx(
            first["calls_per_sample"][kind], rel=0.01
        )
    # the floor's Prediction write costs calls on every sample, so at the margin too
    assert first["floor_ratio"] > 1.05 and first["marginal_floor_ratio"] > 1.05
    assert first["ratio"] == pytest.approx(first["floor_ratio"], rel=0.02)  # same task
    line = calls_line("annotator_majority", first)
    assert "Python calls per sample at 4" in line and "marginal to 8" in line
