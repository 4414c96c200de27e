"""Sections every report has: other scorers, every metric, cost, and the runs behind it.

- **Other scorers**: logs of scorers the report does not know, their metrics as logged.
- **Every logged metric**, one folded table per task: rows are runs, a column per
  metric the logs hold (failures, calls, tokens, and what the paper tables leave out).
- **Cost**: model calls and tokens per sample of each run (calls as the package's
  scorers count them, ``model_calls``; tokens from the samples' usage, per model role,
  input uncached and read from / written to the provider's prompt cache).
- **Runs**: each log shown, with its samples, failed answers, epochs and arguments.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial

import numpy as np
import pandas as pd

from inspect_plural.report._bootstrap import FLAG_SHARE
from inspect_plural.report._logs import LogData
from inspect_plural.report._paths import looks_like_path, shown_path
from inspect_plural.report._tables import (
    Cell,
    Metric,
    Row,
    Section,
    Table,
    Values,
    wide_table,
)
from inspect_plural.report.metrics import column
from inspect_plural.report.sections._annotator import fixed_metrics, run_row

__all__ = [
    "FAILED_PREFIX",
    "FOLD_ROWS",
    "cost_table",
    "failures_section",
    "metrics_section",
    "other_section",
    "runs_table",
]

FAILED_PREFIX = "failed/"
"""Per-sample score keys counting a sample's failed answers by reason (``failed/echo``)."""

FOLD_ROWS = 25
"""The cost and runs tables are folded in the HTML page beyond this many rows."""


def _logged_metrics(task: str, logs: Sequence[LogData], values: Values) -> list[Metric]:
    names: dict[str, None] = {}
    for log in logs:
        if log.task == task:
            for value in values.get(id(log), ()):
                if value.logged:
                    names.setdefault(value.name, None)
    return [Metric(name, name) for name in names]


def _per_task(
    logs: Sequence[LogData], values: Values, kind: str, title: str, collapsed: bool
) -> list[Table]:
    tables: list[Table] = []
    for task in sorted({log.task for log in logs}):
        runs = [log for log in logs if log.task == task]
        metrics = _logged_metrics(task, runs, values)
        table = wide_table(
            table_id=f"{task}__{kind}",
            title=f"{task}: {title}",
            logs=runs,
            values=values,
            group_of=lambda _: "",
            metrics=partial(fixed_metrics, metrics),
            row_of=run_row,
            row_header=["method", "model"],
        )
        if table is not None:
            table.task, table.kind, table.collapsed = task, "metrics", collapsed
            tables.append(table)
    return tables


def other_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """Logs of scorers the report does not know (e.g. ``match``), or None."""
    members = [log for log in logs if log.family == "other"]
    if not members:
        return None
    section = Section("other", "Other scorers", ["Metrics as the logs hold them."])
    section.tables = _per_task(members, values, "other", "metrics", False)
    return section


def metrics_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """Every metric each log holds, one folded table per task."""
    tables = _per_task(logs, values, "all_metrics", "every logged metric", True)
    if not tables:
        return None
    return Section(
        "all-metrics",
        "Every logged metric, by task",
        [
            "Each log's own metrics (parse failures, calls, tokens and what the tables "
            "above leave out), recomputed with intervals where the report knows how.",
        ],
        tables,
    )


def _per_sample(total: float, n: int) -> str:
    return f"{total / max(n, 1):,.1f}"


def _tokens(usage: pd.DataFrame, name: str, n: int) -> str:
    """Mean tokens per sample of one usage field; blank when no call reported it."""
    counts = usage[name].to_numpy(dtype=float) if name in usage else np.zeros(0)
    if not len(counts) or np.isnan(counts).all():
        return "" if name in CACHE_FIELDS else _per_sample(0.0, n)
    return _per_sample(float(np.nansum(counts)), n)


CACHE_FIELDS = ("input_tokens_cache_read", "input_tokens_cache_write")
"""Input tokens a provider read from or wrote to its own prompt cache (Inspect's names)."""


def cost_table(logs: Sequence[LogData]) -> Table:
    """Model calls and tokens per sample of each run, input tokens cached and uncached."""
    rows: list[Row] = []
    for log in sorted(logs, key=lambda x: (x.task, x.label, x.model)):
        calls = column(log.values, "model_calls")
        shown_calls = (
            _per_sample(float(np.nansum(calls)), log.n) if "model_calls" in log.values else ""
        )
        roles = ", ".join(
            f"{role}: {_tokens(part, 'input_tokens', log.n)} in / "
            f"{_tokens(part, 'output_tokens', log.n)} out"
            for role, part in log.usage.groupby("role", sort=True)
            if role != "default"
        )
        cells: tuple[Cell, ...] = (
            log.n,
            shown_calls,
            _tokens(log.usage, "input_tokens", log.n),
            *(_tokens(log.usage, name, log.n) for name in CACHE_FIELDS),
            _tokens(log.usage, "output_tokens", log.n),
            roles,
        )
        rows.append(Row((log.task, log.label, log.model), cells))
    return Table(
        id="cost",
        title="Model calls and tokens per sample",
        row_header=["task", "method", "model"],
        columns=[
            "samples",
            "calls",
            "input tokens (uncached)",
            "input read from provider cache",
            "input written to provider cache",
            "output tokens",
            "by model role (uncached in / out)",
        ],
        rows=rows,
        caption="Means over the scored samples. Calls as the package's scorers count "
        "them (Inspect cache reads included; blank for other scorers). Tokens as the "
        "provider reports them and Inspect records them: input the provider processed "
        "(uncached), input it served from or wrote to its own prompt cache (e.g. "
        "llama.cpp, OpenAI, Anthropic; blank when it reports no cache), and output. A "
        "call read from Inspect's own cache uses none.",
        kind="cost",
        collapsed=len(rows) > FOLD_ROWS,
    )


def _reasons(logs: Sequence[LogData]) -> list[str]:
    found = {
        str(c).removeprefix(FAILED_PREFIX)
        for log in logs
        for c in log.values.columns
        if str(c).startswith(FAILED_PREFIX) and str(c) != f"{FAILED_PREFIX}any"
    }
    return sorted(found)


def failures_section(logs: Sequence[LogData]) -> Section | None:
    """Failed samples and answers per run, by reason (``echo``, ``copied_example``...)."""
    reasons = _reasons(logs)
    rows: list[Row] = []
    for log in sorted(logs, key=lambda x: (x.task, x.label, x.model)):
        parse_ok = column(log.values, "parse_ok")
        failed = int(np.sum(parse_ok < 1.0)) + log.errored
        total = log.n + log.errored
        answers = column(log.values, "n_answers")
        failed_answers = column(log.values, "failed_answers")
        by_reason: list[Cell] = []
        for reason in reasons:
            counts = column(log.values, FAILED_PREFIX + reason)
            by_reason.append(int(np.nansum(counts)) if not np.isnan(counts).all() else None)
        cells: tuple[Cell, ...] = (
            total,
            failed,
            f"{100 * failed / total:.1f}%" if total else "",
            int(np.nansum(answers)) if "n_answers" in log.values else None,
            int(np.nansum(failed_answers)) if "failed_answers" in log.values else None,
            log.errored,
            *by_reason,
        )
        rows.append(Row((log.task, log.label, log.model), cells))
    if not any(row.cells[1] for row in rows):
        return None
    table = Table(
        id="failures",
        title="Failed samples and answers, by reason",
        row_header=["task", "method", "model"],
        columns=[
            "samples",
            "failed samples",
            "failed share",
            "answers",
            "failed answers",
            "errored samples",
            *reasons,
        ],
        rows=rows,
        caption="A failed sample has no usable answer (scored as the task's preset says: "
        "wrong, or the uniform answer); a sample's answers are every model answer behind "
        "it (panel members, debate turns), each failed one counted under its reason "
        "(docs/parsing.md): echo (the prompt repeated), copied_example (the prompt's "
        "example returned), hedge (two answers at once), truncated (cut at the token "
        "cap), ... Blank: the log does not record reasons.",
        kind="failures",
        collapsed=len(rows) > FOLD_ROWS,
    )
    return Section(
        "failures",
        "Failed answers",
        [
            f"Every headline cell shows its failures beside it; a cell whose failures "
            f"exceed {FLAG_SHARE:.0%} is marked † and is not compared with others. This "
            "table says why answers failed.",
        ],
        [table],
    )


def _argument(value: object) -> str:
    """A task argument's value; a local path as :func:`~.._paths.shown_path` shows it."""
    if isinstance(value, str) and looks_like_path(value):
        return json.dumps(shown_path(value))
    return json.dumps(value, default=str)


def _arguments(log: LogData) -> str:
    args = [
        f"{k}={_argument(v)}"
        for k, v in sorted(log.task_args.items())
        if v is not None and k not in ("method", "demo")
    ]
    args += [f"--model-role {k}={v}" for k, v in sorted(log.model_roles.items())]
    if log.solver_given:
        args.append(f"--solver {log.method}")
    return ", ".join(args)


def _data(log: LogData) -> str:
    """DEMO, or the data folder the run read as its task logged it (``data_folder``)."""
    if log.demo:
        return "DEMO"
    folder = log.metadata.get("data_folder")
    return f"real: {folder}" if isinstance(folder, str) and folder else "real"


def runs_table(logs: Sequence[LogData]) -> Table:
    """The logs behind the report."""
    rows = []
    for log in sorted(logs, key=lambda x: (x.task, x.label, x.model)):
        failed = int(np.sum(column(log.values, "parse_ok") < 1.0)) + log.errored
        cells: tuple[Cell, ...] = (
            log.n + log.errored,
            failed,
            log.epochs,
            _data(log),
            log.partial or "",
            _arguments(log),
            log.name,
        )
        rows.append(Row((log.task, log.label, log.model), cells))
    return Table(
        id="runs",
        title="Logs in this report",
        row_header=["task", "method", "model"],
        columns=["samples", "failed", "epochs", "data", "partial", "task arguments", "log"],
        rows=rows,
        caption="One log per configuration; repeats, cache replays, logs without samples "
        "and (unless --include-demo) demo runs beside real-data runs are listed under "
        "'Logs left out'. data: DEMO for the demo data written for this package, "
        "else the data folder the run read (from the data root, or as its option named it).",
        kind="runs",
        collapsed=len(rows) > FOLD_ROWS,
    )
