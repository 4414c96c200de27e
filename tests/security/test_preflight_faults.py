"""A dead, locked or wrong model fails fast and says so (issue 28), against the fault server.

The fault server (``benchmarks/_server``) stands in for an OpenAI-compatible server that
wants a key (401) or knows only some model names (404, as vLLM); a closed port for one
that is not running. Through ``eval()`` of a task given by name the check runs while the
task is built (as on ``inspect eval``) and raises the short ``ModelUnreachable``; a Task
built in Python is checked by its setup solver in the first sample. The command line's
own output is checked once, in a subprocess (at most 10 lines, within 90 s).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from benchmarks._server import FakeOpenAIServer, FaultPlan, count
from inspect_ai import eval
from inspect_ai.log import resolve_sample_attachments
from tests.conftest import FAST_LOG, log_samples

from inspect_plural.preflight import MAX_LINES, ModelUnreachable
from inspect_plural.tasks import brexit

pytestmark = pytest.mark.e2e

DEMO = {"demo": True}


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run_by_name(model: str, base_url: str, tmp_path: Path, **kwargs: object) -> None:
    eval(
        "inspect_plural/brexit",
        task_args=DEMO,
        model=model,
        model_base_url=base_url,
        limit=2,
        display="none",
        log_dir=str(tmp_path),
        **FAST_LOG,
        **kwargs,  # type: ignore[arg-type]
    )


def test_a_refused_connection_stops_the_run_before_any_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    monkeypatch.setenv("DEAD_API_KEY", "x")
    started = time.monotonic()
    with pytest.raises(ModelUnreachable) as raised:
        _run_by_name("openai-api/dead/x", url, tmp_path)
    assert time.monotonic() - started < 30
    message = str(raised.value)
    assert "connection refused" in message and url in message and "DEAD_BASE_URL" in message
    assert len(message.splitlines()) <= MAX_LINES
    assert not list(tmp_path.glob("*.eval"))  # no run started


def test_a_refused_key_is_a_401_naming_the_key_variable(tmp_path: Path) -> None:
    with FakeOpenAIServer(latency=0.0, faults=FaultPlan(require_key="the-right-key")) as server:
        with pytest.raises(ModelUnreachable) as raised:
            _run_by_name(server.model, server.url, tmp_path)
        assert count(server.stats(), outcome=None) == 0  # no generation was attempted
    message = str(raised.value)
    assert "401" in message and "PLURAL_BENCH_API_KEY" in message and server.url in message


def test_a_model_the_server_does_not_have_is_a_404_listing_what_it_has(tmp_path: Path) -> None:
    faults = FaultPlan(known_models=("random",))
    with FakeOpenAIServer(latency=0.0, faults=faults) as server:
        with pytest.raises(ModelUnreachable) as raised:
            _run_by_name("openai-api/plural-bench/randm", server.url, tmp_path)
        # the name is not in GET /models: one minimal request confirms the server refuses it
        assert count(server.stats(), outcome="refused") == 1
    message = str(raised.value)
    assert "404 model not found" in message and "the server lists: random" in message


def test_a_role_bound_to_a_dead_model_is_checked_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEAD_BASE_URL", f"http://127.0.0.1:{_closed_port()}/v1")
    monkeypatch.setenv("DEAD_API_KEY", "x")
    with FakeOpenAIServer(latency=0.0) as server, pytest.raises(ModelUnreachable) as raised:
        _run_by_name(
            server.model,
            server.url,
            tmp_path,
            model_roles={"judge": "openai-api/dead/x"},
        )
    assert "openai-api/dead/x" in str(raised.value)


def test_a_reachable_server_runs_and_the_log_shows_the_check(tmp_path: Path) -> None:
    with FakeOpenAIServer(latency=0.0) as server:
        [log] = eval(
            brexit(demo=True),
            model=server.model,
            model_base_url=server.url,
            limit=3,
            display="none",
            log_dir=str(tmp_path),
            **FAST_LOG,
        )
        answered = count(server.stats())
    assert log.status == "success"
    assert answered == 3  # the check costs no generation (GET /models)
    infos = [
        e.data
        for s in log_samples(log)
        for e in resolve_sample_attachments(s).events
        if e.event == "info" and e.source == "preflight"
    ]
    assert len(infos) == 1 and "GET " in str(infos[0]) and server.model in str(infos[0])


def test_a_task_built_before_eval_is_checked_by_its_first_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    monkeypatch.setenv("DEAD_API_KEY", "x")
    task = brexit(demo=True)  # no model yet: nothing to check when it is built
    started = time.monotonic()
    [log] = eval(
        task,
        model="openai-api/dead/x",
        model_base_url=url,
        limit=4,
        display="none",
        log_dir=str(tmp_path),
        **FAST_LOG,
    )
    assert time.monotonic() - started < 60
    assert log.status == "error" and log.error is not None
    assert "connection refused" in log.error.message and url in log.error.message


@pytest.mark.slow  # a fresh Python with Inspect: 35 s at load 10
def test_the_command_line_fails_within_90_seconds_in_at_most_10_lines(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    env = {**os.environ, "LOCAL_BASE_URL": url, "LOCAL_API_KEY": "x", "COLUMNS": "100"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "inspect_ai", "eval", "inspect_plural/brexit", "-T", "demo=true"]
        + ["--model", "openai-api/local/x", "--log-dir", str(tmp_path / "logs")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    elapsed = time.monotonic() - started
    output = (done.stdout + done.stderr).strip()
    assert done.returncode != 0, output
    assert elapsed < 90, f"{elapsed:.0f} s"
    assert len(output.splitlines()) <= MAX_LINES, output
    assert url in output and "connection refused" in output and "LOCAL_BASE_URL" in output
