"""Cache replays and cached panels: what a log read back rather than produced.

A log is a *cache replay* when every model call of every sample was read from
Inspect's cache (``ModelEvent.cache == "read"``): it repeats an earlier run's answers,
so the report never lets it stand in for the run it replays. A log whose CINEMETRIC
persona panels came from the package's disk cache (``from_cache`` in the sample's
store) is not a replay: it made its own role-play calls on panels an earlier run
built (and paid for), so it is shown with its panels named as such
(:func:`panel_source`) and, where that run is in the folder, the run that built them.

Reading model events needs a full sample read, which is slow on large folders, so a
log is only read in full when its summaries leave the question open: Inspect records no
token usage for a cache read, so a log whose scores count model calls while its samples
show no usage at all is a *candidate*, confirmed from its events.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import EvalSample
from pydantic import BaseModel

__all__ = [
    "FROM_CACHE_SUFFIX",
    "SampleCalls",
    "built_panels",
    "panel_source",
    "replay_reason",
    "sample_calls",
]

FROM_CACHE_SUFFIX = ":from_cache"
"""Store key suffix of a panel record's ``from_cache`` flag (``CharacterPanel:from_cache``)."""


class SampleCalls(BaseModel):
    """One sample's model calls and persona panels, as its full record shows them.

    Attributes:
        events: Whether model events were read (else the call counts are unknown).
        calls: Model events.
        cache_reads: Model events read from Inspect's cache.
        panels: Persona panel records in the store.
        panels_from_cache: Of those, the ones read from the disk cache.
    """

    events: bool = False
    calls: int = 0
    cache_reads: int = 0
    panels: int = 0
    panels_from_cache: int = 0


def _true(value: object) -> bool:
    return value is True or str(value).lower() == "true"


def sample_calls(sample: EvalSample) -> SampleCalls:
    """The calls and panels of a sample read in full (events and store when present)."""
    events = [e for e in sample.events or [] if e.event == "model"]
    flags = [v for k, v in (sample.store or {}).items() if k.endswith(FROM_CACHE_SUFFIX)]
    return SampleCalls(
        events=bool(sample.events),
        calls=len(events),
        cache_reads=sum(1 for e in events if getattr(e, "cache", None) == "read"),
        panels=len(flags),
        panels_from_cache=sum(1 for v in flags if _true(v)),
    )


def replay_reason(samples: Sequence[SampleCalls]) -> str | None:
    """Why a log is a cache replay, or None when it is not one.

    Args:
        samples: Its samples' calls.

    Returns:
        ``every model call read from Inspect's cache (N calls)``; None otherwise.
    """
    calls = sum(s.calls for s in samples)
    reads = sum(s.cache_reads for s in samples)
    if calls > 0 and reads == calls:
        return f"every model call read from Inspect's cache ({calls} calls)"
    return None


def panel_source(samples: Sequence[SampleCalls]) -> str | None:
    """How many of a log's persona panels were read from the disk cache (None: none).

    Args:
        samples: Its samples' panels (read from their stores).

    Returns:
        ``3 of 3 persona panels read from the package's disk cache``, or None.
    """
    panels = sum(s.panels for s in samples)
    cached = sum(s.panels_from_cache for s in samples)
    if not cached:
        return None
    return f"{cached} of {panels} persona panels read from the package's disk cache"


def built_panels(samples: Sequence[SampleCalls]) -> bool:
    """Whether a log built some persona panel itself (not read from the disk cache)."""
    return any(s.panels > s.panels_from_cache for s in samples)
