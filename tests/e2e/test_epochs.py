"""``--epochs 2`` through Inspect's epoch reducers, one task per family, against hand counts.

Each family's task runs on its demo data for two epochs with a chance model whose answers
differ between epochs (``epochs_random``: ``plural/random`` without the tasks' call seed),
under the task's own reducer, Inspect's ``mean`` and Inspect's ``mode``. The expected
corpus metrics are computed here, by hand, from each epoch's recorded numbers:

- the task's reducer: ``role_mean`` / ``rating_mean`` take each number's mean over the
  epochs; ``modal_row`` keeps the whole row of the epoch with the most common ``pred``
  (the first on ties);
- Inspect's ``mean`` and ``mode`` reduce ``Score.value`` only: the numbers shown there
  become their mean (mode) over the epochs, and every other number is the first epoch's,
  whose metadata Inspect keeps (docs/running.md, "Epochs").

A sample whose epochs disagree is required, so no case passes vacuously.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, get_model, modelapi
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from inspect_ai.tool import ToolChoice, ToolInfo
from scipy import stats
from sklearn.metrics import f1_score
from tests.conftest import FAST_LOG

from inspect_plural.analysis import samples_df
from inspect_plural.models._random import RandomModelAPI
from inspect_plural.report import build_report
from inspect_plural.scorers import panel
from inspect_plural.scorers._values import values_of

pytestmark = pytest.mark.e2e

MODEL = "epochs_random/random"
REDUCERS = [None, "mean", "mode"]
"""None: the task's own reducer; else Inspect's reducer of that name."""


class _Unseeded(RandomModelAPI):
    """``plural/random`` ignoring the call seed: a prompt's repeats get fresh answers."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        return await super().generate(
            input, tools, tool_choice, config.model_copy(update={"seed": None})
        )


@modelapi(name="epochs_random")
def _epochs_random() -> type[RandomModelAPI]:
    return _Unseeded


@dataclass
class Run:
    """A two-epoch log and each sample's numbers per epoch."""

    log: EvalLog
    epochs: dict[str, list[dict[str, float]]]
    """Every number of each epoch's score, at full precision."""
    shown: dict[str, list[dict[str, float]]]
    """The numbers of each epoch's ``Score.value`` (rounded: what Inspect's reducers see)."""
    metadata: dict[str, dict[str, Any]]

    def metric(self, name: str, scorer: str | None = None) -> float:
        assert self.log.results is not None
        result = next(s for s in self.log.results.scores if scorer in (None, s.name))
        return float(result.metrics[name].value)


def _run(
    task: str | Task, tmp: Path, reducer: str | None, scorer: str | None = None, **kw: Any
) -> Run:
    epochs: int | Epochs = 2 if reducer is None else Epochs(2, reducer)
    # a fresh instance: the same answers whatever ran before in the process
    model = get_model(MODEL, memoize=False, **kw.pop("model_args", {}))
    [log] = eval(
        task, model=model, epochs=epochs, log_dir=str(tmp), display="none", **FAST_LOG, **kw
    )
    assert log.status == "success", log.error
    log = read_eval_log(log.location)
    assert log.eval.config.epochs == 2
    run = Run(log, {}, {}, {})
    for sample in sorted(log.samples or [], key=lambda s: s.epoch):
        score = sample.scores[scorer or next(iter(sample.scores))]  # type: ignore[index]
        sid = str(sample.id)
        run.epochs.setdefault(sid, []).append(values_of(score))
        shown = score.value if isinstance(score.value, dict) else {}
        run.shown.setdefault(sid, []).append({k: float(v) for k, v in shown.items()})
        run.metadata[sid] = dict(sample.metadata or {})
    assert all(len(e) == 2 for e in run.epochs.values())
    assert any(e[0] != e[1] for e in run.epochs.values()), "no sample's epochs disagree"
    return run


def _approx(reducer: str | None, expected: Any) -> Any:
    """Exact for the task's reducer; Inspect's reduce the shown numbers, rounded to 4 places."""
    return pytest.approx(expected) if reducer is None else pytest.approx(expected, abs=1e-4)


def _key_mean(rows: list[dict[str, float]]) -> dict[str, float]:
    keys = dict.fromkeys(k for row in rows for k in row)
    out = {}
    for key in keys:
        present = [row[key] for row in rows if key in row and math.isfinite(row[key])]
        if present:
            out[key] = sum(present) / len(present)
    return out


def _modal_row(rows: list[dict[str, float]]) -> dict[str, float]:
    preds = [row.get("pred") for row in rows]
    return rows[preds.index(Counter(preds).most_common(1)[0][0])]


def _inspect(statistic: Callable[[list[float]], float]) -> Callable[..., dict[str, float]]:
    """Inspect's reducer: the shown numbers reduced, the rest the first epoch's."""

    def reduce(rows: list[dict[str, float]], shown: list[dict[str, float]]) -> dict[str, float]:
        return {**rows[0], **{k: statistic([row[k] for row in shown]) for k in shown[0]}}

    return reduce


def _mode(values: list[float]) -> float:
    return Counter(values).most_common(1)[0][0]


def _reduced(
    run: Run, reducer: str | None, own: Callable[..., dict[str, float]]
) -> dict[str, dict[str, float]]:
    """Each sample's numbers as the reducer leaves them (module docstring)."""
    if reducer is None:
        return {sid: own(rows) for sid, rows in run.epochs.items()}
    reduce = _inspect(statistics.mean if reducer == "mean" else _mode)
    return {sid: reduce(rows, run.shown[sid]) for sid, rows in run.epochs.items()}


# ----------------------------------------------------------------------------- families


@pytest.mark.parametrize("reducer", REDUCERS)
def test_per_annotator_labels(reducer: str | None, tmp_path: Path) -> None:
    run = _run("inspect_plural/brexit", tmp_path, reducer, task_args={"demo": True}, limit=16)
    rows = list(_reduced(run, reducer, _modal_row).values())
    gold = [int(r["gold"]) for r in rows]
    pred = [int(r["pred"]) for r in rows]
    labels = list(range(int(rows[0]["n_labels"])))
    assert run.metric("accuracy") == _approx(reducer, statistics.mean(r["correct"] for r in rows))
    assert run.metric("macro_f1") == _approx(
        reducer, f1_score(gold, pred, labels=labels, average="macro", zero_division=0)
    )
    assert run.metric("parse_failures") == sum(r["parse_ok"] < 1 for r in rows)
    if reducer == "mean":  # the epochs' mean, not the first epoch's (issue 30)
        assert any(r["correct"] not in (0.0, 1.0) for r in rows)


def _strict_rank(p: list[float], gold: int) -> int:
    return sum(x >= p[gold] for x in p)


def _average_rank(p: list[float], gold: int) -> float:
    ties = sum(x == p[gold] for x in p)
    return sum(x > p[gold] for x in p) + (ties + 1) / 2


@pytest.mark.parametrize("reducer", REDUCERS)
def test_role_identification(reducer: str | None, tmp_path: Path) -> None:
    run = _run(
        "inspect_plural/personaeval_literary", tmp_path, reducer, task_args={"demo": True}, limit=8
    )
    rows = list(_reduced(run, reducer, _key_mean).values())
    probs = [[r[f"p_{i}"] for i in range(int(r["n_options"]))] for r in rows]
    golds = [int(r["gold_index"]) for r in rows]
    ranks = [_strict_rank(p, g) for p, g in zip(probs, golds)]
    assert run.metric("top1") == _approx(reducer, statistics.mean(r <= 1 for r in ranks))
    assert run.metric("top2") == _approx(reducer, statistics.mean(r <= 2 for r in ranks))
    assert run.metric("mean_rank") == _approx(
        reducer, statistics.mean(_average_rank(p, g) for p, g in zip(probs, golds))
    )
    brier = [sum((x - (i == g)) ** 2 for i, x in enumerate(p)) for p, g in zip(probs, golds)]
    assert run.metric("brier_score") == _approx(reducer, statistics.mean(brier))
    assert run.metric("parse_failures") == sum(r["parse_ok"] < 1 for r in rows)


@pytest.mark.parametrize("reducer", REDUCERS)
def test_distribution_target(reducer: str | None, tmp_path: Path) -> None:
    run = _run(
        "inspect_plural/brexit",
        tmp_path,
        reducer,
        task_args={"demo": True, "target": "distribution"},
        limit=10,
    )
    rows = list(_reduced(run, reducer, _modal_row).values())
    for name in ("manhattan", "cross_entropy", "error_rate"):
        assert run.metric(name) == _approx(reducer, statistics.mean(r[name] for r in rows)), name
    assert run.metric("hard_micro_f1") == _approx(
        reducer, statistics.mean(r["pred"] == r["gold"] for r in rows)
    )


@pytest.mark.parametrize("reducer", REDUCERS)
def test_ratings(reducer: str | None, tmp_path: Path) -> None:
    run = _run(
        "inspect_plural/storysparkqa",
        tmp_path,
        reducer,
        task_args={"demo": True, "method": "geval", "correlation": "pooled"},
        limit=8,
    )
    rows = list(_reduced(run, reducer, _key_mean).values())
    for dim in ("overall", "answer_relevancy"):
        pairs = [(r[f"pred/{dim}"], r[f"gold/{dim}"]) for r in rows if f"pred/{dim}" in r]
        pred, gold = zip(*pairs)
        assert run.metric(f"{dim}/pearson") == _approx(reducer, stats.pearsonr(pred, gold)[0])
        assert run.metric(f"{dim}/spearman") == _approx(reducer, stats.spearmanr(pred, gold)[0])


@pytest.mark.parametrize("reducer", REDUCERS)
def test_perse_review(reducer: str | None, tmp_path: Path) -> None:
    run = _run("inspect_plural/per_mpst", tmp_path, reducer, task_args={"demo": True}, limit=8)
    rows = list(_reduced(run, reducer, _key_mean).values())
    pred = [r["pred"] for r in rows]
    gold = [r["gold"] for r in rows]
    # the correlations and MAE of the (epoch-mean) prediction; accuracy: the share of
    # epochs whose own prediction was exact
    assert run.metric("mae") == _approx(reducer, np.mean(np.abs(np.subtract(pred, gold))))
    assert run.metric("pearson") == _approx(reducer, stats.pearsonr(pred, gold)[0])
    assert run.metric("accuracy") == _approx(reducer, statistics.mean(r["exact"] for r in rows))


@pytest.mark.parametrize("reducer", REDUCERS)
def test_perse_choice(reducer: str | None, tmp_path: Path) -> None:
    run = _run("inspect_plural/per_doc", tmp_path, reducer, task_args={"demo": True}, limit=10)
    reduced = _reduced(run, reducer, _key_mean)
    by_aspect: dict[str, list[float]] = {}
    for sid, row in reduced.items():
        by_aspect.setdefault(str(run.metadata[sid]["aspect"]), []).append(row["correct"])
    per_aspect = {a: statistics.mean(v) for a, v in by_aspect.items()}
    for aspect, value in per_aspect.items():
        assert run.metric(f"accuracy/{aspect}") == _approx(reducer, value)
    assert run.metric("accuracy") == _approx(reducer, statistics.mean(per_aspect.values()))


STORIES = [
    ("fox", "A fox hides the moon in a teapot. Where is the moon?", "in a teapot"),
    ("owl", "Olive the owl counts seven stars. How many stars?", "seven"),
    ("boat", "Tom folds a paper boat from a letter. What is it made from?", "a letter"),
    ("bee", "A bee naps in a tulip all afternoon. Where does the bee nap?", "in a tulip"),
]
"""Questions about stories written for this test (id, question, answer)."""


@pytest.mark.parametrize("reducer", REDUCERS)
def test_panel_scorer(reducer: str | None, tmp_path: Path) -> None:
    task = Task(
        dataset=[Sample(id=i, input=q, target=t) for i, q, t in STORIES],
        solver=generate(),
        scorer=[
            match(),
            panel(
                personas={"parents": "a parent who reads at bedtime", "teachers": "a teacher"},
                dimensions="helpfulness:1-5,safety:0-3",
            ),
        ],
        name="bedtime_qa",
    )
    run = _run(task, tmp_path, reducer, scorer="panel", model_args={"any_prompt": True})
    # a task without a reducer of its own reduces with Inspect's mean
    reduce = _inspect(_mode if reducer == "mode" else statistics.mean)
    rows = [reduce(epochs, run.shown[sid]) for sid, epochs in run.epochs.items()]
    for key in ("helpfulness", "safety", "helpfulness/group/parents", "safety/group/teachers"):
        values = [r[key] for r in rows if math.isfinite(r[key])]
        assert run.metric(key, "panel") == _approx(reducer or "mean", statistics.mean(values)), key


# ----------------------------------------------------------------------- report, frames


@pytest.fixture(scope="module")
def two_epochs(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """``brexit`` on its demo data, two epochs, the task's own reducer (``modal_row``)."""
    folder = tmp_path_factory.mktemp("two_epochs")
    return _run("inspect_plural/brexit", folder, None, task_args={"demo": True}, limit=16)


def test_samples_df_has_one_row_per_sample_and_epoch(two_epochs: Run) -> None:
    frame = samples_df(two_epochs.log.location)
    n = len(two_epochs.epochs)
    assert len(frame) == 2 * n and frame["id"].nunique() == n
    assert not frame.duplicated(["id", "epoch"]).any()
    for row in frame.itertuples():
        epoch_values = two_epochs.epochs[str(row.id)][int(row.epoch) - 1]
        assert row.score_correct == epoch_values["correct"]
    # each sample weighs the same: the per-sample means average to the epochs' mean
    per_sample = frame.groupby("id")["score_correct"].mean()
    assert per_sample.mean() == pytest.approx(
        statistics.mean(
            statistics.mean(e["correct"] for e in rows) for rows in two_epochs.epochs.values()
        )
    )


def test_the_report_counts_samples_once_and_averages_the_epochs(two_epochs: Run) -> None:
    report = build_report(Path(two_epochs.log.location).parent, resamples=200, warn=lambda _: None)
    [table] = [t for t in report.tables if t.id == "annotator__accuracy"]
    [cell] = [c for c in table.rows[0].cells if c is not None]
    n = len(two_epochs.epochs)
    assert (cell.n, cell.total) == (n, 2 * n)  # samples once; answers are samples x epochs
    # the report reduces epochs as run_mean does: each sample's mean over its epochs; the
    # task's own reducer (modal_row) keeps the modal epoch's row, so when the two differ
    # the cell shows the log's value and names the recomputed one
    recomputed = statistics.mean(
        statistics.mean(e["correct"] for e in rows) for rows in two_epochs.epochs.values()
    )
    logged = two_epochs.metric("accuracy")
    assert cell.value == pytest.approx(logged)
    if not math.isclose(recomputed, logged, abs_tol=1e-9):
        assert cell.note is not None and f"recomputed {recomputed:.6g}" in cell.note
