"""Paper-ready exports: booktabs LaTeX per headline table, tables that fit a page (issue 28).

The structure tests always run; the compile test wraps each ``.tex`` in a minimal
document and runs ``pdflatex`` (Debian's ``texlive-latex-recommended``), skipped when
it is not installed.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.unit.report_logs import write_run
from tests.unit.report_runs import annotator_run

from inspect_plural.report import build_report, write_report
from inspect_plural.report._bootstrap import Estimate
from inspect_plural.report._render_latex import PREAMBLE, render_latex
from inspect_plural.report._tables import Row, Table

CORRECT = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1]
TASKS = ("brexit", "epic", "mhs", "dices", "dp", "armis", "csc", "mp")
HOSTILE = "judge_<b>&%$#{x}~^\\ ρ†中"


def _logs(folder: Path) -> None:
    for i, task in enumerate(TASKS):
        write_run(folder, f"{task}_a", annotator_run(CORRECT, task=task, minutes=i))
        write_run(
            folder,
            f"{task}_b",
            annotator_run(CORRECT[::-1], task=task, method=HOSTILE, failed=[0, 1], minutes=i),
        )


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("logs")
    _logs(folder)
    report = build_report(folder, resamples=100, jobs=1, warn=lambda _: None)
    return write_report(report, tmp_path_factory.mktemp("out"), ["latex"], jobs=1)


def test_latex_writes_one_tex_and_its_csv_per_headline_table(written: list[Path]) -> None:
    names = sorted(p.name for p in written)
    assert names == [
        "annotator__accuracy.csv",
        "annotator__accuracy.tex",
        "annotator__macro_f1.csv",
        "annotator__macro_f1.tex",
    ]  # no breakdown, cost or runs table; the CSV holds estimate, low, high, n, failed
    csv_header = next(p for p in written if p.suffix == ".csv").read_text().splitlines()[0]
    assert "brexit / accuracy low,brexit / accuracy high,brexit / accuracy n" in csv_header
    assert "brexit / accuracy failed" in csv_header


def test_latex_structure_is_booktabs_and_every_text_is_escaped(written: list[Path]) -> None:
    text = next(p for p in written if p.name == "annotator__accuracy.tex").read_text()
    assert text.count(r"\begin{table}") == text.count(r"\end{table}") >= 1
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert text.count(rule) == text.count(r"\begin{table}")
    assert r"\label{tab:annotator__accuracy}" in text
    assert r"judge\_\textless{}b\textgreater{}\&\%\$\#\{x\}" in text
    assert "<b>" not in text and "中" not in text
    # a row has as many cells as its tabular has columns
    for spec, body in re.findall(r"\\begin\{tabular\}\{([lc]+)\}(.*?)\\bottomrule", text, re.S):
        for line in body.split(r"\midrule")[1].strip().splitlines():
            cells = re.sub(r"\\begin\{tabular\}.*?\\end\{tabular\}", "X", line)
            assert cells.count("&") == len(spec) - 1, line
    # two failed of 12 is over 10%: daggered, with the rate in the note
    assert r"\textsuperscript{\dag}" in text and "2 of 12 failed (16.7\\%)" in text


def test_a_wide_table_is_split_or_transposed_to_fit() -> None:
    cell = Estimate(0.5, 0.4, 0.6, 10, failed=0, total=10)
    groups = [(f"d{i}", 2) for i in range(6)]
    one_run = Table("t", "T", ["method", "model"], ["acc", "MAE"] * 6, [], groups=groups)
    one_run.rows = [Row(("m", "x"), (cell,) * 12)]
    [shown] = one_run.layout(6)  # a row per dataset, a column group per run
    assert (
        shown.row_header == ["group"] and len(shown.rows) == 6 and shown.columns == ["acc", "MAE"]
    )
    many = Table("t", "T", ["method", "model"], ["acc", "MAE"] * 6, [], groups=groups)
    many.rows = [Row((f"m{i}", "x"), (cell,) * 12) for i in range(4)]
    parts = many.layout(6)
    assert [len(p.columns) for p in parts] == [6, 6] and all(len(p.rows) == 4 for p in parts)
    assert [g for g, _ in parts[1].groups] == ["d3", "d4", "d5"]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_each_tex_compiles_with_pdflatex(written: list[Path], tmp_path: Path) -> None:
    tables = [p for p in written if p.suffix == ".tex"]
    tables.append(tmp_path / "hostile.tex")
    hostile = Table("h", HOSTILE, [HOSTILE], [HOSTILE], [Row((HOSTILE,), (HOSTILE,))])
    hostile.caption = HOSTILE
    tables[-1].write_text(render_latex(hostile, HOSTILE), encoding="utf-8")
    for tex in tables:
        document = tmp_path / f"{tex.stem}_doc.tex"
        document.write_text(
            "\\documentclass{article}\n"
            + PREAMBLE
            + "\\begin{document}\n"
            + f"\\input{{{tex.as_posix()}}}\n"
            + "\\end{document}\n",
            encoding="utf-8",
        )
        done = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", document.name],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout[-2000:]
        assert (tmp_path / f"{tex.stem}_doc.pdf").stat().st_size > 1000


def test_numbers_that_round_to_zero_carry_no_minus_sign() -> None:
    from inspect_plural.report._render import format_number
    from inspect_plural.report._render_latex import _number

    assert format_number(-0.0001) == "0.000"
    assert format_number(-0.002) == "-0.002"
    assert _number(-0.0001) == "0.000"
    assert _number(-0.25) == "$-$0.250"
    assert _number(float("nan")) == "undef."
