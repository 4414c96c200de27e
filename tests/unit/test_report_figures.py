"""The report's figures, drawn from hand-made logs: every title inside the figure (none
clipped), answers per bin on the reliability diagram, no box and a visible note below 5
annotators, open markers and a note for cells without an interval."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from tests.unit.report_logs import write_run
from tests.unit.report_runs import annotator_run, rating_rows, rating_run, role_run

from inspect_plural.report import Estimate, build_report
from inspect_plural.report._figures import annotator_spread, debate, forest, reliability

LONG = (
    "a title long enough to be clipped by a narrow figure unless it is wrapped: "
    "personaeval_literary, role_identification (metrics_preset=personaeval) / provider/model"
)


def _inside(figure: Figure) -> None:
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    box = figure.bbox
    texts = [figure._suptitle] if figure._suptitle is not None else []  # noqa: SLF001
    texts += [ax.title for ax in figure.axes if ax.get_title()]
    assert texts
    for text in texts:
        extent = text.get_window_extent(renderer)
        assert extent.x0 >= box.x0 - 1 and extent.x1 <= box.x1 + 1, text.get_text()
        assert extent.y0 >= box.y0 - 1 and extent.y1 <= box.y1 + 1, text.get_text()


def _logs(tmp_path: Path, *runs: object) -> list:  # type: ignore[type-arg]
    for i, run in enumerate(runs):
        write_run(tmp_path, f"r{i}", run)  # type: ignore[arg-type]
    return build_report(tmp_path, resamples=50, warn=lambda _: None).logs


def test_reliability_diagram_counts_the_answers_in_each_bin(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    probs = rng.dirichlet(np.ones(4), 40)
    [log] = _logs(tmp_path, role_run("literary", probs, rng.integers(0, 4, 40)))
    figure = reliability(LONG, [log], None)
    assert figure is not None
    _inside(figure)
    top, bottom = figure.axes
    counts = [int(t.get_text()) for t in top.texts]
    assert sum(counts) == 40  # each point labelled with its bin's answers
    assert sum(p.get_height() for p in bottom.patches) == 40


def test_no_box_below_five_annotators_and_the_figure_says_so(tmp_path: Path) -> None:
    [log] = _logs(tmp_path, annotator_run([1, 0, 1, 1, 0, 1, 1, 0]))  # 4 annotators
    figure = annotator_spread(LONG, [log], None)
    assert figure is not None
    _inside(figure)
    [ax] = figure.axes
    assert "fewer than 5 annotators" in ax.get_title()
    assert not ax.lines  # a box plot draws its boxes, whiskers and medians as lines


def test_forest_titles_fit_and_cells_without_interval_are_marked(tmp_path: Path) -> None:
    series = [
        (f"run {i} with a long label ({'x' * i})", [Estimate(0.5, 0.4, 0.6, 40), None])
        for i in range(12)
    ]
    series.append(("few", [Estimate(0.3, None, None, 3), Estimate(0.2, 0.1, 0.3, 20)]))
    figure = forest(LONG, "accuracy", ["brexit", "dp"], series, tmp_path / "f.png")
    assert figure is not None and (tmp_path / "f.png").read_bytes()[:4] == b"\x89PNG"
    _inside(figure)
    assert "Open markers" in figure._supxlabel.get_text()  # noqa: SLF001
    assert figure.get_figwidth() <= 14.0  # grows in height, not width


def test_debate_figure_from_the_per_sample_scores(tmp_path: Path) -> None:
    [log] = _logs(tmp_path, rating_run(rating_rows(8)))
    figure = debate(LONG, log, None)
    assert figure is not None
    _inside(figure)
    overall = figure.axes[0]
    heights = [p.get_height() for p in overall.patches]
    panel_initial = np.mean([v["pred_initial/overall"] for v, _ in rating_rows(8)])
    assert heights[0] == pytest.approx(panel_initial)
    # one legend for the figure, below the panels, none inside a panel (it covered bars)
    assert all(ax.get_legend() is None for ax in figure.axes)
    [legend] = figure.legends
    assert [t.get_text() for t in legend.get_texts()] == ["initial", "final"]
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    renderer = canvas.get_renderer()
    box = legend.get_window_extent(renderer)
    assert all(box.y1 <= ax.get_window_extent(renderer).y0 for ax in figure.axes)
