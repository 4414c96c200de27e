"""A failed persona or panel build is shared, bounded and counted (issue 29 item 5).

Before, a build that raised left nothing behind, so every later sample of the same
annotator (or task) built it again and paid for the same prompts again; the samples
errored. Now one build per key per run is tried ``BUILD_ATTEMPTS`` times at most and
the failure is shared by every sample waiting on it (no new call). Each of those samples
is a sample error with the reason (so the run's status is ``error`` and ``eval-retry``
runs it again), its Prediction recorded first with the failure reason ``build_failed``,
so that under ``--score-on-error`` it is scored and counted as ``failed/build_failed``.
Against the fault server failing every persona call (HTTP 400): each distinct prompt is
sent at most ``BUILD_ATTEMPTS`` times.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest
from benchmarks._server import FakeOpenAIServer, FaultPlan
from inspect_ai import Task, eval
from inspect_ai._util.error import PrerequisiteError
from inspect_ai.log import EvalLog, EvalSample
from tests.conftest import FAST_LOG, log_metrics, log_samples

from inspect_plural._concurrency import BUILD_ATTEMPTS, BuildFailed, SharedBuilds
from inspect_plural.prediction import Prediction
from inspect_plural.scorers._values import values_of
from inspect_plural.tasks import brexit


def _waiters(builds: SharedBuilds[str], build: object, n: int) -> list[str | Exception]:
    results: list[str | Exception] = []

    async def one() -> None:
        try:
            results.append(await builds.get("annotator 1", "panel of annotator 1", build))  # type: ignore[arg-type]
        except (BuildFailed, PrerequisiteError) as error:
            results.append(error)

    async def main() -> None:
        async with anyio.create_task_group() as group:
            for _ in range(n):
                group.start_soon(one)

    anyio.run(main)
    return results


def test_a_failing_build_is_tried_a_bounded_number_of_times_and_shared() -> None:
    calls = 0

    async def build() -> str:
        nonlocal calls
        calls += 1
        raise RuntimeError("HTTP 400 from the provider")

    builds: SharedBuilds[str] = SharedBuilds()
    results = _waiters(builds, build, 5)
    assert calls == BUILD_ATTEMPTS == 2
    assert len(results) == 5 and all(isinstance(r, BuildFailed) for r in results)
    assert "panel of annotator 1 failed (2 attempts): RuntimeError: HTTP 400" in str(results[0])
    assert builds.failures == 1


def test_a_build_that_succeeds_on_its_retry_is_shared() -> None:
    calls = 0

    async def build() -> str:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("a glitch")
        return "panel"

    results = _waiters(SharedBuilds(), build, 4)
    assert calls == 2 and results == ["panel"] * 4


def test_a_user_error_is_not_a_build_failure() -> None:
    calls = 0

    async def build() -> str:
        nonlocal calls
        calls += 1
        raise PrerequisiteError("persona file not found")

    builds: SharedBuilds[str] = SharedBuilds()
    results = _waiters(builds, build, 3)
    assert calls == 3 and builds.failures == 0  # raised at once each time, never stored
    assert all(isinstance(r, PrerequisiteError) for r in results)


def _failing_run(task: Task, failing: str, tmp_path: Path, **options: Any) -> tuple[EvalLog, Any]:
    faults = FaultPlan(fail_formats=(failing,), fail_status=400)
    with FakeOpenAIServer(latency=0.0, faults=faults) as server:
        [log] = eval(
            task,
            model=server.model,
            model_base_url=server.url,
            limit=8,
            display="none",
            log_dir=str(tmp_path),
            **FAST_LOG,
            **options,
        )
        return log, server.stats()["records"]


def _check_failed(sample: EvalSample, what: str) -> None:
    assert sample.error is not None and sample.scores  # failed with why, and scored
    message = sample.error.message
    assert f"{what}" in message and "failed (2 attempts)" in message
    assert "Error code: 400" in message and "Request:" not in message  # not the prompt
    prediction = sample.store_as(Prediction)
    assert prediction.failure == "build_failed" and not prediction.parse_ok
    [score] = sample.scores.values()
    assert values_of(score)["failed/build_failed"] == 1


@pytest.mark.e2e
def test_a_persona_panel_failing_persistently_is_built_twice_and_every_item_fails_with_why(
    tmp_path: Path,
) -> None:
    task = brexit(demo=True, target="distribution", method="stakeholder_panel")
    log, records = _failing_run(task, "json", tmp_path, continue_on_fail=True, score_on_error=True)
    persona_prompts = Counter(r["digest"] for r in records if r["format"] == "json")
    assert persona_prompts and max(persona_prompts.values()) <= BUILD_ATTEMPTS
    assert all(r["format"] == "json" for r in records)  # no vote was asked without a panel
    assert log.status == "error"
    samples = log_samples(log)
    assert len(samples) == 8
    for sample in samples:
        _check_failed(sample, "persona panel")
    assert log_metrics(log)["failed/build_failed"] == 8


@pytest.mark.e2e
@pytest.mark.parametrize("failing", ["characters", "label/bare"])
def test_a_cinemetric_panel_failing_persistently_is_built_twice_per_annotator(
    tmp_path: Path, failing: str
) -> None:
    """Before: 40 paid answers for 10 distinct prompts, and a log saying success with no metrics."""
    task = brexit(demo=True, method="cinemetric")
    log, records = _failing_run(task, failing, tmp_path, continue_on_fail=True, score_on_error=True)
    prompts = Counter(r["digest"] for r in records)
    assert prompts and max(prompts.values()) <= BUILD_ATTEMPTS
    assert {r["format"] for r in records} <= {"characters", "label/bare"}  # no role-play
    assert log.status == "error"
    samples = log_samples(log)
    annotators = {s.metadata["annotator_id"] for s in samples}
    selections = [r for r in records if r["format"] == "characters"]
    assert len(selections) == BUILD_ATTEMPTS * len(annotators)  # one round per attempt
    assert len(samples) == 8
    for sample in samples:
        _check_failed(sample, "characters for annotator")
    assert log_metrics(log)["failed/build_failed"] == 8


@pytest.mark.e2e
def test_by_default_the_first_failed_panel_stops_the_run_after_its_attempts(
    tmp_path: Path,
) -> None:
    log, records = _failing_run(brexit(demo=True, method="cinemetric"), "characters", tmp_path)
    assert log.status == "error" and log.error is not None
    assert "characters for annotator" in log.error.message
    assert "failed (2 attempts)" in log.error.message
    selections = Counter(r["digest"] for r in records)
    assert max(selections.values()) <= BUILD_ATTEMPTS  # a handful of calls, not 8 panels
    assert len(records) <= BUILD_ATTEMPTS * len(selections)
