"""The local OpenAI-compatible server the real-model sections run against.

Where it is (``LOCAL_BASE_URL``), which model it serves, and which structured-output
dialect it takes. Shared by :mod:`benchmarks.real` and :mod:`benchmarks.real_latency`.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from typing import Any

__all__ = ["BASE_URL_ENV", "probe_dialect", "server"]

BASE_URL_ENV = "LOCAL_BASE_URL"


def _request(url: str, body: dict[str, Any] | None = None, timeout: float = 10.0) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    key = os.environ.get("LOCAL_API_KEY")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (local URL)
        return json.loads(response.read().decode())


def server() -> tuple[str, str] | str:
    """The server's base URL and model, or why there is none."""
    base_url = os.environ.get(BASE_URL_ENV)
    if not base_url:
        return (
            f"{BASE_URL_ENV} is not set: start a local OpenAI-compatible server "
            "(docs/local_models.md) and set LOCAL_BASE_URL=http://HOST:PORT/v1 and "
            "LOCAL_API_KEY (any value for a local server)"
        )
    try:
        listed = _request(base_url.rstrip("/") + "/models", timeout=5.0)
    except (OSError, ValueError) as ex:
        return f"no OpenAI-compatible server answers at {base_url}: {ex}"
    model = os.environ.get("LOCAL_MODEL") or next(
        (str(m.get("id")) for m in listed.get("data", []) if m.get("id")), ""
    )
    if not model:
        return f"the server at {base_url} lists no model; set LOCAL_MODEL"
    return base_url, model


def probe_dialect(base_url: str, model: str) -> str:
    """``true`` when the server takes OpenAI's ``json_schema``, else ``json_object``."""
    body = {
        "model": model,
        "messages": [{"role": "user", "content": "Answer yes."}],
        "max_tokens": 8,
        "temperature": 0,
        "response_format": {
            "type": "json_schema",
            "json_schema": {
                "name": "probe",
                "schema": {
                    "type": "object",
                    "properties": {"answer": {"type": "string", "enum": ["yes", "no"]}},
                    "required": ["answer"],
                    "additionalProperties": False,
                },
            },
        },
    }
    try:
        _request(base_url.rstrip("/") + "/chat/completions", body, timeout=120.0)
    except urllib.error.HTTPError:
        return "json_object"  # llama-cpp-python: "Input should be 'text' or 'json_object'"
    return "true"
