"""Every custom metric through Inspect's epoch reducers (``tests/metric_epochs.py``).

Each family's task runs once on its demo data with ``plural/random`` to get its scorer's
real per-sample scores and sample metadata; those are then replayed through a real
``eval()`` with the task's own metrics:

- equal epochs change nothing under Inspect's ``mean`` and ``mode`` and the task's own
  reducer (a metric must read the score the reducer leaves, not assume the scorer's);
- two epochs that disagree (the scores of a second run with another seed) give what is
  counted here by hand for the headline metric of each family.

The named metrics are each family's (checked against the task's own list):
annotator-level ``accuracy``, ``mae``, ``within_one``, ``macro_f1``,
``annotator_macro_f1``, ``text_macro_f1``, ``trait_macro_f1``, ``prf_global``,
``prf_annotator``, ``prf_text``, ``prf_trait``, ``accuracy_by_trait``; calibration and
PersonaEval ``top1``, ``top2``, ``mean_rank``, ``ece``, ``brier_score``; everywhere
``parse_failures``, ``failed_answers``, ``failure_reasons`` and ``cost``; the distribution target's
``manhattan``, ``wasserstein``, ``cross_entropy``, ``hard_micro_f1``,
``perspectivist_error_rate`` (logged as ``error_rate``), ``norm_abs_distance`` and
``group_representativeness``; ratings' ``rating_correlations``,
``initial_correlations``, ``group_correlations``, ``group_alpha``, ``panel_cost`` and
``rating_cost``; PERSE's ``review_metrics`` and ``choice_metrics``; the panel scorer's
``panel_metrics``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai._util.registry import registry_unqualified_name
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.scorer import Score, ScoreReducer, match
from inspect_ai.solver import generate
from tests.conftest import FAST_LOG
from tests.metric_epochs import assert_agreeing_epochs_change_nothing, run_metrics

import inspect_plural.tasks as tasks
from inspect_plural.scorers import (
    modal_row,
    panel,
    panel_metrics,
    rating_cost,
    rating_mean,
    role_mean,
)
from inspect_plural.scorers._values import values_of

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@dataclass
class Family:
    """A task's metrics, its own reducer, and two runs' per-sample scores."""

    metrics: list[Any]
    reducer: ScoreReducer
    scores: list[Score]
    others: list[Score]
    metadata: list[dict[str, Any]]

    def names(self) -> set[str]:
        found: set[str] = set()
        for m in self.metrics:
            items = [x for group in m.values() for x in group] if isinstance(m, dict) else [m]
            found |= {registry_unqualified_name(x) for x in items}
        return found


def _scores(log: EvalLog, scorer: str | None) -> tuple[list[Score], list[dict[str, Any]]]:
    samples = sorted(log.samples or [], key=lambda s: str(s.id))
    scores = [s.scores[scorer or next(iter(s.scores))] for s in samples]  # type: ignore[index]
    return scores, [dict(s.metadata or {}) for s in samples]


def _family(
    task: Any, folder: Path, reducer: ScoreReducer, scorer: str | None = None, **kw: Any
) -> Family:
    runs = []
    for seed in (0, 1):
        [log] = eval(
            task(),
            model="plural/random",
            model_args={"seed": seed, **kw.pop("model_args", {})},
            log_dir=str(folder / str(seed)),
            display="none",
            **FAST_LOG,
            **kw,
        )
        assert log.status == "success", log.error
        runs.append(_scores(read_eval_log(log.location), scorer))
    (scores, metadata), (others, _) = runs
    metrics = list(task().metrics or [])
    return Family(metrics, reducer, scores, others, metadata)


STORIES = [
    ("fox", "A fox hides the moon in a teapot. Where is the moon?", "in a teapot"),
    ("owl", "Olive the owl counts seven stars. How many stars?", "seven"),
    ("bee", "A bee naps in a tulip all afternoon. Where does the bee nap?", "in a tulip"),
]


def _bedtime() -> Task:
    scorer = panel(
        personas={"parents": "a parent who reads at bedtime", "teachers": "a teacher"},
        dimensions="helpfulness:1-5,safety:0-3",
    )
    return Task(
        dataset=[Sample(id=i, input=q, target=t) for i, q, t in STORIES],
        solver=generate(),
        scorer=[match(), scorer],
        name="bedtime_qa",
    )


@pytest.fixture(scope="module")
def families(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Family]:
    folder = tmp_path_factory.mktemp("families")
    out = {
        "annotator": _family(
            lambda: tasks.dp(demo=True, metrics="full"), folder / "a", modal_row(), limit=12
        ),
        "calibration": _family(
            lambda: tasks.dp(demo=True, answer_format="distribution"),
            folder / "c",
            modal_row(),
            limit=12,
        ),
        "distribution": _family(
            lambda: tasks.opinionqa(demo=True, target="distribution", metrics="full"),
            folder / "d",
            modal_row(),
            limit=12,
        ),
        "nominal_distribution": _family(
            lambda: tasks.mp(demo=True, target="distribution", metrics="full"),
            folder / "n",
            modal_row(),
            limit=12,
        ),
        "role": _family(
            lambda: tasks.personaeval_literary(demo=True), folder / "r", role_mean(), limit=8
        ),
        "ratings": _family(
            lambda: tasks.storysparkqa(demo=True, method="maj_eval", metrics="full"),
            folder / "m",
            rating_mean(),
            limit=6,
        ),
        "review": _family(lambda: tasks.per_mpst(demo=True), folder / "p", rating_mean(), limit=8),
        "choice": _family(lambda: tasks.per_doc(demo=True), folder / "q", rating_mean(), limit=10),
    }
    out["ratings"].metrics.append(rating_cost())  # the rating scorer's cost metric
    return out


NAMES = {
    "annotator": {
        "accuracy",
        "mae",
        "within_one",
        "macro_f1",
        "annotator_macro_f1",
        "text_macro_f1",
        "trait_macro_f1",
        "prf_global",
        "prf_annotator",
        "prf_text",
        "prf_trait",
        "accuracy_by_trait",
        "parse_failures",
        "failed_answers",
        "failure_reasons",
        "cost",
    },
    "calibration": {"top1", "top2", "mean_rank", "ece", "brier_score"},
    "distribution": {
        "manhattan",
        "wasserstein",
        "cross_entropy",
        "hard_micro_f1",
        "norm_abs_distance",
        "group_representativeness",
    },
    "nominal_distribution": {"error_rate"},  # perspectivist_error_rate
    "role": {
        "top1",
        "top2",
        "mean_rank",
        "ece",
        "brier_score",
        "parse_failures",
        "failed_answers",
        "failure_reasons",
    },
    "ratings": {
        "rating_correlations",
        "initial_correlations",
        "group_correlations",
        "group_alpha",
        "panel_cost",
        "rating_cost",
    },
    "review": {"review_metrics"},
    "choice": {"choice_metrics"},
}


@pytest.mark.parametrize("name", sorted(NAMES))
def test_equal_epochs_change_no_metric(families: dict[str, Family], name: str) -> None:
    family = families[name]
    assert NAMES[name] <= family.names()
    assert_agreeing_epochs_change_nothing(
        family.metrics, family.scores, ["mean", "mode", family.reducer], family.metadata
    )


def test_panel_metrics_equal_epochs(tmp_path: Path) -> None:
    [log] = eval(
        _bedtime(),
        model="plural/random",
        model_args={"any_prompt": True},
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    scores, metadata = _scores(read_eval_log(log.location), "panel")
    reference = assert_agreeing_epochs_change_nothing(
        [panel_metrics()], scores, ["mean", "mode"], metadata
    )
    assert reference["helpfulness"] == pytest.approx(
        statistics.mean(values_of(s)["helpfulness"] for s in scores)
    )


def _two_epochs(family: Family) -> list[list[Score]]:
    pairs = [[a, b] for a, b in zip(family.scores, family.others)]
    assert any(values_of(a) != values_of(b) for a, b in pairs), "the two runs agree"
    return pairs


@pytest.mark.parametrize("reducer", ["own", "mean"])
def test_disagreeing_epochs_annotator_accuracy(families: dict[str, Family], reducer: str) -> None:
    family = families["annotator"]
    pairs = _two_epochs(family)
    used = family.reducer if reducer == "own" else "mean"
    values = run_metrics(family.metrics, pairs, used, family.metadata)
    first = [values_of(a)["correct"] for a, _ in pairs]
    both = [statistics.mean([values_of(a)["correct"], values_of(b)["correct"]]) for a, b in pairs]
    # modal_row keeps the first epoch's row on a tie; Inspect's mean averages `correct`
    assert values["accuracy"] == pytest.approx(statistics.mean(first if reducer == "own" else both))


def test_disagreeing_epochs_role_top1_is_the_mean_distributions(
    families: dict[str, Family],
) -> None:
    family = families["role"]
    pairs = _two_epochs(family)
    values = run_metrics(family.metrics, pairs, family.reducer, family.metadata)
    hits = []
    for a, b in pairs:
        va, vb = values_of(a), values_of(b)
        k = int(va["n_options"])
        mean_p = [(va[f"p_{i}"] + vb[f"p_{i}"]) / 2 for i in range(k)]
        gold = int(va["gold_index"])
        hits.append(sum(p >= mean_p[gold] for p in mean_p) <= 1)
    assert values["top1"] == pytest.approx(statistics.mean(hits))


def test_disagreeing_epochs_review_mae_of_the_mean_prediction(families: dict[str, Family]) -> None:
    family = families["review"]
    pairs = _two_epochs(family)
    values = run_metrics(family.metrics, pairs, family.reducer, family.metadata)
    errors = [
        abs((values_of(a)["pred"] + values_of(b)["pred"]) / 2 - values_of(a)["gold"])
        for a, b in pairs
    ]
    assert values["mae"] == pytest.approx(statistics.mean(errors))


def test_disagreeing_epochs_distribution_manhattan(families: dict[str, Family]) -> None:
    family = families["distribution"]
    pairs = _two_epochs(family)
    values = run_metrics(family.metrics, pairs, "mean", family.metadata)
    # manhattan is shown in Score.value, so Inspect's mean averages it (as shown: to 4
    # places), where the first epoch alone would give the first run's value
    expected = statistics.mean(
        statistics.mean(values_of(s)["manhattan"] for s in pair) for pair in pairs
    )
    first = statistics.mean(values_of(a)["manhattan"] for a, _ in pairs)
    assert values["manhattan"] == pytest.approx(expected, abs=1e-4)
    assert abs(expected - first) > 1e-3  # the case tells the two apart
