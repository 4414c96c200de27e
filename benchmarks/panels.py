"""Model calls and tokens of the rating methods (MAJ-Eval, G-Eval, ChatEval, ROUGE-L).

Each method runs with ``plural/random`` on real MSLR-Cochrane summaries
(``../shared/data/mslr_cochrane``, when present) and on the StorySparkQA demo. For
``maj_eval`` the calls of every stakeholder group are checked against the protocol
(phase 1 + debate turns + moderator picks + 1 aggregation, from the rounds the debate
actually ran) and the tokens per group per datapoint are reported next to the paper's
18,281. The chance model's answers are short, so ``maj_eval`` also runs with
``-M answer_tokens=150``, which pads each free-text or JSON answer with about 150
tokens of prose (the length of a real persona's feedback paragraph).
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog

from benchmarks._counting import log_calls, log_tokens
from benchmarks.calls import SHARED_MSLR
from benchmarks.protocol import run_minimum, sample_minimum

__all__ = ["PAPER_TOKENS_PER_GROUP", "main", "run_one", "summarise"]

PAPER_TOKENS_PER_GROUP = 18_281
"""MAJ-Eval's reported tokens per group per datapoint (§5.4 cost analysis)."""


def summarise(
    log: EvalLog, label: str, method: str, args: dict[str, Any], wall: float
) -> dict[str, Any]:
    """The row of one run."""
    if log.status != "success" or not log.samples:
        return {"run": label, "method": method, "status": log.status}
    samples = log.samples
    calls = [log_calls(s) for s in samples]
    budgets = [sample_minimum(method, s, args) for s in samples]
    row: dict[str, Any] = {
        "run": label,
        "method": method,
        "samples": len(samples),
        "calls": sum(calls),
        "budget": run_minimum(method, samples, args),
        "over_budget": sum(c > b for c, b in zip(calls, budgets)),
        "median_calls": statistics.median(calls),
        "tokens_per_sample": round(sum(log_tokens(s) for s in samples) / len(samples)),
        "wall_s": round(wall, 1),
    }
    if method == "maj_eval":
        per_group = [
            g["tokens"] for s in samples for g in (s.store.get("PanelDebate:groups") or [])
        ]
        calls_group = [
            g["model_calls"] for s in samples for g in (s.store.get("PanelDebate:groups") or [])
        ]
        creation = sum(s.store.get("StakeholderPanel:creation_calls") or 0 for s in samples)
        row["tokens_per_group"] = round(statistics.mean(per_group))
        row["calls_per_group"] = round(statistics.mean(calls_group), 1)
        row["persona_creation_calls"] = creation
    return row


def run_one(
    task: str,
    label: str,
    method: str,
    limit: int | None,
    log_dir: str,
    model_args: dict[str, Any],
    **args: Any,
) -> dict[str, Any]:
    """Run one task with one method and summarise its log."""
    start = time.perf_counter()
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={"method": method, **args},
        model="plural/random",
        model_args=model_args,
        limit=limit,
        log_dir=log_dir,
        display="none",
    )
    return summarise(log, label, method, args, time.perf_counter() - start)


def main(limit: int = 3, json_path: str | None = None) -> None:
    """Run every rating method and print calls and tokens against the protocol."""
    rows = []
    runs: list[tuple[str, str, str, dict[str, Any], dict[str, Any]]] = []
    sources: list[tuple[str, str, dict[str, Any]]] = [
        ("storysparkqa", "storysparkqa demo", {"demo": True})
    ]
    if SHARED_MSLR.is_dir():
        sources.insert(0, ("mslr_cochrane", "mslr real", {"data_dir": str(SHARED_MSLR)}))
    for task, label, data in sources:
        runs += [
            (task, label, "maj_eval", {}, data),
            (task, label + " +150 tok", "maj_eval", {"answer_tokens": 150}, data),
            (task, label, "geval", {}, data),
            (task, label, "chateval", {}, data),
            (task, label, "chateval", {}, {**data, "chateval_strategy": "simultaneous_summarizer"}),
            (task, label, "rouge_l", {}, data),
        ]
    with tempfile.TemporaryDirectory() as log_dir:
        for task, label, method, model_args, args in runs:
            rows.append(run_one(task, label, method, limit, log_dir, model_args, **args))
    columns = [
        "run",
        "method",
        "samples",
        "calls",
        "budget",
        "over_budget",
        "median_calls",
        "calls_per_group",
        "tokens_per_sample",
        "tokens_per_group",
        "persona_creation_calls",
        "wall_s",
    ]
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row.get(c, "-")) for c in columns))
    print(f"paper: {PAPER_TOKENS_PER_GROUP} tokens per group per datapoint (MAJ-Eval, Qwen)")
    over = sum(r.get("over_budget", 0) for r in rows)
    print(f"samples over budget: {over}")
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=2), encoding="utf-8")
