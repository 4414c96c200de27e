"""The profile's own ``.eval`` reader gives what Inspect's reader gives, without the events.

``read_rows`` reads a local ``.eval`` log's samples field by field and stops before their
events (:mod:`inspect_plural.profile._eval_zip`); every other log goes through Inspect's
``read_eval_log``. These tests write logs by hand and read them both ways.
"""

from __future__ import annotations

import math
import zipfile
from pathlib import Path

import pytest
from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalError,
    EvalLog,
    EvalResults,
    EvalSample,
    EvalSpec,
    read_eval_log,
    write_eval_log,
)
from inspect_ai.scorer import Score

from inspect_plural.profile import _logs
from inspect_plural.profile._eval_zip import _fields, read_header, read_sample_fields
from inspect_plural.profile._logs import Row, read_rows

LABELS = ["leave", "remain"]


def _distance(epoch: int) -> float:
    return 0.4 + 0.01 * epoch + 1e-9  # shown rounded to 0.41; read at full precision


def _sample(sid: int | str, epoch: int, **extra: object) -> EvalSample:
    values = {"manhattan": _distance(epoch), "n_answers": 1.0, "odd": math.nan}
    fields: dict[str, object] = {
        "id": sid,
        "epoch": epoch,
        "input": 'a text with an <b>events</b> word and "quotes"',
        "target": "remain",
        "scores": {
            "distribution_scorer": Score(
                value={"manhattan": round(values["manhattan"], 4)}, metadata={"values": values}
            ),
            "second": Score(value=1.0),
        },
        "metadata": {
            "gold": {"leave": 0.25, "remain": 0.75},
            "scale": {"kind": "nominal", "labels": LABELS},
            "base_labels": [],
            "events": "a metadata key named like the events",
        },
        "store": {
            "Prediction:parse_ok": True,
            "Prediction:distribution": {"leave": 0.5, "remain": 0.5},
            "StakeholderVotes:votes": [
                {"persona": "p1", "group": "Leave", "label": "leave"},
                {"persona": "p2", "group": "Remain", "label": None},
            ],
        },
    }
    fields.update(extra)
    return EvalSample.model_validate(fields)


def _write(path: Path, samples: list[EvalSample]) -> Path:
    spec = EvalSpec(
        created="2026-01-02T03:04:05+00:00",
        task="inspect_plural/brexit",
        dataset=EvalDataset(name="brexit", samples=len(samples)),
        model="plural/random",
        config=EvalConfig(),
        metadata={"inspect_plural_profile": {"cell": "distributional/brexit/judge"}},
    )
    log = EvalLog(
        status="success",
        eval=spec,
        results=EvalResults(total_samples=len(samples), completed_samples=len(samples)),
        samples=samples,
    )
    write_eval_log(log, str(path))
    return path


def _samples() -> list[EvalSample]:
    return [
        _sample(10, 1),
        _sample(2, 1),
        _sample(2, 2),
        _sample(10, 2, error=EvalError(message="boom", traceback="", traceback_ansi="")),
        _sample(3, 1, scores=None),
        _sample(4, 1, store={"Prediction:parse_ok": False}),
    ]


def _inspect_rows(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Row]:
    with monkeypatch.context() as patch:
        patch.setattr(_logs, "read_sample_fields", lambda _: None)
        return read_rows(str(path))


def test_fields_stop_before_the_events() -> None:
    text = '{"id": 1, "epoch": 1, "scores": {"a": {"value": 1}},\n "metadata": {"events": 2}, ' + (
        '"store": {}, "events": [not json at all'
    )
    assert _fields(text) == {
        "id": 1,
        "epoch": 1,
        "scores": {"a": {"value": 1}},
        "metadata": {"events": 2},
        "store": {},
    }


def test_fields_written_in_another_order_are_read_all_the_same() -> None:
    text = (
        '{"events": [{"x": 1}], "store": {}, "id": "a", "epoch": 2, "metadata": {}, "scores": {}}'
    )
    assert _fields(text) == {
        "events": [{"x": 1}],
        "store": {},
        "id": "a",
        "epoch": 2,
        "metadata": {},
        "scores": {},
    }


def test_fast_reader_gives_inspects_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path / "run.eval", _samples())
    assert read_sample_fields(str(path)) is not None  # the fast path is the one under test
    fast, slow = read_rows(str(path)), _inspect_rows(path, monkeypatch)
    assert repr(fast) == repr(slow)  # repr: the NaN values compare equal
    # Inspect's order (epoch, then ids as zero-filled numbers), the error from the summary
    assert [(r.id, r.errored) for r in fast] == [
        ("2", False),
        ("3", True),
        ("4", False),
        ("10", False),
        ("2", False),
        ("10", True),
    ]
    assert fast[0].distribution == {"leave": 0.5, "remain": 0.5} and fast[2].distribution is None
    assert [v.label for v in fast[0].votes] == ["leave", None]
    assert fast[0].gold == {"leave": 0.25, "remain": 0.75} and fast[0].labels == LABELS
    assert fast[0].values["manhattan"] == _distance(1)


def test_fast_header_gives_inspects_status_and_spec(tmp_path: Path) -> None:
    path = _write(tmp_path / "run.eval", _samples())
    header = read_header(f"file://{path}")
    assert header is not None
    log = read_eval_log(str(path), header_only=True)
    assert header == (log.status, log.eval)


def test_logs_it_cannot_read_go_to_inspect(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    json_log = tmp_path / "run.json"
    write_eval_log(read_eval_log(str(_write(tmp_path / "run.eval", _samples()))), str(json_log))
    assert read_sample_fields(str(json_log)) is None and read_header(str(json_log)) is None
    assert repr(read_rows(str(json_log))) == repr(_inspect_rows(tmp_path / "run.eval", monkeypatch))
    unfinished = tmp_path / "unfinished.eval"
    with zipfile.ZipFile(unfinished, "w") as archive:
        archive.writestr("_journal/start.json", "{}")
    assert read_sample_fields(str(unfinished)) is None and read_header(str(unfinished)) is None
