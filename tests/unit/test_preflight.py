"""The model check's parts: which models are checked and how, and the message (issue 28)."""

from __future__ import annotations

import socket

import pytest
from inspect_ai.model import get_model

from inspect_plural.preflight import (
    MAX_LINES,
    Finding,
    ProbeTarget,
    failure_message,
    probe,
    probe_target,
)
from inspect_plural.tasks._batch import BATCH_SUPPORT
from inspect_plural.tasks._preflight import NO_CALL_METHODS


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("name", ["plural/random", "mockllm/model"])
def test_in_process_models_are_never_checked(name: str) -> None:
    assert probe_target(get_model(name)).kind == "skip"


def test_each_provider_gets_its_free_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_BASE_URL", "http://127.0.0.1:8011/v1/")
    monkeypatch.setenv("LOCAL_API_KEY", "x")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    local = probe_target(get_model("openai-api/local/smollm2", memoize=False))
    assert (local.kind, local.name, local.base_url) == (
        "model_list",
        "smollm2",
        "http://127.0.0.1:8011/v1",
    )
    assert (local.base_url_var, local.key_var) == ("LOCAL_BASE_URL", "LOCAL_API_KEY")
    openai = probe_target(get_model("openai/gpt-4.1", memoize=False))
    assert (openai.kind, openai.base_url) == ("openai_model", "https://api.openai.com/v1")
    anthropic = probe_target(get_model("anthropic/claude-sonnet-4-5", memoize=False))
    assert anthropic.kind == "anthropic_model"
    assert "x" not in repr(local) and "sk-test" not in repr(openai)  # keys never printed


def test_a_refused_port_is_named_in_at_most_ten_lines() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    target = ProbeTarget(
        model="openai-api/local/x",
        name="x",
        kind="model_list",
        base_url=url,
        base_url_var="LOCAL_BASE_URL",
        key_var="LOCAL_API_KEY",
    )
    finding = probe(target)
    assert not finding.ok and finding.problem == "connection refused"
    message = failure_message([finding])
    assert len(message.splitlines()) <= MAX_LINES
    for part in (url, "openai-api/local/x", "LOCAL_BASE_URL", "LOCAL_API_KEY", "--max-retries"):
        assert part in message


def test_many_failures_still_fit_ten_lines() -> None:
    failures = [
        Finding(
            target=ProbeTarget(model=f"openai-api/s{i}/m", name="m", kind="model_list"),
            ok=False,
            problem="404 model not found",
            detail="the server lists: a, b",
            checked="GET http://h/v1/models",
        )
        for i in range(6)
    ]
    message = failure_message(failures)
    assert len(message.splitlines()) <= MAX_LINES
    assert "openai-api/s0/m" in message and "openai-api/s5/m" in message


def test_the_methods_without_calls_are_batch_supports_not_applicable_rows() -> None:
    assert {m for m, s in BATCH_SUPPORT.items() if not s.calls_model} == NO_CALL_METHODS
