"""Soft-label distances and the item skill score of a distribution-predicting method.

Each item's soft-label distance is the one its dataset is scored with in LeWiDi 2025:
Wasserstein on ordinal scales, Manhattan on nominal ones, the per-label Manhattan on
label sets (VariErrNLI) -- the number the distribution scorer logged for the item.

*Item skill* asks whether the predicted distribution fits *its* item's people better
than other items' people: ``1 - sum_i d(p_i, t_i) / sum_i r_i``, where the reference
``r_i`` is the mean distance of item ``i``'s gold ``t_i`` to the predictions made for
:data:`SHIFTS` other items of the same dataset (the items in SHA-256 order of their ids,
shifted by 1, 2, ...). Any method that ignores the item -- the uniform distribution, the
label prior, the most frequent label, a random distribution -- scores 0 in expectation
(exactly 0 when its prediction is the same for every item), a method that knows each
item's distribution scores 1, and one that is worse on its own item than on others
scores below 0. The reference distances use the scorer's own functions
(:mod:`inspect_plural.scorers`); the method's failed answers count as the uniform
distribution, as the scorer counts them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from inspect_plural.label_sets import label_set_indicators
from inspect_plural.profile._intervals import FloatArray
from inspect_plural.profile._logs import Row
from inspect_plural.scorers import (
    manhattan_per_item,
    multilabel_manhattan_distance,
    wasserstein_per_item,
)
from inspect_plural.scorers.distribution import predicted_vector

__all__ = ["SHIFTS", "distance_key", "item_distances", "shuffled_reference"]

SHIFTS = 5
"""Other items each item's gold is compared with, for the reference distance."""


def distance_key(row: Row) -> str:
    """The logged per-item soft-label distance of the row's dataset."""
    return "wasserstein" if row.kind == "ordinal" and not row.base_labels else "manhattan"


def _vectors(row: Row) -> tuple[FloatArray, FloatArray]:
    """The row's gold and predicted vectors, as its distance compares them."""
    p = predicted_vector(row.distribution, row.labels)
    gold = row.gold or {}
    if row.base_labels:
        marginals = p @ label_set_indicators(row.labels, row.base_labels).astype(float)
        return np.array([gold.get(b, 0.0) for b in row.base_labels]), marginals
    return np.array([gold.get(label, 0.0) for label in row.labels]), p


def item_distances(rows: Sequence[Row], predictions: Sequence[Row]) -> FloatArray:
    """Each row's gold against another row's prediction (the scorer's distance).

    Args:
        rows: The items whose gold is compared (one dataset: one scale).
        predictions: The rows whose predictions are compared, one per row (same scale).

    Returns:
        One distance per row.
    """
    if not rows:
        return np.zeros(0)
    gold = np.array([_vectors(row)[0] for row in rows])
    predicted = np.array([_vectors(other)[1] for other in predictions])
    return _distances(rows[0], gold, predicted)


def _distances(row: Row, gold: FloatArray, predicted: FloatArray) -> FloatArray:
    """Row-wise distances of gold and predicted vectors on the scale of ``row``."""
    if row.base_labels:
        return np.array(
            [multilabel_manhattan_distance([t], [p]) for t, p in zip(gold, predicted)],
            dtype=float,
        )
    if distance_key(row) == "wasserstein":
        return np.asarray(wasserstein_per_item(gold, predicted), dtype=float)
    return np.asarray(manhattan_per_item(gold, predicted), dtype=float)


def _rank(row: Row) -> str:
    return hashlib.sha256(row.id.encode("utf-8")).hexdigest()


def shuffled_reference(rows: Sequence[Row]) -> FloatArray:
    """Per row, its gold's mean distance to the predictions of :data:`SHIFTS` other items.

    Args:
        rows: One dataset's rows (two or more; every row a distribution sample).

    Returns:
        One reference distance per row, in the rows' order (NaN with fewer than 2 rows).
    """
    n = len(rows)
    if n < 2:
        return np.full(n, np.nan)
    order = sorted(range(n), key=lambda i: _rank(rows[i]))
    vectors = [_vectors(rows[i]) for i in order]  # once per row, not once per shift
    gold = np.array([v[0] for v in vectors])
    predicted = np.array([v[1] for v in vectors])
    shifts = range(1, min(SHIFTS, n - 1) + 1)
    total = np.zeros(n)
    for k in shifts:  # ranked[k:] + ranked[:k]: the prediction k items further on
        total += _distances(rows[order[0]], gold, np.roll(predicted, -k, axis=0))
    reference = np.empty(n)
    reference[order] = total / len(shifts)
    return reference
