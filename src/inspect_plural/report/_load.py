"""Logs -> one :class:`~._logs.LogData` per finished log (reads: :mod:`._read`).

Headers and sample summaries are read for every log; a full read only where it is
needed (:mod:`._replay` for cache replays, the persona panel scorer's panels). Runs
are then grouped by configuration (:mod:`._grouping`): a repeat or a cache replay is
set aside with a note naming the file kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from inspect_ai.log import list_eval_logs

from inspect_plural.report._logs import LoadResult, LogData, SkippedLog
from inspect_plural.report._read import (
    USAGE_FIELDS,
    first_sample_calls,
    json_value,
    read_details,
    read_headers,
    read_summaries,
    read_uniform,
)
from inspect_plural.report._replay import built_panels, panel_source, replay_reason
from inspect_plural.report.metrics._base import preset
from inspect_plural.report.metrics._uniform import wants_uniform
from inspect_plural.scorers import panel_summary

__all__ = ["NoLogsError", "Warn", "load_logs", "log_paths"]


Warn = Callable[[str], None]


class NoLogsError(Exception):
    """The directory holds no log, or no finished log."""


# --- frames ---------------------------------------------------------------------------


def _numeric(value: Any, scorer: str) -> dict[str, float]:
    if isinstance(value, Mapping):
        return {
            str(k): float(v)
            for k, v in value.items()
            if isinstance(v, bool | int | float) and v is not None
        }
    if isinstance(value, bool | int | float):
        return {scorer: float(value)}
    if isinstance(value, str) and value in ("C", "I"):
        return {scorer: 1.0 if value == "C" else 0.0}
    return {}


def _ordered(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    return list(dict.fromkeys(k for row in rows for k in row))


@dataclass
class _Frames:
    values: pd.DataFrame
    meta: pd.DataFrame
    scale: pd.DataFrame
    usage: pd.DataFrame
    errored: int


def _frames(samples: pd.DataFrame | None, scorer: str | None) -> _Frames:
    values: list[dict[str, float]] = []
    keys: list[dict[str, Any]] = []
    scales: list[dict[str, Any]] = []
    usage: list[tuple[Any, ...]] = []
    errored = 0
    for record in samples.itertuples(index=False) if samples is not None else []:
        scores = json_value(record.scores, {}) or {}
        if scorer is None or scorer not in scores:
            errored += 1  # an errored sample has no score
            continue
        row = len(values)
        values.append(_numeric(scores[scorer], scorer))
        keys.append(
            {
                "sample_id": str(record.id),
                "epoch": int(str(record.epoch)),
                **json_value(record.keys, {}),
            }
        )
        scales.append(json_value(record.scale, {}) or {})
        for role, counts in sorted((json_value(record.usage, {}) or {}).items()):
            usage.append((row, role, *(_tokens(c) for c in counts)))
    index = pd.RangeIndex(len(values))
    return _Frames(
        values=pd.DataFrame.from_records(values, index=index, columns=_ordered(values)),
        meta=pd.DataFrame.from_records(keys, index=index, columns=_ordered(keys)),
        scale=pd.DataFrame.from_records(scales, index=index),
        usage=pd.DataFrame(usage, columns=["sample", "role", *USAGE_FIELDS]),
        errored=errored,
    )


def _tokens(count: Any) -> float:
    """A token count (NaN where the provider reports none, e.g. no prompt cache)."""
    return float(count) if isinstance(count, int | float) else float("nan")


def _task_name(task: str) -> str:
    return task.split("/", 1)[1] if "/" in task else task


def _epochs(value: Any) -> int:
    return int(value) if isinstance(value, int | float) and not pd.isna(value) else 1


def _log_data(path: str, name: str, header: Mapping[str, Any], frames: _Frames) -> LogData:
    by_scorer: dict[str, dict[str, float]] = json_value(header.get("scorer_metrics"), {}) or {}
    scorer = next(iter(by_scorer), None)
    return LogData(
        path=path,
        name=name,
        task=_task_name(str(header["task"])),
        model=str(header["model"]),
        method=str(header["method"]),
        scorer=scorer,
        created=str(header["created"]),
        epochs=_epochs(header.get("epochs")),
        metadata=dict(json_value(header.get("task_metadata"), {}) or {}),
        task_args=dict(json_value(header.get("task_args"), {}) or {}),
        model_roles=dict(json_value(header.get("model_roles"), {}) or {}),
        metrics=dict(by_scorer.get(scorer, {})) if scorer else {},
        other_metrics={k: dict(v) for k, v in by_scorer.items() if k != scorer},
        config=dict(json_value(header.get("configuration"), {}) or {}),
        run_key=str(header["run_key"]),
        solver_given=isinstance(header.get("solver"), str) and bool(header["solver"]),
        values=frames.values,
        sample_meta=frames.meta,
        scale=frames.scale,
        usage=frames.usage,
        errored=frames.errored,
        demo=bool(header.get("demo")),
        dataset_samples=_count(header.get("dataset_samples")),
    )


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not pd.isna(value) else None


# --- details --------------------------------------------------------------------------


def _replay_candidate(log: LogData) -> bool:
    """Whether the summaries leave open that the log replays Inspect's cached answers."""
    if not log.n:
        return False
    calls = float(log.values["model_calls"].sum()) if "model_calls" in log.values else None
    usage = (
        float(np.nansum(log.usage[list(USAGE_FIELDS)].to_numpy(dtype=float)))
        if len(log.usage)
        else 0
    )
    return usage == 0 and (calls is None or calls > 0)


def _has_panels(log: LogData) -> bool:
    """Whether the log's samples hold CINEMETRIC persona panels (maybe from the disk cache)."""
    return bool(log.n) and "cinemetric" in log.method


def _details(path: str, log: LogData, header: Mapping[str, Any]) -> None:
    """Read what the summaries lack: a replay's events, the panels' source, a panel scorer's."""
    scorers = json_value(header.get("scorer_metrics"), {}) or {}
    fields: set[str] = set()
    if any(str(name).split("/")[-1] == "panel" for name in scorers):
        fields.add("scores")
    if _has_panels(log):
        fields.add("store")
    if _replay_candidate(log):
        first = log.sample_meta.iloc[0]
        calls = first_sample_calls(path, str(first["sample_id"]), int(first["epoch"]))
        if replay_reason([calls]) is not None:
            fields.add("events")
    if not fields:
        return
    details = read_details(path, fields)
    if "events" in fields:
        log.replay = replay_reason(details.calls)
    if "store" in fields:
        log.cached_panels = panel_source(details.calls)
        log.built_panels = built_panels(details.calls)
    if details.panel_samples:
        log.panel = panel_summary(details.panel_samples)


def _uniform(path: str, log: LogData) -> None:
    """The uniform baseline's per-item values beside a chance model's distribution run."""
    if wants_uniform(log):
        log.uniform = read_uniform(path, preset(log))


def _name_panel_builders(logs: Sequence[LogData]) -> None:
    """Say which run built the panels a log read from the disk cache, where it is here.

    The builder is the latest earlier log of the same task, method and model that built
    panels itself (the disk cache key holds more, so this names the likely run).
    """
    for log in logs:
        if log.cached_panels is None:
            continue
        builders = [
            other
            for other in logs
            if other.built_panels
            and (other.task, other.method, other.model) == (log.task, log.method, log.model)
            and other.created < log.created
        ]
        if builders:
            builder = max(builders, key=lambda x: (x.created, x.name))
            log.cached_panels += f", built by {builder.name}"
        else:
            log.cached_panels += ", built by an earlier run not in this folder"


# --- entry point ----------------------------------------------------------------------


def log_paths(log_dir: Path) -> list[str]:
    """Every log file under a directory (recursively), as local paths, sorted."""
    infos = list_eval_logs(str(log_dir), recursive=True)
    return sorted(info.name.removeprefix("file://") for info in infos)


def _relative(path: str, log_dir: Path) -> str:
    try:
        return Path(path).resolve().relative_to(log_dir.resolve()).as_posix()
    except ValueError:
        return path


DEMO_LEFT_OUT = (
    "demo data (-T demo=true), left out of a report with real-data runs "
    "(--include-demo shows it, marked DEMO)"
)
"""Why a demo run is not shown beside real-data runs."""
NO_SAMPLES = "0 samples (e.g. --limit 0): nothing to report"
"""Why a finished log without samples is not shown."""


def _demo_apart(logs: list[LogData], include_demo: bool) -> tuple[list[LogData], list[LogData]]:
    """(shown, left out): demo runs are left out when real-data runs are present."""
    if include_demo or all(log.demo for log in logs):
        return logs, []
    return [log for log in logs if not log.demo], [log for log in logs if log.demo]


def load_logs(log_dir: str | Path, warn: Warn, include_demo: bool = False) -> LoadResult:
    """Read every log under a directory (recursively); keep the finished ones.

    A log without samples is left out, and so are demo runs when the folder also holds
    runs on real data, unless ``include_demo`` (they are then shown marked DEMO).

    Args:
        log_dir: The directory.
        warn: Called with a message for each log left out.
        include_demo: Show demo runs beside real-data runs.

    Returns:
        The logs to show (labelled), the ones set aside or skipped, and notes.

    Raises:
        NoLogsError: When the directory does not exist, holds no log, or no finished log.
    """
    from inspect_plural.report._grouping import group_runs

    folder = Path(log_dir)
    if not folder.is_dir():
        raise NoLogsError(f"{folder}: not a directory")
    paths = log_paths(folder)
    if not paths:
        raise NoLogsError(f"{folder}: no Inspect logs (.eval or .json) found")
    result = LoadResult(logs=[])
    headers, errors = read_headers(paths)

    def skip(path: str, reason: str, message: str) -> None:
        name = _relative(path, folder)
        result.skipped.append(SkippedLog(name, reason))
        warn(f"skipped {name}: {message}")

    for path, error in errors.items():
        skip(path, f"unreadable ({error})", f"unreadable log ({error})")
    finished = []
    for path in paths:
        if path not in headers:
            continue
        status = str(headers[path].get("status"))
        if status != "success":
            skip(path, f"status {status}", f"unfinished log (status {status!r})")
            continue
        finished.append(path)
    summaries, errors = read_summaries(finished, {p: str(headers[p]["eval_id"]) for p in finished})
    for path in finished:
        if path in errors:
            skip(
                path, f"unreadable samples ({errors[path]})", f"unreadable samples ({errors[path]})"
            )
            continue
        header = headers[path]
        scorer = next(iter(json_value(header.get("scorer_metrics"), {}) or {}), None)
        frames = _frames(summaries.get(path), scorer)
        log = _log_data(path, _relative(path, folder), header, frames)
        if log.n + log.errored == 0:
            skip(path, NO_SAMPLES, NO_SAMPLES)
            continue
        _details(path, log, header)
        _uniform(path, log)
        result.logs.append(log)
    if not result.logs:
        raise NoLogsError(
            f"{folder}: no finished logs with samples ({len(paths)} found, none with "
            "status 'success' and at least one sample)"
        )
    _name_panel_builders(result.logs)
    result.logs, demo = _demo_apart(result.logs, include_demo)
    result.skipped += [SkippedLog(log.name, DEMO_LEFT_OUT) for log in demo]
    if demo:
        logs = f"{len(demo)} demo log{'s' if len(demo) != 1 else ''}"
        warn(f"left out {logs} (-T demo=true) beside real-data runs; --include-demo shows them")
    grouped = group_runs(result.logs)
    result.logs = grouped.kept
    result.skipped += grouped.set_aside
    result.notes += grouped.notes
    return result
