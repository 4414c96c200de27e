"""Steerable pluralism: the gain from telling the model whose judgment it predicts.

PersEval's annotator-level datasets, two paired comparisons on the same samples:

- ``personalized`` against ``plain``: ``personalized_judge`` (the annotator's traits in
  the prompt) against ``llm_judge`` (the item and the labels only);
- ``named`` against ``unnamed``: ``retrieval_examples`` with and without the annotator's
  traits (PersEval's named and unnamed annotators; both see the annotator's examples).

Each comparison's accuracy gain is the mean over the samples both runs scored of
``correct(steered) - correct(plain)``, and its macro-F1 gain the difference of the two
runs' macro-F1 on those samples (scikit-learn's definition, the report's statistic), each
with a paired bootstrap interval. The headline is the accuracy gain per sample (averaged
over the comparisons a sample is in), averaged over datasets with equal weight; its
chance level is 0 (a model that ignores who the annotator is gains nothing in
expectation). OpinionQA's steerability (Santurkar et al.) is :mod:`._opinionqa`'s.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

import numpy as np

from inspect_plural.profile._headline import stratified_headline
from inspect_plural.profile._index import LogIndex, Unit, rows_by_id
from inspect_plural.profile._intervals import (
    FloatArray,
    paired_value,
)
from inspect_plural.profile._logs import CellLog
from inspect_plural.profile._results import CellResult, ModeResult
from inspect_plural.report import Bootstrap, macro_f1_statistic

__all__ = ["COMPARISONS", "steerable_units", "steering_cells", "steering_headline"]

COMPARISONS = (
    ("personalized", "plain", "personalised vs plain judge"),
    ("named", "unnamed", "named vs unnamed annotators"),
)
"""(steered role, plain role, what it compares)."""
METRIC = "accuracy gain"


def _f1_gain(n_labels: int) -> Callable[..., FloatArray]:
    """Macro-F1 of the steered predictions minus that of the plain ones (same gold)."""
    f1 = macro_f1_statistic(n_labels, inferred=False, zero_division=0.0)

    def statistic(
        gold: FloatArray, steered: FloatArray, plain: FloatArray, axis: int = -1
    ) -> FloatArray:
        return f1(gold, steered, axis=axis) - f1(gold, plain, axis=axis)

    return statistic


def _pairs(index: LogIndex, group: str, model: str) -> list[tuple[str, str, CellLog, CellLog]]:
    out = []
    for steered, plain, what in COMPARISONS:
        a = index.cell("steerable", group, steered)
        b = index.cell("steerable", group, plain)
        log_a = index.get(a, model) if a else None
        log_b = index.get(b, model) if b else None
        if log_a is not None and log_b is not None:
            out.append((f"{steered}-vs-{plain}", what, log_a, log_b))
    return out


def _groups(index: LogIndex) -> list[str]:
    return list(dict.fromkeys(c.group for c in index.cells("steerable") if c.role == "plain"))


def steering_cells(index: LogIndex, boot: Bootstrap, model: str) -> list[CellResult]:
    """Each dataset's comparisons for one model: accuracy and macro-F1 gains, paired."""
    results = []
    for group in _groups(index):
        for name, what, steered, plain in _pairs(index, group, model):
            rows_s, rows_p = rows_by_id(steered), rows_by_id(plain)
            ids = [i for i in rows_s if i in rows_p]
            gold = np.array([rows_s[i].values.get("gold", np.nan) for i in ids])
            pred_s = np.array([rows_s[i].values.get("pred", -1.0) for i in ids])
            pred_p = np.array([rows_p[i].values.get("pred", -1.0) for i in ids])
            key = f"steerable/{group}/{name}"
            gain = paired_value(boot, [pred_s == gold, pred_p == gold], _diff, f"{key}/{model}")
            n_labels = int(max((rows_s[i].values.get("n_labels", 2) for i in ids), default=2))
            f1 = paired_value(boot, [gold, pred_s, pred_p], _f1_gain(n_labels), f"{key}/f1/{model}")
            results.append(
                CellResult(
                    **gain.model_dump(),
                    key=key,
                    mode="steerable",
                    group=group,
                    model=model,
                    metric=f"{METRIC}, {what}",
                    chance=0.0,
                    logs=index.paths([steered, plain]),
                    extra={
                        "macro_f1_gain": f1.model_dump(),
                        "accuracy_steered": float(np.mean(pred_s == gold)) if ids else None,
                        "accuracy_plain": float(np.mean(pred_p == gold)) if ids else None,
                    },
                )
            )
    return results


def _diff(a: FloatArray, b: FloatArray, axis: int = -1) -> FloatArray:
    return np.asarray(np.mean(a, axis=axis) - np.mean(b, axis=axis), dtype=float)


def steerable_units(index: LogIndex, model: str) -> tuple[dict[Unit, float], list[CellLog]]:
    """Per (dataset, sample): the mean accuracy gain over the comparisons it is in."""
    gains: dict[Unit, list[float]] = defaultdict(list)
    used: list[CellLog] = []
    for group in _groups(index):
        for _, _, steered, plain in _pairs(index, group, model):
            rows_s, rows_p = rows_by_id(steered), rows_by_id(plain)
            used += [steered, plain]
            for i, row in rows_s.items():
                if i in rows_p:
                    gain = row.values.get("correct", 0.0) - rows_p[i].values.get("correct", 0.0)
                    gains[(group, i)].append(gain)
    return {u: float(np.mean(v)) for u, v in gains.items()}, used


def steering_headline(index: LogIndex, boot: Bootstrap, model: str) -> ModeResult:
    """The model's accuracy gain, averaged over datasets (chance 0)."""
    units, used = steerable_units(index, model)
    return stratified_headline(
        index,
        boot,
        "steerable",
        model,
        units,
        used,
        metric=METRIC,
        chance=0.0,
        empty="no steering comparison measured",
    )
