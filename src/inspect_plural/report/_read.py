"""What the report reads from logs, as ``inspect_ai.analysis`` column specs.

Three reads, each one call of Inspect's reader over many logs:

1. :func:`read_headers`: ``evals_df`` of every log (status, task, model, metadata,
   arguments, metrics per scorer, the run's configuration and key).
2. :func:`read_summaries`: ``samples_df`` of the finished logs from the sample
   *summaries* (fast: no events, no messages): every scorer's numbers (its value, and
   the full-precision ``metadata["values"]`` a package scorer keeps beside a few shown
   ones), the ids and traits of the sample metadata, the label scale, token usage (all
   models and per model role) and errors. A log whose summaries left those numbers out
   (Inspect drops metadata over 1k characters from a summary) is read again with its
   scores in full.
3. :func:`read_details`: a full read, only of the logs that need one and only of the
   fields they need (``exclude_fields``): model events to tell a cache replay
   (:mod:`._replay`; one sample is looked at first, and a log whose first sample was
   answered live is not read further), the store for CINEMETRIC panels read from the
   disk cache, and the persona panel scorer's score metadata; and
   :func:`read_uniform`, the sample metadata of a chance model's distribution run, for
   the uniform baseline beside it.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from inspect_ai.analysis import EvalColumn, SampleColumn, evals_df, samples_df
from inspect_ai.log import EvalLog, EvalSample, EvalSampleSummary, read_eval_log_sample
from inspect_ai.scorer import Score

from inspect_plural.analysis import (
    is_demo,
    method_of,
    model_roles,
    run_configuration,
    run_key,
    sample_ids,
    sample_traits,
    score_numbers,
    thinned,
)
from inspect_plural.report._replay import SampleCalls, sample_calls
from inspect_plural.report.metrics._uniform import uniform_item_values
from inspect_plural.scorers.panel._score import PANEL_KEY

__all__ = [
    "DEFAULT_ROLE",
    "DETAIL_FIELDS",
    "Details",
    "first_sample_calls",
    "json_value",
    "read_details",
    "read_headers",
    "read_summaries",
    "read_uniform",
]

DEFAULT_ROLE = "default"
"""The role name of model calls made with the evaluated model (no model role)."""

DETAIL_FIELDS = ("events", "store", "scores")
"""What a detail read can ask for (the sample fields it then keeps)."""
_ALL_FIELDS = {"messages", "events", "store", "attachments", "scores"}


def json_value(value: Any, default: Any) -> Any:
    """A frame cell that Inspect stored as JSON text, decoded (``default`` when empty)."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return default
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return default
    return value


# --- 1. headers -----------------------------------------------------------------------


def _scorer_metrics(log: EvalLog) -> dict[str, dict[str, float]]:
    if log.results is None:
        return {}
    return {s.name: {k: float(m.value) for k, m in s.metrics.items()} for s in log.results.scores}


def _configuration(log: EvalLog) -> dict[str, Any]:
    return run_configuration(log)


HEADER_COLUMNS = [
    EvalColumn("method", path=method_of, required=True),
    EvalColumn("status", path="status", required=True),
    EvalColumn("task", path="eval.task", required=True),
    EvalColumn("model", path="eval.model", required=True),
    EvalColumn("created", path="eval.created", type=str, required=True),
    EvalColumn("solver", path="eval.solver"),
    EvalColumn("epochs", path="eval.config.epochs"),
    EvalColumn("task_metadata", path="eval.metadata"),
    EvalColumn("task_args", path="eval.task_args"),
    EvalColumn("model_roles", path=model_roles),
    EvalColumn("scorer_metrics", path=_scorer_metrics),
    EvalColumn("configuration", path=_configuration),
    EvalColumn("run_key", path=run_key, required=True),
    EvalColumn("demo", path=is_demo),
    EvalColumn("dataset_samples", path="eval.dataset.samples"),
]
"""The header fields the report reads (``evals_df`` columns)."""


def _header_frame(paths: Sequence[str]) -> dict[str, dict[str, Any]]:
    frame = evals_df(list(paths), columns=HEADER_COLUMNS, quiet=True)
    return {str(row["log"]): {str(k): v for k, v in row.items()} for _, row in frame.iterrows()}


def read_headers(paths: Sequence[str]) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Each log's header fields.

    One ``evals_df`` call for all files; files it does not return (``evals_df`` keeps
    only the first of several files with one ``eval_id``, e.g. a log and its rescored
    copy) and every file of a call that failed (one unreadable file fails the call) are
    read one by one.

    Args:
        paths: The log files.

    Returns:
        path -> column -> value for the logs read, and path -> error for the others.
    """
    headers: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}
    with contextlib.suppress(Exception):  # an unreadable file: read one by one below
        headers.update(_header_frame(paths))
    for path in paths:
        if path in headers:
            continue
        try:
            found = _header_frame([path])
        except Exception as ex:  # a truncated or foreign file
            errors[path] = f"{type(ex).__name__}: {ex}"
            continue
        if len(found) != 1:
            errors[path] = f"expected one eval, found {len(found)}"
            continue
        headers[path] = next(iter(found.values()))
    return headers, errors


# --- 2. sample summaries --------------------------------------------------------------


def _scores(sample: EvalSample | EvalSampleSummary) -> dict[str, Any]:
    """Each scorer's numbers (value and ``metadata["values"]``), or its single value."""
    out: dict[str, Any] = {}
    for name, score in (sample.scores or {}).items():
        numbers = score_numbers(score)
        out[name] = numbers if numbers is not None else score.value
    return out


def _keys(sample: EvalSample | EvalSampleSummary) -> dict[str, str]:
    keys = sample_ids(sample)
    keys.update({f"trait:{k}": v for k, v in sample_traits(sample).items()})
    return keys


def _scale(sample: EvalSample | EvalSampleSummary) -> dict[str, Any]:
    scale = (sample.metadata or {}).get("scale")
    if isinstance(scale, Mapping):
        return {k: scale.get(k) for k in ("kind", "low", "high", "labels")}
    return {}


USAGE_FIELDS = (
    "input_tokens",
    "output_tokens",
    "input_tokens_cache_read",
    "input_tokens_cache_write",
)
"""Token counts read per model role, as Inspect's ``ModelUsage`` names them: input tokens
the provider processed (uncached), output tokens, and input read from or written to the
provider's own prompt cache (None where the provider reports no cache)."""


def _counts(usage: Any) -> list[int | None]:
    return [getattr(usage, name, None) for name in USAGE_FIELDS]


def _minus(total: list[int | None], part: list[int | None]) -> list[int | None]:
    return [None if t is None else t - (p or 0) for t, p in zip(total, part)]


def _plus(total: list[int | None], part: list[int | None]) -> list[int | None]:
    return [p if t is None else t + (p or 0) for t, p in zip(total, part)]


def _usage(sample: EvalSample | EvalSampleSummary) -> dict[str, list[int | None]]:
    """Role -> token counts (:data:`USAGE_FIELDS`); the evaluated model's own as ``default``."""
    total: list[int | None] = [0, 0, None, None]
    for model in sample.model_usage.values():
        total = _plus(total, _counts(model))
    usage: dict[str, list[int | None]] = {}
    roles = getattr(sample, "role_usage", None) or {}
    for role, u in roles.items():
        usage[role] = _counts(u)
        total = _minus(total, usage[role])
    if any((t or 0) > 0 for t in total) or not usage:
        usage[DEFAULT_ROLE] = [None if t is None else max(t, 0) for t in total]
    return usage


SUMMARY_COLUMNS = [
    SampleColumn("id", path="id", required=True, type=str),
    SampleColumn("epoch", path="epoch", required=True),
    SampleColumn("scores", path=_scores),
    SampleColumn("keys", path=_keys),
    SampleColumn("scale", path=_scale),
    SampleColumn("usage", path=_usage),
    SampleColumn("error", path="error"),
    SampleColumn("thinned", path=thinned),
]
"""The sample fields the report reads from the summaries."""


def _batches(paths: Sequence[str], eval_ids: Mapping[str, str]) -> list[list[str]]:
    """Paths in batches with distinct eval ids (Inspect joins samples on the eval id)."""
    batches: list[list[str]] = []
    seen: list[set[str]] = []
    for path in paths:
        eval_id = eval_ids.get(path, path)
        for batch, ids in zip(batches, seen):
            if eval_id not in ids:
                batch.append(path)
                ids.add(eval_id)
                break
        else:
            batches.append([path])
            seen.append({eval_id})
    return batches


_NOT_SCORES = {"messages", "events", "store", "attachments"}
_FULL_READ = SampleColumn("thinned", path=thinned, full=True)
"""Replaces the summary's column of the same name, so Inspect reads full samples."""


def _summaries(paths: list[str]) -> dict[str, pd.DataFrame]:
    frame = samples_df(paths, columns=SUMMARY_COLUMNS, quiet=True)
    parts = {
        str(log): part.reset_index(drop=True) for log, part in frame.groupby("log", sort=False)
    }
    for log, part in parts.items():
        if part["thinned"].fillna(False).astype(bool).any():
            # the summary left a score's numbers out (over 1k): read the scores in full
            columns = [*SUMMARY_COLUMNS, _FULL_READ]
            full = samples_df(log, columns=columns, quiet=True, exclude_fields=_NOT_SCORES)
            parts[log] = full.reset_index(drop=True)
    return parts


def read_summaries(
    paths: Sequence[str], eval_ids: Mapping[str, str]
) -> tuple[dict[str, pd.DataFrame], dict[str, str]]:
    """Each log's sample summaries: one row per sample and epoch, in log order.

    Args:
        paths: The finished logs.
        eval_ids: Each log's eval id (logs sharing one are read in separate calls).

    Returns:
        path -> frame for the logs read (a log without samples has none), and
        path -> error for logs whose samples could not be read.
    """
    frames: dict[str, pd.DataFrame] = {}
    errors: dict[str, str] = {}
    for batch in _batches(paths, eval_ids):
        try:
            frames.update(_summaries(batch))
            continue
        except Exception:  # one unreadable file: read the batch one by one
            pass
        for path in batch:
            try:
                frames.update(_summaries([path]))
            except Exception as ex:
                errors[path] = f"{type(ex).__name__}: {ex}"
    return frames, errors


# --- 3. details -----------------------------------------------------------------------


@dataclass
class Details:
    """What a full read found in one log.

    Attributes:
        calls: Per sample, its model calls and cache reads (with ``events``) and its
            persona panels (with ``store``).
        panel_samples: Samples with a persona panel score (``scores``), rebuilt with
            only their scores, for :func:`~inspect_plural.scorers.panel_summary`.
    """

    calls: list[SampleCalls] = field(default_factory=list)
    panel_samples: list[EvalSample] = field(default_factory=list)


def _detail(sample: EvalSample) -> dict[str, Any]:
    panel_scores = {
        name: {"value": s.value, "metadata": s.metadata}
        for name, s in (sample.scores or {}).items()
        if s.metadata and PANEL_KEY in s.metadata
    }
    return {"calls": sample_calls(sample).model_dump(), "panel_scores": panel_scores}


DETAIL_COLUMNS = [
    SampleColumn("id", path="id", required=True, type=str),
    SampleColumn("epoch", path="epoch", required=True),
    SampleColumn("detail", path=_detail, full=True),
]
"""The sample fields of a full read (one pass over each sample)."""


def _panel_sample(sample_id: str, epoch: int, scores: dict[str, Any]) -> EvalSample:
    return EvalSample(
        id=sample_id,
        epoch=epoch,
        input="",
        target="",
        scores={
            name: Score(value=s["value"], metadata=s.get("metadata")) for name, s in scores.items()
        },
    )


def read_details(path: str, fields: set[str]) -> Details:
    """A full read of one log, keeping only the sample fields asked for.

    Args:
        path: The log.
        fields: A subset of :data:`DETAIL_FIELDS`.

    Returns:
        What was found.
    """
    keep = set(fields) | {"scores"}
    frame = samples_df(path, columns=DETAIL_COLUMNS, quiet=True, exclude_fields=_ALL_FIELDS - keep)
    details = Details()
    for record in frame.itertuples(index=False):
        detail = json_value(record.detail, {})
        details.calls.append(SampleCalls.model_validate(detail.get("calls") or {}))
        if detail.get("panel_scores"):
            details.panel_samples.append(
                _panel_sample(str(record.id), int(str(record.epoch)), detail["panel_scores"])
            )
    return details


def read_uniform(path: str, preset_name: str) -> pd.DataFrame:
    """The uniform baseline's per-item values of a distribution log, one row per sample.

    A full read (the gold distributions are in the sample metadata, which a summary may
    thin), without messages, events, store or attachments.

    Args:
        path: The log.
        preset_name: The task's metrics preset.

    Returns:
        One row per sample and epoch, a column per value (empty without item samples).
    """

    def values(sample: EvalSample) -> dict[str, float]:
        return uniform_item_values(sample.metadata or {}, preset_name)

    columns = [
        SampleColumn("id", path="id", required=True, type=str),
        SampleColumn("uniform", path=values, full=True),
    ]
    frame = samples_df(path, columns=columns, quiet=True, exclude_fields=_ALL_FIELDS - {"scores"})
    rows = [json_value(v, {}) or {} for v in frame["uniform"]] if len(frame) else []
    found: pd.DataFrame = pd.DataFrame.from_records(
        rows, columns=list(dict.fromkeys(k for r in rows for k in r))
    )
    return found


def first_sample_calls(path: str, sample_id: str, epoch: int) -> SampleCalls:
    """The calls and panels of one sample (a quick look before a full read)."""
    sample = read_eval_log_sample(
        path, id=sample_id, epoch=epoch, exclude_fields={"messages", "attachments"}
    )
    return sample_calls(sample)
