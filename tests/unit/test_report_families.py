"""The report's paper-shaped tables per family, on hand-made logs: values against the
logs' own metrics and against scipy / scikit-learn / pandas, breakdowns recomputed
from per-sample scores when the log holds only its headline."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from inspect_ai.log import read_eval_log_sample_summaries
from scipy import stats
from sklearn.metrics import f1_score
from tests.unit.report_logs import Run, write_run
from tests.unit.report_runs import (
    DIMENSIONS,
    GROUPS,
    annotator_run,
    choice_run,
    lewidi_run,
    panel_scores,
    rating_rows,
    rating_run,
    review_run,
    role_run,
)

from inspect_plural.analysis import samples_df, thinned
from inspect_plural.report import Report, build_report, render_html, render_markdown
from inspect_plural.report._render import Document
from inspect_plural.scorers import expected_calibration_error

CORRECT = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0, 0, 1, 1, 0, 1, 0, 1, 1]
TRAITS = ["F", "M"] * 10


def _report(folder: Path) -> Report:
    return build_report(folder, resamples=300, warn=lambda _: None)


def _table(report: Report, table_id: str) -> Any:
    [table] = [t for t in report.tables if t.id == table_id]
    return table


def _cells(table: Any) -> dict[tuple[tuple[str, ...], str], Any]:
    return {
        (row.labels, column): cell
        for row in table.rows
        for column, cell in zip(table.flat_columns, row.cells)
        if cell is not None
    }


# --- annotator-level ------------------------------------------------------------------


def test_perseval_levels_and_breakdowns_are_recomputed_from_the_samples(tmp_path: Path) -> None:
    write_run(tmp_path, "a", annotator_run(CORRECT, traits=TRAITS))
    report = _report(tmp_path)
    run = annotator_run(CORRECT, traits=TRAITS)
    frame = pd.DataFrame(
        [{**v, "annotator": m["annotator_id"], "trait": m["trait:gender"]} for v, m in run.rows]
    )
    cells = _cells(_table(report, "annotator__macro_f1"))
    per_annotator = [
        f1_score(g["gold"], g["pred"], labels=[0, 1, 2], average="macro", zero_division=0)
        for _, g in frame.groupby("annotator")
    ]
    annotator = cells[(("llm_judge", "prov/m1"), "brexit / annotator")]
    assert annotator.value == pytest.approx(np.mean(per_annotator)) and annotator.n == 4
    assert not annotator.has_interval  # 4 annotators: fewer than 5 units
    # the log holds no accuracy/gender=F: the breakdown comes from the samples
    traits = _cells(_table(report, "brexit__accuracy_by_trait"))
    expected = frame.groupby("trait")["correct"].mean()
    for value in ("F", "M"):
        assert traits[(("gender", value), "llm_judge / prov/m1")].value == pytest.approx(
            expected[value]
        )
    classes = _cells(_table(report, "brexit__f1_by_class"))
    per_class = f1_score(frame["gold"], frame["pred"], labels=[0, 1, 2], average=None)
    for label in range(3):
        cell = classes[((f"L{label}",), "llm_judge / prov/m1")]
        assert cell.value == pytest.approx(per_class[label])
        assert cell.n == int((frame["gold"] == label).sum())


def test_annotator_tables_have_a_column_group_per_dataset(tmp_path: Path) -> None:
    write_run(tmp_path, "b", annotator_run(CORRECT))
    write_run(tmp_path, "d", annotator_run(CORRECT[:15], task="dp", ordinal=True, n_labels=5))
    write_run(
        tmp_path,
        "c",
        annotator_run(CORRECT[5:], task="dp", ordinal=True, n_labels=5, method="cinemetric"),
    )
    table = _table(_report(tmp_path), "annotator__accuracy")
    assert table.groups == [("brexit", 1), ("dp", 2)]
    assert [row.labels[0] for row in table.rows] == ["cinemetric", "llm_judge"]
    cells = _cells(table)
    assert (("cinemetric", "prov/m1"), "brexit / accuracy") not in cells  # not run: blank
    assert cells[(("cinemetric", "prov/m1"), "dp / accuracy")].value == pytest.approx(
        np.mean(CORRECT[5:])
    )


# --- PersonaEval ----------------------------------------------------------------------


def test_personaeval_rows_are_method_then_model_and_columns_track_by_metric(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    probs = rng.dirichlet(np.ones(4), size=30)
    gold = rng.integers(0, 4, size=30)
    for track, model in (("literary", "prov/a"), ("drama", "prov/a"), ("literary", "prov/b")):
        write_run(tmp_path, f"{track}_{model[-1]}", role_run(track, probs, gold, model=model))
    table = _table(_report(tmp_path), "personaeval__tracks")
    assert table.row_header == ["method", "model"]  # one column order in every table
    assert [g for g, _ in table.groups] == ["drama", "literary"]
    assert table.columns[:5] == ["top-1", "top-2", "MR", "ECE", "Brier"]
    cells = _cells(table)
    top1 = cells[(("role_identification", "prov/a"), "literary / top-1")]
    assert top1.value == pytest.approx(np.mean(probs.argmax(axis=1) == gold)) and top1.has_interval
    ece = cells[(("role_identification", "prov/a"), "literary / ECE")]
    hit = probs.argmax(axis=1) == gold
    assert ece.value == pytest.approx(expected_calibration_error(probs.max(axis=1), hit, 15))
    brier = cells[(("role_identification", "prov/b"), "literary / Brier")]
    assert brier.value == pytest.approx(np.mean(((probs - np.eye(4)[gold]) ** 2).sum(axis=1)))
    top2 = cells[(("role_identification", "prov/a"), "drama / top-2")]
    assert top2.value == pytest.approx(
        np.mean([g in np.argsort(p)[-2:] for p, g in zip(probs, gold)])
    )


# --- MAJ-Eval -------------------------------------------------------------------------


def test_maj_eval_rows_per_stakeholder_group_and_absolute_rho_under_the_preset(
    tmp_path: Path,
) -> None:
    rows = rating_rows(12, missing=[11])
    write_run(tmp_path, "signed", rating_run(rows))
    write_run(tmp_path, "abs", rating_run(rows, absolute=True))
    report = _report(tmp_path)
    frame = pd.DataFrame([v for v, _ in rows[:11]])
    signed = _table(report, "mslr_cochrane__correlations")
    panels = [row.labels[2] for row in signed.rows]
    assert panels == ["(panel)", *GROUPS]  # the method's row, then each group under it
    assert [g for g, _ in signed.groups] == list(DIMENSIONS)
    cells = _cells(signed)
    run = ("maj_eval (metrics_preset=default)", "prov/m1")
    for group in GROUPS:
        rho = stats.spearmanr(frame[f"group/{group}/overall"], frame["gold/overall"]).statistic
        cell = cells[((*run, group), "overall / ρ")]
        assert cell.value == pytest.approx(rho)
        assert (cell.failed, cell.total) == (1, 12)  # the sample without scores
        tau = stats.kendalltau(frame[f"group/{group}/fluency"], frame["gold/fluency"]).statistic
        assert cells[((*run, group), "fluency / τ")].value == pytest.approx(tau)
    absolute = _cells(_table(report, "mslr_cochrane__correlations_abs"))
    run = ("maj_eval (metrics_preset=maj_eval)", "prov/m1")
    assert {column for (_, column) in absolute} == {f"{d} / |ρ|" for d in DIMENSIONS}
    for group in GROUPS:
        rho = stats.spearmanr(frame[f"group/{group}/overall"], frame["gold/overall"]).statistic
        assert absolute[((*run, group), "overall / |ρ|")].value == pytest.approx(abs(rho))
    initial = _cells(_table(report, "mslr_cochrane__correlations_initial"))
    rho = stats.spearmanr(frame["pred_initial/fluency"], frame["gold/fluency"]).statistic
    assert initial[
        (("maj_eval (metrics_preset=default)", "prov/m1", "(panel)"), "fluency / ρ")
    ].value == pytest.approx(rho)


# --- PERSE ----------------------------------------------------------------------------


def test_perse_accuracy_follows_the_preset_and_bleu_sits_beside_rouge(tmp_path: Path) -> None:
    preds = [6.67, 7.0, 3.0, None, 5.0, 8.0, 2.0, 9.0, 4.0, 6.0]
    golds = [7.0, 7.0, 4.0, 5.0, 5.0, 8.0, 3.0, 9.0, 4.0, 2.0]
    write_run(tmp_path, "default", review_run(preds, golds))
    write_run(
        tmp_path,
        "perse",
        review_run(preds, golds, preset="perse", task_args={"metrics_preset": "perse"}),
    )
    table = _table(_report(tmp_path), "per_mpst__by_k")
    assert [g for g, _ in table.groups] == ["k=3"]
    assert table.columns == ["ρ", "τ", "r", "accuracy (raw / rounded)", "MAE", "ROUGE-1", "BLEU"]
    cells = _cells(table)
    rounded = cells[
        (("perse_review (metrics_preset=default)", "prov/m1"), "k=3 / accuracy (raw / rounded)")
    ]
    raw = cells[
        (("perse_review (metrics_preset=perse)", "prov/m1"), "k=3 / accuracy (raw / rounded)")
    ]
    assert rounded.value == pytest.approx(6 / 10)  # 6.67 rounds to 7; the failure counts wrong
    assert raw.value == pytest.approx(5 / 9)  # dropped failure, 6.67 != 7
    assert raw.failed == 1 and raw.total == 10
    kept = [(p, g) for p, g in zip(preds, golds) if p is not None]
    rho = stats.spearmanr(*zip(*kept)).statistic
    assert cells[(("perse_review (metrics_preset=perse)", "prov/m1"), "k=3 / ρ")].value == (
        pytest.approx(rho)
    )
    assert cells[(("perse_review (metrics_preset=default)", "prov/m1"), "k=3 / BLEU")].value == 12.5


def test_the_shuffle_spread_is_each_shuffles_correlation_mean_and_sd(tmp_path: Path) -> None:
    preds = [6.0, 7.0, 3.0, 4.0, 5.0, 8.0, 2.0, 9.0, 4.0, 6.0]
    golds = [7.0, 7.0, 4.0, 5.0, 5.0, 8.0, 3.0, 9.0, 4.0, 2.0]
    run = review_run(preds, golds, shuffles=3)
    per = []
    for epoch in (1, 2, 3):
        pairs = [(v[f"shuffle{epoch}/pred"], v["gold"]) for v, m in run.rows if m["epoch"] == epoch]
        per.append(stats.spearmanr(*zip(*pairs)).statistic)
    run.metrics = {
        "spearman_shuffle_mean": float(np.mean(per)),
        "spearman_shuffle_std": float(np.std(per, ddof=1)),
    }
    write_run(tmp_path, "shuffled", run)
    table = _table(_report(tmp_path), "per_mpst__shuffles")
    [row] = [r for r in table.rows if r.labels[3] == "ρ"]
    mean, sd, count, each = row.cells
    assert mean.value == pytest.approx(np.mean(per)) and sd == pytest.approx(np.std(per, ddof=1))
    assert count == 3 and each == ", ".join(f"{v:.3f}" for v in per)


def test_per_doc_has_a_column_per_aspect_and_their_mean(tmp_path: Path) -> None:
    aspects = ["surprise", "ending"] * 6
    correct = [1, 0, 1, 1, 0, 0, 1, 1, 1, 0, 0, 1]
    write_run(tmp_path, "doc", choice_run(correct, aspects))
    table = _table(_report(tmp_path), "per_doc__by_aspect")
    assert table.columns == ["ending", "surprise", "mean over aspects", "all pairs"]
    cells = _cells(table)
    frame = pd.DataFrame({"a": aspects, "c": correct})
    means = frame.groupby("a")["c"].mean()
    assert cells[(("perse_aspect", "prov/m1"), "ending")].value == pytest.approx(means["ending"])
    assert cells[(("perse_aspect", "prov/m1"), "mean over aspects")].value == pytest.approx(
        means.mean()
    )


# --- persona panel --------------------------------------------------------------------


def test_panel_section_shows_group_means_agreement_and_contested_samples(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    coders = ["parents/p1", "parents/p2", "teachers/t1", "teachers/t2"]
    per_sample = [{c: float(rng.integers(1, 6)) for c in coders} for _ in range(8)]
    panel = panel_scores(per_sample)
    run = annotator_run(CORRECT[:8])
    run.extra = {"panel": (panel, {"helpfulness": 3.0})}
    write_run(tmp_path, "scored", run)
    report = _report(tmp_path)
    [means] = [t for t in report.tables if t.title.endswith("panel scores by stakeholder group")]
    assert means.columns[:3] == ["whole panel", "parents", "teachers"]
    [row] = means.rows
    parents = [np.mean([s["parents/p1"], s["parents/p2"]]) for s in per_sample]
    assert row.cells[1].value == pytest.approx(np.mean(parents)) and row.cells[1].has_interval
    assert "(interval)" in row.cells[3]  # alpha and its level
    [contested] = [t for t in report.tables if t.title.endswith("most contested samples")]
    teachers = [np.mean([s["teachers/t1"], s["teachers/t2"]]) for s in per_sample]
    spread = np.abs(np.array(parents) - np.array(teachers))
    assert contested.rows[0].labels[0] == f"s{int(np.argmax(spread))}"
    assert contested.rows[0].cells[0] == pytest.approx(spread.max())


# --- LeWiDi ---------------------------------------------------------------------------


def test_lewidi_leaderboard_and_representativeness_fill_in_from_metric_names(
    tmp_path: Path,
) -> None:
    manhattan = [0.2, 0.4, 0.1, 0.3, 0.5, 0.2]
    write_run(tmp_path, "mp", lewidi_run("mp", manhattan, 0.31))
    write_run(tmp_path, "csc", lewidi_run("csc", manhattan[:5], 0.2, method="uniform"))
    rounded = lewidi_run("varierrnli", manhattan, 0.3)
    rounded.metrics["manhattan"] = round(float(np.mean(manhattan)) + 4e-7, 5)  # as LeWiDi's
    write_run(tmp_path, "vari", rounded)
    report = _report(tmp_path)
    board = _table(report, "lewidi__leaderboard")
    assert board.groups == [("csc", 2), ("mp", 2), ("varierrnli", 2)]
    assert board.columns == ["Manhattan ↓", "error rate ↓"] * 3
    cells = _cells(board)
    row = ("distribution_judge", "prov/m1")
    assert cells[(row, "mp / Manhattan ↓")].value == pytest.approx(np.mean(manhattan))
    assert cells[(row, "mp / Manhattan ↓")].has_interval
    assert cells[(row, "varierrnli / Manhattan ↓")].has_interval  # the log rounds: same value
    error = cells[(row, "mp / error rate ↓")]
    assert error.value == 0.31 and not error.has_interval  # no per-item values: the log's
    assert (("uniform", "prov/m1"), "mp / Manhattan ↓") not in cells
    rep = _cells(_table(report, "mp__representativeness"))
    run = "distribution_judge / prov/m1"
    female = rep[(("gender", "F"), f"{run} / unsteered")]
    assert female.value == pytest.approx(np.mean([0.8 + 0.01 * i for i in range(6)]))
    assert rep[(("gender", "M"), f"{run} / steered")].value == pytest.approx(0.75)
    assert (("gender", "F"), f"{run} / steered") not in rep


def test_every_family_renders_on_one_page_without_nan(tmp_path: Path) -> None:
    rng = np.random.default_rng(6)
    write_run(tmp_path, "a", annotator_run(CORRECT, traits=TRAITS))
    write_run(tmp_path, "r", role_run("drama", rng.dirichlet(np.ones(4), 10), [0] * 10))
    write_run(tmp_path, "m", rating_run(rating_rows(8)))
    write_run(tmp_path, "p", review_run([5.0, 6.0, 7.0, 8.0, 2.0], [5, 7, 7, 9, 1]))
    write_run(tmp_path, "l", lewidi_run("mp", [0.1, 0.2, 0.3, 0.4, 0.5], 0.3))
    write_run(
        tmp_path,
        "o",
        Run(task="other", scorer="match", rows=[({"x": 1.0}, {})] * 3, metrics={"accuracy": 1.0}),
    )
    report = _report(tmp_path)
    ids = [s.id for s in report.sections]
    assert ids == [
        "annotator",
        "personaeval",
        "ratings",
        "perse",
        "lewidi",
        "other",
        "all-metrics",
        "cost",
        "runs",
    ]
    document = Document("t", [], report.sections, [], [], {})
    page = render_html(document)
    for section in report.sections:
        assert f'href="#{section.id}"' in page and f'id="{section.id}"' in page
    assert "nan" not in render_markdown(document).lower().replace("nano", "")


def test_numbers_kept_in_score_metadata_are_read_in_full(tmp_path: Path) -> None:
    """Scorers show 4 rounded numbers and keep every number in ``metadata["values"]``;
    with 5 dimensions and 4 groups that is over 1k characters, which Inspect leaves out
    of the sample summaries, so the report reads those logs' scores in full."""
    rows = rating_rows(10)
    for n, (value, _) in enumerate(rows):  # as many numbers as 5 dimensions, 4 groups
        value.update({f"group/Other {i}/overall": float((n + i) % 5) for i in range(40)})
    write_run(tmp_path / "value", "v", rating_run(rows))
    path = write_run(tmp_path / "meta", "m", rating_run(rows, shown=4))
    [summary, *_] = read_eval_log_sample_summaries(str(path))
    assert thinned(summary)  # Inspect's summary left the numbers out
    assert samples_df(path)["score_gold/fluency"].notna().all()
    tables = {}
    for layout in ("value", "meta"):
        report = _report(tmp_path / layout)
        tables[layout] = _cells(_table(report, "mslr_cochrane__correlations"))
    assert tables["meta"] == tables["value"] and len(tables["value"]) > 12
