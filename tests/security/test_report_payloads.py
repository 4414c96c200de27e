"""Hostile text in every field a report shows stays text in every output (issue 29 items 1-2).

Logs whose sample ids, labels, trait names and values, persona and stakeholder group
names, task arguments, method and model names hold ``<script>`` and ``<img onerror>``
payloads (and a sample id that is a spreadsheet formula) go through ``inspect-plural
report`` in every format. No output may hold a raw payload tag, no CSV cell may start
as a formula, ``report.md`` rendered by markdown-it with HTML on must produce no tag,
attribute or link from the data, and the LaTeX must hold none of it unescaped. When
Playwright and Chromium are installed, the rendered Markdown and the HTML page are
opened and their alert dialogs counted (0).
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from markdown_it import MarkdownIt
from tests.unit.report_logs import Run, write_run
from tests.unit.report_runs import annotator_metrics, annotator_rows, panel_scores, rating_run

from inspect_plural._escape import FORMULA_START
from inspect_plural.report import build_report, write_report

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
SVG = "<svg onload=alert(3)>"
FORMULA = '=HYPERLINK("http://example.invalid/?x","click")'
RAW = re.compile(r"<\s*(script|img\s+src=x|svg\s+onload)", re.IGNORECASE)
"""A payload's tag, unescaped (the page's own figure ``<img src="figures/...">`` is not one)."""
CHROMIUM = "/usr/bin/chromium"


def _annotator(task: str) -> Run:
    correct = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1]
    rows = annotator_rows(correct, failed=[2])
    for i, (_, metadata) in enumerate(rows):
        metadata["sample_id"] = f"{SCRIPT}:{i}" if i % 2 else f"{IMG}:{i}"
        metadata["annotator_id"] = SCRIPT if i % 2 else IMG
        metadata["metric_traits"] = {SCRIPT: IMG if i % 2 else SVG, "age": SCRIPT}
        metadata["scale"]["labels"] = [SCRIPT, IMG, SVG]
    run = Run(rows=rows, metrics=annotator_metrics(rows), task=task, method=f"judge{SCRIPT}")
    run.model = f"prov/{IMG}"
    run.task_args = {"note": SCRIPT, "data_dir": f"/data/{IMG}"}
    run.metadata["family"] = "perspective"
    return run


def _panel() -> Run:
    rng = np.random.default_rng(3)
    coders = [f"{IMG}/p1", f"{IMG}/p2", f"{SVG}/t1", f"{SVG}/t2"]
    per_sample = [{c: float(rng.integers(1, 6)) for c in coders} for _ in range(8)]
    run = _annotator("dp")
    run.rows = run.rows[:8]
    for i, (_, metadata) in enumerate(run.rows):
        metadata["sample_id"] = FORMULA.replace("?x", f"?{i}") if i % 2 else f"{SCRIPT}{i}"
    run.metrics = annotator_metrics(run.rows)
    run.extra = {"panel": (panel_scores(per_sample), {"helpfulness": 3.0})}
    return run


def _ratings() -> Run:
    rng = np.random.default_rng(0)
    rows = []
    for i in range(10):
        value: dict[str, float] = {"parse_ok": 1.0, "model_calls": 9.0}
        for dim in ("overall", "fluency"):
            value[f"gold/{dim}"] = float(rng.integers(1, 6))
            value[f"pred/{dim}"] = float(rng.integers(1, 6))
            for group in (IMG, SVG):  # stakeholder groups named by a model
                value[f"group/{group}/{dim}"] = float(rng.integers(1, 6))
        rows.append((value, {"item_id": f"o{i}", "sample_id": f"{SCRIPT}{i}"}))
    run = rating_run(rows)
    run.method = f"maj{IMG}"
    return run


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("hostile_logs")
    write_run(folder, "brexit", _annotator("brexit"))
    write_run(folder, "panel", _panel())
    write_run(folder, "ratings", _ratings())
    report = build_report(folder, resamples=100, jobs=1, warn=lambda _: None)
    out = tmp_path_factory.mktemp("hostile_report")
    written = write_report(report, out, ["md", "csv", "html", "latex"], jobs=1)
    return {
        p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
        for p in written
        if p.suffix in (".md", ".csv", ".html", ".tex")
    }


def test_the_payloads_reach_the_outputs(outputs: dict[str, str]) -> None:
    """Else the other tests would pass for want of a payload."""
    every = "\n".join(outputs.values())
    for text in ("script&gt;alert(1)", "onerror=alert(2)", "onload=alert(3)", "HYPERLINK"):
        assert text in every, text
    assert {"report.md", "index.html", "results.csv"} <= set(outputs)
    assert any(name.endswith("contested.csv") for name in outputs)
    assert any(name.endswith(".tex") for name in outputs)


def test_no_raw_payload_tag_in_any_output(outputs: dict[str, str]) -> None:
    found = {name: RAW.findall(text) for name, text in outputs.items() if not name.endswith(".tex")}
    assert {name: tags for name, tags in found.items() if tags} == {}


def test_no_csv_cell_starts_as_a_formula(outputs: dict[str, str]) -> None:
    checked = 0
    for name, text in outputs.items():
        if not name.endswith(".csv"):
            continue
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                checked += 1
                if cell.lstrip(" ").startswith(FORMULA_START):
                    assert re.fullmatch(r"-?[\d.e+-]+|-inf", cell), (name, cell)
    assert checked > 100
    contested = next(t for n, t in outputs.items() if n.endswith("contested.csv"))
    assert "'=HYPERLINK" in contested


def _rendered(markdown: str) -> str:
    return MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)


class _Tags(HTMLParser):
    """Every tag and attribute of a page, as a browser would parse them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes += [(tag, name, value or "") for name, value in attrs]


MARKDOWN_TAGS = {"h1", "h2", "h3", "p", "ul", "li", "a", "img", "table", "thead", "tbody"}
MARKDOWN_TAGS |= {"tr", "th", "td", "em", "strong", "code"}


def test_markdown_renders_no_tag_attribute_or_link_from_the_data(outputs: dict[str, str]) -> None:
    for name, text in outputs.items():
        if not name.endswith(".md"):
            continue
        parsed = _Tags()
        parsed.feed(_rendered(text))
        assert parsed.tags <= MARKDOWN_TAGS, (name, parsed.tags - MARKDOWN_TAGS)
        for tag, attribute, value in parsed.attributes:
            assert not attribute.startswith("on"), (name, tag, attribute)
            assert "javascript:" not in value, (name, tag, value)
            if tag == "img" and attribute == "src":
                assert value.startswith("figures/"), (name, value)
            if tag == "a" and attribute == "href":
                assert value.startswith("#"), (name, value)


def test_latex_holds_no_payload_unescaped(outputs: dict[str, str]) -> None:
    for name, text in outputs.items():
        if name.endswith(".tex"):
            assert "<" not in text and ">" not in text, name
            assert r"\textless{}" in text, name  # the payloads are there, escaped


def _alerts(html_path: Path) -> int:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("no Chromium")
    dialogs: list[Any] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(html_path.resolve().as_uri())
        page.wait_for_timeout(1500)
        browser.close()
    return len(dialogs)


def test_chromium_shows_no_alert(outputs: dict[str, str], tmp_path: Path) -> None:
    markdown = tmp_path / "report_md.html"
    markdown.write_text(_rendered(outputs["report.md"]), encoding="utf-8")
    page = tmp_path / "index.html"
    page.write_text(outputs["index.html"], encoding="utf-8")
    assert _alerts(markdown) == 0
    assert _alerts(page) == 0
