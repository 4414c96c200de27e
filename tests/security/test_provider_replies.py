"""Provider replies that cannot be read never stop a run (issue 29 item 7), fault server.

The fault server answers HTTP 200 with a malformed body (the JSON cut in half, an HTML
page labelled JSON, ``choices: []``, ``choices: null``). Before the fix a sample ended in
``JSONDecodeError`` / ``IndexError`` / ``TypeError`` and the run stopped; now such a reply
is tried again (``REPLY_ATTEMPTS`` in all) and, if it stays unreadable, recorded as a
failed answer with its reason, counted in ``parse_failures``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmarks._server import MALFORMED_KINDS, FakeOpenAIServer, FaultPlan, count
from inspect_ai import eval
from tests.conftest import FAST_LOG, log_metrics, log_samples

from inspect_plural._replies import REPLY_ATTEMPTS, unreadable_reply
from inspect_plural.prediction import Prediction
from inspect_plural.tasks import brexit, mslr_cochrane

pytestmark = pytest.mark.e2e


def _run(task: object, faults: FaultPlan, tmp_path: Path, limit: int) -> tuple[object, dict]:
    with FakeOpenAIServer(latency=0.0, faults=faults) as server:
        [log] = eval(
            task,  # type: ignore[arg-type]
            model=server.model,
            model_base_url=server.url,
            limit=limit,
            display="none",
            log_dir=str(tmp_path),
            max_retries=2,
            **FAST_LOG,
        )
        return log, server.stats()


@pytest.mark.parametrize("kind", MALFORMED_KINDS)
def test_a_malformed_reply_now_and_then_is_retried_and_the_run_succeeds(
    kind: str, tmp_path: Path
) -> None:
    faults = FaultPlan(seed=3, malformed_rate=0.3, malformed_kind=kind)  # type: ignore[arg-type]
    log, stats = _run(brexit(demo=True), faults, tmp_path, limit=8)
    assert stats["outcomes"].get("malformed", 0) >= 1  # the fault happened
    assert log.status == "success", log.error  # type: ignore[attr-defined]
    samples = log_samples(log)  # type: ignore[arg-type]
    assert len(samples) == 8 and all(s.error is None and s.scores for s in samples)
    # every sample's call was answered in the end (retried, not given up on)
    assert count(stats) == 8
    assert all(s.store_as(Prediction).parse_ok for s in samples)


def test_a_provider_that_never_replies_readably_fails_each_answer_with_its_reason(
    tmp_path: Path,
) -> None:
    faults = FaultPlan(malformed_rate=1.0, malformed_kind="empty_choices")
    log, stats = _run(brexit(demo=True), faults, tmp_path, limit=4)
    assert log.status == "success", log.error  # type: ignore[attr-defined]
    samples = log_samples(log)  # type: ignore[arg-type]
    assert all(s.error is None and s.scores for s in samples)
    # bounded: each sample's one call was tried REPLY_ATTEMPTS times, no more
    assert count(stats, outcome="malformed") == 4 * REPLY_ATTEMPTS
    for sample in samples:
        [answer] = sample.store_as(Prediction).answers
        assert not answer.parse_ok
        assert answer.error is not None and "unreadable reply" in answer.error
        assert "choices" in answer.error
    assert log_metrics(log)["parse_failures"] == 4  # type: ignore[arg-type]


def test_a_rating_method_survives_unreadable_replies(tmp_path: Path) -> None:
    faults = FaultPlan(malformed_rate=1.0, malformed_kind="truncated")
    task = mslr_cochrane(demo=True, method="geval")
    log, _ = _run(task, faults, tmp_path, limit=2)
    assert log.status == "success", log.error  # type: ignore[attr-defined]
    assert all(s.error is None and s.scores for s in log_samples(log))  # type: ignore[arg-type]


def test_only_errors_reading_a_reply_count_as_unreadable() -> None:
    try:
        json.loads('{"choices": [')
    except json.JSONDecodeError as error:
        assert unreadable_reply(error)
    try:
        [].pop()  # an IndexError in our own code is a bug, not a reply
    except IndexError as error:
        assert not unreadable_reply(error)
    assert not unreadable_reply(ValueError("context length exceeded"))
