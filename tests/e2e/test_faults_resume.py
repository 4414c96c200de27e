"""Faults and resume through Inspect's OpenAI-compatible provider and a local server.

The server (``benchmarks/_server.py``) answers with the chance model, so every run must
end with the metrics of the same workload run in-process with ``plural/random``.
Workload and settings: ``benchmarks/faults.py`` (dp demo, cinemetric, 4 annotators x 4
samples, 72 calls).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from benchmarks import faults

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    return faults.metrics(faults.reference_run(str(tmp_path_factory.mktemp("reference"))))


@pytest.fixture(scope="module")
def resumed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return faults.resume_run(str(tmp_path_factory.mktemp("resume")))


def test_faults_lose_no_sample_and_repeat_no_persona_work(
    reference: dict[str, float], tmp_path: Path
) -> None:
    run = faults.fault_run(str(tmp_path))
    assert run["status"] == "success"
    assert run["samples"] == run["scored"] == faults.LIMIT and run["errors"] == 0
    # every kind of fault happened and was retried
    assert all(run["outcomes"].get(kind, 0) > 0 for kind in ("error", "rate_limit", "timeout"))
    assert run["requests"] > run["answered"]
    # one panel per annotator, and the server answered exactly the protocol's calls
    assert run["budget"]["panels"] == run["annotators"] == 4
    assert run["answered_by_kind"] == {
        kind: run["budget"][kind] for kind in ("selections", "validations", "roleplays")
    }
    # 1 selection + 5 validations per round; a second round when fewer than 3 are valid
    budget = run["budget"]
    assert budget["selections"] >= 4 and budget["validations"] == 5 * budget["selections"]
    assert run["answered"] == run["protocol_calls"]
    assert run["protocol_calls"] == budget["selections"] + budget["validations"] + faults.LIMIT * 3
    assert faults.metrics(run["log"]) == reference


def test_resume_reruns_only_unfinished_samples(
    resumed: dict[str, Any], reference: dict[str, float]
) -> None:
    assert resumed["first_status"] == "error"
    assert 0 < resumed["first_completed"] < faults.LIMIT
    assert resumed["retry_status"] == "success"
    assert resumed["samples"] == resumed["scored"] == faults.LIMIT
    # finished samples are carried over as they were and never sent again
    assert resumed["kept_unchanged"] == resumed["first_completed"]
    assert resumed["rerun"] == faults.LIMIT - resumed["first_completed"]
    assert resumed["retry_requests"] == resumed["retry_answered"]
    assert resumed["retry_answered"] == resumed["rerun_protocol_calls"]
    assert faults.metrics(resumed["retried"]) == reference


def test_resume_reuses_the_panels_the_first_run_finished(resumed: dict[str, Any]) -> None:
    # the outage hit annotators whose panels were finished and stored on disk
    assert resumed["panels_stored_by_first"] > 0
    assert resumed["retry_panels_from_disk"] > 0
    # the retry sent persona requests only for panels it had to build itself
    assert resumed["retry_persona_requests"] == resumed["retry_persona_budget"]
    assert resumed["panels_built_in_retry"] + resumed["panels_stored_by_first"] == 4


def test_resume_with_the_model_cache_resends_no_answered_persona_call(
    reference: dict[str, float], tmp_path: Path
) -> None:
    run = faults.resume_run(str(tmp_path / "logs"), cache_dir=str(tmp_path / "cache"))
    assert run["retry_status"] == "success"
    assert run["samples"] == run["scored"] == faults.LIMIT
    # persona calls the first run had answered are read from the model cache, not sent
    # again; a panel the outage interrupted sends only what the first run never got
    assert run["retry_persona_requests"] < run["retry_persona_budget"] or (
        run["retry_persona_budget"] == 0 and run["retry_persona_requests"] == 0
    )
    # every call of a re-run sample is either read from the model cache (the persona
    # calls, and whatever the first run answered before the outage) or sent: how many
    # the first run answered for unfinished samples depends on scheduling, so the
    # accounting is exact rather than a strict saving
    assert run["retry_requests"] + run["retry_cache_reads"] == run["rerun_protocol_calls"]
    assert faults.metrics(run["retried"]) == reference
