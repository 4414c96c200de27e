"""``profile show`` gives the same profile with its own ``.eval`` reader as with Inspect's.

A small ``profile run`` (``plural/random`` on the demo rows: a steering pair, a LeWiDi
dataset with its baselines, a label-set dataset, a panel and a PersonaEval track, so
every field a row holds is read) is read twice: by the profile's reader, which stops
before each sample's events (:mod:`inspect_plural.profile._eval_zip`), and by Inspect's
``read_eval_log`` (the reader before it). Rows and the whole profile must be equal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inspect_plural.profile import _logs, run_profile
from inspect_plural.profile._build import build_profile
from inspect_plural.profile._eval_zip import read_sample_fields

pytestmark = pytest.mark.slow

ONLY = [
    "steerable/brexit/plain",
    "steerable/brexit/personalized",
    "distributional/brexit/",
    "distributional/varierrnli/judge",
    "jury/brexit/",
    "role/literary/",
]


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("profile-reader")
    result = run_profile(
        ["plural/random"], str(folder), "quick", demo=True, display="none", only=ONLY
    )
    assert result.success and result.logs == 10
    return folder


def _inspect_reader(patch: pytest.MonkeyPatch) -> None:
    patch.setattr(_logs, "read_sample_fields", lambda _: None)
    patch.setattr(_logs, "read_header", lambda _: None)


def test_rows_are_inspects_rows(log_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    logs = _logs.read_profile_logs(log_dir, lambda _: None, jobs=1)
    assert len(logs) == 10
    fast = {log.path: log.rows for log in logs}
    assert all(read_sample_fields(path) is not None for path in fast)  # the fast path ran
    with monkeypatch.context() as patch:
        _inspect_reader(patch)
        slow = {log.path: log.rows for log in _logs.read_profile_logs(log_dir, print, jobs=1)}
    assert repr(fast) == repr(slow)
    assert any(row.votes for rows in fast.values() for row in rows)
    assert any(row.base_labels for rows in fast.values() for row in rows)
    assert any(row.distribution for rows in fast.values() for row in rows)


def test_profile_is_the_same_with_either_reader(
    log_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = build_profile(log_dir, print, resamples=200)
    with monkeypatch.context() as patch:
        _inspect_reader(patch)
        slow = build_profile(log_dir, print, resamples=200, jobs=1)
    assert fast.model_dump_json() == slow.model_dump_json()
    assert {mode: len(cells) for mode, cells in fast.cells.items()} == {
        "steerable": 1,
        "distributional": 6,
        "jury": 1,
        "role": 1,
    }
