"""A local OpenAI-compatible chat-completions server for latency and fault benchmarks.

The server answers ``POST /v1/chat/completions`` after an injected latency
(``asyncio.sleep``, so concurrent requests overlap) with the package's own chance model:
each request's messages go through :class:`inspect_plural.models.RandomModelAPI`, so the
answers are exactly those ``--model plural/random`` gives in-process (same seed, same
prompt, same call seed -> same text), in each method's declared format, with usage tokens.

How the answer format reaches the server. A solver declares the shape of its answer on
the prompt message's metadata, which no provider receives. The server does not guess the
format from the prompt text (the package forbids that for the chance model); instead an
Inspect hook (``on_before_model_generate``, active only while a :class:`FakeOpenAIServer`
is open, and only for this service's model) copies the declared format into the request
as an extra body field (``GenerateConfig.extra_body``, which Inspect's OpenAI-compatible
provider sends as is). The request therefore crosses the real HTTP path (Inspect's
``openai-api`` provider, the ``openai`` SDK, httpx, retries) and carries one extra JSON
field that a real provider would ignore; the server works in a separate process as well
as in a thread. A request without the field is refused with HTTP 400 and a message.

Seeded fault injection, decided per request index (the n-th request the server receives)
from ``random.Random(f"{seed}:{index}")``: HTTP 500, HTTP 429 with ``Retry-After``, and
timeouts (the connection is held, without an answer, until the client gives up or
``hold_s`` passes). ``fail_after=N`` makes every request after the N-th answered one fail
with ``fail_status`` (a hard outage, to interrupt a run). The answers never depend on the
index, only on the messages and the call's seed, so a run's results are the same whatever
the faults, the concurrency or the retries.

Usage::

    with FakeOpenAIServer(latency=0.5, faults=FaultPlan(error_rate=0.1)) as server:
        eval(task, model=server.model, model_base_url=server.url, max_connections=10)
        print(server.stats())

The model name is ``openai-api/plural-bench/random``; the context sets the dummy key
``PLURAL_BENCH_API_KEY`` (and ``PLURAL_BENCH_BASE_URL``) for its duration, so
``eval_retry`` of a log finds the server too. Pass ``model_base_url=server.url`` to
``eval`` all the same: Inspect memoizes models by base URL, not by environment.

The HTTP side is aiohttp's server (installed with inspect_ai, through s3fs/aiobotocore):
one asyncio loop, keep-alive, any number of concurrent connections, about 1 ms per
request here. (uvicorn with h11, also installed, took about 44 ms per request on
localhost, a delayed-ACK stall, so it is not used.) ``process=True`` serves from a child
process started with ``spawn``: a script using it needs the ``if __name__ ==
"__main__":`` guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import socket
import threading
import time
import urllib.request
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from inspect_ai.hooks import BeforeModelGenerate, Hooks, hooks
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    ContentText,
    GenerateConfig,
)

from inspect_plural.answer_format import ANSWER_FORMAT_KEY, declared_answer_format

SERVICE = "plural-bench"
MODEL = f"openai-api/{SERVICE}/random"
API_KEY_VAR = "PLURAL_BENCH_API_KEY"
BASE_URL_VAR = "PLURAL_BENCH_BASE_URL"
DUMMY_KEY = "plural-bench-local-no-secret"
FORMAT_FIELD = ANSWER_FORMAT_KEY
"""Request body field carrying the declared answer format (the package's metadata key)."""

_bridge_users = 0


# --------------------------------------------------------------------------- the hook


@hooks(
    name="inspect_plural_bench_answer_format",
    description="Copies inspect_plural's declared answer format into requests to the "
    "local benchmark server (benchmarks/_server.py); inactive otherwise.",
)
class AnswerFormatBridge(Hooks):
    """Sends the declared answer format to the benchmark server as an extra body field."""

    def enabled(self) -> bool:
        return _bridge_users > 0

    async def on_before_model_generate(self, data: BeforeModelGenerate) -> None:
        if not data.model_name.startswith(f"openai-api/{SERVICE}/"):
            return
        answer_format = declared_answer_format(data.input)
        if answer_format is None:
            return
        # the config is this call's own copy (Model.generate merges into a new object)
        data.config.extra_body = {
            **(data.config.extra_body or {}),
            FORMAT_FIELD: answer_format.model_dump(),
        }


@contextlib.contextmanager
def answer_format_bridge() -> Any:
    """Activate the hook (the server context does this itself)."""
    global _bridge_users
    _bridge_users += 1
    try:
        yield
    finally:
        _bridge_users -= 1


# --------------------------------------------------------------------------- faults


@dataclass
class FaultPlan:
    """Seeded faults, each with its own rate, decided per request index.

    Attributes:
        seed: Seed of the fault draws.
        error_rate: Share of requests answered HTTP 500 (after the latency).
        rate_limit_rate: Share answered HTTP 429 at once, with ``Retry-After``.
        timeout_rate: Share held without an answer until the client disconnects (or
            ``hold_s`` passes): set it above the client's attempt timeout.
        retry_after: ``Retry-After`` of the 429s, in seconds.
        hold_s: How long a timed-out request is held at most.
        fail_after: After this many answered requests every request fails with
            ``fail_status`` (None: never), a hard outage that interrupts a run.
        fail_status: The status of that outage (400: not retried by the client).
        fail_indices: Request indices that fail with ``fail_status`` (a targeted hard
            failure, e.g. one call of one sample).

    """

    seed: int = 0
    error_rate: float = 0.0
    rate_limit_rate: float = 0.0
    timeout_rate: float = 0.0
    retry_after: float = 1.0
    hold_s: float = 30.0
    fail_after: int | None = None
    fail_status: int = 400
    fail_indices: tuple[int, ...] = ()

    def outcome(self, index: int) -> str:
        """``ok``, ``error``, ``rate_limit`` or ``timeout`` for the index-th request."""
        u = random.Random(f"{self.seed}:{index}").random()
        for name, rate in (
            ("error", self.error_rate),
            ("rate_limit", self.rate_limit_rate),
            ("timeout", self.timeout_rate),
        ):
            if u < rate:
                return name
            u -= rate
        return "ok"


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
    if index in faults.fail_indices or (
        faults.fail_after is not None and state.answered >= faults.fail_after
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
    state.answered += 1
    assert output.usage is not None
    record["prompt_tokens"] = output.usage.input_tokens
    record["completion_tokens"] = output.usage.output_tokens
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
        return web.json_response({"object": "list", "data": [{"id": "random", "object": "model"}]})

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", completions)
    app.router.add_get("/v1/models", models)
    app.router.add_get("/_bench/stats", get_stats)
    app.router.add_post("/_bench/configure", configure)
    return app


async def _serve(state: _State, sock: socket.socket, stop: asyncio.Event) -> None:
    """Serve on ``sock`` until ``stop`` is set (aiohttp: one asyncio loop, many connections)."""
    from aiohttp import web

    runner = web.AppRunner(_app(state), access_log=None, handle_signals=False)
    await runner.setup()
    site = web.SockSite(runner, sock, shutdown_timeout=1.0)
    await site.start()
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


def _bind() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)
    return sock


def _serve_in_process(conn: Any, latency: float, faults: FaultPlan, model_seed: int) -> None:
    """Child-process entry: bind a free port, report it, serve until terminated."""
    sock = _bind()
    state = _State(latency, faults, model_seed)
    conn.send(sock.getsockname()[1])
    conn.close()

    async def main() -> None:
        await _serve(state, sock, asyncio.Event())

    asyncio.run(main())


# --------------------------------------------------------------------------- the handle


@dataclass
class FakeOpenAIServer:
    """The server, started on a free port of 127.0.0.1 for the ``with`` block.

    Args:
        latency: Seconds every answered request waits before its answer.
        faults: The fault plan.
        model_seed: Seed of the chance model (``-M seed=N`` of ``plural/random``).
        process: Serve from a child process (no GIL shared with the client: use it for
            timing) instead of a thread of this process.

    """

    latency: float = 0.5
    faults: FaultPlan = field(default_factory=FaultPlan)
    model_seed: int = 0
    process: bool = False
    port: int = 0
    _thread: threading.Thread | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _stop: asyncio.Event | None = None
    _child: Any = None
    _env: dict[str, str | None] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """The OpenAI base URL (``http://127.0.0.1:PORT/v1``)."""
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model(self) -> str:
        """The Inspect model name that reaches this server."""
        return MODEL

    def __enter__(self) -> FakeOpenAIServer:
        global _bridge_users
        if self.process:
            ctx = multiprocessing.get_context("spawn")
            parent, child = ctx.Pipe()
            self._child = ctx.Process(
                target=_serve_in_process,
                args=(child, self.latency, self.faults, self.model_seed),
                daemon=True,
            )
            self._child.start()
            if not parent.poll(60):
                self._child.terminate()
                raise RuntimeError("the benchmark server process did not start")
            self.port = int(parent.recv())
        else:
            sock = _bind()
            self.port = sock.getsockname()[1]
            state = _State(self.latency, self.faults, self.model_seed)
            started = threading.Event()

            async def main() -> None:
                self._loop = asyncio.get_running_loop()
                self._stop = asyncio.Event()
                started.set()
                await _serve(state, sock, self._stop)

            self._thread = threading.Thread(
                target=lambda: asyncio.run(main()), name="plural-bench-server", daemon=True
            )
            self._thread.start()
            started.wait(30)
        self._wait_ready()
        for var, value in ((API_KEY_VAR, DUMMY_KEY), (BASE_URL_VAR, self.url)):
            self._env[var] = os.environ.get(var)
            os.environ[var] = value
        _bridge_users += 1
        return self

    def __exit__(self, *exc: object) -> None:
        global _bridge_users
        _bridge_users -= 1
        for var, value in self._env.items():
            if value is None:
                os.environ.pop(var, None)
            else:
                os.environ[var] = value
        if self._loop is not None and self._stop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(timeout=10)
        if self._child is not None:
            self._child.terminate()
            self._child.join(timeout=10)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                self.stats()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def _call(self, path: str, payload: dict[str, Any] | None = None) -> dict[str, Any]:
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=data,
            headers={"Content-Type": "application/json"},
            method="GET" if data is None else "POST",
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            result: dict[str, Any] = json.loads(response.read())
        return result

    def stats(self) -> dict[str, Any]:
        """Counters and one record per request (index, times, outcome, format, digest)."""
        return self._call("/_bench/stats")

    def configure(self, reset: bool = False, **settings: Any) -> dict[str, Any]:
        """Change the latency or fault settings (``reset``: zero the counters)."""
        return self._call("/_bench/configure", {**settings, "reset": reset})


def count(stats: dict[str, Any], outcome: str | None = "ok", fmt: str | None = None) -> int:
    """Requests in ``stats`` with this outcome (None: any) and answer format kind."""
    return sum(
        1
        for r in stats["records"]
        if (outcome is None or r.get("outcome") == outcome) and (fmt is None or r["format"] == fmt)
    )
