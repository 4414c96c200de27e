"""The report (``inspect-plural report``): statistics against scipy / scikit-learn, method
identity and grouping, failure flags, rendering and the command, on hand-made logs
(``tests/unit/report_logs.py``; no eval run)."""

from __future__ import annotations

import math
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.metrics import f1_score
from tests.unit.report_logs import Run, write_run
from tests.unit.report_runs import annotator_run

from inspect_plural.cli import main
from inspect_plural.report import (
    FLAG,
    MIN_UNITS,
    Bootstrap,
    Estimate,
    NoLogsError,
    Report,
    build_report,
    class_f1_statistic,
    ece_statistic,
    format_cell,
    group_macro_f1,
    kendall,
    macro_f1_statistic,
    mean_of_group_means,
    parse_formats,
    pearson,
    render_html,
    render_markdown,
    render_results_csv,
    spearman,
    write_report,
)
from inspect_plural.report._render import Document
from inspect_plural.scorers import expected_calibration_error, grouped_report

CORRECT_A = [1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 0]
CORRECT_B = [0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0]
TRAITS = ["F", "M", "F", "F", "M", "UNK", "M", "F", "M", "F", "", "M"]


def _report(folder: Path, **kwargs: Any) -> tuple[Report, list[str]]:
    messages: list[str] = []
    report = build_report(
        folder, resamples=kwargs.pop("resamples", 300), warn=messages.append, **kwargs
    )
    return report, messages


def _table(report: Report, table_id: str) -> Any:
    [table] = [t for t in report.tables if t.id == table_id]
    return table


def _cells(table: Any) -> dict[tuple[tuple[str, ...], str], Any]:
    return {
        (row.labels, column): cell
        for row in table.rows
        for column, cell in zip(table.flat_columns, row.cells)
    }


def _document(report: Report) -> Document:
    return Document("t", [], report.sections, [], [], {})


# --- bootstrap ----------------------------------------------------------------------


def test_bootstrap_mean_is_scipys_seeded_percentile_bootstrap() -> None:
    values = np.array([1, 0, 1, 1, 0, 1, 1, 1], dtype=float)
    boot = Bootstrap(seed=42, resamples=999)
    estimate = boot.mean(values, "cell")
    assert estimate.value == 0.75 and estimate.n == 8
    assert estimate.low is not None and estimate.high is not None
    rng = np.random.default_rng([42, zlib.crc32(b"cell")])
    direct = stats.bootstrap(
        (values,), np.mean, n_resamples=999, method="percentile", rng=rng
    ).confidence_interval
    assert (estimate.low, estimate.high) == (direct.low, direct.high)
    assert boot.mean(values, "cell") == estimate  # deterministic
    spread = np.random.default_rng(0).normal(size=30)  # continuous: the seed shows
    assert boot.mean(spread, "cell") != Bootstrap(seed=7, resamples=999).mean(spread, "cell")
    assert boot.mean(spread, "cell") != boot.mean(spread, "another cell")


def test_no_interval_below_five_units_and_the_note_says_so() -> None:
    boot = Bootstrap(resamples=200)
    four = boot.mean([0.5, 1.0, 0.0, 1.0], "k")
    assert four.value == 0.625 and four.n == 4 and not four.has_interval
    assert four.note and str(MIN_UNITS) in four.note
    assert boot.mean([0.5, 1.0, 0.0, 1.0, 1.0], "k").has_interval
    empty = boot.mean([], "k")
    assert math.isnan(empty.value) and empty.n == 0
    # x is constant in a third of the resamples (those that miss the last pair)
    x, y = [1.0, 1.0, 1.0, 1.0, 2.0], [1.0, 2.0, 3.0, 4.0, 5.0]
    small = boot.statistic((x, y), pearson, "r")
    assert small.value == pytest.approx(stats.pearsonr(x, y).statistic)
    assert not small.has_interval and small.note and "resamples" in small.note


# --- statistics against the references -------------------------------------------------


def test_correlations_match_scipy_with_ties_and_batches() -> None:
    rng = np.random.default_rng(0)
    for n in (5, 40, 150, 700):  # 700: kendall takes scipy's per-resample path
        x = rng.integers(0, 4, size=(6, n)).astype(float)
        y = x + rng.integers(0, 3, size=(6, n)).astype(float)
        for i in range(6):
            assert pearson(x[i], y[i]) == pytest.approx(stats.pearsonr(x[i], y[i]).statistic)
            assert spearman(x[i], y[i]) == pytest.approx(stats.spearmanr(x[i], y[i]).statistic)
            tau = stats.kendalltau(x[i], y[i], variant="b").statistic
            assert kendall(x[i], y[i]) == pytest.approx(tau, abs=1e-12)
        batched = kendall(x, y, axis=-1)
        assert batched.shape == (6,)
        assert batched[3] == pytest.approx(stats.kendalltau(x[3], y[3], variant="b").statistic)
    constant = np.ones(5)
    assert math.isnan(float(pearson(constant, np.arange(5.0))))
    assert math.isnan(float(kendall(np.arange(5.0), constant)))


def test_macro_f1_and_class_f1_match_sklearn() -> None:
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 4, size=60)
    pred = np.where(rng.random(60) < 0.1, -1, rng.integers(0, 3, size=60))  # failures, no 3s
    fixed = macro_f1_statistic(4, inferred=False, zero_division=0.0)
    expected = f1_score(gold, pred, labels=[0, 1, 2, 3], average="macro", zero_division=0)
    assert float(fixed(gold, pred)) == pytest.approx(expected)
    inferred = macro_f1_statistic(4, inferred=True, zero_division=0.0)
    labels = sorted((set(gold) | set(pred)) - {-1})
    assert float(inferred(gold, pred)) == pytest.approx(
        f1_score(gold, pred, labels=labels, average="macro", zero_division=0)
    )
    per_class = f1_score(gold, pred, labels=[0, 1, 2, 3], average=None, zero_division=0)
    for label in range(4):
        assert float(class_f1_statistic(label)(gold, pred)) == pytest.approx(per_class[label])
    batch = fixed(np.stack([gold, gold]), np.stack([pred, gold]), axis=-1)
    assert batch[0] == pytest.approx(expected) and batch[1] == pytest.approx(1.0)


@pytest.mark.parametrize("labels", ["fixed", "inferred"])
def test_group_macro_f1_averages_to_the_package_metric(labels: str) -> None:
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 3, size=80)
    pred = np.where(rng.random(80) < 0.1, -1, rng.integers(0, 3, size=80))
    groups = [f"g{i}" for i in rng.integers(0, 9, size=80)]
    codes, _ = pd.factorize(pd.Series(groups))
    per_group = group_macro_f1(gold, pred, codes, 3, labels == "inferred", 0.0)
    assert len(per_group) == len(set(groups))
    report = grouped_report(gold, pred, groups, 3, labels)  # type: ignore[arg-type]
    assert per_group.mean() == pytest.approx(report["macro_f1"])


def test_ece_and_group_means_match_their_definitions() -> None:
    rng = np.random.default_rng(3)
    confidence = rng.random(50)
    correct = (rng.random(50) < confidence).astype(float)
    for bins in (10, 15, 20):
        assert float(ece_statistic(bins)(confidence, correct)) == pytest.approx(
            expected_calibration_error(confidence, correct > 0.5, bins)
        )
    batch = ece_statistic(15)(np.stack([confidence, confidence]), np.stack([correct, 1 - correct]))
    assert batch[1] == pytest.approx(expected_calibration_error(confidence, correct < 0.5, 15))
    codes = rng.integers(0, 4, size=50).astype(float)
    expected = pd.Series(correct).groupby(codes).mean().mean()
    assert float(mean_of_group_means(correct, codes)) == pytest.approx(expected)


# --- method identity and grouping -----------------------------------------------------


def test_llm_judge_and_a_solver_run_of_cinemetric_are_two_rows(tmp_path: Path) -> None:
    write_run(tmp_path, "judge", annotator_run(CORRECT_A, method="llm_judge"))
    # run with --solver inspect_plural/cinemetric: the task's metadata knows nothing of it
    write_run(tmp_path, "cine", annotator_run(CORRECT_B, solver="cinemetric", minutes=5))
    report, _ = _report(tmp_path)
    table = _table(report, "annotator__accuracy")
    cells = _cells(table)
    assert [row.labels for row in table.rows] == [
        ("cinemetric", "prov/m1"),
        ("llm_judge", "prov/m1"),
    ]
    assert cells[(("llm_judge", "prov/m1"), "brexit / accuracy")].value == pytest.approx(
        np.mean(CORRECT_A)
    )
    assert cells[(("cinemetric", "prov/m1"), "brexit / accuracy")].value == pytest.approx(
        np.mean(CORRECT_B)
    )
    assert not report.skipped and not report.notes


def test_only_identical_configurations_are_repeats_and_the_kept_file_is_named(
    tmp_path: Path,
) -> None:
    write_run(tmp_path, "k1", annotator_run(CORRECT_A, task_args={"k": 1}))
    write_run(tmp_path, "k3", annotator_run(CORRECT_A, task_args={"k": 3}))
    write_run(tmp_path, "k3b", annotator_run(CORRECT_B, task_args={"k": 3}, minutes=5))
    write_run(tmp_path, "k3_m2", annotator_run(CORRECT_B, task_args={"k": 3}, model="prov/m2"))
    report, _ = _report(tmp_path)
    rows = {row.labels for row in _table(report, "annotator__accuracy").rows}
    assert rows == {
        ("llm_judge (k=1)", "prov/m1"),
        ("llm_judge (k=3)", "prov/m1"),
        ("llm_judge (k=3)", "prov/m2"),
    }
    [aside] = report.skipped
    assert (
        aside.path == "k3.eval"
        and "k3b.eval" in aside.reason
        and "same configuration" in aside.reason
    )
    assert aside.reason == "repeat of k3b.eval (same configuration): k3b.eval kept"
    cells = _cells(_table(report, "annotator__accuracy"))
    kept = cells[(("llm_judge (k=3)", "prov/m1"), "brexit / accuracy")]
    assert kept.value == pytest.approx(np.mean(CORRECT_B))  # the later run


def test_a_method_chosen_with_solver_on_a_task_built_for_another_is_its_own_row(
    tmp_path: Path,
) -> None:
    task_built = annotator_run(CORRECT_A, method="cinemetric", task_args={"method": "cinemetric"})
    write_run(tmp_path, "t", task_built)
    write_run(tmp_path, "s", annotator_run(CORRECT_B, solver="cinemetric"))
    report, _ = _report(tmp_path)
    rows = [row.labels[0] for row in _table(report, "annotator__accuracy").rows]
    assert rows == ["cinemetric (-T method)", "cinemetric (via --solver)"]
    assert not report.skipped


def test_a_cache_replay_never_stands_in_for_the_run_it_replays(tmp_path: Path) -> None:
    write_run(tmp_path, "real", annotator_run(CORRECT_A))
    write_run(tmp_path, "replay", annotator_run(CORRECT_B, cache_read=True, minutes=9))
    report, _ = _report(tmp_path)
    [row] = _table(report, "annotator__accuracy").rows
    assert row.cells[0].value == pytest.approx(np.mean(CORRECT_A))  # the earlier, real run
    [aside] = report.skipped
    assert aside.path == "replay.eval" and "cache replay of real.eval" in aside.reason
    # alone, a replay is shown and says what it is
    alone = tmp_path / "alone"
    write_run(alone, "replay", annotator_run(CORRECT_B, cache_read=True))
    report, _ = _report(alone)
    [row] = _table(report, "annotator__accuracy").rows
    assert row.labels[0] == "llm_judge [cache replay]"
    assert any("cache replay" in note for note in report.notes)


def test_panels_read_from_the_disk_cache_are_named_with_the_run_that_built_them(
    tmp_path: Path,
) -> None:
    """Not a replay (the run made its own calls), but its panels are an earlier run's."""
    built = {"CharacterPanel:from_cache": False, "CharacterPanel:annotator_id": "a0"}
    cached = {"CharacterPanel:from_cache": True, "CharacterPanel:annotator_id": "a0"}
    write_run(tmp_path, "first", annotator_run(CORRECT_A, method="cinemetric", store=built))
    write_run(
        tmp_path,
        "again",
        annotator_run(CORRECT_B, method="cinemetric", store=cached, minutes=3, model="prov/m2"),
    )
    write_run(
        tmp_path,
        "later",
        annotator_run(CORRECT_B, method="cinemetric", store=cached, minutes=5),
    )
    report, _ = _report(tmp_path)
    logs = {log.name: log for log in report.logs}
    assert logs["later.eval"].replay is None
    assert logs["later.eval"].label == "cinemetric [cached panels]"
    assert logs["later.eval"].cached_panels == (
        "12 of 12 persona panels read from the package's disk cache, built by first.eval"
    )
    assert logs["again.eval"].cached_panels is not None  # another model: not first's panels
    assert logs["again.eval"].cached_panels.endswith("built by an earlier run not in this folder")
    assert [s.path for s in report.skipped] == ["first.eval"]  # a repeat of "later"
    markdown = render_markdown(
        Document(
            "t", [], report.sections, [], [f"{n}: {v.cached_panels}" for n, v in logs.items()], {}
        )
    )
    assert "built by first.eval" in markdown


# --- failures -------------------------------------------------------------------------


def test_failures_are_beside_every_cell_and_flagged_above_ten_percent(tmp_path: Path) -> None:
    write_run(tmp_path, "ok", annotator_run(CORRECT_A, failed=[3]))  # 1/12: not flagged
    write_run(tmp_path, "bad", annotator_run(CORRECT_A, failed=[0, 3], method="cinemetric"))
    report, _ = _report(tmp_path)
    cells = _cells(_table(report, "annotator__accuracy"))
    ok = cells[(("llm_judge", "prov/m1"), "brexit / accuracy")]
    bad = cells[(("cinemetric", "prov/m1"), "brexit / accuracy")]
    assert (ok.failed, ok.total, ok.flagged) == (1, 12, False)
    assert (bad.failed, bad.total, bad.flagged) == (2, 12, True)
    assert format_cell(ok).endswith("n=12, 1 failed (8.3%)")
    assert format_cell(bad).startswith(f"{bad.value:.3f}{FLAG}")
    markdown = render_markdown(_document(report))
    assert f"{FLAG} failed answers exceed 10%" in markdown and "(2/12)" in markdown


def test_a_run_whose_every_answer_failed_never_reads_as_a_plain_zero(tmp_path: Path) -> None:
    write_run(tmp_path, "none", annotator_run([0] * 20, failed=list(range(20))))
    report, _ = _report(tmp_path)
    [[cell, *_]] = [row.cells for row in _table(report, "annotator__accuracy").rows]
    assert cell.value == 0.0 and cell.flagged
    assert format_cell(cell) == f"0.000{FLAG} [0.000, 0.000] n=20, 20 failed (100.0%)"
    page = render_html(_document(report))
    assert 'class="num flag"' in page and "20 failed" in page


# --- tables and pages -----------------------------------------------------------------


def test_point_is_the_logs_value_and_a_mismatch_gets_no_interval(tmp_path: Path) -> None:
    run = annotator_run(CORRECT_A)
    run.metrics["accuracy"] = 0.1
    write_run(tmp_path, "x", run)
    report, _ = _report(tmp_path)
    [cell] = [c for c in _table(report, "annotator__accuracy").rows[0].cells if c is not None]
    assert cell.value == 0.1 and not cell.has_interval and cell.source == "log"
    assert "0.1" in cell.note and "log" in cell.note
    assert format_cell(cell) == "0.100* n=12, 0 failed"


def test_inapplicable_cells_are_blank_and_empty_columns_left_out(tmp_path: Path) -> None:
    write_run(tmp_path, "nominal", annotator_run(CORRECT_A))
    write_run(tmp_path, "ordinal", annotator_run(CORRECT_B, task="dp", ordinal=True, n_labels=5))
    report, _ = _report(tmp_path)
    table = _table(report, "annotator__accuracy")
    assert table.flat_columns == ["brexit / accuracy", "dp / accuracy", "dp / MAE"]
    page = render_markdown(_document(report))
    assert "nan" not in page and "n/a" not in page


def test_output_is_deterministic_for_a_seed(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    write_run(folder, "a", annotator_run(CORRECT_A, traits=TRAITS))
    write_run(folder, "b", annotator_run(CORRECT_B, traits=TRAITS, method="item_majority"))
    files = {}
    for name in ("one", "two"):
        report, _ = _report(folder, seed=5)
        written = write_report(report, tmp_path / name)
        files[name] = {p.relative_to(tmp_path / name).as_posix(): p.read_bytes() for p in written}
    assert files["one"] == files["two"]
    assert any(name.endswith(".png") for name in files["one"])
    other, _ = _report(folder, seed=6)
    assert render_results_csv(other.tables).encode() != files["one"]["results.csv"]


def test_html_page_has_contents_anchors_and_escapes_every_text(tmp_path: Path) -> None:
    write_run(tmp_path, "x", annotator_run(CORRECT_A, method="<script>alert(1)</script>|x"))
    report, _ = _report(tmp_path)
    page = render_html(_document(report))
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;|x" in page
    assert '<nav class="toc">' in page and 'href="#annotator__accuracy"' in page
    assert 'id="annotator__accuracy"' in page and 'href="#methods"' in page
    markdown = render_markdown(_document(report))
    assert "<script>" not in markdown and "&lt;script&gt;alert(1)&lt;/script&gt;\\|x" in markdown


def test_formats_and_cells() -> None:
    assert parse_formats("html, md") == ["md", "html"]
    with pytest.raises(ValueError, match="pdf"):
        parse_formats("md,pdf")
    cell = Estimate(0.5, 0.25, 0.75, 40, failed=2, total=40)
    assert format_cell(cell) == "0.500 [0.250, 0.750] n=40, 2 failed (5.0%)"
    assert format_cell(Estimate(0.5, 0.25, 0.75, 4, failed=2, total=40)).endswith(
        "2/40 failed (5.0%)"
    )
    assert format_cell(Estimate(math.nan, None, None, 3)) == "undefined n=3"
    assert format_cell(None) == ""


def test_unfinished_logs_are_skipped_with_a_warning(tmp_path: Path) -> None:
    write_run(tmp_path, "done", annotator_run(CORRECT_A))
    write_run(tmp_path, "started", Run(status="started"))
    report, messages = _report(tmp_path)
    assert [s.path for s in report.skipped] == ["started.eval"]
    assert any("started.eval" in m and "started" in m for m in messages)


def test_no_logs_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(NoLogsError, match="no Inspect logs"):
        build_report(tmp_path)
    write_run(tmp_path, "s", Run(status="started"))
    with pytest.raises(NoLogsError, match="no finished logs"):
        build_report(tmp_path, warn=lambda _: None)


def test_cli_exit_status_and_formats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["report", str(empty), "--out", str(tmp_path / "o")]) == 2
    assert "no Inspect logs" in capsys.readouterr().err
    logs = tmp_path / "logs"
    write_run(logs, "a", annotator_run(CORRECT_A))
    write_run(logs, "started", Run(status="started"))
    assert main(["report", str(logs), "--out", str(tmp_path / "o"), "--format", "xls"]) == 2
    assert "unknown format" in capsys.readouterr().err
    out = tmp_path / "out"
    args = ["report", str(logs), "--out", str(out), "--formats", "csv", "--resamples", "200"]
    assert main(args) == 0
    captured = capsys.readouterr()
    assert "started.eval" in captured.err and "warning" in captured.err
    assert "1 runs" in captured.out or "1 run" in captured.out
    assert (out / "results.csv").is_file() and not (out / "report.md").exists()
    assert not (out / "index.html").exists()
    results = pd.read_csv(out / "results.csv")
    [estimate] = results.loc[
        (results["table"] == "annotator__accuracy")
        & (results["row"] == "llm_judge / prov/m1")
        & (results["column"] == "brexit / accuracy"),
        "estimate",
    ]
    assert estimate == pytest.approx(np.mean(CORRECT_A))
    assert {"failed", "samples", "flagged"} <= set(results.columns)


def test_epochs_are_averaged_per_sample_as_the_run_mean_reducer_does(tmp_path: Path) -> None:
    # 3 epochs of 6 samples: the log's accuracy is the mean over runs (run_mean)
    per_epoch = [[1, 0, 1, 1, 0, 1], [1, 1, 0, 1, 0, 0], [0, 0, 1, 1, 0, 1]]
    rows = []
    for epoch, correct in enumerate(per_epoch, start=1):
        for value, metadata in annotator_run(correct).rows:
            metadata.update({"sample_id": f"s{len(rows) % 6}", "epoch": epoch})
            rows.append((value, metadata))
    run = Run(rows=rows, epochs=3, metrics={"accuracy": float(np.mean(per_epoch))})
    run.metadata["family"] = "perspective"
    write_run(tmp_path, "paper", run)
    report, _ = _report(tmp_path)
    [cell] = [c for c in _table(report, "annotator__accuracy").rows[0].cells if c is not None]
    assert cell.value == pytest.approx(np.mean(per_epoch)) and cell.has_interval
    assert (cell.n, cell.failed, cell.total) == (6, 0, 18)


def test_worker_processes_write_the_same_report_as_one_process(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    write_run(folder, "a", annotator_run(CORRECT_A, traits=TRAITS))
    write_run(folder, "b", annotator_run(CORRECT_B, traits=TRAITS, method="item_majority"))
    write_run(folder, "c", annotator_run(CORRECT_B, task="dp", ordinal=True, n_labels=5))
    files = {}
    for jobs in (1, 2):
        report = build_report(folder, resamples=200, warn=lambda _: None, jobs=jobs)
        out = tmp_path / f"jobs{jobs}"
        written = write_report(report, out, jobs=jobs)
        files[jobs] = {p.relative_to(out).as_posix(): p.read_bytes() for p in written}
    assert files[1] == files[2] and any(name.endswith(".png") for name in files[1])
