"""Rank, top-k, Brier and calibration numerics for probability answers.

Pure functions over an ``(n, K)`` probability matrix and the gold column index. Ranks
are those of scipy's ``rankdata`` (computed for the gold column only, as a scorer needs
them once per sample; tests hold them equal) and Brier is scikit-learn's
``brier_score_loss``. ECE has no library
definition with PersonaEval's binning, so it is written here and tested on a worked
example.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "RankMethod",
    "TieBreak",
    "brier",
    "expected_calibration_error",
    "gold_rank",
    "top1_correct",
    "top_k_correct",
    "top_ks_correct",
]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

TieBreak = Literal["strict", "first", "personaeval"]
"""How ties in probability are resolved for top-k.

- ``strict``: gold counts only if fewer than k other options have probability >= its own
  (a tie is never credited: scipy ``rankdata(method="max")``).
- ``first``: ties go to the option listed first (scipy ``rankdata(method="ordinal")``).
- ``personaeval``: the official code: top-1 is ``argmax`` (first on ties), top-k for k > 1
  is membership in ``np.argsort(p)[-k:]``.
"""

RankMethod = Literal["average", "min", "max", "ordinal", "personaeval"]
"""How the gold option's rank is defined under ties (scipy ``rankdata`` methods), or
``personaeval``: the 1-based position of gold in ``np.argsort(p)[::-1]``."""


def gold_rank(probs: FloatArray, gold: IntArray, method: RankMethod = "average") -> FloatArray:
    """1-based rank of the gold option in each row (1 = most probable).

    Args:
        probs: ``(n, K)`` probabilities.
        gold: ``(n,)`` gold column indices.
        method: Tie handling (see :data:`RankMethod`).

    Returns:
        ``(n,)`` ranks.

    """
    probs = np.asarray(probs, dtype=float)
    rows = np.arange(len(gold))
    if len(gold) == 0:
        return np.zeros(0)
    if method == "personaeval":
        order = np.argsort(probs, axis=1)[:, ::-1]
        position = np.argmax(order == np.asarray(gold)[:, None], axis=1) + 1
        return np.asarray(position, dtype=float)
    # the gold column's rank alone, as scipy's rankdata(-probs, method, axis=1) ranks it
    # (a test holds the two equal): options above gold, then gold's place among its ties
    gold_p = probs[rows, gold][:, None]
    above = (probs > gold_p).sum(axis=1)
    tied = (probs == gold_p).sum(axis=1)  # gold included
    if method == "min":
        ranks = above + 1
    elif method == "max":
        ranks = above + tied
    elif method == "average":
        ranks = above + (tied + 1) / 2
    else:  # ordinal: ties ranked in the order the options are listed
        before = (probs == gold_p) & (np.arange(probs.shape[1]) < np.asarray(gold)[:, None])
        ranks = above + before.sum(axis=1) + 1
    return np.asarray(ranks, dtype=float)


def top_k_correct(
    probs: FloatArray, gold: IntArray, k: int, tie_break: TieBreak = "strict"
) -> npt.NDArray[np.bool_]:
    """Whether the gold option is among the k most probable, per row.

    Args:
        probs: ``(n, K)`` probabilities.
        gold: ``(n,)`` gold column indices.
        k: How many top options count.
        tie_break: Tie handling (see :data:`TieBreak`).

    Returns:
        ``(n,)`` booleans.

    """
    probs = np.asarray(probs, dtype=float)
    gold = np.asarray(gold)
    if len(gold) == 0:
        return np.zeros(0, dtype=bool)
    if tie_break == "personaeval":
        if k == 1:
            return np.asarray(np.argmax(probs, axis=1) == gold)
        top = np.argsort(probs, axis=1)[:, -k:]
        return np.asarray((top == gold[:, None]).any(axis=1))
    method: RankMethod = "max" if tie_break == "strict" else "ordinal"
    return gold_rank(probs, gold, method) <= k


def top_ks_correct(
    probs: FloatArray, gold: IntArray, ks: tuple[int, ...], tie_break: TieBreak = "strict"
) -> dict[int, npt.NDArray[np.bool_]]:
    """:func:`top_k_correct` for several k, ranking each row once.

    Returns:
        k -> ``(n,)`` booleans.
    """
    if tie_break == "personaeval" or len(gold) == 0:
        return {k: top_k_correct(probs, gold, k, tie_break) for k in ks}
    method: RankMethod = "max" if tie_break == "strict" else "ordinal"
    ranks = gold_rank(probs, gold, method)
    return {k: ranks <= k for k in ks}


def top1_correct(
    probs: FloatArray, gold: IntArray, tie_break: TieBreak = "strict"
) -> npt.NDArray[np.bool_]:
    """Top-1 correctness per row (see :func:`top_k_correct`)."""
    return top_k_correct(probs, gold, 1, tie_break)


def brier(
    probs: FloatArray,
    gold: IntArray,
    normalize: Literal["sum", "mean_over_classes"] = "sum",
) -> float:
    """Multiclass Brier score.

    Args:
        probs: ``(n, K)`` probabilities.
        gold: ``(n,)`` gold column indices.
        normalize: ``sum`` is scikit-learn's multiclass Brier, the mean over rows of
            the sum over options of squared error (range 0-2); ``mean_over_classes``
            divides that by K, as the PersonaEval code does.

    Returns:
        The score (NaN for no rows).

    """
    from sklearn.metrics import brier_score_loss

    probs = np.asarray(probs, dtype=float)
    if len(gold) == 0:
        return float("nan")
    n_options = probs.shape[1]
    value = float(brier_score_loss(gold, probs, labels=list(range(n_options)), scale_by_half=False))
    return value / n_options if normalize == "mean_over_classes" else value


def expected_calibration_error(
    confidence: FloatArray, correct: npt.NDArray[np.bool_], n_bins: int = 15
) -> float:
    """Top-label expected calibration error with equal-width bins.

    Bins are ``(low, high]`` over ``[0, 1]`` (a confidence of exactly 0 falls in the
    first bin). ECE = sum over bins of (bin size / n) * |mean confidence - accuracy|.

    Args:
        confidence: ``(n,)`` confidence of the predicted option (its probability).
        correct: ``(n,)`` whether the predicted option is right.
        n_bins: Number of equal-width bins.

    Returns:
        The ECE in [0, 1] (NaN for no rows).

    """
    confidence = np.asarray(confidence, dtype=float)
    correct = np.asarray(correct, dtype=float)
    n = len(confidence)
    if n == 0:
        return float("nan")
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    # index of the (low, high] bin: the first edge >= confidence, minus one
    bins = np.clip(np.searchsorted(edges, confidence, side="left") - 1, 0, n_bins - 1)
    ece = 0.0
    for b in np.unique(bins):
        in_bin = bins == b
        ece += in_bin.sum() / n * abs(confidence[in_bin].mean() - correct[in_bin].mean())
    return float(ece)
