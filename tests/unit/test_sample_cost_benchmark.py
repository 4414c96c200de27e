"""The ``cost`` benchmark section compares like with like, and its per-sample arithmetic."""

from __future__ import annotations

import cProfile
import os
import pstats
from collections.abc import Callable
from copy import deepcopy
from pathlib import Path
from typing import Any

import pytest
from benchmarks._bigfiles import write_mp_json
from benchmarks._cost_calls import (
    INSPECT_PASSES,
    STORE_EVENTS_OFF,
    call_counts,
    calls_line,
    pass_calls,
)
from benchmarks._cost_child import bare_task, package_task, write_samples
from benchmarks._cost_memory import _per_sample
from benchmarks.sample_cost import bare_samples
from inspect_ai import Task, eval
from inspect_ai.log import read_eval_log

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


@pytest.mark.parametrize(("method", "target"), [("uniform", "distribution")])
def test_data_floor_samples_carry_the_package_metadata(
    mp_folder: Path, method: str, target: str
) -> None:
    task = package_task("mp", str(mp_folder), method, target)
    rows = bare_samples(task, 3, with_metadata=True)
    assert [row["metadata"] for row in rows] == [s.metadata for s in task.dataset[:3]]
    assert "groups" in rows[0]["metadata"]  # an item's data, not only its ids


def test_call_counts_price_the_data_a_sample_carries(mp_folder: Path, tmp_path: Path) -> None:
    task = package_task("mp", str(mp_folder), "uniform", "distribution")
    ids = write_samples(tmp_path / "bare.jsonl", bare_samples(task, 6))
    data = write_samples(tmp_path / "data.jsonl", bare_samples(task, 6, with_metadata=True))
    make = {
        "bare": lambda: bare_task(str(ids), "ironic"),
        "floor": lambda: bare_task(str(ids), "ironic", record=True),
        "data": lambda: bare_task(str(data), "ironic", record=True),
        "package": lambda: bare_task(str(ids), "ironic"),  # stands in: bare's work
    }
    call_counts(make, 2, None, str(tmp_path))  # warm-up
    row = call_counts(make, 3, 6, str(tmp_path))
    per, marginal = row["calls_per_sample"], row["marginal_calls_per_sample"]
    # Inspect copies and walks a sample's metadata: the data floor costs more than the floor
    assert per["data"] > 1.1 * per["floor"] and marginal["data"] > 1.1 * marginal["floor"]
    assert row["data_ratio"] == pytest.approx(per["data"] / per["bare"])
    assert row["over_data"] == pytest.approx(per["package"] / per["data"])
    assert row["over_data"] < 0.9  # this "package" does less than the data floor
    assert row["marginal_over_data"] == pytest.approx(marginal["package"] / marginal["data"])
    line = calls_line("uniform", row)
    assert "data floor" in line
    assert f"package / data floor {row['marginal_over_data']:.2f}" in line


def test_summary_reports_the_package_over_its_data_floor() -> None:
    from benchmarks.sample_cost import summary

    calls = {"ratio": 2.0, "floor_ratio": 1.2, "data_ratio": 1.8, "over_data": 2.0 / 1.8}
    ratios = {
        "memory_kb_100": 1.6,
        "log_bytes_100": 1.5,
        "data_memory_kb_100": 1.4,
        "data_log_bytes_100": 1.3,
        "over_data_memory_kb_100": 1.6 / 1.4,
        "over_data_log_bytes_100": 1.5 / 1.3,
    }
    throughput = {"samples": 100, "cpu_ratio": [1, 1.5, 2], "floor_cpu_ratio": [1, 1.1, 1]}
    result = {
        "throughput": {"uniform": throughput | {"throughput_ratio": [0.5, 0.6, 0.7]}},
        "calls": {"uniform": calls},
        "memory": {"uniform": {"ratios": ratios}},
        "scale": {
            "rows": 10,
            "method": "annotator_majority",
            "samples": 5,
            "peak_gib": 0.1,
            "cpus": 2,
            "samples_per_s": 50.0,
        },
    }
    [line] = [s for s in summary(result) if "data floor" in s]
    assert "calls x1.80, memory x1.40, log bytes x1.30 of bare Inspect" in line
    assert "package over it: calls x1.11, memory x1.14, log bytes x1.15" in line


def test_marginal_milliseconds_cancel_the_fixed_cost_worked_example() -> None:
    from benchmarks.sample_cost import CPU, WALL, _marginal_ms

    # (wall, CPU) of rounds: 2 s fixed + 10 ms a sample (bare), 3 s + 12 ms (package)
    small = {"bare": [(7.0, 6.0), (7.2, 6.1)], "package": [(9.0, 8.0), (8.8, 8.2)]}
    large = {"bare": [(17.1, 16.0)], "package": [(20.9, 20.0)]}
    wall = _marginal_ms(small, large, 500, 1500, WALL)
    cpu = _marginal_ms(small, large, 500, 1500, CPU)
    # medians 7.1 and 8.9 s at 500; 1,000 more samples took 10.0 and 12.0 s
    assert wall == pytest.approx({"bare": 10.0, "package": 12.0})
    assert cpu == pytest.approx({"bare": 9.95, "package": 11.9})
    assert wall["bare"] / wall["package"] == pytest.approx(0.8333, abs=1e-4)


def test_summary_gives_both_throughput_verdicts() -> None:
    from benchmarks.sample_cost import summary

    row = {
        "samples": 500,
        "cpu_ratio": [1, 1.3, 2],
        "floor_cpu_ratio": [1, 1.1, 1],
        "throughput_ratio": [0.7, 0.79, 0.8],
        "marginal_cpu_ratio": 1.14,
        "marginal_throughput_ratio": 0.88,
    }
    ratios = {"memory_kb_marginal": 1.0, "log_bytes_marginal": 1.2}
    scale = {"rows": 1, "method": "m", "samples": 1, "peak_gib": 0.1, "cpus": 2}
    result = {
        "throughput": {"annotator_majority": row},
        "memory": {"annotator_majority": {"ratios": ratios}},
        "scale": scale | {"samples_per_s": 1.0},
    }
    line = summary(result)[0]
    assert "CPU/sample x1.14 (ok)" in line
    assert "throughput x0.79 at 500 (MISSED), x0.88 marginal (ok)" in line


def _profiled(fn: Callable[[], object]) -> dict[Any, Any]:
    profile = cProfile.Profile()
    profile.enable()
    fn()
    profile.disable()
    return pstats.Stats(profile).stats  # type: ignore[attr-defined, no-any-return]


def test_pass_calls_grow_with_every_value_inspect_walks() -> None:
    from inspect_ai._util.json import exceeds_max_depth

    def walk(values: int) -> dict[str, int]:
        data = {"groups": {f"g{i}": {"a": 0.5, "b": 0.5} for i in range(values)}}
        return pass_calls(_profiled(lambda: (exceeds_max_depth(data, 100), deepcopy(data))))

    few, many = walk(10), walk(110)
    # 100 more groups of 2 shares: 300 more values, each popped and type-checked (the
    # depth check) and copied (at least one deepcopy call each): if Inspect renames a
    # pass, its count drops to 0 here and INSPECT_PASSES needs the new name
    assert many["depth check"] - few["depth check"] >= 3 * 300
    assert many["deep copies"] - few["deep copies"] >= 300
    assert set(few) == {"depth check", "deep copies"}  # nothing else attributed
    assert set(INSPECT_PASSES.values()) >= {"attachment check", "summary size check"}


def test_store_events_off_logs_a_write_once(mp_folder: Path, tmp_path: Path) -> None:
    task = package_task("mp", str(mp_folder), "annotator_majority", "annotator")
    file = write_samples(tmp_path / "bare.jsonl", bare_samples(task, 8))

    def floor() -> Task:
        return bare_task(str(file), "ironic", record=True)

    make = {"bare": lambda: bare_task(str(file), "ironic"), "floor": floor, "package": floor}
    make[STORE_EVENTS_OFF] = floor
    call_counts(make, 2, None, str(tmp_path / "warm"))  # warm-up
    row = call_counts(make, 4, 8, str(tmp_path / "counted"))
    # the same task, with the Prediction logged in the state event and the final store
    # only: cheaper than with Inspect's two store events, dearer than writing nothing
    assert 1.0 < row["marginal_store_events_off_ratio"] < row["marginal_floor_ratio"] - 0.05
    passes = row["marginal_pass_calls_per_sample"]
    assert sum(passes["floor"].values()) > sum(passes["bare"].values())
    log = read_eval_log(max((tmp_path / "counted").glob("*.eval"), key=os.path.getmtime))
    assert log.samples and log.samples[0].store  # the what-if ran last: still stored...
    assert "store" not in {event.event for event in log.samples[0].events}  # ...not logged
    assert "with Inspect's store events off, package ratio" in calls_line("m", row)


def test_summary_says_how_much_is_inspects_own_work() -> None:
    from benchmarks.sample_cost import _upstream_line

    calls = {
        "ratio": 2.0,
        "marginal_ratio": 1.9,
        "marginal_calls_per_sample": {"bare": 10_000.0, "package": 19_000.0},
        "marginal_pass_calls_per_sample": {
            "bare": {"depth check": 1_000.0, "deep copies": 2_500.0},
            "package": {"depth check": 3_000.0, "deep copies": 2_500.0, "condensing": 500.0},
        },
        "marginal_store_events_off_ratio": 1.75,
    }
    line = _upstream_line("uniform", calls)
    assert "per-value passes make 6,000 of the package's 19,000 calls/sample" in line
    assert "(3,500 of bare's 10,000)" in line
    assert "store events off, the package's calls x1.75 of bare" in line


def test_every_inspect_pass_named_still_exists() -> None:
    import importlib

    # a renamed or moved function would count 0 calls in silence: fail naming it instead
    for file, name in INSPECT_PASSES:
        module = file.strip("/").removesuffix(".py").replace("/", ".")
        assert hasattr(importlib.import_module(module), name), f"{module}.{name} is gone"
