"""A failed persona or panel build is shared, bounded and counted (issue 29 item 5).

Before, a build that raised left nothing behind, so every later sample of the same
annotator (or task) built it again and paid for the same prompts again; the samples
errored. Now one build per key per run is tried ``BUILD_ATTEMPTS`` times at most, the
failure is shared by every sample waiting on it (no new call), each of those samples
fails with the reason, and the ``cost`` metric reports ``build_failures``. Against the
fault server failing every persona call (HTTP 400): each distinct prompt is sent at
most ``BUILD_ATTEMPTS`` times.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import anyio
import pytest
from benchmarks._server import FakeOpenAIServer, FaultPlan
from inspect_ai import eval
from inspect_ai._util.error import PrerequisiteError
from tests.conftest import FAST_LOG, log_metrics, log_samples

from inspect_plural._concurrency import BUILD_ATTEMPTS, BuildFailed, SharedBuilds
from inspect_plural.prediction import BUILD_FAILED, Prediction
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


@pytest.mark.e2e
def test_a_persona_panel_failing_persistently_is_built_twice_and_every_item_fails_with_why(
    tmp_path: Path,
) -> None:
    faults = FaultPlan(fail_formats=("json",), fail_status=400)
    with FakeOpenAIServer(latency=0.0, faults=faults) as server:
        [log] = eval(
            brexit(demo=True, target="distribution", method="stakeholder_panel"),
            model=server.model,
            model_base_url=server.url,
            limit=6,
            display="none",
            log_dir=str(tmp_path),
            **FAST_LOG,
        )
        records = server.stats()["records"]
    persona_prompts = Counter(r["digest"] for r in records if r["format"] == "json")
    assert persona_prompts and max(persona_prompts.values()) <= BUILD_ATTEMPTS
    assert all(r["format"] == "json" for r in records)  # no vote was asked without a panel
    assert log.status == "success"
    samples = log_samples(log)
    assert len(samples) == 6 and all(s.error is None and s.scores for s in samples)
    for sample in samples:
        prediction = sample.store_as(Prediction)
        assert BUILD_FAILED in prediction.flags and not prediction.parse_ok
        assert prediction.error is not None and "failed (2 attempts)" in prediction.error
    assert log_metrics(log)["build_failures"] == 6
