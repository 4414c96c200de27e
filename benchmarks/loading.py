"""Load and split time, and peak memory, of the annotator-level sources at full size.

A generated file the size of the real one is written in the official schema (benchmark
rows, not real data): MHS (135,556 rows, 39,565 comments, 7,912 annotators, 131 columns)
and, when ``inspect_plural.sources.dices`` provides ``load_dices``, DICES-990 (72,103 rows,
173 raters, 990 conversations, 43 columns). Each is then loaded and split in a *fresh
subprocess*, so the peak RSS (``ru_maxrss``) belongs to that load alone; the RSS after the
imports is reported too.

Usage: ``python -m benchmarks.loading [--rows N] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

MHS_ROWS = 135_556
MHS_COMMENTS = 39_565
MHS_ANNOTATORS = 7_912
DICES_ROWS = 72_103
DICES_RATERS = 173
DICES_ITEMS = 990

CHILD = r"""
import json, resource, sys, time
kind, folder = sys.argv[1], sys.argv[2]
from inspect_plural.splits import cinemetric_split, perseval_split
if kind == "mhs":
    from inspect_plural.sources.mhs import load_mhs as load
    kwargs = {}
else:
    from inspect_plural.sources.dices import load_dices as load
    kwargs = json.loads(sys.argv[3])
def hwm():
    # VmHWM: peak RSS of this process image only (ru_maxrss also counts the parent's
    # pages at fork time, which Linux carries across execve).
    try:
        for line in open("/proc/self/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None
rss_imports = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hwm_imports = hwm()
start = time.perf_counter()
corpus = load(data_dir=folder, **kwargs)
load_s = time.perf_counter() - start
start = time.perf_counter()
perseval = perseval_split(corpus)
perseval_s = time.perf_counter() - start
start = time.perf_counter()
cinemetric = cinemetric_split(corpus)
cinemetric_s = time.perf_counter() - start
from inspect_plural.tasks._perspective import build_samples
start = time.perf_counter()
samples = build_samples(corpus, perseval, named=True)
samples_s = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
hwm_peak = hwm()
print(json.dumps({
    "load_s": round(load_s, 3),
    "perseval_split_s": round(perseval_s, 3),
    "cinemetric_split_s": round(cinemetric_s, 3),
    "perseval_samples_s": round(samples_s, 3),
    "perseval_samples": len(samples),
    "rss_after_imports_mb": round(rss_imports / 1024, 1),
    "peak_rss_mb": round(peak / 1024, 1),
    "vm_hwm_after_imports_mb": None if hwm_imports is None else round(hwm_imports / 1024, 1),
    "vm_hwm_peak_mb": None if hwm_peak is None else round(hwm_peak / 1024, 1),
    "judgments": int(len(corpus.judgments)),
    "items": len(corpus.items),
    "annotators": len(corpus.annotators),
    "perseval_test_judgments": int(len(perseval.test)),
    "perseval_test_users": int(perseval.summary["test_users"]),
    "cinemetric_test_judgments": int(len(cinemetric.test)),
}))
"""


def write_mhs_parquet(folder: Path, rows: int = MHS_ROWS, seed: int = 0) -> Path:
    """A generated parquet with the 131 official MHS columns (benchmark rows)."""
    from inspect_plural.sources.mhs import (
        EDUCATION_VALUES,
        IDEOLOGY_VALUES,
        INCOME_VALUES,
        MHS_FILES,
        complete_mhs_frame,
    )

    rng = np.random.default_rng(seed)
    n_comments = min(MHS_COMMENTS, rows)
    n_annotators = min(MHS_ANNOTATORS, rows)
    comment_ids = np.sort(rng.choice(np.arange(1, 60_000), n_comments, replace=False))
    annotator_ids = np.sort(rng.choice(np.arange(1, 12_000), n_annotators, replace=False))
    # Every comment and annotator appears; pairs are almost all distinct.
    comment_of_row = comment_ids[rng.permutation(np.arange(rows) % n_comments)]
    annotator_index = rng.permutation(np.arange(rows) % n_annotators)
    annotator_of_row = annotator_ids[annotator_index]

    def per_annotator(values: Sequence[str | None]) -> np.ndarray:
        table = np.array(values, dtype=object)
        picked: np.ndarray = table[rng.integers(0, len(table), n_annotators)][annotator_index]
        return picked

    genders = ["female", "male", "non_binary", "prefer_not_to_say", "self_describe"]
    ages = rng.integers(18, 80, n_annotators).astype(float)
    ages[rng.random(n_annotators) < 0.01] = np.nan
    latent = rng.normal(0, 1, n_comments)[np.searchsorted(comment_ids, comment_of_row)]
    value = latent + rng.normal(0, 0.8, rows)
    hatespeech = np.where(value < 0.2, 0.0, np.where(value < 0.9, 1.0, 2.0))
    texts = {
        c: f"Benchmark comment {c}: generated text, not from the dataset." for c in comment_ids
    }
    frame = pd.DataFrame(
        {
            "comment_id": comment_of_row,
            "annotator_id": annotator_of_row,
            "text": [texts[c] for c in comment_of_row.tolist()],
            "hatespeech": hatespeech,
            "annotator_gender": per_annotator(genders),
            "annotator_educ": per_annotator([*EDUCATION_VALUES, None]),
            "annotator_income": per_annotator([*INCOME_VALUES, None]),
            "annotator_ideology": per_annotator([*IDEOLOGY_VALUES, None]),
            "annotator_age": ages[annotator_index],
        }
    )
    path = folder / MHS_FILES[0]
    complete_mhs_frame(frame).to_parquet(path, index=False)
    return path


def _dices_layout() -> tuple[str, list[str]]:
    """File name and official columns of DICES-990, from the source module."""
    from inspect_plural.sources.dices import DICES_COLUMNS, DICES_FILES

    return Path(DICES_FILES["990"]).name, list(DICES_COLUMNS["990"])


def write_dices_csv(folder: Path, filename: str, columns: list[str], seed: int = 0) -> Path:
    """A generated DICES-990 CSV (benchmark rows) with the given columns."""
    rng = np.random.default_rng(seed)
    per_item = DICES_ROWS // DICES_ITEMS
    extra = DICES_ROWS - per_item * DICES_ITEMS
    raters = np.array([str(10**15 + int(r)) for r in rng.integers(0, 10**14, DICES_RATERS)])
    rater_rows, item_rows = [], []
    for item in range(DICES_ITEMS):
        count = per_item + (1 if item < extra else 0)
        rater_rows.append(rng.permutation(DICES_RATERS)[:count])
        item_rows.append(np.full(count, item))
    rater_index = np.concatenate(rater_rows)
    item_index = np.concatenate(item_rows)
    rows = len(rater_index)
    answers = np.array(["No", "Unsure", "Yes"], dtype=object)
    latent = rng.normal(0, 1, DICES_ITEMS)[item_index] + rng.normal(0, 0.8, rows)
    overall = answers[np.digitize(latent, [0.5, 1.0])]
    pick = rng.integers

    def by_rater(values: list[str]) -> np.ndarray:
        table = np.array(values, dtype=object)
        return table[pick(0, len(table), DICES_RATERS)][rater_index]

    data: dict[str, Any] = {}
    for column in columns:
        if column == "id":
            data[column] = np.arange(rows)
        elif column == "rater_id":
            data[column] = raters[rater_index]
        elif column == "rater_gender":
            data[column] = by_rater(["Man", "Woman"])
        elif column == "rater_locale":
            data[column] = by_rater(["US", "India"])
        elif column == "rater_race":
            data[column] = by_rater(["White", "Black", "Latine", "Asian/Asian subcontinent"])
        elif column.startswith("rater_race") or column == "rater_raw_race":
            data[column] = by_rater(["White", "Black or African American", "Asian"])
        elif column == "rater_age":
            data[column] = by_rater(["gen z", "millenial", "gen x+"])
        elif column == "rater_education":
            data[column] = by_rater(["College degree or higher", "High school or below"])
        elif column == "phase":
            data[column] = by_rater(["Phase1", "Phase2", "Phase3"])
        elif column == "item_id":
            data[column] = item_index
        elif column == "context":
            data[column] = [
                f"USER: Benchmark context {i}.\nLAMDA: Generated turn." for i in item_index
            ]
        elif column == "response":
            data[column] = [f"Benchmark response {i}." for i in item_index]
        elif column == "degree_of_harm":
            data[column] = np.array(["Benign", "Debatable", "Moderate", "Extreme"])[item_index % 4]
        elif column == "harm_type":
            data[column] = np.array(["Benign", "Misinformation"])[item_index % 2]
        elif column.endswith("_overall") or column.startswith("Q1"):
            data[column] = overall
        else:
            data[column] = answers[pick(0, 3, rows)]
    path = folder / filename
    pd.DataFrame(data)[columns].to_csv(path, index=False)
    return path


def _measure(kind: str, folder: Path, kwargs: dict[str, Any] | None = None) -> dict[str, Any]:
    command = [sys.executable, "-c", CHILD, kind, str(folder), json.dumps(kwargs or {})]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{kind} benchmark child failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _table(results: dict[str, dict[str, Any]]) -> str:
    columns = [
        ("load_s", "load s"),
        ("perseval_split_s", "perseval s"),
        ("cinemetric_split_s", "cinemetric s"),
        ("perseval_samples_s", "PersEval samples s"),
        ("peak_rss_mb", "peak RSS MB (ru_maxrss)"),
        ("rss_after_imports_mb", "after imports MB"),
        ("vm_hwm_peak_mb", "VmHWM MB"),
        ("rows", "rows"),
        ("annotators", "annotators"),
        ("items", "items"),
        ("perseval_test_judgments", "PersEval test"),
        ("cinemetric_test_judgments", "CINEMETRIC test"),
    ]
    lines = ["| dataset | " + " | ".join(title for _, title in columns) + " |"]
    lines.append("|---" * (len(columns) + 1) + "|")
    for name, result in results.items():
        cells = [str(result.get(key, "")) for key, _ in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(rows: int = MHS_ROWS, json_path: str | None = None) -> dict[str, Any]:
    """Generate the files, measure each in a fresh process, print a table.

    Args:
        rows: MHS rows to generate (the real file has 135,556).
        json_path: Also write the results to this JSON file.

    Returns:
        Dataset -> measurements (``skipped`` holds the reason a dataset was left out).

    """
    results: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="plural-loading-") as tmp:
        folder = Path(tmp)
        generated = _generate("mhs", folder / "mhs", rows)
        results["mhs"] = {
            "rows": rows,
            "generate_s": generated,
            **_measure("mhs", folder / "mhs"),
        }
        filename, _ = _dices_layout()
        generated = _generate("dices", folder / "dices", DICES_ROWS)
        try:
            measured = _measure("dices", folder / "dices", {"subset": "990"})
        except RuntimeError as ex:
            skipped["dices"] = str(ex)
            print(f"DICES-990: failed on the generated {filename}: {ex}")
        else:
            results["dices-990"] = {
                "rows": DICES_ROWS,
                "generate_s": generated,
                "file": filename,
                **measured,
            }
    print(_table(results))
    output: dict[str, Any] = {**results, "skipped": skipped}
    if json_path:
        Path(json_path).write_text(json.dumps(output, indent=2) + "\n", encoding="utf-8")
    return output


def _write(kind: str, folder: Path, rows: int) -> None:
    """Write one generated file (run in a child process by :func:`_generate`)."""
    folder.mkdir(parents=True, exist_ok=True)
    if kind == "mhs":
        write_mhs_parquet(folder, rows)
    else:
        filename, columns = _dices_layout()
        write_dices_csv(folder, filename, columns)


def _generate(kind: str, folder: Path, rows: int) -> float:
    """Write a generated file in a child process, so this process stays small.

    Linux carries a parent's peak RSS into the ``ru_maxrss`` of the children it starts
    afterwards, so the measuring children must be started from a small parent.
    """
    code = (
        "import sys; from pathlib import Path; from benchmarks.loading import _write; "
        "_write(sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]))"
    )
    root = Path(__file__).resolve().parents[1]
    path = os.pathsep.join(p for p in [str(root), os.environ.get("PYTHONPATH", "")] if p)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code, kind, str(folder), str(rows)],
        check=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": path},
    )
    return round(time.perf_counter() - start, 2)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m benchmarks.loading")
    parser.add_argument("--rows", type=int, default=MHS_ROWS, help="MHS rows to generate")
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args()
    main(rows=args.rows, json_path=args.json)
