"""Perspectivist classification metrics: precision, recall and F1 at four levels.

Pure functions over arrays of label indices, built on scikit-learn's
``precision_recall_fscore_support``. The levels follow PersEval (Lo et al. 2025):

- *global*: one report over every (annotator, item) prediction;
- *annotator*: one report per annotator, then the unweighted mean over annotators;
- *text*: one report per item, then the unweighted mean over items;
- *trait*: for each trait dimension, one report per trait value pooling every
  annotator with that value, then the unweighted mean over the dimension's values.

Two label-set policies exist. ``labels="fixed"`` (our default) scores every group
against the whole label scale with ``zero_division=0``, so a group in which an
annotator only ever says "no" and the model agrees scores macro-F1 0.5 on a binary
scale. ``labels="inferred"`` reproduces the official PersEval code: each group's label
set is whatever appears in its gold or predicted labels (scikit-learn's default), and a
per-class mean runs only over the groups that contain that class; the same group then
scores 1.0.

A failed prediction is encoded as label ``-1``: it is never a member of the fixed label
set, so it counts as a miss for the gold class (recall) and as no vote for any class
(precision).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "FAILED",
    "LabelSet",
    "Report",
    "grouped_report",
    "prf_report",
    "trait_report",
]

FAILED = -1
"""Label index that encodes a prediction that could not be parsed."""

LabelSet = Literal["fixed", "inferred"]
Report = dict[str, float]
IntArray = npt.NDArray[np.int64]


def _class_key(names: Sequence[str] | None, label: int) -> str:
    if names is not None and 0 <= label < len(names):
        return names[label]
    return str(label)


def prf_report(
    gold: Sequence[int] | IntArray,
    pred: Sequence[int] | IntArray,
    n_labels: int,
    labels: LabelSet = "fixed",
    zero_division: float = 0.0,
    names: Sequence[str] | None = None,
) -> Report:
    """Precision, recall and F1 per class plus macro and micro averages of one group.

    Args:
        gold: Gold label indices.
        pred: Predicted label indices (``FAILED`` for an unparsed answer).
        n_labels: Size of the label scale (the fixed label set is ``0..n_labels-1``).
        labels: ``fixed`` (the whole scale) or ``inferred`` (labels present in gold or pred).
        zero_division: Value of a ratio whose denominator is 0.
        names: Class names used in the keys (default: the index).

    Returns:
        Keys ``precision/<class>``, ``recall/<class>``, ``f1/<class>``, ``macro_precision``,
        ``macro_recall``, ``macro_f1``, ``micro_precision``, ``micro_recall``, ``micro_f1``
        and ``accuracy``. With inferred labels only the classes present appear.

    """
    from sklearn.metrics import precision_recall_fscore_support

    gold_a = np.asarray(gold, dtype=np.int64)
    pred_a = np.asarray(pred, dtype=np.int64)
    if len(gold_a) == 0:
        return {}
    if labels == "fixed":
        label_list = list(range(n_labels))
    else:
        label_list = sorted((set(gold_a.tolist()) | set(pred_a.tolist())) - {FAILED})
    report: Report = {}
    p, r, f, _ = precision_recall_fscore_support(
        gold_a, pred_a, labels=label_list, average=None, zero_division=zero_division
    )
    for i, label in enumerate(label_list):
        key = _class_key(names, label)
        report[f"precision/{key}"] = float(p[i])
        report[f"recall/{key}"] = float(r[i])
        report[f"f1/{key}"] = float(f[i])
    for average in ("macro", "micro"):
        p_avg, r_avg, f_avg, _ = precision_recall_fscore_support(
            gold_a, pred_a, labels=label_list, average=average, zero_division=zero_division
        )
        report[f"{average}_precision"] = float(p_avg)
        report[f"{average}_recall"] = float(r_avg)
        report[f"{average}_f1"] = float(f_avg)
    report["accuracy"] = float(np.mean(gold_a == pred_a))
    return report


def _mean_reports(reports: Iterable[Report]) -> Report:
    """Unweighted mean of each key over the reports that contain it."""
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for report in reports:
        for key, value in report.items():
            sums[key] = sums.get(key, 0.0) + value
            counts[key] = counts.get(key, 0) + 1
    return {key: sums[key] / counts[key] for key in sums}


def _safe_divide(
    num: npt.NDArray[np.float64], den: npt.NDArray[np.float64], zero: float
) -> npt.NDArray[np.float64]:
    out = np.full(num.shape, zero, dtype=float)
    np.divide(num, den, out=out, where=den > 0)
    return out


def grouped_report(
    gold: Sequence[int] | IntArray,
    pred: Sequence[int] | IntArray,
    groups: Sequence[str],
    n_labels: int,
    labels: LabelSet = "fixed",
    zero_division: float = 0.0,
    names: Sequence[str] | None = None,
    row_labels: Sequence[int] | IntArray | None = None,
) -> Report:
    """One report per group (annotator or text), averaged without weights.

    The per-group reports are computed for all groups at once from confusion counts
    (``np.bincount``) with scikit-learn's definitions: per class, precision
    ``tp / predicted``, recall ``tp / true``, F1 ``2 tp / (predicted + true)``, each
    ``zero_division`` when its denominator is 0; micro averages pool the counts over the
    label set. The unit tests check equality with :func:`prf_report` (scikit-learn's
    ``precision_recall_fscore_support``) group by group; calling it per group directly
    would take minutes on the 14,625 texts of the MHS test set.

    Args:
        gold: Gold label indices.
        pred: Predicted label indices.
        groups: The group of each row (annotator id or item id).
        n_labels: Size of the label scale.
        labels: Label-set policy (see :func:`prf_report`).
        zero_division: Value of a ratio whose denominator is 0.
        names: Class names used in the keys.
        row_labels: Scale size of each row, when items have scales of their own (e.g.
            OpinionQA questions): with fixed labels, a group is scored on the label set of
            its largest scale (for a text, its own scale) instead of ``n_labels``.

    Returns:
        The mean report (each key averaged over the groups whose report has it), plus
        ``groups``: the number of groups.

    """
    gold_a = np.asarray(gold, dtype=np.int64)
    pred_a = np.asarray(pred, dtype=np.int64)
    if len(gold_a) == 0:
        return {}
    codes, uniques = _factorize(np.asarray(groups, dtype=object))
    n_groups = len(uniques)
    if labels == "fixed":
        label_list = np.arange(n_labels, dtype=np.int64)
    else:
        label_list = np.unique(np.concatenate([gold_a, pred_a]))
        label_list = label_list[label_list != FAILED]
    n_cols = len(label_list)
    column = {int(label): j for j, label in enumerate(label_list)}
    gold_col = np.fromiter((column.get(int(x), -1) for x in gold_a), np.int64, len(gold_a))
    pred_col = np.fromiter((column.get(int(x), -1) for x in pred_a), np.int64, len(pred_a))

    def counts(cols: IntArray, mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.float64]:
        flat = codes[mask] * n_cols + cols[mask]
        return (
            np.bincount(flat, minlength=n_groups * n_cols).reshape(n_groups, n_cols).astype(float)
        )

    true_n = counts(gold_col, gold_col >= 0)
    pred_n = counts(pred_col, pred_col >= 0)
    tp = counts(gold_col, (gold_col >= 0) & (gold_col == pred_col))
    if labels == "inferred":
        present = (true_n + pred_n) > 0
    elif row_labels is None:
        present = np.ones_like(tp, dtype=bool)
    else:
        sizes = np.zeros(n_groups, dtype=np.int64)
        np.maximum.at(sizes, codes, np.asarray(row_labels, dtype=np.int64))
        present = label_list[None, :] < sizes[:, None]
    precision = _safe_divide(tp, pred_n, zero_division)
    recall = _safe_divide(tp, true_n, zero_division)
    f1 = _safe_divide(2 * tp, pred_n + true_n, zero_division)

    def masked_mean(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        mean: npt.NDArray[np.float64] = (values * present).sum(axis=1) / present.sum(axis=1)
        return mean

    report: Report = {}
    for j, label in enumerate(label_list):
        has = present[:, j]
        if not has.any():
            continue
        key = _class_key(names, int(label))
        report[f"precision/{key}"] = float(precision[has, j].mean())
        report[f"recall/{key}"] = float(recall[has, j].mean())
        report[f"f1/{key}"] = float(f1[has, j].mean())
    report["macro_precision"] = float(masked_mean(precision).mean())
    report["macro_recall"] = float(masked_mean(recall).mean())
    report["macro_f1"] = float(masked_mean(f1).mean())
    tp_all, pred_all, true_all = tp.sum(axis=1), pred_n.sum(axis=1), true_n.sum(axis=1)
    report["micro_precision"] = float(_safe_divide(tp_all, pred_all, zero_division).mean())
    report["micro_recall"] = float(_safe_divide(tp_all, true_all, zero_division).mean())
    report["micro_f1"] = float(_safe_divide(2 * tp_all, pred_all + true_all, zero_division).mean())
    hits = np.bincount(codes, weights=(gold_a == pred_a).astype(float), minlength=n_groups)
    report["accuracy"] = float((hits / np.bincount(codes, minlength=n_groups)).mean())
    report["groups"] = float(n_groups)
    return report


def trait_report(
    gold: Sequence[int] | IntArray,
    pred: Sequence[int] | IntArray,
    traits: Sequence[dict[str, str]],
    n_labels: int,
    labels: LabelSet = "fixed",
    zero_division: float = 0.0,
    names: Sequence[str] | None = None,
    skip_values: Iterable[str] = ("", "UNK"),
) -> dict[str, Report]:
    """Per trait dimension: one pooled report per value, averaged over the values.

    Args:
        gold: Gold label indices.
        pred: Predicted label indices.
        traits: The annotator traits of each row (dimension -> value).
        n_labels: Size of the label scale.
        labels: Label-set policy (see :func:`prf_report`).
        zero_division: Value of a ratio whose denominator is 0.
        names: Class names used in the keys.
        skip_values: Values that are not a group (unknown trait).

    Returns:
        Dimension -> mean report over that dimension's values (with ``groups``, the
        number of values). Dimensions with no usable value are left out.

    """
    gold_a = np.asarray(gold, dtype=np.int64)
    pred_a = np.asarray(pred, dtype=np.int64)
    skip = set(skip_values)
    dimensions = sorted({dim for row in traits for dim in row})
    result: dict[str, Report] = {}
    for dim in dimensions:
        values = np.asarray([row.get(dim, "") for row in traits], dtype=object)
        reports = []
        for value in sorted(set(values.tolist()) - skip):
            rows = values == value
            reports.append(
                prf_report(gold_a[rows], pred_a[rows], n_labels, labels, zero_division, names)
            )
        if reports:
            mean = _mean_reports(reports)
            mean["groups"] = float(len(reports))
            result[dim] = mean
    return result


def _factorize(values: npt.NDArray[np.object_]) -> tuple[IntArray, list[object]]:
    index: dict[object, int] = {}
    codes = np.fromiter(
        (index.setdefault(v, len(index)) for v in values), dtype=np.int64, count=len(values)
    )
    return codes, list(index)
