"""Sections of rating tasks (MAJ-Eval) and of the PERSE tasks.

- **Rating correlation (MAJ-Eval)**: per dataset, rows are runs and, for methods with
  stakeholder panels, each stakeholder group under its run; columns dimension x
  (ρ, τ, r). Runs reporting absolute values (the ``maj_eval`` preset: |ρ| as the
  paper's tables) get a table of their own. The same before the debate, folded.
- **Personalised evaluation (PERSE)**: Per-MPST with a column group per ``k``
  (ρ, τ, r, accuracy by the preset's rule, MAE, ROUGE-1, BLEU), the spread of the
  correlations over review-order shuffles, and Per-DOC's accuracy per aspect.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._figures import debate, has_debate
from inspect_plural.report._logs import LogData
from inspect_plural.report._tables import (
    Entry,
    FigureSpec,
    Metric,
    Row,
    Section,
    Table,
    Values,
    grid_table,
    slug,
    wide_table,
)
from inspect_plural.report.metrics import absolute, rating_dimensions, rating_groups, shuffle_spread
from inspect_plural.report.sections._annotator import run_row
from inspect_plural.scorers.personal import REVIEW_ACCURACY

__all__ = ["perse_section", "ratings_section"]

_SYMBOLS = {"spearman": "ρ", "kendall": "τ", "pearson": "r"}
PANEL = "(panel)"


def _coefficients(sign: bool) -> list[Metric]:
    return [Metric(name, f"|{symbol}|" if sign else symbol) for name, symbol in _SYMBOLS.items()]


def _entries(log: LogData, values: Values, initial: bool) -> list[Entry]:
    found = {v.name: v.estimate for v in values.get(id(log), ())}
    phase = "initial/" if initial else ""
    groups = rating_groups(log, "group_initial/" if initial else "group/")
    out: list[Entry] = []
    for dim in rating_dimensions(log):
        panels = [(PANEL, f"{phase}{dim}/")] + [(g, f"{phase}group/{g}/{dim}/") for g in groups]
        for panel, prefix in panels:
            cells = {c: found[f"{prefix}{c}"] for c in _SYMBOLS if f"{prefix}{c}" in found}
            if cells:
                out.append(((log.label, log.model, panel), dim, cells))
    return out


def _row_order(log_rows: dict[tuple[str, str], list[str]]) -> object:
    def key(row: tuple[str, ...]) -> tuple[str, str, int]:
        order = log_rows.get((row[0], row[1]), [])
        return (row[0], row[1], order.index(row[2]) if row[2] in order else len(order))

    return key


def _rating_table(
    task: str, runs: Sequence[LogData], values: Values, sign: bool, initial: bool
) -> Table | None:
    entries = [e for log in runs for e in _entries(log, values, initial)]
    dims = list(dict.fromkeys(d for log in runs for d in rating_dimensions(log)))
    orders = {(log.label, log.model): [PANEL, *rating_groups(log)] for log in runs}
    phase = "before the debate (initial scores)" if initial else "final scores"
    kind = "absolute |ρ|, |τ|, |r|" if sign else "ρ (Spearman), τ (Kendall tau-b), r (Pearson)"
    table = grid_table(
        table_id=f"{task}__correlations{'_abs' if sign else ''}{'_initial' if initial else ''}",
        group_header="dimension",
        title=f"{task}: correlation with human ratings, {kind}, {phase}",
        entries=entries,
        metrics=lambda _: _coefficients(sign),
        row_header=["method", "model", "panel"],
        caption="Pooled over all rated outputs. Rows '(panel)' are the method's final "
        "score; the rows under it are each stakeholder group's own score (MAJ-Eval "
        "Tables 4-5 and Figure 3), recomputed from the per-sample scores when the log "
        "holds only its headline.",
        group_order=dims,
        row_order=_row_order(orders),  # type: ignore[arg-type]
    )
    if table is not None:
        table.task = task
        table.collapsed = initial
        table.kind = "breakdown" if initial else "paper"
    return table


def ratings_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """The MAJ-Eval section (module docstring), or None without rating logs."""
    members = [log for log in logs if log.family == "ratings"]
    if not members:
        return None
    section = Section(
        "ratings",
        "Rating correlation (MAJ-Eval)",
        [
            "Correlation of each method's scores with the human ratings, per dimension. "
            "A run under the maj_eval preset reports absolute Spearman (|ρ|), as the "
            "paper's tables do, and is shown in a table of its own.",
        ],
    )
    for task in sorted({log.task for log in members}):
        runs = [log for log in members if log.task == task]
        for initial in (False, True):
            for sign in (False, True):
                chosen = [log for log in runs if absolute(log) == sign]
                table = _rating_table(task, chosen, values, sign, initial)
                if table is not None:
                    section.tables.append(table)
        for log in runs:
            if has_debate(log):
                title = (
                    f"{task}: {log.label} / {log.model}: scores per stakeholder group "
                    "before and after the debate (mean over samples)"
                )
                name = f"{slug(task)}__debate__{slug(log.label)}__{slug(log.model)}"
                section.figure_specs.append(
                    FigureSpec("debate", task, title, name, partial(debate, title, log))
                )
    return section


def _k(log: LogData) -> str:
    k = log.metadata.get("k", log.task_args.get("k"))
    return f"k={k}" if k is not None else "k=?"


def _review_metrics(log_presets: set[str]) -> list[Metric]:
    rules = sorted({REVIEW_ACCURACY.get(p, "rounded") for p in log_presets})
    accuracy = "accuracy (" + " / ".join(rules) + ")"
    return [
        Metric("spearman", "ρ"),
        Metric("kendall", "τ"),
        Metric("pearson", "r"),
        Metric("accuracy", accuracy),
        Metric("mae", "MAE"),
        Metric("review_rouge1", "ROUGE-1"),
        Metric("review_bleu", "BLEU"),
    ]


def _shuffle_table(runs: Sequence[LogData]) -> Table | None:
    rows: list[Row] = []
    for log in runs:
        spreads = shuffle_spread(log)
        if not spreads:
            continue
        for spread in spreads:
            per = ", ".join(f"{v:.3f}" for v in spread.per_shuffle)
            cells: tuple[Estimate | float | str | int, ...] = (
                spread.mean,
                spread.std,
                len(spread.per_shuffle),
                per,
            )
            rows.append(Row((log.label, log.model, _k(log), _SYMBOLS[spread.coefficient]), cells))
    if not rows:
        return None
    return Table(
        id="per_mpst__shuffles",
        title="per_mpst: correlation over review-order shuffles (PERSE Figure 4)",
        row_header=["method", "model", "k", "coefficient"],
        columns=["mean", "sd", "shuffles", "each shuffle"],
        rows=list(rows),
        caption="Each shuffle shows the reviewer's prior reviews in another seeded order "
        "(-T shuffle_reviews=N, one epoch each); its correlation is pooled over that "
        "shuffle's predictions; sd is the sample standard deviation (ddof 1).",
        task="per_mpst",
    )


def perse_section(logs: Sequence[LogData], values: Values) -> Section | None:
    """The PERSE section (module docstring), or None without PERSE logs."""
    members = [log for log in logs if log.family == "perse"]
    if not members:
        return None
    section = Section(
        "perse",
        "Personalised evaluation (PERSE)",
        [
            "Per-MPST: how well a method predicts each reviewer's own score (pooled "
            "correlations, as the official get_score.py); accuracy follows the preset's "
            "rule (rounded: the prediction rounded half up equals the score; raw, the "
            "perse preset: the prediction itself equals it). Per-DOC: accuracy of the "
            "reviewer's pairwise choice per aspect.",
        ],
    )
    mpst = [log for log in members if log.scorer == "review_scorer"]
    presets = {str(log.metadata.get("metrics_preset", "default")) for log in mpst}
    table = wide_table(
        table_id="per_mpst__by_k",
        group_header="prior reviews",
        title="Per-MPST: correlation with the reviewer's score, by k (prior reviews shown)",
        logs=mpst,
        values=values,
        group_of=_k,
        metrics=lambda _: _review_metrics(presets),
        row_of=run_row,
        row_header=["method", "model"],
        caption="ROUGE-1 and BLEU compare the written review with the reviewer's own "
        "(PERSE Table 3); blank where the method writes none.",
    )
    if table is not None:
        section.tables.append(table)
    shuffles = _shuffle_table(mpst)
    if shuffles is not None:
        section.tables.append(shuffles)
    doc = [log for log in members if log.scorer == "choice_scorer"]
    aspects = sorted(
        {
            a
            for log in doc
            if "aspect" in log.sample_meta
            for a in log.sample_meta["aspect"].dropna()
        }
    )
    columns = [Metric(f"accuracy/{a}", a) for a in aspects] + [
        Metric("accuracy", "mean over aspects"),
        Metric("accuracy_micro", "all pairs"),
    ]
    table = wide_table(
        table_id="per_doc__by_aspect",
        title="Per-DOC: accuracy of the reviewer's choice, by aspect",
        logs=doc,
        values=values,
        group_of=lambda _: "",
        metrics=lambda _: columns,
        row_of=run_row,
        row_header=["method", "model"],
    )
    if table is not None:
        section.tables.append(table)
    return section
