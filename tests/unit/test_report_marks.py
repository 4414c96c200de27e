"""Demo and partial runs are marked and never mixed; labels hold no local path (issue 28).

Also: the failure rate beside every cell, failures by reason, and the log folder shown
relative to the working directory (issue 29 item 11).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.unit.report_logs import Run, write_run
from tests.unit.report_runs import annotator_rows, annotator_run

from inspect_plural.report import build_report, write_report
from inspect_plural.report._render import format_cell
from inspect_plural.report._report import title

CORRECT = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1]
REAL = "/srv/data/HS-Brexit"


def _report(folder: Path, **kwargs: Any) -> tuple[Any, list[str]]:
    messages: list[str] = []
    report = build_report(folder, resamples=200, warn=messages.append, jobs=1, **kwargs)
    return report, messages


def _labels(report: Any, table_id: str = "annotator__accuracy") -> list[tuple[str, ...]]:
    [table] = [t for t in report.tables if t.id == table_id]
    return [row.labels for row in table.rows]


def _demo_and_real(folder: Path) -> None:
    write_run(
        folder,
        "demo",
        annotator_run(CORRECT, task_args={"demo": True}, metadata={"demo": True}),
    )
    write_run(
        folder,
        "real",
        annotator_run(CORRECT[::-1], task_args={"data_dir": REAL}, metadata={"demo": False}),
    )


def test_demo_runs_stay_out_of_a_report_with_real_runs(tmp_path: Path) -> None:
    _demo_and_real(tmp_path)
    report, messages = _report(tmp_path)
    assert _labels(report) == [("llm_judge", "prov/m1")]
    assert [(s.path, s.reason.split(" (")[0]) for s in report.skipped] == [
        ("demo.eval", "demo data")
    ]
    assert any("left out 1 demo log (-T demo=true) beside real-data runs" in m for m in messages)
    assert title(report.logs) == "inspect_plural report"


def test_include_demo_shows_demo_rows_of_their_own_marked(tmp_path: Path) -> None:
    _demo_and_real(tmp_path)
    report, _ = _report(tmp_path, include_demo=True)
    assert _labels(report) == [("llm_judge", "prov/m1"), ("llm_judge [DEMO]", "prov/m1")]
    assert title(report.logs) == "inspect_plural report (includes DEMO runs, marked)"
    written = write_report(report, tmp_path / "out", ["md", "csv", "html"], jobs=1)
    texts = {p.name: p.read_text(encoding="utf-8") for p in written if p.suffix != ".png"}
    assert "llm_judge [DEMO]" in texts["annotator__accuracy.csv"]
    assert (
        "<title>inspect_plural report (includes DEMO runs, marked)</title>" in texts["index.html"]
    )
    assert "llm_judge \\[DEMO\\]" in texts["report.md"]


def test_a_folder_of_demo_runs_only_is_shown_and_titled_demo(tmp_path: Path) -> None:
    write_run(tmp_path, "demo", annotator_run(CORRECT, metadata={"demo": True}))
    report, _ = _report(tmp_path)
    assert _labels(report) == [("llm_judge [DEMO]", "prov/m1")]
    assert title(report.logs) == "inspect_plural report: DEMO data only"


def test_labels_hold_no_local_path_and_no_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home" / "alice"
    monkeypatch.setenv("HOME", str(home))
    real = str(home / "data" / "HS-Brexit")
    write_run(tmp_path, "a", annotator_run(CORRECT, task_args={"data_dir": real}))
    write_run(
        tmp_path,
        "b",
        annotator_run(CORRECT, task_args={"data_dir": "/srv/x/other"}, limit=12, minutes=1),
    )
    report, _ = _report(tmp_path)
    labels = [label for label, _ in _labels(report)]
    assert labels == [
        "llm_judge (data_dir=HS-Brexit)",
        "llm_judge (data_dir=other) [partial]",
    ]
    [runs] = [t for t in report.tables if t.id == "runs"]
    partial = {row.labels[1]: row.cells[4] for row in runs.rows}
    assert partial["llm_judge (data_dir=other) [partial]"] == "12 samples, --limit 12"
    arguments = " ".join(str(row.cells[5]) for row in runs.rows)
    assert str(home) not in arguments and 'data_dir="~/data/HS-Brexit"' in arguments


def test_partial_run_counts_the_dataset_when_recorded(tmp_path: Path) -> None:
    write_run(tmp_path, "p", annotator_run(CORRECT, sample_id=["s0", "s1"], dataset_samples=40))
    report, _ = _report(tmp_path)
    [log] = report.logs
    assert log.partial == "12 of 40 samples, --sample-id"
    assert log.label == "llm_judge [partial]"


def test_a_log_without_samples_is_left_out_with_a_reason(tmp_path: Path) -> None:
    write_run(tmp_path, "empty", Run(rows=[], metrics={"accuracy": 0.0}, limit=0))
    write_run(tmp_path, "full", annotator_run(CORRECT))
    report, messages = _report(tmp_path)
    assert [log.name for log in report.logs] == ["full.eval"]
    assert [(s.path, s.reason) for s in report.skipped] == [
        ("empty.eval", "0 samples (e.g. --limit 0): nothing to report")
    ]
    assert any("empty.eval" in m for m in messages)


def test_summary_names_the_log_folder_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "runs" / "logs"
    write_run(folder, "a", annotator_run(CORRECT))
    monkeypatch.chdir(tmp_path)
    report, _ = _report(folder.resolve())
    written = write_report(report, tmp_path / "out", ["md"], jobs=1)
    text = next(p for p in written if p.name == "report.md").read_text(encoding="utf-8")
    assert "1 runs from runs/logs" in text and str(tmp_path) not in text


def test_failures_by_reason_and_rate_beside_each_cell(tmp_path: Path) -> None:
    rows = annotator_rows(CORRECT, failed=[0, 3])
    for i, (value, _) in enumerate(rows):
        value["n_answers"] = 1.0
        value["failed_answers"] = float(i in (0, 3))
        if i == 0:
            value["failed/echo"] = 1.0
        if i == 3:
            value["failed/copied_example"] = 1.0
    write_run(tmp_path, "a", Run(rows=rows, metrics={"accuracy": 8 / 12}))
    report, _ = _report(tmp_path)
    [table] = [t for t in report.tables if t.id == "failures"]
    assert table.columns[-2:] == ["copied_example", "echo"]
    [row] = table.rows
    assert row.cells[:3] == (12, 2, "16.7%") and row.cells[-2:] == (1, 1)
    [cell] = [c for t in report.tables if t.id == "annotator__accuracy" for c in t.rows[0].cells]
    assert format_cell(cell).endswith("n=12, 2 failed (16.7%)") and cell.flagged


def test_cost_shows_input_served_from_the_providers_prompt_cache(tmp_path: Path) -> None:
    """llama.cpp served 2,400 of 2,401 prompt tokens from its cache: not '1.0 input'."""
    from inspect_ai.model import ModelUsage

    cached = ModelUsage(
        input_tokens=1, output_tokens=20, total_tokens=2421, input_tokens_cache_read=2400
    )
    write_run(tmp_path, "server", annotator_run(CORRECT, usage=cached))
    write_run(tmp_path, "plain", annotator_run(CORRECT, method="item_majority"))
    report, _ = _report(tmp_path)
    [cost] = [t for t in report.tables if t.id == "cost"]
    by_method = {row.labels[1]: row.cells for row in cost.rows}
    assert cost.columns[2:6] == [
        "input tokens (uncached)",
        "input read from provider cache",
        "input written to provider cache",
        "output tokens",
    ]
    assert by_method["llm_judge"][2:6] == ("1.0", "2,400.0", "", "20.0")
    assert by_method["item_majority"][2:6] == ("100.0", "", "", "10.0")


def test_runs_table_names_the_data_folder_each_run_read(tmp_path: Path) -> None:
    write_run(
        tmp_path,
        "real",
        annotator_run(CORRECT, metadata={"demo": False, "data_folder": "<data_dir>/brexit"}),
    )
    report, _ = _report(tmp_path)
    [runs] = [t for t in report.tables if t.id == "runs"]
    [row] = runs.rows
    assert row.cells[runs.columns.index("data")] == "real: <data_dir>/brexit"
