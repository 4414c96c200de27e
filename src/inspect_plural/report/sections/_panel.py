"""Sections of distributional targets (LeWiDi, representativeness) and persona panels.

- **Distributional evaluation (LeWiDi)**: the leaderboard of the LeWiDi overview: rows
  are runs, a column group per dataset with the soft-label metrics (Manhattan,
  Wasserstein, cross-entropy; lower is better), the hard-label micro-F1 and the
  perspectivist metrics (error rate, normalised absolute distance; lower is better),
  whichever each log holds, and under a chance model's run (``plural/random``) the
  uniform baseline on the same items. Then, per dataset, representativeness per group
  (``rep/<dim>=<value>``), the steered value (``rep_steered/...``) beside the unsteered.
- **Persona panels** (logs scored with ``inspect_plural/panel``, on any task): per log,
  the mean score per dimension for the whole panel and each stakeholder group with 95%
  intervals, Krippendorff's alpha among the personas, the between-group spread, and the
  most contested samples with their ids
  (:func:`~inspect_plural.scorers.panel_summary`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from inspect_plural.report._bootstrap import Bootstrap, Estimate
from inspect_plural.report._logs import LogData
from inspect_plural.report._tables import (
    Cell,
    Entry,
    Metric,
    Row,
    Section,
    Table,
    Values,
    grid_table,
    slug,
)
from inspect_plural.report.metrics import REP_PREFIX, STEERED_PREFIX, UNIFORM_PREFIX
from inspect_plural.report.sections._annotator import run_label, run_row
from inspect_plural.scorers import PanelSummary

__all__ = ["lewidi_section", "panel_section"]

FOLD_REP_ROWS = 12
"""A representativeness table is folded beyond this many groups."""

LEADERBOARD = (
    Metric("manhattan", "Manhattan ↓"),
    Metric("wasserstein", "Wasserstein ↓"),
    Metric("cross_entropy", "cross-entropy ↓"),
    Metric("hard_micro_f1", "micro-F1 ↑"),
    Metric("error_rate", "error rate ↓"),
    Metric("norm_abs_distance", "norm. abs. distance ↓"),
)


def _rep_row(name: str) -> tuple[str, str]:
    """``rep/Gender=Female`` -> (Gender, Female); ``rep/Gender`` -> (Gender, the mean)."""
    bare = name.removeprefix(STEERED_PREFIX).removeprefix(REP_PREFIX)
    dim, sep, value = bare.partition("=")
    return (dim, value if sep else "(mean over groups)")


_STEERING = (Metric("unsteered", "unsteered"), Metric("steered", "steered"))


def _rep_tables(logs: Sequence[LogData], values: Values) -> list[Table]:
    """Representativeness per dataset: a row per group, per run unsteered and steered."""
    tables: list[Table] = []
    for task in sorted({log.task for log in logs}):
        entries = []
        order: list[str] = []
        for log in (log for log in logs if log.task == task):
            run = f"{log.label} / {log.model}"
            for value in values.get(id(log), ()):
                if value.name.startswith(STEERED_PREFIX):
                    kind = "steered"
                elif value.name.startswith(REP_PREFIX):
                    kind = "unsteered"
                else:
                    continue
                order.append(run)
                entries.append((_rep_row(value.name), run, {kind: value.estimate}))
        table = grid_table(
            table_id=f"{task}__representativeness",
            title=f"{task}: representativeness per group, unsteered and steered",
            entries=entries,
            metrics=lambda _: _STEERING,
            row_header=["dimension", "group"],
            caption="Mean over items of how close the run's answer distribution is to the "
            "group's (1 = the same; 1 - W1/(N-1) on ordinal scales, Jensen-Shannon on "
            "nominal ones); steered: the persona was told the group (-T steer); "
            "'(mean over groups)': the log's own summary.",
            group_order=list(dict.fromkeys(order)),
        )
        if table is not None:
            table.task, table.kind = task, "breakdown"
            table.collapsed = len(table.rows) > FOLD_REP_ROWS
            tables.append(table)
    return tables


UNIFORM_ROW = "uniform baseline (computed)"
"""The label of the uniform baseline's row."""


def _baseline_row(log: LogData, logs: Sequence[LogData]) -> tuple[str, str]:
    chance = [x for x in logs if x.task == log.task and x.uniform is not None]
    label = UNIFORM_ROW + (" [DEMO]" if log.demo else "")
    if len(chance) > 1:  # several chance runs of one dataset: one baseline row each
        label = f"{UNIFORM_ROW} on the items of {log.label}"
    return (label, "(no model)")


def _leaderboard_entries(logs: Sequence[LogData], values: Values) -> list[Entry]:
    entries: list[Entry] = []
    for log in logs:
        found = values.get(id(log), ())
        entries.append((run_row(log), log.task, {v.name: v.estimate for v in found}))
        baseline = {
            v.name.removeprefix(UNIFORM_PREFIX): v.estimate
            for v in found
            if v.name.startswith(UNIFORM_PREFIX)
        }
        if baseline:
            entries.append((_baseline_row(log, logs), log.task, baseline))
    return entries


def _baseline_after_chance(logs: Sequence[LogData]) -> Callable[[tuple[str, ...]], Any]:
    """Rows in name order, each uniform baseline right after its chance model's row."""
    follows = {_baseline_row(log, logs): run_row(log) for log in logs if log.uniform is not None}

    def key(row: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
        anchor = follows.get((row[0], row[1]))
        return (anchor, 1) if anchor is not None else (row, 0)

    return key


def lewidi_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """The LeWiDi section (module docstring), or None without such logs."""
    members = [log for log in logs if log.family == "lewidi"]
    if not members:
        return None
    section = Section(
        "lewidi",
        "Distributional evaluation (LeWiDi)",
        [
            "Shaped like the LeWiDi overview's leaderboard: rows are runs, a column group "
            "per dataset. Soft-label metrics compare the predicted label distribution "
            "with the annotators'; perspectivist metrics each annotator's label.",
        ],
    )
    table = grid_table(
        table_id="lewidi__leaderboard",
        group_header="dataset",
        title="LeWiDi metrics by dataset (the overview's leaderboard layout; rows in name "
        "order, not ranked)",
        entries=_leaderboard_entries(members, values),
        metrics=lambda _: LEADERBOARD,
        row_header=["method", "model"],
        caption="Rows in name order; under a chance model's run (plural/random), the "
        f"row '{UNIFORM_ROW}' is the uniform distribution scored on the same items with "
        "the same definitions (computed from the gold distributions, no run): a method "
        "is only worth more than chance where it beats that row.",
        row_order=_baseline_after_chance(members),
    )
    if table is not None:
        section.tables.append(table)
    section.tables += _rep_tables(members, values)
    return section


def _cell(values: Sequence[float], boot: Bootstrap, key: str, failed: int, total: int) -> Estimate:
    return boot.mean(np.asarray(values, dtype=float), key).with_failures(failed, total)


def _means_table(log: LogData, summary: PanelSummary, boot: Bootstrap) -> Table:
    groups = ["whole panel", *summary.groups]
    agreement = {a.dimension: a for a in summary.agreement}
    rows: list[Row] = []
    for dim in summary.dimensions:
        cells: list[Cell] = []
        for group in [None, *summary.groups]:
            found = next(
                (c for c in summary.cells if c.dimension == dim and c.group == group), None
            )
            if found is None or not found.n:
                cells.append(None)
                continue
            key = f"{log.run_key}|panel|{dim}|{group}"
            failed = summary.samples - found.n
            cells.append(_cell(found.values, boot, key, failed, summary.samples))
        alpha = agreement.get(dim)
        if alpha is None:
            cells += [None, None]
        else:
            shown = "undefined" if math.isnan(alpha.alpha) else f"{alpha.alpha:.3f}"
            cells += [f"{shown} ({alpha.level})", alpha.n_units]
        rows.append(Row((dim,), tuple(cells)))
    return Table(
        id=slug(f"panel__{log.task}__{log.label}__{log.model}"),
        title=f"{log.task} · {run_label(log)}: panel scores by stakeholder group",
        row_header=["dimension"],
        columns=[*groups, "α among personas", "units"],
        rows=rows,
        caption=f"Mean score over the {summary.samples} scored samples (95% interval: "
        "bootstrap of the mean); whole panel: the mean of the groups' scores; α: "
        "Krippendorff's alpha among the personas (units: "
        f"samples with 2+ persona scores). Persona answers not read: "
        f"{summary.parse_failures}; samples no persona could score: {summary.unscored}.",
        task=log.task,
    )


def _contested_table(log: LogData, summary: PanelSummary) -> Table | None:
    if not summary.contested:
        return None
    rows = [
        Row(
            (c.sample_id, c.dimension),
            (
                c.spread,
                "; ".join(f"{g}: {v:.2f}" for g, v in c.group_means.items()),
            ),
        )
        for c in summary.contested
    ]
    return Table(
        id=slug(f"panel__{log.task}__{log.label}__{log.model}__contested"),
        title=f"{log.task} · {run_label(log)}: most contested samples",
        row_header=["sample", "dimension"],
        columns=["spread (largest - smallest group mean)", "group means"],
        rows=rows,
        caption="Samples with the largest difference between stakeholder groups, most "
        "contested first, per dimension.",
        task=log.task,
    )


def panel_section(logs: Sequence[LogData], boot: Bootstrap) -> Section | None:
    """The persona panel section (module docstring), or None without panel scores."""
    members = [log for log in logs if log.panel is not None]
    if not members:
        return None
    section = Section(
        "panel",
        "Persona panels (inspect_plural/panel)",
        [
            "Logs scored by a persona panel, on any task: each persona scored the "
            "output; a group's score is its members' mean (after the debate, with "
            "rounds > 0).",
        ],
    )
    for log in members:
        assert log.panel is not None
        section.tables.append(_means_table(log, log.panel, boot))
        contested = _contested_table(log, log.panel)
        if contested is not None:
            section.tables.append(contested)
    return section
