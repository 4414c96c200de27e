"""End-to-end: small offline evals of every family (annotator tasks with several methods,
one chosen with ``--solver``, probability answers, PersonaEval, MAJ-Eval, PERSE with
shuffles), a cache replay, a copy under a second model name and an unfinished log, then
``inspect-plural report`` on the folder and ``inspect_plural.analysis`` on the same
logs. The checks read the written logs back: each method is its own row (an llm_judge
log and a ``--solver cinemetric`` log are two rows), cells equal the logs' metrics, the
replay is set aside naming the file kept, every figure is a valid PNG linked from the
page, and a second run writes the same bytes."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log, write_eval_log
from inspect_ai.solver import SolverSpec
from tests.conftest import FAST_LOG, log_metrics

from inspect_plural.analysis import method_of, results_df, samples_df
from inspect_plural.cli import main

pytestmark = pytest.mark.e2e

PNG = b"\x89PNG\r\n\x1a\n"
SECOND_MODEL = "plural/random-copy"
MARKS = " [DEMO] [partial]"
"""Every run here reads the demo data with --limit: its row label says so."""
RUNS: list[tuple[str, dict[str, Any], int, str | None]] = [
    ("brexit", {"demo": True}, 12, None),
    ("brexit", {"demo": True}, 12, "inspect_plural/cinemetric"),
    ("dp", {"demo": True, "method": "item_majority"}, 16, None),
    ("dices", {"demo": True, "answer_format": "distribution"}, 16, None),
    ("personaeval_literary", {"demo": True}, 10, None),
    ("storysparkqa", {"demo": True, "method": "maj_eval"}, 3, None),
    ("per_mpst", {"demo": True, "shuffle_reviews": 2}, 6, None),
]


def _key(task: str, args: dict[str, Any], solver: str | None) -> str:
    method = solver.split("/")[-1] if solver else args.get("method", "default")
    return f"{task}/{method}"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, EvalLog]]]:
    folder = tmp_path_factory.mktemp("report_logs")
    with pytest.MonkeyPatch.context() as patch:  # empty caches (Inspect's, the panels')
        patch.setenv("INSPECT_CACHE_DIR", str(tmp_path_factory.mktemp("inspect_cache")))
        patch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path_factory.mktemp("plural_cache")))
        yield _write_logs(folder)


def _write_logs(folder: Path) -> tuple[Path, dict[str, EvalLog]]:
    written: dict[str, EvalLog] = {}
    for task, args, limit, solver in RUNS:
        [log] = eval(
            f"inspect_plural/{task}",
            task_args=args,
            solver=SolverSpec(solver) if solver else None,
            model="plural/random",
            log_dir=str(folder),
            display="log",
            limit=limit,
            **FAST_LOG,
        )
        assert log.status == "success", log.error
        written[_key(task, args, solver)] = read_eval_log(log.location)
    # the llm_judge run again with Inspect's cache: the second run reads every call back
    for name in ("cached_first", "cached_replay"):
        [log] = eval(
            "inspect_plural/dp",
            task_args={"demo": True},
            model="plural/random",
            log_dir=str(folder / name),
            display="log",
            limit=8,
            cache=True,
            **FAST_LOG,
        )
        written[name] = read_eval_log(log.location)
    # the same dp run under a second model name: a second model column
    copy = written["dp/item_majority"].model_copy(deep=True)
    copy.eval.model = SECOND_MODEL
    copy.eval.eval_id = copy.eval.eval_id + "-copy"
    copy.eval.run_id = copy.eval.run_id + "-copy"
    for sample in copy.samples or []:
        sample.uuid = None
    (folder / "other_model").mkdir()
    write_eval_log(copy, str(folder / "other_model" / "dp_copy.eval"))
    # an unfinished run: header only, status "started"
    started = written["personaeval_literary/default"].model_copy(
        update={"status": "started", "results": None, "samples": None}
    )
    write_eval_log(started, str(folder / "unfinished.eval"))
    return folder, written


def _results(out: Path) -> list[dict[str, str]]:
    with (out / "results.csv").open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _estimate(rows: list[dict[str, str]], table: str, row: str, column: str) -> float:
    [match] = [r for r in rows if r["table"] == table and r["row"] == row and r["column"] == column]
    return float(match["estimate"])


@pytest.mark.slow
def test_report_of_a_directory_of_logs(
    logs: tuple[Path, dict[str, EvalLog]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, written = logs
    out = tmp_path / "report"
    assert main(["report", str(folder), "--out", str(out), "--resamples", "200"]) == 0
    err = capsys.readouterr().err
    assert "unfinished.eval" in err and "started" in err
    rows = _results(out)

    # an llm_judge log and a --solver cinemetric log on brexit: two rows, each its method
    judge, cine = written["brexit/default"], written["brexit/cinemetric"]
    assert (method_of(judge), method_of(cine)) == ("llm_judge", "cinemetric")
    brexit = [
        r
        for r in rows
        if r["table"] == "annotator__accuracy" and r["column"] == "brexit / accuracy"
    ]
    assert sorted(r["row"] for r in brexit) == [
        f"cinemetric{MARKS} / plural/random",
        f"llm_judge{MARKS} / plural/random",
    ]
    for log, row in ((judge, "llm_judge"), (cine, "cinemetric")):
        value = _estimate(
            rows, "annotator__accuracy", f"{row}{MARKS} / plural/random", "brexit / accuracy"
        )
        assert value == log_metrics(log)["accuracy"]

    # cells equal the logs' metrics; a second model is a row of its own
    majority = log_metrics(written["dp/item_majority"])["accuracy"]
    for model in ("plural/random", SECOND_MODEL):
        row = f"item_majority{MARKS} / {model}"
        assert _estimate(rows, "annotator__accuracy", row, "dp / accuracy") == majority
    dices = written["dices/default"]
    for column, metric in (("dices / top-1", "top1"), ("dices / ECE", "ece")):
        row = f"llm_judge{MARKS} / plural/random"
        value = _estimate(rows, "annotator__probability", row, column)
        assert value == pytest.approx(log_metrics(dices)[metric], abs=1e-12)
    persona = written["personaeval_literary/default"]
    value = _estimate(
        rows,
        "personaeval__tracks",
        f"role_identification{MARKS} / plural/random",
        "literary / Brier",
    )
    assert value == pytest.approx(log_metrics(persona)["brier_score"], abs=1e-12)
    story = log_metrics(written["storysparkqa/maj_eval"])
    value = _estimate(
        rows,
        "storysparkqa__correlations",
        f"maj_eval{MARKS} / plural/random / (panel)",
        "overall / ρ",
    )
    assert value == pytest.approx(story["overall/spearman"], abs=1e-12)
    assert any(
        r["table"] == "storysparkqa__correlations"
        and r["row"].endswith(("Parents", "Teachers", "Children"))
        for r in rows
    )  # a row per stakeholder group
    perse = log_metrics(written["per_mpst/default"])
    shuffles = (out / "tables" / "per_mpst__shuffles.csv").read_text(encoding="utf-8")
    assert f"{perse['kendall_shuffle_mean']!r}" in shuffles

    # the cache replay is set aside, naming the real run it replays
    markdown = (out / "report.md").read_text(encoding="utf-8")
    first = Path(written["cached_first"].location).name
    assert f"cached_replay/{Path(written['cached_replay'].location).name}" in markdown
    assert f"cache replay of cached_first/{first}" in markdown
    assert "unfinished.eval: status started" in markdown

    # one page: contents, anchors, figures that exist
    index = (out / "index.html").read_text(encoding="utf-8")
    assert '<nav class="toc">' in index
    for section in ("annotator", "personaeval", "ratings", "perse", "cost", "runs"):
        assert f'id="{section}"' in index and f'href="#{section}"' in index
    figures = sorted((out / "figures").glob("*.png"))
    assert {p.name for p in figures} >= {
        "annotator__accuracy_forest.png",
        "dices__reliability.png",
        "brexit__annotators.png",
        "personaeval_literary__reliability.png",
        "storysparkqa__debate__maj_eval_DEMO_partial__plural_random.png",
    }
    for path in figures:
        assert path.read_bytes()[:8] == PNG, path.name
        assert f'src="figures/{path.name}"' in index

    # the same command again writes the same bytes
    again = tmp_path / "again"
    assert main(["report", str(folder), "--out", str(again), "--resamples", "200"]) == 0
    first_files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert first_files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for path in first_files:
        assert (out / path).read_bytes() == (again / path).read_bytes(), path


def test_dataframes_of_real_logs_of_every_family(logs: tuple[Path, dict[str, EvalLog]]) -> None:
    folder, written = logs
    samples = samples_df(folder)
    for column in (
        "score_correct",
        "score_p_0",
        "score_pred/overall",
        "score_shuffle1/pred",
        "score_group/Parents/overall",
    ):
        assert column in samples and samples[column].dtype == float, column
    judge = samples[(samples["task"] == "brexit") & (samples["method"] == "llm_judge")]
    assert judge["score_correct"].mean() == pytest.approx(
        log_metrics(written["brexit/default"])["accuracy"]
    )
    assert samples.loc[samples["task"] == "dp", "trait_gender"].notna().all()
    runs = results_df(folder)
    assert set(runs["method"]) >= {
        "llm_judge",
        "cinemetric",
        "item_majority",
        "role_identification",
        "maj_eval",
        "perse_review",
    }
