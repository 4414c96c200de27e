"""Seeded fault injection per request index: HTTP 500, 429 with ``Retry-After``, timeouts,
malformed replies; and a server that knows only some model names or wants a key."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

__all__ = ["MALFORMED_KINDS", "FaultPlan", "MalformedKind"]

MalformedKind = Literal["truncated", "not_json", "empty_choices", "null_choices"]
MALFORMED_KINDS: tuple[MalformedKind, ...] = (
    "truncated",
    "not_json",
    "empty_choices",
    "null_choices",
)
"""HTTP 200 replies a broken proxy or server sends: the JSON cut in half, an HTML page
labelled JSON, ``choices: []`` and ``choices: null`` (usage included)."""


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
        malformed_rate: Share answered HTTP 200 with a malformed body (after the latency).
        malformed_kind: Which malformed body (:data:`MALFORMED_KINDS`).
        fail_formats: Answer-format kinds (``characters``, ``label/bare``, ...) whose every
            request fails with ``fail_status`` (a provider failing persistently on one
            kind of call).
        known_models: Model names the server serves; another name gets HTTP 404, as from
            vLLM (empty: any name is answered, as llama.cpp does).
        require_key: The API key the server wants (``Authorization: Bearer``); another
            gets HTTP 401 (None: any key).

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
    malformed_rate: float = 0.0
    malformed_kind: MalformedKind = "truncated"
    fail_formats: tuple[str, ...] = ()
    known_models: tuple[str, ...] = ()
    require_key: str | None = None

    def outcome(self, index: int) -> str:
        """The index-th request's outcome: ``ok``, ``error``, ``rate_limit``, ``timeout``
        or ``malformed``."""
        u = random.Random(f"{self.seed}:{index}").random()
        for name, rate in (
            ("error", self.error_rate),
            ("rate_limit", self.rate_limit_rate),
            ("timeout", self.timeout_rate),
            ("malformed", self.malformed_rate),
        ):
            if u < rate:
                return name
            u -= rate
        return "ok"
