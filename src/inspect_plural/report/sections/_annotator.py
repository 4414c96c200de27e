"""Sections of annotator-level tasks (CINEMETRIC, PersEval) and of PersonaEval.

- **Annotator-level prediction**: accuracy and MAE per dataset (CINEMETRIC Tables 1-2),
  macro-F1 at PersEval's three levels (global, annotator, text), and the probability
  metrics of runs that answered with distributions; per task, folded, the breakdowns
  the headline log leaves out (accuracy per trait value, F1 per class, the spread of
  per-annotator accuracy), with a per-annotator figure and reliability diagrams.
- **Role identification (PersonaEval)**: rows method x model, columns track x
  (top-1, top-2, mean rank, ECE, Brier), with reliability diagrams per track.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np

from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._figures import annotator_spread, forest, reliability
from inspect_plural.report._logs import LogData
from inspect_plural.report._tables import (
    Cell,
    FigureSpec,
    Metric,
    Row,
    Section,
    Table,
    Values,
    grid_table,
    slug,
    value_of,
    wide_table,
)
from inspect_plural.report.metrics import (
    annotator_accuracy,
    class_cells,
    distribution_rows,
    trait_cells,
)

__all__ = ["annotator_section", "fixed_metrics", "personaeval_section", "run_label", "run_row"]

ACCURACY = (Metric("accuracy", "accuracy"), Metric("mae", "MAE"))
PERSEVAL = (
    Metric("macro_f1", "global"),
    Metric("annotator_macro_f1", "annotator"),
    Metric("text_macro_f1", "text"),
)
PROBABILITY = (
    Metric("top1", "top-1"),
    Metric("top2", "top-2"),
    Metric("mean_rank", "MR"),
    Metric("ece", "ECE"),
    Metric("brier_score", "Brier"),
)


def fixed_metrics(metrics: Sequence[Metric], group: str) -> Sequence[Metric]:
    """The same metric columns in every group."""
    return metrics


def run_row(log: LogData) -> tuple[str, str]:
    """A run's row labels: (method label, model)."""
    return (log.label, log.model)


def run_label(log: LogData) -> str:
    """A run as one column header or legend entry."""
    return f"{log.label} / {log.model}"


def _tasks(logs: Sequence[LogData]) -> list[str]:
    return sorted({log.task for log in logs})


def _runs_table(
    table_id: str,
    title: str,
    logs: Sequence[LogData],
    rows: dict[int, dict[tuple[str, ...], Estimate]],
    row_header: list[str],
    caption: str,
) -> Table | None:
    """A breakdown: one row per key (trait value, class), one column per run."""
    runs = [log for log in logs if rows.get(id(log))]
    columns = [Metric(str(i), run_label(log)) for i, log in enumerate(runs)]
    entries = [
        (key, "", {str(i): estimate})
        for i, log in enumerate(runs)
        for key, estimate in rows[id(log)].items()
    ]
    table = grid_table(
        table_id=table_id,
        title=title,
        entries=entries,
        metrics=lambda _: columns,
        row_header=row_header,
        caption=caption,
    )
    if table is not None:
        table.kind, table.collapsed = "breakdown", True
    return table


def _class_names(log: LogData) -> list[str] | None:
    if "labels" not in log.scale or not len(log.scale):
        return None
    found = {tuple(x) for x in log.scale["labels"] if isinstance(x, list)}
    return list(next(iter(found))) if len(found) == 1 else None


def _breakdowns(task: str, logs: Sequence[LogData], values: Values) -> list[Table]:
    tables: list[Table] = []
    traits: dict[int, dict[tuple[str, ...], Estimate]] = {
        id(log): dict(trait_cells(values.get(id(log), ())).items()) for log in logs
    }
    trait_table = _runs_table(
        f"{task}__accuracy_by_trait",
        f"{task}: accuracy by trait value",
        logs,
        traits,
        ["dimension", "value"],
        "Accuracy of the samples of annotators with that trait value, recomputed from the "
        "per-sample scores (values '' and 'UNK' form no group); 95% interval: bootstrap of "
        "the mean over those samples.",
    )
    if trait_table is not None:
        tables.append(trait_table)
    per_class: dict[int, dict[tuple[str, ...], Estimate]] = {}
    for log in logs:
        names = _class_names(log)
        found = class_cells(values.get(id(log), ()))
        if names is None or not found:
            continue
        per_class[id(log)] = {
            (names[int(k)] if int(k) < len(names) else k,): v for k, v in found.items()
        }
    class_table = _runs_table(
        f"{task}__f1_by_class",
        f"{task}: F1 per class",
        logs,
        per_class,
        ["gold class"],
        "F1 of each class over all samples (n = samples whose gold label is the class); "
        "95% interval: samples resampled, F1 recomputed. Tasks whose items have scales "
        "of their own (OpinionQA) have no per-class table.",
    )
    if class_table is not None:
        tables.append(class_table)
    spread = _annotator_table(task, logs)
    if spread is not None:
        tables.append(spread)
    return tables


def _annotator_table(task: str, logs: Sequence[LogData]) -> Table | None:
    rows: list[Row] = []
    for log in logs:
        values = annotator_accuracy(log)
        if not len(values):
            continue
        quartiles = np.percentile(values, [0, 25, 50, 75, 100])
        cells: tuple[Cell, ...] = (
            len(values),
            float(values.mean()),
            *(float(q) for q in quartiles),
        )
        rows.append(Row(run_row(log), cells))
    if not rows:
        return None
    return Table(
        id=slug(f"{task}__annotators"),
        title=f"{task}: accuracy per annotator",
        row_header=["method", "model"],
        columns=["annotators", "mean", "min", "25%", "median", "75%", "max"],
        rows=rows,
        caption="Each annotator's accuracy over their test samples, summarised per run.",
        task=task,
        kind="breakdown",
        collapsed=True,
    )


def _forest_spec(
    name: str,
    title: str,
    metric: str,
    logs: Sequence[LogData],
    values: Values,
    group_of: dict[int, str],
) -> FigureSpec | None:
    groups = sorted({group_of[id(log)] for log in logs})
    runs = sorted({run_label(log) for log in logs})
    cells: dict[tuple[str, str], Estimate] = {}
    for log in logs:
        found = value_of(values, log, metric)
        if found is not None:
            cells[(run_label(log), group_of[id(log)])] = found.estimate
    if not cells:
        return None
    series = [(run, [cells.get((run, g)) for g in groups]) for run in runs]
    series = [(run, row) for run, row in series if any(c is not None for c in row)]
    draw = partial(forest, title, metric, groups, series)
    return FigureSpec("forest", "", title, name, draw)


def annotator_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """The annotator-level section (module docstring), or None without such logs."""
    members = [log for log in logs if log.family == "annotator"]
    if not members:
        return None
    section = Section(
        "annotator",
        "Annotator-level prediction (CINEMETRIC, PersEval)",
        [
            "One sample is one annotator's judgment of one item. Rows are runs (method "
            "and what distinguishes its configuration, model); a column group per "
            "dataset. MAE appears for ordinal scales only.",
        ],
    )

    def by_task(log: LogData) -> str:
        return log.task

    for table_id, title, metrics, caption in (
        (
            "annotator__accuracy",
            "Accuracy and MAE by dataset (as CINEMETRIC Tables 1-2)",
            ACCURACY,
            "Accuracy: share of samples whose predicted label is the annotator's; MAE: "
            "mean absolute distance on the ordinal scale.",
        ),
        (
            "annotator__macro_f1",
            "Macro-F1 at PersEval's three levels by dataset",
            PERSEVAL,
            "global: over all samples; annotator: mean over annotators of each one's "
            "macro-F1; text: mean over items.",
        ),
        (
            "annotator__probability",
            "Probability answers by dataset (-T answer_format=distribution)",
            PROBABILITY,
            "Top-1/top-2: the gold label is the most / among the two most probable; MR: "
            "mean rank of the gold label; ECE and Brier of the answer distribution.",
        ),
    ):
        table = wide_table(
            table_id=table_id,
            title=title,
            logs=members,
            values=values,
            group_of=by_task,
            metrics=partial(fixed_metrics, metrics),
            row_of=run_row,
            row_header=["method", "model"],
            caption=caption,
            group_header="dataset",
        )
        if table is not None:
            section.tables.append(table)
    spec = _forest_spec(
        "annotator__accuracy_forest",
        "Annotator-level accuracy by dataset and run (points: estimate; lines: 95% interval)",
        "accuracy",
        members,
        values,
        {id(log): log.task for log in members},
    )
    if spec is not None:
        section.figure_specs.append(spec)
    for task in _tasks(members):
        runs = [log for log in members if log.task == task]
        section.tables += _breakdowns(task, runs, values)
        title = f"{task}: accuracy of each annotator, per run"
        section.figure_specs.append(
            FigureSpec(
                "annotators",
                task,
                title,
                f"{slug(task)}__annotators",
                partial(annotator_spread, title, runs),
            )
        )
        if any(distribution_rows(log) is not None for log in runs):
            title = f"{task}: reliability of probability answers (answers per bin marked)"
            section.figure_specs.append(
                FigureSpec(
                    "reliability",
                    task,
                    title,
                    f"{slug(task)}__reliability",
                    partial(reliability, title, runs),
                )
            )
    return section


def _track(log: LogData) -> str:
    track = log.metadata.get("track")
    return str(track) if track else log.task.removeprefix("personaeval_")


def personaeval_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """The PersonaEval section (module docstring), or None without such logs."""
    members = [log for log in logs if log.family == "personaeval"]
    if not members:
        return None
    section = Section(
        "personaeval",
        "Role identification (PersonaEval)",
        [
            "Rows are runs (method, then model, as in every table); a column group per track. "
            "Top-1/top-2: the true role is the most / among the two most probable "
            "candidates; MR: mean rank of the true role; ECE and Brier as the task's "
            "preset defines them (the personaeval preset reproduces the official code).",
        ],
    )
    table = wide_table(
        table_id="personaeval__tracks",
        group_header="track",
        title="PersonaEval by track",
        logs=members,
        values=values,
        group_of=_track,
        metrics=lambda _: PROBABILITY,
        row_of=run_row,
        row_header=["method", "model"],
    )
    if table is not None:
        section.tables.append(table)
    spec = _forest_spec(
        "personaeval__top1_forest",
        "PersonaEval top-1 accuracy by track and run (points: estimate; lines: 95% interval)",
        "top1",
        members,
        values,
        {id(log): _track(log) for log in members},
    )
    if spec is not None:
        section.figure_specs.append(spec)
    for task in _tasks(members):
        runs = [log for log in members if log.task == task]
        title = f"{task}: reliability of the role distributions (answers per bin marked)"
        section.figure_specs.append(
            FigureSpec(
                "reliability",
                task,
                title,
                f"{slug(task)}__reliability",
                partial(reliability, title, runs),
            )
        )
    return section
