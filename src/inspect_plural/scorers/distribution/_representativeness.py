"""Group representativeness (Santurkar et al. 2023, OpinionQA) and survey-weighted distributions.

Pure numpy/scipy functions. A group's answer distribution on a question is the share of
its members' answers per option, each answer weighted by the respondent's survey weight
(:func:`weighted_distribution`; OpinionQA's human distribution is the sum of the
``WEIGHT_W{wave}`` weights per option, normalised). Representativeness compares a
model's distribution with a group's, question by question, and averages.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = [
    "item_distributions",
    "js_representativeness",
    "js_representativeness_rows",
    "representativeness",
    "representativeness_per_item",
    "weighted_distribution",
]

FloatArray = npt.NDArray[np.float64]


def _distribution(values: npt.ArrayLike, what: str) -> FloatArray:
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or len(array) < 2 or (array < 0).any() or array.sum() <= 0:
        raise ValueError(f"{what}: need a non-negative vector of >= 2 options with mass")
    result: FloatArray = array / array.sum()
    return result


def representativeness_per_item(
    model: Sequence[npt.ArrayLike],
    group: Sequence[npt.ArrayLike],
    supports: Sequence[npt.ArrayLike] | None = None,
) -> FloatArray:
    """Per question, ``1 - W1(model, group) / (max - min of the support)``.

    ``W1`` is ``scipy.stats.wasserstein_distance(support, support, model, group)``: the
    options sit at their ordinal values and the divisor is the largest distance, between
    the two extreme values. This is Santurkar et al.'s code (tatsu-lab/opinions_qa
    ``7784efb``: ``process_results.ipynb`` divides ``wasserstein_distance(ordinal,
    ordinal, D_M, D_H)`` by ``helpers.get_max_wd(ordinal)``), where ``ordinal`` is the
    question's ``option_ordinal``: ``[1, 2, 4]`` is not evenly spaced and ``[1, 2, 1.5]``
    puts the third option between the first two. With the default support ``0 .. N-1``
    the divisor is ``N - 1``, the paper's ``1 - WD/(N - 1)``.

    Args:
        model: Per question, the model's distribution over its ordered options.
        group: Per question, the group's distribution over the same options.
        supports: Per question, the options' ordinal values (default ``0 .. N-1``).

    Returns:
        One value in [0, 1] per question (1: identical distributions).

    """
    from scipy.stats import wasserstein_distance

    if len(model) != len(group) or (supports is not None and len(supports) != len(model)):
        raise ValueError("model, group (and supports) need one entry per question")
    result = []
    for q, (m, g) in enumerate(zip(model, group)):
        p, t = _distribution(m, f"model, question {q}"), _distribution(g, f"group, question {q}")
        if len(p) != len(t):
            raise ValueError(f"question {q}: {len(p)} model options but {len(t)} group options")
        values = (
            np.arange(len(p), dtype=float) if supports is None else np.asarray(supports[q], float)
        )
        span = float(values.max() - values.min())
        result.append(1.0 - wasserstein_distance(values, values, p, t) / span)
    return np.array(result, dtype=float)


def representativeness(
    model: Sequence[npt.ArrayLike],
    group: Sequence[npt.ArrayLike],
    supports: Sequence[npt.ArrayLike] | None = None,
) -> float:
    """Santurkar et al. (2023)'s representativeness of a model for a group, on ordinal scales.

    ``R = 1 - (1/|Q|) sum_q W1(D_model(q), D_group(q)) / (N_q - 1)`` over the questions
    ``Q``, each with ``N_q`` ordered options (see :func:`representativeness_per_item`).

    Args:
        model: Per question, the model's answer distribution.
        group: Per question, the group's (survey-weighted) answer distribution.
        supports: Per question, the options' ordinal values (default evenly spaced).

    Returns:
        The mean over questions, in [0, 1] (higher: more representative).

    """
    return float(representativeness_per_item(model, group, supports).mean())


def js_representativeness(
    model: Sequence[npt.ArrayLike],
    group: Sequence[npt.ArrayLike],
    base: float = 2.0,
    squared: bool = False,
) -> float:
    """Representativeness on nominal scales: ``1 - mean_q JS(model_q, group_q)``.

    ``JS`` is scipy's ``jensenshannon`` with ``base=2`` by default: the Jensen-Shannon
    *distance*, the square root of the divergence, in [0, 1]; ``squared=True`` uses the
    divergence itself (also in [0, 1] in base 2). Options have no order here, so the
    Wasserstein form of :func:`representativeness` does not apply; this choice is ours
    (Santurkar et al. treat ordinal questions only).

    Args:
        model: Per question, the model's distribution.
        group: Per question, the group's distribution over the same options.
        base: Logarithm base (2 keeps the result in [0, 1]).
        squared: Use the divergence instead of the distance.

    Returns:
        The mean over questions of ``1 - JS`` (higher: more representative).

    """
    from scipy.spatial.distance import jensenshannon

    if len(model) != len(group) or not len(model):
        raise ValueError("model and group need one distribution per question (at least one)")
    values = []
    for q, (m, g) in enumerate(zip(model, group)):
        p, t = _distribution(m, f"model, question {q}"), _distribution(g, f"group, question {q}")
        if len(p) != len(t):
            raise ValueError(f"question {q}: {len(p)} model options but {len(t)} group options")
        distance = float(jensenshannon(p, t, base=base))
        values.append(1.0 - (distance**2 if squared else distance))
    return float(np.mean(values))


def _rows(values: npt.ArrayLike, what: str) -> FloatArray:
    """Each row as a distribution (row / its sum), as :func:`_distribution` makes one."""
    array = np.asarray(values, dtype=float)
    if array.ndim != 2 or array.shape[1] < 2 or (array < 0).any():
        raise ValueError(f"{what}: need non-negative rows of >= 2 options")
    sums = array.sum(axis=1, keepdims=True)
    if (sums <= 0).any():
        raise ValueError(f"{what}: every row needs mass")
    result: FloatArray = array / sums
    return result


def js_representativeness_rows(models: npt.ArrayLike, groups: npt.ArrayLike) -> FloatArray:
    """``1 - JS(model, group)`` for many (model, group) pairs of one question at once.

    Each pair's value is the one :func:`js_representativeness` gives for that pair as
    its only question, computed in one ``jensenshannon(..., base=2, axis=1)`` call: the
    same floating-point operations row by row, so the same numbers, without a scipy
    call per group.

    Args:
        models: The model's distribution (one, for every group) or one per group,
            ``(n_groups, n_options)``.
        groups: ``(n_groups, n_options)``: each group's distribution.

    Returns:
        ``(n_groups,)`` values in [0, 1].

    Raises:
        ValueError: A distribution with fewer than 2 options, a negative share or no
            mass, or shapes that differ.
    """
    from scipy.spatial.distance import jensenshannon

    t = _rows(groups, "group")
    m = np.asarray(models, dtype=float)
    p = _rows(np.broadcast_to(m, t.shape) if m.ndim == 1 else m, "model")
    if p.shape != t.shape:
        raise ValueError(f"{p.shape[0]} model rows but {t.shape[0]} group rows")
    result: FloatArray = 1.0 - np.asarray(jensenshannon(p, t, base=2.0, axis=1), dtype=float)
    return result


def weighted_distribution(
    labels: npt.ArrayLike, n_labels: int, weights: npt.ArrayLike | None = None
) -> FloatArray:
    """The (survey-weighted) share of each label: ``sum of weights per label / total``.

    Args:
        labels: Label indices ``0 .. n_labels-1``, one per respondent.
        n_labels: How many labels the scale has.
        weights: One weight per respondent (default 1 each).

    Returns:
        ``(n_labels,)`` shares summing to 1 (all zero when there is no weight).

    """
    codes = np.asarray(labels, dtype=np.int64)
    w = np.ones(len(codes)) if weights is None else np.asarray(weights, dtype=float)
    if len(w) != len(codes) or (w < 0).any() or (codes < 0).any() or (codes >= n_labels).any():
        raise ValueError("need one non-negative weight per label, labels in 0..n_labels-1")
    totals = np.bincount(codes, weights=w, minlength=n_labels).astype(float)
    total = totals.sum()
    result: FloatArray = totals / total if total > 0 else totals
    return result


def item_distributions(
    items: npt.ArrayLike,
    labels: npt.ArrayLike,
    n_items: int,
    n_labels: int,
    weights: npt.ArrayLike | None = None,
) -> FloatArray:
    """Every item's (weighted) label distribution at once.

    Args:
        items: Item indices ``0 .. n_items-1``, one per judgment.
        labels: Label indices, one per judgment.
        n_items: How many items.
        n_labels: How many labels.
        weights: One weight per judgment (default 1).

    Returns:
        ``(n_items, n_labels)``; a row sums to 1, or is zero for an item nobody judged.

    """
    rows = np.asarray(items, dtype=np.int64)
    codes = np.asarray(labels, dtype=np.int64)
    w = np.ones(len(codes)) if weights is None else np.asarray(weights, dtype=float)
    if not (len(rows) == len(codes) == len(w)):
        raise ValueError("items, labels and weights need one entry per judgment")
    totals = np.zeros((n_items, n_labels))
    np.add.at(totals, (rows, codes), w)
    sums = totals.sum(axis=1, keepdims=True)
    result: FloatArray = np.divide(totals, sums, out=np.zeros_like(totals), where=sums > 0)
    return result
