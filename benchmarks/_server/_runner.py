"""The benchmark server as a context manager (a thread or a child process), and its hook.

While a server is open, :class:`AnswerFormatBridge` copies each call's declared answer
format into requests to this service (the module global ``_bridge_users`` counts the
open servers and :func:`answer_format_bridge` contexts).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import socket
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.hooks import BeforeModelGenerate, Hooks, hooks

from benchmarks._server._app import _app, _State
from benchmarks._server._faults import FaultPlan
from benchmarks._server._names import (
    API_KEY_VAR,
    BASE_URL_VAR,
    DUMMY_KEY,
    FORMAT_FIELD,
    MODEL,
    SERVICE,
)
from inspect_plural.answer_format import declared_answer_format, dump_answer_format

__all__ = ["AnswerFormatBridge", "FakeOpenAIServer", "answer_format_bridge"]


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
            FORMAT_FIELD: dump_answer_format(answer_format),
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
