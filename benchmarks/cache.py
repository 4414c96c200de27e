"""``--cache``: every method run twice; the second run must make no model call.

Each method of every method registry runs on its family's demo task (plus variants with
other call patterns) twice with ``cache=True`` and ``plural/random``, Inspect's cache
(``$INSPECT_CACHE_DIR``) and the package's persona cache (``$INSPECT_PLURAL_CACHE``) in a
fresh temporary folder. Calls are model events that were not cache reads. The table
also shows each method's ``--batch`` declaration (``inspect_plural.tasks.BATCH_SUPPORT``).

Quick mode runs a representative subset: one single-call method, CINEMETRIC (persona work
on disk), G-Eval (concurrent calls per dimension), self-consistency, a 0-call baseline.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai._eval.registry import task_create
from inspect_ai.log import EvalLog, read_eval_log

from inspect_plural.tasks import BATCH_SUPPORT
from inspect_plural.tasks._batch import STATUS_TEXT, method_families
from inspect_plural.tasks.annotator import ITEM_METHODS

FAMILY_TASK = {
    "perspective": "inspect_plural/brexit",
    "ratings": "inspect_plural/storysparkqa",
    "per_mpst": "inspect_plural/per_mpst",
    "per_doc": "inspect_plural/per_doc",
    "personaeval": "inspect_plural/personaeval_literary",
}
DOCUMENT = "Benchmark document: parents and teachers choose stories for children."
DISTRIBUTION = {"target": "distribution"}
"""Methods that predict an item's distribution run on the item-level target."""
QUICK = (
    "perspective-llm_judge",
    "perspective-cinemetric",
    "ratings-geval",
    "personaeval-self_consistency3",
    "per_mpst-prior_average",
)
LIMIT = {True: 2, False: 4}


@dataclass(frozen=True)
class Case:
    """A method on a demo task, with options."""

    id: str
    task: str
    method: str
    args: dict[str, Any] = field(default_factory=dict)

    def create(self, doc: Path) -> Task:
        args = {"demo": True, **self.args}
        if self.method != "role_identification":
            args["method"] = self.method
        if args.get("persona_docs") == "DOC":
            args["persona_docs"] = str(doc)
        return task_create(self.task, **args)


def cases() -> list[Case]:
    """Every registered method on its family's demo task, then variants."""
    return [
        *(
            Case(
                f"{family}-{method}",
                FAMILY_TASK[family],
                method,
                dict(DISTRIBUTION) if method in ITEM_METHODS else {},
            )
            for method, families in method_families().items()
            for family in families
        ),
        Case(
            "perspective-cinemetric-distribution",
            FAMILY_TASK["perspective"],
            "cinemetric",
            {**DISTRIBUTION, "seed": 7},  # its own panels: not those of the case above
        ),
        Case(
            "perspective-distribution_judge-steer",
            FAMILY_TASK["perspective"],
            "distribution_judge",
            {**DISTRIBUTION, "steer": "group", "seed": 7},
        ),
        Case(
            "ratings-chateval-summarizer",
            "inspect_plural/mslr_cochrane",
            "chateval",
            {"chateval_strategy": "simultaneous_summarizer"},
        ),
        Case(
            "ratings-maj_eval-persona_docs",
            FAMILY_TASK["ratings"],
            "maj_eval",
            {"persona_docs": "DOC"},
        ),
        Case(
            "per_doc-perse_aspect-both",
            FAMILY_TASK["per_doc"],
            "perse_aspect",
            # its own seed: with the default one, half its prompts are those of the
            # perse_aspect case, which runs concurrently and may fill the cache first
            {"both_orders": True, "seed": 7},
        ),
        Case(
            "personaeval-self_consistency3",
            FAMILY_TASK["personaeval"],
            "role_identification",
            {"self_consistency": 3},
        ),
    ]


@dataclass(frozen=True)
class CacheRow:
    """One case's two runs."""

    case: str
    method: str
    first_calls: int
    first_reads: int
    second_calls: int
    second_reads: int
    batch: str
    batch_waits: str
    ok: bool
    """No call in the second run, and calls in the first exactly when the method makes any."""

    @classmethod
    def of(cls, case: Case, first: tuple[int, int], second: tuple[int, int]) -> CacheRow:
        support = BATCH_SUPPORT[case.method]
        return cls(
            case=case.id,
            method=case.method,
            first_calls=first[0],
            first_reads=first[1],
            second_calls=second[0],
            second_reads=second[1],
            batch=STATUS_TEXT[support.status],
            batch_waits=support.waits,
            ok=second[0] == 0 and (first[0] > 0) == support.calls_model,
        )


def _counts(log: EvalLog) -> tuple[int, int]:
    """Model calls (not cache reads) and cache reads of a log."""
    log = read_eval_log(log.location)
    if log.status != "success":
        raise RuntimeError(f"{log.eval.task} failed: {log.error}")
    events = [e for s in log.samples or [] for e in s.events if e.event == "model"]
    reads = sum(e.cache == "read" for e in events)
    return len(events) - reads, reads


@contextmanager
def _cold_caches(root: Path) -> Iterator[None]:
    names = ("INSPECT_CACHE_DIR", "INSPECT_PLURAL_CACHE")
    saved = {name: os.environ.get(name) for name in names}
    os.environ["INSPECT_CACHE_DIR"] = str(root / "inspect")
    os.environ["INSPECT_PLURAL_CACHE"] = str(root / "plural")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _run(selected: list[Case], doc: Path, log_dir: Path, limit: int) -> list[tuple[int, int]]:
    logs = eval(
        [case.create(doc) for case in selected],
        model="plural/random",
        limit=limit,
        cache=True,
        log_dir=str(log_dir),
        display="log",  # "none" lays out every results table with rich: slow
        log_level="error",
        max_tasks=len(selected),
        log_realtime=False,
        log_buffer=1000,
    )
    return [_counts(log) for log in logs]


def run(quick: bool = False) -> dict[str, Any]:
    """Run every case (quick: :data:`QUICK`) twice with ``cache=True``; print the table."""
    selected = [c for c in cases() if not quick or c.id in QUICK]
    limit = LIMIT[quick]
    with tempfile.TemporaryDirectory(prefix="bench_cache_") as tmp:
        root = Path(tmp)
        doc = root / "document.txt"
        doc.write_text(DOCUMENT, encoding="utf-8")
        with _cold_caches(root):
            start = time.perf_counter()
            first = _run(selected, doc, root / "logs1", limit)
            middle = time.perf_counter()
            second = _run(selected, doc, root / "logs2", limit)
            end = time.perf_counter()
    rows = [
        CacheRow.of(case, one, two) for case, one, two in zip(selected, first, second, strict=True)
    ]
    result: dict[str, Any] = {
        "quick": quick,
        "limit": limit,
        "rows": [asdict(row) for row in rows],
        "first_run_s": round(middle - start, 2),
        "second_run_s": round(end - middle, 2),
        "methods": len({row.method for row in rows}),
        "second_run_calls": sum(row.second_calls for row in rows),
        "all_ok": all(row.ok for row in rows),
    }
    _print(rows, result)
    return result


def _print(rows: list[CacheRow], result: dict[str, Any]) -> None:
    print(
        f"\n== cache: every method run twice with --cache ({result['limit']} samples each; "
        f"runs {result['first_run_s']} s and {result['second_run_s']} s) =="
    )
    header = ("case", "first-run calls", "second-run calls", "second-run reads", "--batch", "waits")
    table = [header] + [
        (
            row.case,
            str(row.first_calls),
            str(row.second_calls),
            str(row.second_reads),
            row.batch,
            row.batch_waits,
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())


def summary(result: dict[str, Any]) -> list[str]:
    """One line: methods covered and the second run's calls."""
    verdict = "" if result["all_ok"] else " (FAILED: see table)"
    cases_run = len(result["rows"])
    return [
        f"cache: {result['methods']} methods ({cases_run} cases), second run "
        f"{result['second_run_calls']} calls{verdict}"
    ]


if __name__ == "__main__":
    import sys

    print("\n".join(summary(run(quick="--quick" in sys.argv))))
