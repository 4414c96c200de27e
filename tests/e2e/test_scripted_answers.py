"""Broken models never score above chance unnoticed: one task per family (issue 34).

The scripted models of :mod:`tests.scripted_answers` answer as real small models did: an
echo of the prompt (Gemma 3 270M), a copy of the prompt's example (SmolLM2-135M,
constrained), the first allowed answer. On one task of each family each must either
be counted as failures (every answer refused with its reason) or score at most what an
answer that knows nothing about the item earns: the better of a uniformly random answer
and the best constant answer (the first-label model *is* a constant answer, so on a
skewed dataset it earns the class share, never more). Before the fix the echo model
scored accuracy 0.9 on HS-Brexit with 0 failures (the parser read the prompt's own
example inside the echo).
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog
from tests.conftest import FAST_LOG, log_metrics, log_samples, score_value
from tests.scripted_answers import KINDS, AnswerKind, answer_model

from inspect_plural.records import RoleSampleMetadata

pytestmark = pytest.mark.e2e


def _run(task: str, kind: AnswerKind, tmp_path: Path, limit: int, **args: Any) -> EvalLog:
    [log] = eval(
        f"inspect_plural/{task}",
        task_args=args,
        model=answer_model(kind),
        limit=limit,
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    return log


def _values(log: EvalLog) -> list[dict[str, float]]:
    return [score_value(s) for s in log_samples(log)]


def _all_refused(log: EvalLog, reasons: set[str]) -> None:
    """Every sample failed, every failed answer has one of ``reasons``."""
    values = _values(log)
    assert all(v["parse_ok"] == 0.0 for v in values)
    counted = Counter(
        k.removeprefix("failed/") for v in values for k, n in v.items() if k.startswith("failed/")
    )
    assert counted and set(counted) <= reasons, counted
    metrics = log_metrics(log)
    assert metrics["parse_failures"] == len(values)
    assert metrics["failed/any"] >= len(values)


def _constant_best(golds: list[str]) -> float:
    return max(Counter(golds).values()) / len(golds)


# --------------------------------------------------------------------- per-annotator labels


@pytest.mark.parametrize("kind", KINDS)
def test_brexit_llm_judge(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run("brexit", kind, tmp_path, 30, demo=True, method="llm_judge")
    if kind == "echo":
        _all_refused(log, {"echo"})
        assert log_metrics(log)["accuracy"] == 0.0  # was 0.9 with 0 failures
        return
    golds = [s.target for s in log_samples(log)]
    chance = max(0.5, _constant_best([str(g) for g in golds]))
    assert log_metrics(log)["accuracy"] <= chance + 1e-9
    assert log_metrics(log)["parse_failures"] == 0  # a copied label is a label at chance


# --------------------------------------------------------------------------- PersonaEval


@pytest.mark.parametrize("kind", KINDS)
def test_personaeval(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run("personaeval_literary", kind, tmp_path, 20, demo=True)
    if kind in ("echo", "copy"):  # the copy is the example's made-up odds: refused
        _all_refused(log, {"echo"} if kind == "echo" else {"copied_example"})
        values = _values(log)
        assert all(v["correct"] == 0.0 and v["top2"] == 0.0 for v in values)
        return
    # the first listed candidate: the candidates are shuffled, so chance
    shown = [RoleSampleMetadata.model_validate(s.metadata) for s in log_samples(log)]
    first = sum(m.candidate_names[0] == m.true_role for m in shown) / len(shown)
    assert log_metrics(log)["top1"] == pytest.approx(first)
    assert first <= 0.25 + 2 * math.sqrt(0.25 * 0.75 / len(shown))


# ---------------------------------------------------------------------- distribution target


@pytest.mark.parametrize("kind", KINDS)
def test_md_agreement_distribution_judge(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run(
        "md_agreement",
        kind,
        tmp_path,
        18,
        demo=True,
        target="distribution",
        method="distribution_judge",
    )
    if kind in ("echo", "copy"):
        _all_refused(log, {"echo"} if kind == "echo" else {"copied_example"})
        # scored as the uniform distribution: exactly the uniform baseline, never better
        baseline = _run(
            "md_agreement", kind, tmp_path, 18, demo=True, target="distribution", method="uniform"
        )
        ours = log_metrics(log)
        theirs = log_metrics(baseline)
        for metric in ("manhattan", "cross_entropy"):
            assert ours[metric] == pytest.approx(theirs[metric]), metric
        return
    assert log_metrics(log)["parse_failures"] == 0


# ----------------------------------------------------------------------------- CINEMETRIC


@pytest.mark.parametrize("kind", KINDS)
def test_cinemetric(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run("brexit", kind, tmp_path, 10, demo=True, method="cinemetric")
    if kind in ("echo", "copy"):  # no character can be read or the example is refused
        _all_refused(log, {"no_panel"})
        for sample in log_samples(log):
            [score] = sample.scores.values()  # type: ignore[union-attr]
            assert (score.metadata or {}).get("failure") == "no_panel"
        return
    golds = [str(s.target) for s in log_samples(log)]
    assert log_metrics(log)["accuracy"] <= max(0.5, _constant_best(golds)) + 1e-9


# ---------------------------------------------------------------------- ratings (MAJ-Eval)


@pytest.mark.parametrize("kind", KINDS)
def test_maj_eval(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run("mslr_cochrane", kind, tmp_path, 4, demo=True, method="maj_eval", max_rounds=1)
    if kind in ("echo", "copy"):
        _all_refused(log, {"echo"} if kind == "echo" else {"copied_example"})
        return
    # every persona gives the lowest score: a constant, whose correlation is undefined
    correlations = {k: v for k, v in log_metrics(log).items() if k.endswith("/spearman")}
    assert correlations and all(math.isnan(v) for v in correlations.values())


# --------------------------------------------------------------------------------- PERSE


@pytest.mark.parametrize("kind", KINDS)
def test_per_mpst_review(kind: AnswerKind, tmp_path: Path) -> None:
    log = _run("per_mpst", kind, tmp_path, 10, demo=True)
    if kind in ("echo", "copy"):
        _all_refused(log, {"echo"} if kind == "echo" else {"copied_example"})
        assert log_metrics(log)["accuracy"] == 0.0
        return
    values = _values(log)
    golds = [str(v["gold"]) for v in values]
    assert log_metrics(log)["accuracy"] <= max(0.1, _constant_best(golds)) + 1e-9


def test_per_doc_echoes_are_refused(tmp_path: Path) -> None:
    # before: Per-DOC echoes were read as "Plot A" (the prompt's example) with 0 failures
    log = _run("per_doc", "echo", tmp_path, 6, demo=True)
    _all_refused(log, {"echo"})
    assert log_metrics(log)["accuracy"] == 0.0


# ----------------------------------------------------------------------------- the report


def test_report_counts_echoes_and_copies_by_reason(tmp_path: Path) -> None:
    """What the scorers write (``failed/<reason>``, ``n_answers``, ``failed_answers``) is
    what the report's failure table reads: an echo run and a copy run, by reason."""
    from inspect_plural.report import build_report

    _run("brexit", "echo", tmp_path, 6, demo=True, method="llm_judge")
    args = {"demo": True, "target": "distribution", "method": "distribution_judge"}
    _run("md_agreement", "copy", tmp_path, 6, **args)
    report = build_report(tmp_path, resamples=50, warn=lambda _: None, jobs=1)
    [table] = [t for t in report.tables if t.id == "failures"]
    assert {"echo", "copied_example"} <= set(table.columns)
    for row in table.rows:
        cells = dict(zip(table.columns, row.cells, strict=True))
        reason = "echo" if row.labels[0] == "brexit" else "copied_example"
        assert cells["samples"] == cells["failed samples"] == 6, row
        assert cells["answers"] == cells["failed answers"] == cells[reason] == 6, row
