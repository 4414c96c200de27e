"""Fake runs of every family: per-sample score values from a few numbers, and the
metrics the package's scorer would log (computed here with scipy / scikit-learn), so
the report's cells can be checked against them. Written with
:func:`tests.unit.report_logs.write_run`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import stats
from tests.unit.report_logs import Row, Run

from inspect_plural.records import RatingDimension
from inspect_plural.scorers.panel._score import PanelGroup, PanelRecord, group_keys, panel_score
from inspect_plural.solvers.debate._records import Evaluation, GroupDebate
from inspect_plural.stakeholders import Persona

# --- annotator-level ------------------------------------------------------------------


def annotator_rows(
    correct: Sequence[int],
    traits: Sequence[str] | None = None,
    failed: Sequence[int] = (),
    n_labels: int = 3,
    ordinal: bool = False,
) -> list[Row]:
    """Per-annotator samples: 4 annotators, 5 items, gold ``i % n_labels``."""
    rows: list[Row] = []
    for i, hit in enumerate(correct):
        gold = i % n_labels
        pred = gold if hit else (gold + 1) % n_labels
        ok = i not in failed
        value = {
            "pred": float(pred) if ok else -1.0,
            "gold": float(gold),
            "correct": float(hit and ok),
            "parse_ok": float(ok),
            "n_labels": float(n_labels),
            "ordinal": float(ordinal),
            "model_calls": 1.0,
            "tokens": 110.0,
        }
        if ordinal:
            value["abs_error"] = float(abs(pred - gold)) if ok else float(n_labels - 1)
        metadata: dict[str, Any] = {"annotator_id": f"a{i % 4}", "item_id": f"i{i % 5}"}
        if traits is not None:
            metadata["metric_traits"] = {"gender": traits[i]}
            metadata["trait:gender"] = traits[i]
        metadata["scale"] = {
            "kind": "ordinal" if ordinal else "nominal",
            "low": None,
            "high": None,
            "labels": [f"L{k}" for k in range(n_labels)],
        }
        rows.append((value, metadata))
    return rows


def annotator_metrics(rows: Sequence[Row]) -> dict[str, float]:
    """Accuracy (and MAE) as the package computes them: failures count wrong."""
    from sklearn.metrics import f1_score

    correct = [v["correct"] for v, _ in rows]
    gold = [int(v["gold"]) for v, _ in rows]
    pred = [int(v["pred"]) for v, _ in rows]
    labels = list(range(int(rows[0][0]["n_labels"])))
    metrics = {
        "accuracy": float(np.mean(correct)),
        "macro_f1": float(f1_score(gold, pred, labels=labels, average="macro", zero_division=0)),
    }
    if "abs_error" in rows[0][0]:
        metrics["mae"] = float(np.mean([v["abs_error"] for v, _ in rows]))
    return metrics


def annotator_run(correct: Sequence[int], **kwargs: Any) -> Run:
    """An annotator-level run whose log metrics are the true figures."""
    row_args = {
        k: kwargs.pop(k) for k in ("traits", "failed", "n_labels", "ordinal") if k in kwargs
    }
    rows = annotator_rows(correct, **row_args)
    run = Run(rows=rows, metrics=annotator_metrics(rows), **kwargs)
    run.metadata.setdefault("family", "perspective")
    return run


# --- PersonaEval ----------------------------------------------------------------------


def role_run(track: str, probs: np.ndarray, gold: Sequence[int], **kwargs: Any) -> Run:
    """A PersonaEval run (default preset: sklearn-scaled Brier, ties to the first)."""
    rows: list[Row] = []
    for i, (p, g) in enumerate(zip(probs, gold)):
        value = {f"p_{k}": float(x) for k, x in enumerate(p)}
        value.update(
            {
                "correct": float(int(np.argmax(p)) == g),
                "n_options": float(len(p)),
                "gold_index": float(g),
                "parse_ok": 1.0,
                "model_calls": 1.0,
            }
        )
        rows.append((value, {"item_id": f"q{i}"}))
    top1 = float(np.mean([int(np.argmax(p)) == g for p, g in zip(probs, gold)]))
    run = Run(
        task=f"personaeval_{track}",
        method="role_identification",
        scorer="role_scorer",
        rows=rows,
        metrics={"top1": top1},
        **kwargs,
    )
    run.metadata.update({"family": "personaeval", "track": track})
    return run


# --- ratings --------------------------------------------------------------------------

DIMENSIONS = ("overall", "fluency")
GROUPS = ("Clinicians", "Patients")


def rating_rows(n: int, seed: int = 0, missing: Sequence[int] = ()) -> list[Row]:
    """Rated outputs with a panel score, two groups, and scores before the debate."""
    rng = np.random.default_rng(seed)
    rows: list[Row] = []
    for i in range(n):
        value: dict[str, float] = {"parse_ok": float(i not in missing), "model_calls": 9.0}
        for dim in DIMENSIONS:
            gold = float(rng.integers(1, 6))
            value[f"gold/{dim}"] = gold
            if i in missing:
                continue
            value[f"pred/{dim}"] = float(np.clip(gold + rng.integers(-1, 2), 1, 5))
            value[f"pred_initial/{dim}"] = float(rng.integers(1, 6))
            for g in GROUPS:
                value[f"group/{g}/{dim}"] = float(rng.integers(1, 6))
                value[f"group_initial/{g}/{dim}"] = float(rng.integers(1, 6))
        rows.append((value, {"item_id": f"o{i}"}))
    return rows


def rating_run(rows: list[Row], absolute: bool = False, **kwargs: Any) -> Run:
    """A rating run whose log holds the panel's Spearman/Kendall/Pearson (or |ρ| only)."""
    metrics: dict[str, float] = {}
    for dim in DIMENSIONS:
        pairs = [(v[f"pred/{dim}"], v[f"gold/{dim}"]) for v, _ in rows if f"pred/{dim}" in v]
        x, y = np.array(pairs).T
        found = {
            "spearman": stats.spearmanr(x, y).statistic,
            "kendall": stats.kendalltau(x, y, variant="b").statistic,
            "pearson": stats.pearsonr(x, y).statistic,
        }
        for name, value in found.items():
            if absolute and name != "spearman":
                continue
            metrics[f"{dim}/{name}"] = float(abs(value) if absolute else value)
    run = Run(
        scorer="rating_scorer",
        task="mslr_cochrane",
        method="maj_eval",
        rows=rows,
        metrics=metrics,
        **kwargs,
    )
    run.metadata.update(
        {
            "family": "ratings",
            "absolute": absolute,
            "correlation": "pooled",
            "metrics_preset": "maj_eval" if absolute else "default",
            "dimensions": [{"name": d} for d in DIMENSIONS],
        }
    )
    if absolute:
        run.task_args["metrics_preset"] = "maj_eval"
    return run


# --- PERSE ----------------------------------------------------------------------------


def review_run(
    preds: Sequence[float | None],
    golds: Sequence[float],
    shuffles: int = 0,
    preset: str = "default",
    **kwargs: Any,
) -> Run:
    """A Per-MPST run; failures (None) imputed at 5.5 (default) or dropped (perse)."""
    rows: list[Row] = []
    rng = np.random.default_rng(1)
    epochs = max(1, shuffles)
    for epoch in range(1, epochs + 1):
        for i, (p, g) in enumerate(zip(preds, golds)):
            value: dict[str, float] = {
                "gold": float(g),
                "parse_ok": float(p is not None),
                "model_calls": 1.0,
            }
            if p is not None:
                shown = float(p) if not shuffles else float(np.clip(p + rng.integers(-1, 2), 1, 10))
                value.update(
                    {
                        "pred": shown,
                        "abs_error": abs(shown - g),
                        "exact": float(np.floor(shown + 0.5) == g),
                        "exact_raw": float(shown == g),
                        "review_rouge1": 0.25,
                        "review_bleu": 12.5,
                    }
                )
                if shuffles:
                    value[f"shuffle{epoch}/pred"] = shown
            rows.append(
                (
                    value,
                    {
                        "sample_id": f"r{i}",
                        "epoch": epoch,
                        "scale": {"kind": "interval", "low": 1, "high": 10},
                    },
                )
            )
    run = Run(
        task="per_mpst",
        method="perse_review",
        scorer="review_scorer",
        rows=rows,
        epochs=epochs,
        **kwargs,
    )
    run.metadata.update({"family": "personal", "metrics_preset": preset, "k": 3})
    run.task_args.setdefault("k", 3)
    if epochs == 1:
        middle = 5.5
        kept = [
            (p if p is not None else middle, g)
            for p, g in zip(preds, golds)
            if p is not None or preset == "default"
        ]
        x, y = np.array(kept, dtype=float).T
        key = "exact_raw" if preset == "perse" else "exact"
        exact = [v.get(key, 0.0) for v, _ in rows if "pred" in v or preset == "default"]
        run.metrics = {
            "spearman": float(stats.spearmanr(x, y).statistic),
            "kendall": float(stats.kendalltau(x, y).statistic),
            "pearson": float(stats.pearsonr(x, y).statistic),
            "accuracy": float(np.mean(exact)),
            "mae": float(np.mean(np.abs(x - y))),
            "review_rouge1": 0.25,
            "review_bleu": 12.5,
        }
    return run


def choice_run(correct: Sequence[int], aspects: Sequence[str], **kwargs: Any) -> Run:
    """A Per-DOC run: accuracy per aspect and their unweighted mean."""
    rows: list[Row] = [
        (
            {"correct": float(c), "parse_ok": 1.0, "na": 0.0, "model_calls": 1.0},
            {"aspect": a, "item_id": f"p{i}"},
        )
        for i, (c, a) in enumerate(zip(correct, aspects))
    ]
    per = {
        a: float(np.mean([c for c, x in zip(correct, aspects) if x == a]))
        for a in sorted(set(aspects))
    }
    metrics = {f"accuracy/{a}": v for a, v in per.items()}
    metrics["accuracy"] = float(np.mean(list(per.values())))
    run = Run(
        task="per_doc",
        method="perse_aspect",
        scorer="choice_scorer",
        rows=rows,
        metrics=metrics,
        **kwargs,
    )
    run.metadata.update({"family": "personal"})
    return run


# --- persona panel --------------------------------------------------------------------

HELP = RatingDimension(name="helpfulness", title="Helpfulness", description="d", low=1, high=5)


def _persona(name: str) -> Persona:
    return Persona(name=name, perspective="x")


def panel_scores(scores: Sequence[dict[str, float]]) -> list[tuple[Any, dict[str, Any] | None]]:
    """Panel scores (value, metadata) from each sample's persona scores (``group/persona``)."""
    out: list[tuple[Any, dict[str, Any] | None]] = []
    for sample in scores:
        groups: dict[str, list[str]] = {}
        for coder in sample:
            group, persona = coder.split("/")
            groups.setdefault(group, []).append(persona)
        keys = group_keys(list(groups))
        record = PanelRecord(
            origin="profiles",
            dimensions=[HELP],
            groups=[
                PanelGroup(
                    name=g, key=keys[g], personas=[Persona(name=p, perspective="x") for p in ps]
                )
                for g, ps in groups.items()
            ],
        )
        debates = []
        for g, personas in groups.items():
            evaluations = [
                Evaluation(
                    persona=p,
                    scores={"helpfulness": sample[f"{g}/{p}"]},
                    parse_ok=True,
                    error=None,
                    feedback="",
                    source="initial",
                )
                for p in personas
            ]
            mean = float(np.mean([sample[f"{g}/{p}"] for p in personas]))
            debates.append(
                GroupDebate(
                    group=g,
                    personas=personas,
                    initial=evaluations,
                    final=evaluations,
                    scores={"helpfulness": mean},
                    model_calls=len(personas),
                    tokens=10,
                )
            )
        score = panel_score(debates, record)
        out.append((score.value, score.metadata))
    return out


# --- LeWiDi ---------------------------------------------------------------------------


def lewidi_run(
    task: str,
    manhattan: Sequence[float],
    error_rate: float,
    method: str = "distribution_judge",
    **kwargs: Any,
) -> Run:
    """A distribution-target run: per-item Manhattan distances, a log-only error rate."""
    rows: list[Row] = [
        (
            {
                "manhattan": float(m),
                "parse_ok": 1.0,
                "rep/gender=F": 0.8 + 0.01 * i,
                "rep/gender=M": 0.7,
                "rep_steered/gender=M": 0.75,
            },
            {"item_id": f"t{i}"},
        )
        for i, m in enumerate(manhattan)
    ]
    run = Run(
        task=task,
        method=method,
        scorer="distribution_scorer",
        rows=rows,
        metrics={"manhattan": float(np.mean(manhattan)), "error_rate": error_rate},
        **kwargs,
    )
    run.metadata.update({"family": "perspective", "target": "distribution"})
    return run
