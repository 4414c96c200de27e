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
from ``random.Random(f"{seed}:{index}")``: HTTP 500, HTTP 429 with ``Retry-After``,
timeouts (the connection is held, without an answer, until the client gives up or
``hold_s`` passes) and malformed HTTP 200 replies (``MALFORMED_KINDS``). The plan can
also make every request of some answer formats fail (``fail_formats``), want a key
(``require_key``: 401) or know only some model names (``known_models``: 404).
``fail_after=N`` makes every request after the N-th answered one fail with
``fail_status`` (a hard outage, to interrupt a run). The answers never depend on the
index, only on the messages and the call's seed, so a run's results are the same
whatever the faults, the concurrency or the retries.

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

``_names`` holds the service's names, ``_faults`` the fault plan, ``_app`` the
HTTP application (requests, answers, statistics) and ``_runner`` the server in a thread or
a child process (:class:`FakeOpenAIServer`) with the hook it switches on.
"""

from benchmarks._server._app import count
from benchmarks._server._faults import MALFORMED_KINDS, FaultPlan, MalformedKind
from benchmarks._server._names import (
    API_KEY_VAR,
    BASE_URL_VAR,
    DUMMY_KEY,
    FORMAT_FIELD,
    MODEL,
    SERVICE,
)
from benchmarks._server._runner import AnswerFormatBridge, FakeOpenAIServer, answer_format_bridge

__all__ = [
    "API_KEY_VAR",
    "AnswerFormatBridge",
    "BASE_URL_VAR",
    "DUMMY_KEY",
    "FORMAT_FIELD",
    "FakeOpenAIServer",
    "FaultPlan",
    "MALFORMED_KINDS",
    "MalformedKind",
    "MODEL",
    "SERVICE",
    "answer_format_bridge",
    "count",
]
