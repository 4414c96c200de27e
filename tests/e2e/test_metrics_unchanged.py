"""Every metric value is what it was before samples kept their shared context once (issue 32).

``metrics_before.json`` was written by :mod:`tests.e2e.metric_runs` from main before the
change (commit 186856b, its source run from an export with ``PYTHONPATH``): each
family's demo runs (every method of the ``calls`` benchmark's full matrix, and the real
data present beside the repository) and the no-call methods on the LeWiDi test sets
(the first ``LEWIDI_LIMIT`` samples of each official test file). Each run here must
give the same metric values, bit for bit, and the same score values on every sample (a
digest). The official-scorer parity checks (``test_distribution_eval.py``,
``tests/unit/test_distribution_metrics.py``) keep their own expected numbers.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from tests.e2e.metric_runs import (
    FIXTURE,
    LEWIDI,
    LEWIDI_LIMIT,
    demo_key,
    demo_runs,
    lewidi_runs,
    run_values,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

BEFORE: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text())
DEMO = {demo_key(run): run for run in demo_runs()}
LEWIDI_RUNS = {run.key: run for run in lewidi_runs()}


def _same(value: Any, expected: Any) -> bool:
    if isinstance(value, float) and isinstance(expected, float):
        return value == expected or (math.isnan(value) and math.isnan(expected))
    return bool(value == expected)


def _check(values: dict[str, Any], expected: dict[str, Any]) -> None:
    assert values["samples"] == expected["samples"]
    differ = {
        name: (values["metrics"].get(name), value)
        for name, value in expected["metrics"].items()
        if not _same(values["metrics"].get(name), value)
    }
    assert not differ, f"metric values changed (now, before): {differ}"
    assert set(values["metrics"]) == set(expected["metrics"])
    assert values["scores_sha256"] == expected["scores_sha256"], "a sample's score changed"


def test_the_fixture_covers_every_run() -> None:
    assert set(DEMO) <= set(BEFORE)
    if LEWIDI.is_dir():
        assert set(LEWIDI_RUNS) <= set(BEFORE)


@pytest.mark.parametrize("key", sorted(DEMO))
def test_demo_run_gives_the_same_metrics(key: str, tmp_path: Path) -> None:
    run = DEMO[key]
    _check(run_values(run.build(), str(tmp_path), run.epochs), BEFORE[key])


@pytest.mark.skipif(not LEWIDI.is_dir(), reason="no ../shared/data/lewidi here")
@pytest.mark.parametrize("key", sorted(LEWIDI_RUNS))
def test_lewidi_test_set_gives_the_same_metrics(key: str, tmp_path: Path) -> None:
    values = run_values(LEWIDI_RUNS[key].build(), str(tmp_path), limit=LEWIDI_LIMIT)
    _check(values, BEFORE[key])
