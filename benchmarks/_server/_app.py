"""The server's HTTP application: messages answered by the chance model, and statistics."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from dataclasses import asdict, fields, replace
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ContentText,
    GenerateConfig,
)

from benchmarks._server._faults import FaultPlan
from benchmarks._server._names import FORMAT_FIELD

__all__ = ["count"]


# --------------------------------------------------------------------------- the app


def _content(value: Any) -> str | list[ContentText]:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return [ContentText(text=str(p.get("text", ""))) for p in value if p.get("type") == "text"]
    return "" if value is None else str(value)


def _messages(body: dict[str, Any]) -> list[ChatMessage]:
    out: list[ChatMessage] = []
    for m in body.get("messages", []):
        role, content = m.get("role"), _content(m.get("content"))
        if role in ("system", "developer"):
            out.append(ChatMessageSystem(content=content))
        elif role == "user":
            out.append(ChatMessageUser(content=content))
        elif role == "assistant":
            out.append(ChatMessageAssistant(content=content))
        else:
            raise ValueError(f"unsupported message role {role!r}")
    return out


def _digest(body: dict[str, Any]) -> str:
    text = json.dumps(body.get("messages", []), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _format_kind(answer_format: dict[str, Any] | None) -> str:
    if not answer_format:
        return "none"
    kind = str(answer_format.get("kind"))
    return f"{kind}/{answer_format['style']}" if "style" in answer_format else kind


class _State:
    """Counters, request records and settings of one server."""

    def __init__(self, latency: float, faults: FaultPlan, model_seed: int) -> None:
        from inspect_plural.models import RandomModelAPI

        self.latency = latency
        self.faults = faults
        self.model = RandomModelAPI("random", seed=model_seed)
        self.in_flight = 0
        self.reset()

    def reset(self) -> None:
        """Zero the counters (requests still in flight stay counted as in flight)."""
        self.index = 0
        self.answered = 0
        self.peak_in_flight = self.in_flight
        self.records: list[dict[str, Any]] = []

    def stats(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for record in self.records:
            counts[record["outcome"]] = counts.get(record["outcome"], 0) + 1
        done = [r for r in self.records if r["outcome"] == "ok"]
        return {
            "requests": self.index,
            "answered": self.answered,
            "outcomes": counts,
            "in_flight": self.in_flight,
            "peak_in_flight": self.peak_in_flight,
            "prompt_tokens": sum(r.get("prompt_tokens", 0) for r in done),
            "completion_tokens": sum(r.get("completion_tokens", 0) for r in done),
            "first_start": min((r["start"] for r in self.records), default=None),
            "last_end": max((r["end"] for r in self.records if r["end"]), default=None),
            "latency": self.latency,
            "faults": asdict(self.faults),
            "records": self.records,
        }


def _error(status: int, message: str, kind: str, headers: dict[str, str] | None = None) -> Any:
    from aiohttp import web

    body = {"error": {"message": message, "type": kind, "code": status}}
    return web.json_response(body, status=status, headers=headers)


def _malformed(kind: str, completion: dict[str, Any]) -> Any:
    """An HTTP 200 reply whose body a client cannot use (see ``MALFORMED_KINDS``)."""
    from aiohttp import web

    if kind == "truncated":
        text = json.dumps(completion)
        return web.Response(text=text[: len(text) // 2], content_type="application/json")
    if kind == "not_json":
        page = "<html><body>502 Bad Gateway (upstream)</body></html>"
        return web.Response(text=page, content_type="application/json")
    return web.json_response({**completion, "choices": [] if kind == "empty_choices" else None})


def _refused(faults: FaultPlan, request: Any, body: dict[str, Any] | None) -> Any:
    """HTTP 401 for a wrong key, 404 for a model the server does not know, else None."""
    expected = faults.require_key
    if expected is not None and request.headers.get("Authorization") != f"Bearer {expected}":
        return _error(401, "Incorrect API key provided (benchmark server)", "invalid_request_error")
    if body is not None and faults.known_models and body.get("model") not in faults.known_models:
        message = f"The model `{body.get('model')}` does not exist (benchmark server)."
        return _error(404, message, "NotFoundError")
    return None


def _completion(body: dict[str, Any], output: Any, index: int) -> dict[str, Any]:
    choices = []
    for i, choice in enumerate(output.choices):
        choices.append(
            {
                "index": i,
                "message": {"role": "assistant", "content": choice.message.text},
                "finish_reason": "stop",
                "logprobs": None if choice.logprobs is None else choice.logprobs.model_dump(),
            }
        )
    usage = output.usage
    return {
        "id": f"chatcmpl-plural-bench-{index}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "random"),
        "choices": choices,
        "usage": {
            "prompt_tokens": usage.input_tokens,
            "completion_tokens": usage.output_tokens,
            "total_tokens": usage.total_tokens,
        },
    }


async def _answer(
    state: _State,
    request: Any,
    body: dict[str, Any],
    index: int,
    record: dict[str, Any],
) -> Any:
    from aiohttp import web

    faults = state.faults
    refused = _refused(faults, request, body)
    if refused is not None:
        record["outcome"] = "refused"
        return refused
    if (
        index in faults.fail_indices
        or (faults.fail_after is not None and state.answered >= faults.fail_after)
        or record["format"] in faults.fail_formats
    ):
        record["outcome"] = "hard_failure"
        return _error(faults.fail_status, "injected outage (benchmark server)", "outage")
    outcome = faults.outcome(index)
    record["outcome"] = outcome
    if outcome == "rate_limit":
        return _error(
            429,
            "injected rate limit (benchmark server)",
            "rate_limit_exceeded",
            {"Retry-After": f"{faults.retry_after:g}"},
        )
    if outcome == "timeout":
        # hold the connection without an answer until the client gives up
        deadline = time.monotonic() + faults.hold_s
        while time.monotonic() < deadline:
            transport = request.transport
            if transport is None or transport.is_closing():
                break
            await asyncio.sleep(0.05)
        return _error(504, "injected timeout (benchmark server)", "timeout")
    await asyncio.sleep(state.latency)
    if outcome == "error":
        return _error(500, "injected server error (benchmark server)", "server_error")
    answer_format = body.get(FORMAT_FIELD)
    refusal = None
    if body.get("stream"):
        refusal = "the benchmark server does not stream"
    elif not answer_format:
        refusal = (
            "the benchmark server answers only inspect_plural prompts whose answer format "
            f"travels in the request ({FORMAT_FIELD!r}; see benchmarks/_server.py)"
        )
    try:
        messages = _messages(body)
    except ValueError as ex:
        refusal = str(ex)
    if refusal is not None or not messages:
        record["outcome"] = "refused"
        return _error(400, refusal or "no messages", "invalid_request_error")
    messages[-1].metadata = {**(messages[-1].metadata or {}), FORMAT_FIELD: answer_format}
    config = GenerateConfig(
        seed=body.get("seed"),
        num_choices=body.get("n"),
        logprobs=body.get("logprobs"),
        top_logprobs=body.get("top_logprobs"),
    )
    output = await state.model.generate(messages, [], "none", config)
    transport = request.transport
    if transport is None or transport.is_closing():
        # the client gave up on this attempt (its timeout) and will retry: not an answer
        record["outcome"] = "abandoned"
        return _error(504, "client gone (benchmark server)", "timeout")
    assert output.usage is not None
    record["prompt_tokens"] = output.usage.input_tokens
    record["completion_tokens"] = output.usage.output_tokens
    if outcome == "malformed":
        # computed (so paid for), then garbled on the way: not an answer the client can use
        return _malformed(faults.malformed_kind, _completion(body, output, index))
    state.answered += 1
    return web.json_response(_completion(body, output, index))


def _app(state: _State) -> Any:
    from aiohttp import web

    async def completions(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        index = state.index
        state.index += 1
        record: dict[str, Any] = {
            "index": index,
            "start": time.time(),
            "end": None,
            "outcome": "started",
            "digest": _digest(body),
            "format": _format_kind(body.get(FORMAT_FIELD)),
            "seed": body.get("seed"),
        }
        state.records.append(record)
        state.in_flight += 1
        state.peak_in_flight = max(state.peak_in_flight, state.in_flight)
        try:
            response: web.StreamResponse = await _answer(state, request, body, index, record)
        finally:
            state.in_flight -= 1
            record["end"] = time.time()
        return response

    async def get_stats(request: web.Request) -> web.StreamResponse:
        return web.json_response(state.stats())

    async def configure(request: web.Request) -> web.StreamResponse:
        settings = await request.json()
        if "latency" in settings:
            state.latency = float(settings.pop("latency"))
        if settings.pop("reset", False):
            state.reset()
        known = {f.name for f in fields(FaultPlan)}
        state.faults = replace(state.faults, **{k: v for k, v in settings.items() if k in known})
        return web.json_response({"latency": state.latency, "faults": asdict(state.faults)})

    async def models(request: web.Request) -> web.StreamResponse:
        refused = _refused(state.faults, request, None)
        if refused is not None:
            return refused  # type: ignore[no-any-return]
        names = state.faults.known_models or ("random",)
        data = [{"id": name, "object": "model"} for name in names]
        return web.json_response({"object": "list", "data": data})

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/_bench/stats", get_stats)
    app.router.add_post("/_bench/configure", configure)
    return app


def count(stats: dict[str, Any], outcome: str | None = "ok", fmt: str | None = None) -> int:
    """Requests in ``stats`` with this outcome (None: any) and answer format kind."""
    return sum(
        1
        for r in stats["records"]
        if (outcome is None or r.get("outcome") == outcome) and (fmt is None or r["format"] == fmt)
    )
