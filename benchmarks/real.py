"""Every method of every family against a real model on a local OpenAI-compatible server.

``python -m benchmarks --only real`` (never in ``--quick``, never in CI). It needs a
server (``docs/local_models.md``: llama.cpp, vLLM, SGLang, Ollama) reached through
Inspect's ``openai-api`` provider:

    LOCAL_BASE_URL=http://127.0.0.1:8011/v1 LOCAL_API_KEY=x python -m benchmarks --only real

Without ``LOCAL_BASE_URL``, or when nothing answers there, it says so and stops. The
model is ``LOCAL_MODEL`` (default: the first the server lists), reached as
``openai-api/local/MODEL``. Every run goes twice: as is, and with structured output
(``-T structured=...``; the value is ``REAL_STRUCTURED``, by default ``true`` when the
server takes OpenAI's ``json_schema`` and ``json_object`` when it refuses it, as
llama-cpp-python's does). A method none of whose answers is JSON by design (G-Eval,
ChatEval, and the baselines that make no call) runs once. ``REAL_LIMIT`` caps the
samples of every run; ``REAL_LOG_DIR`` keeps the logs (to read the raw answers). A run
whose task cannot be built (options the task refuses) is a row saying why, and the
sweep goes on.

Per run it prints the samples, the model calls against the protocol minimum
(:mod:`benchmarks.protocol`), the samples and answers that failed to parse with the
failures grouped by cause (numbers and quoted text stripped), input tokens (with
those the server's prompt cache served) and output tokens,
the wall time, and the share of answers read as JSON, text or a ranked list
(``read_as``), with the schemas that constrained them.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample

from benchmarks._call_runs import DISTRIBUTION, PANEL_PROFILES, Run
from benchmarks._counting import log_calls
from benchmarks._local_server import BASE_URL_ENV, probe_dialect, server
from benchmarks.calls import fresh_caches
from benchmarks.protocol import run_minimum
from inspect_plural.prediction import Prediction
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.panel._score import DEBATE_KEY, PARSE_FAILURES_KEY
from inspect_plural.solvers.debate import PanelDebate

__all__ = [
    "BASE_URL_ENV",
    "RUNS",
    "RealRun",
    "probe_dialect",
    "run",
    "runs",
    "server",
    "summary",
]

LIMIT_ENV = "REAL_LIMIT"
STRUCTURED_ENV = "REAL_STRUCTURED"
LOG_DIR_ENV = "REAL_LOG_DIR"


@dataclass(frozen=True)
class RealRun:
    """One method on one task's demo data, a few samples.

    Attributes:
        family: ``annotator``, ``personaeval``, ``rating``, ``perse`` or ``panel``.
        task: The registered task (``story_qa`` for the panel scorer).
        method: The method (``panel`` for the scorer).
        options: Further task options (the scorer's, for ``panel``).
        limit: Samples.
        json_answers: Whether any of the method's answers is JSON (else structured
            output changes nothing, and the run goes once).
    """

    family: str
    task: str
    method: str
    options: dict[str, Any] = field(default_factory=dict)
    limit: int = 3
    json_answers: bool = True

    def call_run(self, structured: str | None) -> Run:
        """The run as the calls benchmark builds it, with ``structured`` when given."""
        options = dict(self.options)
        if structured is not None:
            options["structured"] = structured
        limit = int(os.environ.get(LIMIT_ENV) or self.limit)
        return Run(self.family, self.task, "demo", self.method, options, limit)


def runs() -> list[RealRun]:
    """Every method of every family (a few samples each; debates cut to one group)."""
    annotator = [
        RealRun("annotator", "brexit", "llm_judge"),
        RealRun("annotator", "brexit", "llm_judge", {"answer_format": "distribution"}),
        RealRun("annotator", "brexit", "personalized_judge"),
        RealRun("annotator", "brexit", "cinemetric"),
        RealRun("annotator", "brexit", "trait_ensemble"),
        RealRun("annotator", "brexit", "retrieval_examples"),
        RealRun("annotator", "brexit", "annotator_majority", json_answers=False),
        RealRun("annotator", "brexit", "item_majority", json_answers=False),
    ]
    # the item-level target: a distribution over the labels, one sample per item
    annotator += [
        RealRun("annotator", "brexit", "distribution_judge", DISTRIBUTION),
        RealRun("annotator", "brexit", "stakeholder_panel", DISTRIBUTION),
        RealRun("annotator", "brexit", "uniform", DISTRIBUTION, json_answers=False),
    ]
    debate = {"groups": "Clinicians", "n_personas": 2, "max_rounds": 1}
    return [
        *annotator,
        RealRun("personaeval", "personaeval_literary", "role_identification"),
        RealRun("rating", "mslr_cochrane", "maj_eval", debate, limit=2),
        RealRun("rating", "mslr_cochrane", "geval", limit=2, json_answers=False),
        RealRun("rating", "mslr_cochrane", "chateval", limit=2, json_answers=False),
        RealRun("rating", "mslr_cochrane", "rouge_l", limit=2, json_answers=False),
        RealRun("perse", "per_mpst", "perse_review"),
        RealRun("perse", "per_mpst", "prior_average", json_answers=False),
        RealRun("perse", "per_mpst", "matrix_factorization", json_answers=False),
        RealRun("perse", "per_doc", "perse_aspect"),
        RealRun("perse", "per_doc", "prior_average", json_answers=False),
        RealRun(
            "panel",
            "story_qa",
            "panel",
            {"personas": PANEL_PROFILES, "dimensions": "helpfulness:1-5,safety:0-3"},
            limit=2,
        ),
    ]


RUNS = runs()
"""The runs, in table order."""


# --- reading a log ----------------------------------------------------------------

_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def cause(error: str) -> str:
    """A parse failure's cause: its message with quoted text, lists and numbers stripped."""
    first = error.split("; ")[0]
    return _NUMBER.sub("N", _QUOTED.sub("…", first)).strip()[:90]


@dataclass
class _Answer:
    ok: bool
    error: str | None
    read_as: str | None
    schema: str | None


def _answers(sample: EvalSample) -> list[_Answer]:
    """Every parsed model answer a sample records (the prediction's, the debate's)."""
    found = []
    prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
    for a in prediction.answers:
        found.append(_Answer(a.parse_ok, a.error, a.read_as, a.schema_name))
    groups: list[Any] = list(PanelDebate.read(sample.store).groups)  # type: ignore[arg-type]
    for score in (sample.scores or {}).values():
        groups += list((score.metadata or {}).get(DEBATE_KEY) or [])
    for group in groups:
        initial = group.initial if hasattr(group, "initial") else group.get("initial", [])
        for e in initial:
            e = e if isinstance(e, dict) else e.model_dump()
            found.append(
                _Answer(e["parse_ok"], e.get("error"), e.get("read_as"), e.get("schema_name"))
            )
    return found


def _sample_failed(sample: EvalSample) -> str | None:
    """Why a sample has no usable prediction (None when it has one)."""
    for name, score in (sample.scores or {}).items():
        if name == "panel":  # its count is among the score's values, not the shown ones
            failures = values_of(score).get(PARSE_FAILURES_KEY, 0.0)
            return f"{int(failures)} persona answers unparsed" if failures else None
    prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
    if prediction.method and not prediction.parse_ok:
        return prediction.error or "no answer"
    return None


def _tokens(samples: Iterable[EvalSample]) -> tuple[int, int, int]:
    """Input tokens (the whole prompt), output tokens, and the input the server had cached.

    Inspect's ``input_tokens`` leaves out what a server's prompt cache served
    (``input_tokens_cache_read``; llama.cpp's ``cached_tokens``), so a repeated prompt
    alone would read as a couple of tokens.
    """
    tokens_in = tokens_out = cached = 0
    for sample in samples:
        for event in sample.events:
            if event.event == "model" and event.cache != "read" and event.output.usage:
                usage = event.output.usage
                cached += usage.input_tokens_cache_read or 0
                tokens_in += usage.input_tokens + (usage.input_tokens_cache_read or 0)
                tokens_out += usage.output_tokens
    return tokens_in, tokens_out, cached


def summarise(real: RealRun, run: Run, log: EvalLog, wall: float) -> dict[str, Any]:
    """One row of the table from a finished log."""
    row = _head(real, run, log.status, wall)
    if log.status != "success" or not log.samples:
        row["error"] = str(log.error.message) if log.error else "no samples"
        return row
    samples = log.samples
    answers = [a for s in samples for a in _answers(s)]
    failed = [f for f in (_sample_failed(s) for s in samples) if f is not None]
    tokens_in, tokens_out, cached = _tokens(samples)
    row |= {
        "samples": len(samples),
        "calls": sum(log_calls(s) for s in samples),
        "minimum": run_minimum(run.method, samples, run.options),
        "failed_samples": len(failed),
        "sample_causes": dict(Counter(cause(f) for f in failed).most_common()),
        "answers": len(answers),
        "failed_answers": sum(not a.ok for a in answers),
        "answer_causes": dict(
            Counter(cause(a.error or "no answer") for a in answers if not a.ok).most_common()
        ),
        "read_as": dict(Counter(a.read_as or "failed" for a in answers).most_common()),
        "schemas": dict(Counter(a.schema for a in answers if a.schema).most_common()),
        "tokens_in": tokens_in,
        "tokens_out": tokens_out,
        "tokens_cached": cached,
    }
    return row


def _head(real: RealRun, run: Run, status: str, wall: float) -> dict[str, Any]:
    """What every row says: the run, its status and its wall time."""
    return {
        "family": real.family,
        "task": real.task,
        "method": real.method + (f" ({_shown(real.options)})" if real.options else ""),
        "structured": run.options.get("structured", "off"),
        "status": status,
        "wall_s": round(wall, 1),
    }


def _unbuilt(real: RealRun, run: Run, ex: Exception) -> dict[str, Any]:
    """The row of a run whose task could not be built (its options, its data)."""
    return _head(real, run, "not built", 0.0) | {
        "error": f"{type(ex).__name__}: {' '.join(str(ex).split())}"
    }


def _shown(options: dict[str, Any]) -> str:
    shown = {k: v for k, v in options.items() if k not in ("personas", "dimensions")}
    if "personas" in options:
        shown["profiles"] = str(options["personas"]).count(";") + 1
    return ", ".join(f"{k}={v}" for k, v in shown.items())


# --- running ----------------------------------------------------------------------


def execute(
    real_runs: Sequence[RealRun], model: str, structured: str, log_dir: str
) -> list[dict[str, Any]]:
    """Each run without and (when it has JSON answers) with structured output, in turn."""
    rows = []
    for real in real_runs:
        modes: list[str | None] = [None, structured] if real.json_answers else [None]
        for mode in modes:
            run = real.call_run(mode)
            load = os.getloadavg()[0]
            start = time.perf_counter()
            try:
                task = run.build()
            except Exception as ex:  # one run's options must not end the whole sweep
                row = _unbuilt(real, run, ex)
                print(_line(row), flush=True)
                rows.append(row)
                continue
            [log] = eval(
                task,
                model=model,
                log_dir=log_dir,
                display="none",
                log_level="error",
                score_display=False,
                log_realtime=False,
            )
            row = summarise(real, run, log, time.perf_counter() - start)
            row["load_before"] = round(load, 2)
            print(_line(row), flush=True)
            rows.append(row)
    return rows


def _line(row: dict[str, Any]) -> str:
    head = f"{row['task']:<20} {row['method']:<42} structured={row['structured']:<11}"
    if row.get("error"):
        return f"{head} ERROR {row['error'][:120]}"
    failures = "; ".join(f"{n}x {c}" for c, n in row["answer_causes"].items()) or "-"
    read_as = ", ".join(f"{k} {v}" for k, v in row["read_as"].items()) or "-"
    return (
        f"{head} n={row['samples']} calls={row['calls']}/min {row['minimum']} "
        f"failed {row['failed_samples']}/{row['samples']} samples, "
        f"{row['failed_answers']}/{row['answers']} answers [{failures}] "
        f"tokens {row['tokens_in']}+{row['tokens_out']} ({row['tokens_cached']} in from cache) "
        f"{row['wall_s']} s "
        f"read_as: {read_as}"
    )


def run(quick: bool = False) -> dict[str, Any]:
    """The section: check the server, run every method twice, print each row.

    Args:
        quick: Never runs in ``--quick`` (returns at once).

    Returns:
        ``rows`` (or ``skipped`` with the reason), ``model``, ``structured``, ``wall_s``.
    """
    if quick:
        return {"skipped": "the real-model section does not run in --quick"}
    found = server()
    if isinstance(found, str):
        print(f"real: {found}")
        return {"skipped": found}
    base_url, name = found
    os.environ.setdefault("LOCAL_API_KEY", "x")
    structured = os.environ.get(STRUCTURED_ENV) or probe_dialect(base_url, name)
    model = f"openai-api/local/{name}"
    print(f"real model {model} at {base_url}; structured output as structured={structured}")
    start = time.perf_counter()
    kept = os.environ.get(LOG_DIR_ENV)
    with fresh_caches(), tempfile.TemporaryDirectory() as scratch:
        rows = execute(RUNS, model, structured, kept or scratch)
    return {
        "model": model,
        "structured": structured,
        "wall_s": round(time.perf_counter() - start, 1),
        "rows": rows,
    }


def summary(result: dict[str, Any]) -> list[str]:
    """Summary lines: the runs, and the share of failed samples with and without."""
    if "skipped" in result:
        return [f"skipped: {result['skipped']}"]
    done = [r for r in result["rows"] if r.get("status") == "success"]
    lines = [f"{result['model']}: {len(done)} of {len(result['rows'])} runs finished"]
    for mode in ("off", result["structured"]):
        rows = [r for r in done if r["structured"] == mode and r["answers"]]
        answers = sum(r["answers"] for r in rows)
        failed = sum(r["failed_answers"] for r in rows)
        lines.append(f"structured={mode}: {failed}/{answers} answers failed to parse")
    return lines


if __name__ == "__main__":
    result = run()
    if "--json" in sys.argv[1:]:
        with open(sys.argv[sys.argv.index("--json") + 1], "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
