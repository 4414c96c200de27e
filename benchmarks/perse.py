"""PERSE tasks: calls per method against the protocol, and loading + fitting at release size.

1. Every ``per_mpst`` / ``per_doc`` method on the repository's sample rows (when
   ``../shared/data/perse`` is present) and on the demo rows, with ``plural/random``:
   model calls against the protocol (``perse_review`` and ``perse_aspect`` 1 per sample,
   2 with ``both_orders``; ``prior_average`` and ``matrix_factorization`` 0), tokens per
   sample and wall time; ``perse_review`` also at k = 0, without review content, with 3
   shuffled orders (3 epochs: 3 calls per instance) and under ``protocol=paper``.
2. A generated Per-MPST file at the release's size for k = 3 (1,477 reviewers, 14,714
   instances, plots and reviews of the sample file's lengths): the time and peak RSS of
   loading it, splitting it by reviewer and fitting the factorisation, i.e. everything
   ``per_mpst -T method=matrix_factorization`` does before its first sample.
"""

from __future__ import annotations

import json
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from inspect_ai import eval

from benchmarks._counting import log_calls, log_tokens
from benchmarks.calls import SHARED_PERSE
from benchmarks.protocol import run_minimum
from inspect_plural.solvers.perse._factorization import fit_factor_model, training_ratings
from inspect_plural.sources.perse import load_per_mpst, split_by_reviewer

RELEASE_REVIEWERS = 1385 + 92
"""Reviewers of Per-MPST at k = 3 (PERSE Table 1: train + valid)."""
RELEASE_ROWS = 13794 + 920
"""Instances of Per-MPST at k = 3 (PERSE Table 1: train + valid)."""
MOVIES = 6000
PLOT_WORDS = 250
REVIEW_WORDS = 130

RUNS: list[tuple[str, str, dict[str, Any]]] = [
    # task, method, task args (the protocol's calls: benchmarks.protocol.run_minimum)
    ("per_mpst", "perse_review", {}),
    ("per_mpst", "perse_review", {"k": 0}),
    ("per_mpst", "perse_review", {"review_content": False}),
    ("per_mpst", "perse_review", {"shuffle_reviews": 3}),
    ("per_mpst", "perse_review", {"protocol": "paper"}),
    ("per_mpst", "prior_average", {}),
    ("per_mpst", "prior_average", {"k": 0}),
    ("per_mpst", "matrix_factorization", {}),
    ("per_doc", "perse_aspect", {}),
    ("per_doc", "perse_aspect", {"both_orders": True}),
    ("per_doc", "prior_average", {}),
]


def _run(task: str, method: str, args: dict[str, Any], log_dir: str) -> dict[str, Any]:
    start = time.perf_counter()
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={"method": method, **args},
        model="plural/random",
        log_dir=log_dir,
        display="none",
    )
    wall = time.perf_counter() - start
    samples = log.samples or []
    calls = sum(log_calls(s) for s in samples)
    return {
        "task": task,
        "method": " ".join(
            [method, *(f"{k}={v}" for k, v in args.items() if k not in ("demo", "data_dir"))]
        ),
        "data": "sample" if "data_dir" in args else "demo",
        "status": log.status,
        "samples": len(samples),
        "calls": calls,
        "budget": run_minimum(method, samples, args),
        "tokens_per_sample": round(sum(log_tokens(s) for s in samples) / max(1, len(samples)), 1),
        "wall_s": round(wall, 2),
    }


def _words(rng: random.Random, vocabulary: list[str], n: int) -> str:
    return " ".join(rng.choice(vocabulary) for _ in range(n)) + "."


def write_release_sized(folder: Path, seed: int = 0) -> Path:
    """Write a Per-MPST k = 3 file of the release's size (generated text)."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(3000)]
    plots = [_words(rng, vocabulary, PLOT_WORDS) for _ in range(200)]
    reviews = [_words(rng, vocabulary, REVIEW_WORDS) for _ in range(200)]
    path = folder / "PerMPST.k3.generated.jsonl"
    per_reviewer = RELEASE_ROWS // RELEASE_REVIEWERS + 1
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for r in range(RELEASE_REVIEWERS):
            movies = rng.sample(range(MOVIES), 3 + per_reviewer)
            taste = rng.gauss(0, 1.2)
            items = [
                {
                    "reviewer_name": f"reviewer-{r:05d}",
                    "movie_index": m,
                    "movie_id": f"m{m:05d}",
                    "movie_title": f"Generated {m}",
                    "summ_plot": plots[m % len(plots)],
                    "clean_review": reviews[(m + r) % len(reviews)],
                    "score": max(1, min(10, round(6.5 + taste + rng.gauss(0, 1.5)))),
                }
                for m in movies
            ]
            for t in range(per_reviewer):
                if written == RELEASE_ROWS:
                    break
                examples = [*items[:3], items[3 + t]]
                line = {"examples": examples, "idx": written, "review_index": 0, "prompt": [""]}
                out.write(json.dumps(line) + "\n")
                written += 1
    return path


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loading(seed: int = 42) -> dict[str, Any]:
    """Load, split and fit the factorisation on a release-sized generated file."""
    with tempfile.TemporaryDirectory() as folder:
        path = write_release_sized(Path(folder))
        size_mb = path.stat().st_size / 1e6
        start = time.perf_counter()
        rows = load_per_mpst(data_dir=folder, k=3)
        loaded = time.perf_counter()
        parts = split_by_reviewer(rows, "seeded", 0.1, seed)
        split = time.perf_counter()
        model = fit_factor_model(training_ratings(parts.train), n_factors=10, reg=5.0, seed=seed)
        fitted = time.perf_counter()
        factors = [
            model.for_movies([*(h.item_id for h in r.history), r.target.item_id])
            for r in parts.valid
        ]
        done = time.perf_counter()
    return {
        "file_mb": round(size_mb, 1),
        "rows": len(rows.records),
        "train_reviewers": parts.summary["train_reviewers"],
        "valid_rows": len(parts.valid),
        "load_s": round(loaded - start, 2),
        "split_s": round(split - loaded, 3),
        "fit_s": round(fitted - split, 2),
        "sample_factors_s": round(done - fitted, 3),
        "factor_sets": len(factors),
        "peak_rss_mb": round(_peak_rss_mb(), 0),
    }


def main(json_path: str | None = None) -> None:
    """Run both parts and print the tables (and write JSON)."""
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as log_dir:
        for task, method, args in RUNS:
            rows.append(_run(task, method, {**args, "demo": True}, log_dir))
            if SHARED_PERSE.is_dir() and method != "matrix_factorization":
                sample_args = {**args, "data_dir": str(SHARED_PERSE)}
                if task == "per_doc":
                    sample_args |= {"aspects": "I", "split": "all"}
                rows.append(_run(task, method, sample_args, log_dir))
    columns = [
        "task",
        "method",
        "data",
        "samples",
        "calls",
        "budget",
        "tokens_per_sample",
        "wall_s",
    ]
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(row.get(c, "-")) for c in columns))
    over = [r for r in rows if r.get("calls", 0) != r.get("budget", 0)]
    print(f"runs off the protocol's call count: {len(over)} of {len(rows)}")
    load = loading()
    print("release-sized Per-MPST (k=3): " + ", ".join(f"{k} {v}" for k, v in load.items()))
    if json_path:
        Path(json_path).write_text(
            json.dumps({"methods": rows, "loading": load}, indent=2), encoding="utf-8"
        )
