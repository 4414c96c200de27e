"""Runs grouped by configuration: row labels, repeats, cache replays.

Two logs are *repeats* only when their configurations
(:func:`~inspect_plural.analysis.run_configuration`: task, task arguments, method and
its arguments, model and its settings, model roles, samples and epochs, preset) are
identical. Of repeats the report shows one: the latest that is not a cache replay
(:mod:`._replay`), and of two created together (a log and its copy rescored with
``inspect score``) the one with more scorers; each other is set aside with a reason
that names the file kept. A cache replay is shown only when no real run of its configuration is
present, and its row says so.

Each shown log gets a row label: its method, plus the settings that distinguish it from
the other logs of the same task and method (``llm_judge (seed=43)``), named on every
log of that method so rows line up across datasets. The model is a
column of its own; a method chosen with ``--solver`` on a task built for another reads
``via --solver``. A label never holds a local path (a path setting is named by its last
part) nor the samples run: marks say what a reader must know (:data:`MARKS`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_plural.report._logs import LogData, SkippedLog
from inspect_plural.report._paths import looks_like_path, path_tail

__all__ = ["MARKS", "Grouped", "flat_configuration", "group_runs", "label_logs", "marks"]

_LABEL_CHARS = 40
_NOT_LABELS = ("task", "model", "method")
"""Configuration keys that are never part of a label (the table shows them)."""
_MARKED = ("task_args.demo", "samples.limit", "samples.sample_id")
"""Configuration keys a mark stands for instead of a ``name=value`` part."""

MARKS: dict[str, str] = {
    "DEMO": "the run read the demo data written for this package (-T demo=true), not a "
    "dataset: its numbers say nothing about a method",
    "partial": "the run covered part of its dataset (--limit or --sample-id; the Runs "
    "table says how many samples)",
    "cache replay": "every model call was read from Inspect's cache: the answers of an earlier run",
    "cached panels": "its persona panels were read from the package's disk cache, built "
    "by an earlier run (the notes name it)",
}
"""The marks a row label may end with, and what each means."""
_PREFIX_NAMES = {
    "task_args.": "",
    "method_args.": "",
    "generate_config.": "",
    "samples.": "",
    "model_roles.": "role ",
    "model_args.": "-M ",
}


@dataclass
class Grouped:
    """The logs to show, and the ones set aside.

    Attributes:
        kept: One log per configuration, labelled, in a stable order.
        set_aside: Repeats and cache replays not shown, each with the file kept.
        notes: Cache replays shown because no real run of theirs is present.
    """

    kept: list[LogData]
    set_aside: list[SkippedLog] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _flatten(prefix: str, value: Any) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):  # an empty mapping: nothing set
        for key, item in value.items():
            yield from _flatten(f"{prefix}{key}.", item)
    elif prefix:
        yield prefix[:-1], json.dumps(value, sort_keys=True, default=str)


def flat_configuration(config: Mapping[str, Any]) -> dict[str, str]:
    """The configuration as ``dotted.key -> JSON value`` (labels compare these)."""
    flat = dict(_flatten("", {k: v for k, v in config.items() if k not in _NOT_LABELS}))
    return flat


def _name(key: str) -> str:
    for prefix, shown in _PREFIX_NAMES.items():
        if key.startswith(prefix):
            return shown + key.removeprefix(prefix)
    return key


def marks(log: LogData) -> list[str]:
    """The marks of a run (:data:`MARKS`), in that order."""
    found = [
        ("DEMO", log.demo),
        ("partial", log.partial is not None),
        ("cache replay", log.replay is not None),
        ("cached panels", log.cached_panels is not None),
    ]
    return [mark for mark, present in found if present]


def _parts(keys: Sequence[str], flat: Mapping[str, str], log: LogData) -> list[str]:
    """``name=value`` of each key, one per name (a set value wins over a default)."""
    chosen: dict[str, str | None] = {}
    for key in keys:
        name = _name(key)
        if chosen.get(name) is None:
            chosen[name] = flat.get(key)
    parts = []
    for name, value in chosen.items():
        if name == "task_method":
            parts.append("via --solver" if log.solver_given else "-T method")
        else:
            parts.append(f"{name}={_short(value) if value is not None else 'default'}")
    return parts


def _short(value: str | None) -> str:
    text = (value or "").strip('"')
    if looks_like_path(text):
        text = path_tail(text)
    return text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 3] + "..."


def label_logs(logs: Sequence[LogData]) -> None:
    """Set each log's :attr:`~LogData.label`: its method and what tells it apart.

    A setting is named when it differs between two logs of the same task and method;
    it is then named on every log of that method (``seed=42`` also where only seed 42
    ran), so one run's row lines up across the datasets of a table.
    """
    flats = {
        id(log): {k: v for k, v in flat_configuration(log.config).items() if k not in _MARKED}
        for log in logs
    }
    groups: dict[tuple[str, str, bool], list[LogData]] = {}
    for log in logs:  # demo and real-data runs differ by their mark, not by their settings
        groups.setdefault((log.task, log.method, log.demo), []).append(log)
    varying: dict[tuple[str, bool], dict[str, None]] = {}
    for (_, method, demo), members in groups.items():
        keys = sorted({k for log in members for k in flats[id(log)]})
        found = varying.setdefault((method, demo), {})
        for key in keys:
            if len({flats[id(log)].get(key) for log in members}) > 1:
                found.setdefault(key, None)
    for log in logs:
        keys = sorted(varying.get((log.method, log.demo), {}))
        parts = _parts(keys, flats[id(log)], log)
        log.label = f"{log.method} ({', '.join(parts)})" if parts else log.method
        log.label += "".join(f" [{mark}]" for mark in marks(log))
    for members in groups.values():
        _unique(members)


def _unique(members: Sequence[LogData]) -> None:
    """Number labels that still collide (same label and model, different configurations)."""
    seen: dict[tuple[str, str], int] = {}
    for log in sorted(members, key=lambda x: (x.created, x.name)):
        key = (log.label, log.model)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            log.label = f"{log.label} #{seen[key]}"


def _order(log: LogData) -> tuple[str, int, str]:
    """Sort key: latest last; created together (a rescored copy): more scorers last."""
    return (log.created, len(log.other_metrics), log.name)


def group_runs(logs: Sequence[LogData]) -> Grouped:
    """Keep one log per configuration; label the kept ones.

    Args:
        logs: Every finished log.

    Returns:
        The kept logs (labelled), the ones set aside and the notes.
    """
    by_key: dict[str, list[LogData]] = {}
    for log in logs:
        by_key.setdefault(log.run_key, []).append(log)
    grouped = Grouped(kept=[])
    for members in by_key.values():
        real = sorted((x for x in members if x.replay is None), key=_order)
        replays = sorted((x for x in members if x.replay is not None), key=_order)
        kept = real[-1] if real else replays[-1]
        grouped.kept.append(kept)
        for other in [*real, *replays]:
            if other is kept:
                continue
            if other.replay is not None and kept.replay is None:
                why = f"cache replay of {kept.name} ({other.replay}): {kept.name} kept"
            elif kept.replay is not None:
                why = f"repeat of {kept.name} (same configuration, both cache replays)"
            else:
                why = f"repeat of {kept.name} (same configuration): {kept.name} kept"
            grouped.set_aside.append(SkippedLog(other.name, why))
        if kept.replay is not None:
            grouped.notes.append(
                f"{kept.name} is a cache replay ({kept.replay}) and no real run of its "
                "configuration is in the folder: shown, labelled [cache replay]"
            )
    label_logs(grouped.kept)
    grouped.kept.sort(key=lambda x: (x.task, x.label, x.model, x.name))
    return grouped
