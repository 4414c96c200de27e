"""The runs whose metric values must never change with how samples are stored.

Every family's demo runs (the ``calls`` benchmark's full matrix: every method of every
task family on its demo data, and the real data present beside the repository) and the
LeWiDi test sets (``../shared/data/lewidi``: the distribution target's no-call methods
on every official test file, and the annotator target on each), each run's metric values
and a digest of every sample's score values. ``metrics_before.json`` holds them as the
code before issue 32 gave them; ``test_metrics_unchanged.py`` runs them again and asserts
equality. Regenerate (only when a change is *meant* to move a number) from the code
whose numbers are the reference: export main (``git archive main``) into a folder that has
``shared/data`` beside it, copy this file into its ``tests/e2e``, and run
``PYTHONPATH=src:. python -m tests.e2e.metric_runs --out FIXTURE`` there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._call_runs import Run, full_runs
from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import get_model
from tests.conftest import SHARED_DATA

import inspect_plural.tasks as plural_tasks
from inspect_plural.scorers._values import values_of

FIXTURE = Path(__file__).resolve().parent / "metrics_before.json"
LEWIDI = SHARED_DATA / "lewidi"
LEWIDI_SETS = {
    "armis": "2023",
    "convabuse": "2023",
    "brexit": "2023",
    "md_agreement": "2023",
    "csc": "2025",
    "mp": "2025",
    "paraphrase": "2025",
    "varierrnli": "2025",
}
"""Each LeWiDi task and the release folder of its official files."""
LEWIDI_LIMIT = 500
"""The first samples of each official test set a run scores: MP's and MD-Agreement's
annotator targets reach 15-19k samples, over 10 minutes a run on the shared machine."""


@dataclass(frozen=True)
class LewidiRun:
    """One run on an official LeWiDi test file (the release's own split)."""

    task: str
    method: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The run's key in the fixture."""
        extra = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"lewidi|{self.task}|{self.method}|{extra}"

    def build(self) -> Task:
        """The task on the official files."""
        args: dict[str, Any] = {
            "data_dir": str(LEWIDI / LEWIDI_SETS[self.task]),
            "method": self.method,
            "split": "lewidi",
            **self.options,
        }
        if self.task == "md_agreement":
            args["named"] = False
        factory = getattr(plural_tasks, self.task)
        task: Task = factory(**args)
        return task


def lewidi_runs() -> list[LewidiRun]:
    """The no-call methods on every official test set, both targets, both presets."""
    runs = []
    for task in LEWIDI_SETS:
        distribution = {"target": "distribution", "metrics_preset": "lewidi"}
        runs += [
            LewidiRun(task, "uniform", distribution),
            LewidiRun(task, "label_prior", distribution),
            LewidiRun(task, "item_majority", distribution),
            LewidiRun(task, "annotator_majority"),
        ]
    return runs


def demo_key(run: Run) -> str:
    """A demo run's key in the fixture."""
    options = ",".join(f"{k}={v}" for k, v in sorted(run.options.items()))
    return f"{run.data}|{run.task}|{run.method}|{options}|limit={run.limit}|epochs={run.epochs}"


def demo_runs() -> list[Run]:
    """The ``calls`` benchmark's full matrix without persona documents, the panel scorer
    on a test-only task left out (it reads no sample metadata of the package's)."""
    return [run for run in full_runs(()) if run.family != "panel"]


def _number(value: float) -> float | str:
    return value if math.isfinite(value) else str(value)


def log_values(log: EvalLog) -> dict[str, Any]:
    """A log's metric values and a digest of every sample's score values."""
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = {
        f"{score.name}/{name}": _number(float(metric.value))
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }
    rows = []
    for sample in sorted(log.samples or [], key=lambda s: (str(s.id), s.epoch)):
        scores = {
            name: {k: _number(v) for k, v in values_of(score).items()}
            if isinstance(score.value, dict)
            else str(score.value)
            for name, score in (sample.scores or {}).items()
        }
        answers = {name: score.answer for name, score in (sample.scores or {}).items()}
        rows.append([str(sample.id), sample.epoch, scores, answers])
    digest = hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()
    return {"samples": len(rows), "metrics": metrics, "scores_sha256": digest}


@contextmanager
def _fresh_cache() -> Iterator[None]:
    """An empty persona and panel cache (one run's panels never serve another)."""
    before = os.environ.get("INSPECT_PLURAL_CACHE")
    with tempfile.TemporaryDirectory(prefix="metric-runs-") as folder:
        os.environ["INSPECT_PLURAL_CACHE"] = folder
        try:
            yield
        finally:
            if before is None:
                os.environ.pop("INSPECT_PLURAL_CACHE", None)
            else:
                os.environ["INSPECT_PLURAL_CACHE"] = before


def run_values(
    task: Task, log_dir: str, epochs: int = 1, limit: int | None = None
) -> dict[str, Any]:
    """One run, with a fresh chance model (its count of repeated prompts starts at 0)."""
    with _fresh_cache():
        [log] = eval(
            task,
            model=get_model("plural/random", memoize=False),
            log_dir=log_dir,
            display="log",
            epochs=epochs,
            limit=limit,
            log_realtime=False,
            log_buffer=1000,
            score_display=False,
        )
    return log_values(log)


def measure(which: Sequence[str], log_dir: str) -> dict[str, dict[str, Any]]:
    """Every run of the named groups (``demo``, ``lewidi``), key -> values."""
    out: dict[str, dict[str, Any]] = {}
    if "demo" in which:
        for run in demo_runs():
            out[demo_key(run)] = run_values(run.build(), log_dir, run.epochs)
    if "lewidi" in which and LEWIDI.is_dir():
        for lewidi in lewidi_runs():
            out[lewidi.key] = run_values(lewidi.build(), log_dir, limit=LEWIDI_LIMIT)
    return out


def main() -> None:
    """Write the fixture (merging into the existing one)."""
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.metric_runs")
    parser.add_argument("--only", choices=["demo", "lewidi"], nargs="+", default=None)
    parser.add_argument("--out", type=Path, default=FIXTURE, help="the JSON to merge into")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    existing = json.loads(args.out.read_text()) if args.out.is_file() else {}
    with tempfile.TemporaryDirectory(prefix="metric-runs-logs-") as log_dir:
        existing.update(measure(args.only or ["demo", "lewidi"], log_dir))
    args.out.write_text(json.dumps(existing, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(existing)} runs to {args.out}")


if __name__ == "__main__":
    main()
