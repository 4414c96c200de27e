"""The free probes: one HTTP request per model, classified into what a user can fix.

Plain ``urllib`` on purpose: a probe runs once, before the run, with short timeouts and
no retries (the provider SDKs retry a refused connection for many minutes). The TCP
connection is tried first, so a refused port, an unknown host and a silent one are told
apart; a server that accepts the connection but is slow to answer is reachable (the run
goes on). Server messages are untrusted text: one line, printable, cut short.
"""

from __future__ import annotations

import json
import socket
import ssl
import time
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from inspect_plural.preflight._target import ProbeTarget

__all__ = ["CONNECT_TIMEOUT", "REQUEST_TIMEOUT", "Finding", "one_line", "probe"]

CONNECT_TIMEOUT = 10.0
"""Seconds to open the TCP connection."""
REQUEST_TIMEOUT = 20.0
"""Seconds for a free probe's answer (a minimal generation gets three times this)."""
_MESSAGE_CHARS = 160
_CONFIRM = "Reply with the word OK."


class Finding(BaseModel):
    """What a check found for one model.

    Attributes:
        target: The model checked.
        ok: Whether the run may go on with it.
        problem: The error class when not ok (``connection refused``, ``401 unauthorized``,
            ``404 model not found``, ...).
        detail: The server's message, or what it lists (one line).
        checked: The request made (``GET http://127.0.0.1:8011/v1/models``).
        note: Something the user may want to know although the check passed.
        requests: Requests made; ``tokens``: tokens they cost (a confirming generation).
        at: When (``time.monotonic()``).

    """

    target: ProbeTarget
    ok: bool
    problem: str = ""
    detail: str = ""
    checked: str = ""
    note: str = ""
    requests: int = 0
    tokens: int = 0
    at: float = Field(default_factory=time.monotonic)


class _Unreachable(Exception):
    """The TCP connection could not be made (the message is the error class)."""


def one_line(text: str) -> str:
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= _MESSAGE_CHARS else flat[: _MESSAGE_CHARS - 3] + "..."


def _proxied(url: str) -> bool:
    parts = urlsplit(url)
    proxies = urllib.request.getproxies()
    host = parts.hostname or ""
    return parts.scheme in proxies and not urllib.request.proxy_bypass(host)


def _connect(url: str) -> None:
    """Open and close a TCP connection to the URL's host, or raise :class:`_Unreachable`."""
    parts = urlsplit(url)
    if not parts.hostname:
        raise _Unreachable(f"not a URL: {url!r}")
    if _proxied(url):
        return  # through a proxy the host is the proxy's to reach
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        socket.create_connection((parts.hostname, port), timeout=CONNECT_TIMEOUT).close()
    except ConnectionRefusedError as error:
        raise _Unreachable("connection refused") from error
    except socket.gaierror as error:
        raise _Unreachable("host not found (no network or wrong host)") from error
    except TimeoutError as error:
        raise _Unreachable(f"no connection within {CONNECT_TIMEOUT:g} s") from error
    except OSError as error:
        raise _Unreachable(f"connection failed ({error.strerror or error})") from error


def _request(
    url: str, headers: dict[str, str], body: dict[str, Any] | None = None, timeout: float = 0
) -> tuple[int, Any]:
    """``(status, parsed JSON or text)``; HTTP errors are returned, not raised."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url,
        data=data,
        headers={"Content-Type": "application/json", **headers},
        method="GET" if data is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout or REQUEST_TIMEOUT) as response:
            status, raw = response.status, response.read(1_000_000)
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read(100_000)
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def _server_message(payload: Any) -> str:
    if isinstance(payload, dict):
        error = payload.get("error")
        if isinstance(error, dict):
            return one_line(str(error.get("message", "")))
        if error:
            return one_line(str(error))
        return one_line(str(payload.get("message", "") or payload.get("detail", "")))
    return one_line(str(payload))


def _listed(payload: Any) -> list[str]:
    """Model names an OpenAI-compatible ``GET /models`` lists (ids, aliases, llama.cpp names)."""
    names: list[str] = []
    if not isinstance(payload, dict):
        return names
    for entry in payload.get("data") or []:
        if isinstance(entry, dict):
            names += [str(entry["id"])] if "id" in entry else []
            names += [str(a) for a in entry.get("aliases") or []]
    for entry in payload.get("models") or []:
        if isinstance(entry, dict):
            names += [str(entry[k]) for k in ("name", "model") if k in entry]
    return list(dict.fromkeys(names))


def _status_problem(status: int) -> str:
    return {
        401: "401 unauthorized (the key was refused)",
        403: "403 forbidden (the key may not use this model)",
        404: "404 model not found",
    }.get(status, f"HTTP {status}")


def _answer(target: ProbeTarget, status: int, payload: Any, checked: str) -> Finding:
    """A finding from a probe's answer: 2xx passes, 401/403/404 fail, others pass with a note."""
    if 200 <= status < 300:
        return Finding(target=target, ok=True, checked=checked)
    message = _server_message(payload)
    if status in (401, 403, 404):
        return Finding(
            target=target,
            ok=False,
            problem=_status_problem(status),
            detail=message,
            checked=checked,
        )
    # 429 and 5xx: the server is there; Inspect retries these during the run
    return Finding(
        target=target, ok=True, checked=checked, note=f"HTTP {status} ({message}); the run goes on"
    )


def _confirm(target: ProbeTarget, headers: dict[str, str], listed: list[str]) -> Finding:
    """One minimal generation for a name the server does not list (llama.cpp answers any)."""
    assert target.base_url is not None
    url = f"{target.base_url}/chat/completions"
    body = {
        "model": target.name,
        "messages": [{"role": "user", "content": _CONFIRM}],
        "max_tokens": 1,
    }
    checked = f"POST {url} (max_tokens 1; {target.name!r} is not in GET /models)"
    shown = ", ".join(listed[:5]) + (", ..." if len(listed) > 5 else "")
    try:
        status, payload = _request(url, headers, body, timeout=3 * REQUEST_TIMEOUT)
    except TimeoutError:
        return Finding(
            target=target, ok=True, checked=checked, requests=1, note="no answer yet (slow server)"
        )
    except OSError as error:  # urllib.error.URLError included
        reason = one_line(str(getattr(error, "reason", error)))
        return Finding(
            target=target, ok=False, problem=f"connection failed ({reason})", checked=checked
        )
    usage = payload.get("usage") if isinstance(payload, dict) else None
    tokens = int(usage.get("total_tokens", 0) or 0) if isinstance(usage, dict) else 0
    if 200 <= status < 300:
        return Finding(
            target=target,
            ok=True,
            checked=checked,
            requests=1,
            tokens=tokens,
            note=f"the server lists {shown} but answers for {target.name!r}",
        )
    finding = _answer(target, status, payload, checked)
    missing = status == 404 or (status == 400 and "model" in _server_message(payload).lower())
    if missing:
        finding = Finding(
            target=target,
            ok=False,
            problem="404 model not found",
            detail=f"the server lists: {shown}",
            checked=checked,
        )
    return finding.model_copy(update={"requests": 1})


def probe(target: ProbeTarget) -> Finding:
    """Check one model with its provider's free request (see :data:`ProbeKind`).

    Args:
        target: A target of kind ``model_list``, ``openai_model`` or ``anthropic_model``.

    Returns:
        What was found; never raises for a network or server problem.
    """
    assert target.base_url is not None, "a probe needs a base URL"
    key = target.api_key or ""
    if target.kind == "anthropic_model":
        url = f"{target.base_url}/v1/models/{target.name}"
        headers = {"x-api-key": key, "anthropic-version": "2023-06-01"}
    elif target.kind == "openai_model":
        url, headers = f"{target.base_url}/models/{target.name}", {"Authorization": f"Bearer {key}"}
    else:
        url, headers = f"{target.base_url}/models", {"Authorization": f"Bearer {key}"}
    checked = f"GET {url}"
    try:
        _connect(url)
        status, payload = _request(url, headers)
    except _Unreachable as error:
        return Finding(target=target, ok=False, problem=str(error), checked=checked)
    except TimeoutError:
        note = f"connected, but no answer within {REQUEST_TIMEOUT:g} s; the run goes on"
        return Finding(target=target, ok=True, checked=checked, note=note)
    except (urllib.error.URLError, ssl.SSLError, OSError) as error:
        reason = getattr(error, "reason", error)
        problem = f"connection failed ({one_line(str(reason))})"
        return Finding(target=target, ok=False, problem=problem, checked=checked)
    if target.kind == "model_list" and 200 <= status < 300:
        listed = _listed(payload)
        if listed and target.name not in listed:
            return _confirm(target, headers, listed)
    if target.kind == "model_list" and status == 404:
        # a server without a model list: reachable, and the name cannot be looked up
        return Finding(target=target, ok=True, checked=checked, note="no model list (HTTP 404)")
    return _answer(target, status, payload, checked)
