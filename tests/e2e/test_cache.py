"""``--cache`` and ``--batch`` with every method of every task family.

Two identical runs of every case (every method of every method registry on its family's
demo task, plus variants with other call patterns) with ``cache=True``: the second run
must make no model call (every model event a cache read) and score every sample the same
(the cost keys ``model_calls`` and ``tokens`` aside, which may only go down). Both runs
also pass ``batch=True``: ``plural/random`` ignores it, and Inspect leaves it out of the
cache key, so it changes nothing here except what the model events record, which shows
that every solver's calls carry the batch config.

Inspect's cache (``$INSPECT_CACHE_DIR``) and the package's own disk cache
(``$INSPECT_PLURAL_CACHE``: created persona sets, CINEMETRIC panels) both point at a
temporary folder, so the first run starts cold. The second run builds fresh ``Task``
objects, so nothing a solver keeps in memory carries over; only the two disk caches do.

Speed: all cases run as one ``eval()`` per run (tasks concurrently), two samples each.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from benchmarks.cache import Case, cases
from inspect_ai import eval
from inspect_ai._eval.registry import task_create
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.model import GenerateConfig, get_model
from tests.conftest import FAST_LOG

from inspect_plural.tasks import BATCH_SUPPORT
from inspect_plural.tasks._batch import method_families

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

LIMIT = 2
DISPLAY = "log"
"""``none`` still lays out each task's results table with rich, which costs more than
the runs themselves here (seconds per task with many metrics); ``log`` does not."""
COST_KEYS = ("model_calls", "tokens")
"""Score keys that report what a sample cost. Persona work the second run reads from the
package's disk cache (created persona sets, CINEMETRIC panels) costs nothing there, so
these may only go down; every other key must be identical."""
DOCUMENT = (
    "Fixture document written for the tests. Parents want stories their children enjoy. "
    "Teachers look for questions that check understanding of the plot."
)


CASES = cases()


@dataclass(frozen=True)
class RunStats:
    """What one run of one case did."""

    calls: int
    """Model events that were not cache reads (calls that reached the model)."""
    reads: int
    """Model events answered from Inspect's cache."""
    batched: int
    """Model events whose generate config has ``batch`` set."""
    scores: dict[str, str]
    """Sample id -> the sample's scores as canonical JSON, cost keys left out."""
    cost: dict[str, tuple[float, float]]
    """Sample id -> the cost its score reports (model calls, tokens)."""


def _stats(log: EvalLog) -> RunStats:
    log = read_eval_log(log.location)
    assert log.status == "success", log.error
    assert log.samples
    events = [e for s in log.samples for e in s.events if e.event == "model"]
    return RunStats(
        calls=sum(e.cache != "read" for e in events),
        reads=sum(e.cache == "read" for e in events),
        batched=sum(bool(e.config.batch) for e in events),
        scores={str(s.id): _without_cost(s) for s in log.samples},
        cost={str(s.id): _cost(s) for s in log.samples},
    )


def _values(sample: EvalSample) -> dict[str, Any]:
    [score] = (sample.scores or {}).values()
    assert isinstance(score.value, dict)
    return {**score.value, "answer": score.answer}


def _without_cost(sample: EvalSample) -> str:
    return json.dumps(
        {k: v for k, v in _values(sample).items() if k not in COST_KEYS}, sort_keys=True
    )


def _cost(sample: EvalSample) -> tuple[float, float]:
    values = _values(sample)
    return float(values.get("model_calls", 0)), float(values.get("tokens", 0))


def _run(doc: Path, log_dir: Path) -> dict[str, RunStats]:
    logs = eval(
        [case.create(doc) for case in CASES],
        model="plural/random",
        limit=LIMIT,
        cache=True,
        batch=True,
        log_dir=str(log_dir),
        display=DISPLAY,
        log_level="error",  # two samples leave most correlations undefined: warnings
        max_tasks=len(CASES),
        **FAST_LOG,
    )
    assert len(logs) == len(CASES)
    return {case.id: _stats(log) for case, log in zip(CASES, logs)}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict[str, RunStats], ...]]:
    """Every case run twice with ``cache=True`` and cold caches before the first run."""
    root = tmp_path_factory.mktemp("cache")
    doc = root / "stakeholders.txt"
    doc.write_text(DOCUMENT, encoding="utf-8")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("INSPECT_CACHE_DIR", str(root / "inspect"))
        env.setenv("INSPECT_PLURAL_CACHE", str(root / "plural"))
        first = _run(doc, root / "logs1")
        second = _run(doc, root / "logs2")
    yield first, second


def test_every_registered_method_has_a_case() -> None:
    assert {case.method for case in CASES} == set(method_families())


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_second_run_is_all_cache_reads(
    case: Case, runs: tuple[dict[str, RunStats], dict[str, RunStats]]
) -> None:
    first, second = runs[0][case.id], runs[1][case.id]
    if BATCH_SUPPORT[case.method].calls_model:
        assert first.calls > 0, "the first run should reach the model"
        assert second.reads > 0, "the second run should read the cache"
    else:
        assert first.calls == first.reads == 0, "declared as making no model calls"
    assert second.calls == 0, f"{second.calls} model call(s) missed the cache"
    assert second.scores == first.scores
    for sample, (calls, tokens) in second.cost.items():
        assert calls <= first.cost[sample][0] and tokens <= first.cost[sample][1]
    assert len(second.scores) == LIMIT


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_call_carries_the_batch_config(
    case: Case, runs: tuple[dict[str, RunStats], dict[str, RunStats]]
) -> None:
    first = runs[0][case.id]
    assert first.batched == first.calls + first.reads


def test_role_models_take_cache_but_not_batch_from_the_eval(tmp_path: Path) -> None:
    """Inspect gives a model bound to a role the eval's ``cache``, not its ``batch``.

    docs/running.md tells users to put ``batch: true`` into the role's own config
    (``--model-role 'judge={model: ..., batch: true}'``); this pins both behaviours.
    """
    task = "inspect_plural/brexit"
    roles: list[dict[str, Any]] = [
        {"judge": "plural/random"},
        {"judge": get_model("plural/random", config=GenerateConfig(batch=True), memoize=False)},
    ]
    with pytest.MonkeyPatch.context() as env:
        env.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect"))
        results = []
        for model_roles in [*roles, roles[0]]:
            [log] = eval(
                task_create(task, demo=True, method="llm_judge"),
                model="plural/random",
                model_roles=model_roles,
                limit=1,
                cache=True,
                batch=True,
                log_dir=str(tmp_path / "logs"),
                display="none",
                **FAST_LOG,
            )
            results.append(read_eval_log(log.location))
    events = [
        [e for s in log.samples or [] for e in s.events if e.event == "model"] for log in results
    ]
    assert [[e.role for e in run] for run in events] == [["judge"]] * 3
    plain, own_batch, again = (run[0] for run in events)
    assert not plain.config.batch and plain.cache == "write"
    assert own_batch.config.batch
    assert again.cache == "read"
