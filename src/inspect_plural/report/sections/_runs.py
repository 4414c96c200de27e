"""Sections every report has: other scorers, every metric, cost, and the runs behind it.

- **Other scorers**: logs of scorers the report does not know, their metrics as logged.
- **Every logged metric**, one folded table per task: rows are runs, a column per
  metric the logs hold (failures, calls, tokens, and what the paper tables leave out).
- **Cost**: model calls and tokens per sample of each run (calls as the package's
  scorers count them, ``model_calls``; tokens from the samples' usage, per model role).
- **Runs**: each log shown, with its samples, failed answers, epochs and arguments.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import partial

import numpy as np

from inspect_plural.report._logs import LogData
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

__all__ = ["FOLD_ROWS", "cost_table", "metrics_section", "other_section", "runs_table"]

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


def cost_table(logs: Sequence[LogData]) -> Table:
    """Model calls and tokens per sample of each run."""
    rows: list[Row] = []
    for log in sorted(logs, key=lambda x: (x.task, x.label, x.model)):
        calls = column(log.values, "model_calls")
        shown_calls = (
            _per_sample(float(np.nansum(calls)), log.n) if "model_calls" in log.values else ""
        )
        usage = log.usage.groupby("role", sort=True)[["input_tokens", "output_tokens"]].sum()
        roles = ", ".join(
            f"{role}: {_per_sample(float(r['input_tokens']), log.n)} in / "
            f"{_per_sample(float(r['output_tokens']), log.n)} out"
            for role, r in usage.iterrows()
            if role != "default"
        )
        cells: tuple[Cell, ...] = (
            log.n,
            shown_calls,
            _per_sample(float(usage["input_tokens"].sum()), log.n),
            _per_sample(float(usage["output_tokens"].sum()), log.n),
            roles,
        )
        rows.append(Row((log.task, log.label, log.model), cells))
    return Table(
        id="cost",
        title="Model calls and tokens per sample",
        row_header=["task", "method", "model"],
        columns=["samples", "calls", "input tokens", "output tokens", "by model role"],
        rows=rows,
        caption="Means over the scored samples. Calls as the package's scorers count "
        "them (cache reads included; blank for other scorers); tokens as Inspect records "
        "them (a cache read uses none).",
        kind="cost",
        collapsed=len(rows) > FOLD_ROWS,
    )


def _arguments(log: LogData) -> str:
    args = [
        f"{k}={json.dumps(v, default=str)}"
        for k, v in sorted(log.task_args.items())
        if v is not None and k != "method"
    ]
    args += [f"--model-role {k}={v}" for k, v in sorted(log.model_roles.items())]
    if log.solver_given:
        args.append(f"--solver {log.method}")
    return ", ".join(args)


def runs_table(logs: Sequence[LogData]) -> Table:
    """The logs behind the report."""
    rows = []
    for log in sorted(logs, key=lambda x: (x.task, x.label, x.model)):
        failed = int(np.sum(column(log.values, "parse_ok") < 1.0)) + log.errored
        cells: tuple[Cell, ...] = (
            log.n + log.errored,
            failed,
            log.epochs,
            _arguments(log),
            log.name,
        )
        rows.append(Row((log.task, log.label, log.model), cells))
    return Table(
        id="runs",
        title="Logs in this report",
        row_header=["task", "method", "model"],
        columns=["samples", "failed", "epochs", "task arguments", "log"],
        rows=rows,
        caption="One log per configuration; repeats and cache replays set aside are "
        "listed under 'Logs left out'.",
        kind="runs",
        collapsed=len(rows) > FOLD_ROWS,
    )
