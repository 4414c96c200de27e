"""LeWiDi's soft-label and perspectivist metrics as pure functions (numpy, scipy, sklearn).

Definitions follow the shared tasks' official code (``../shared/METRICS.md``, section
LeWiDi): the 2025 evaluation notebook ``LeWiDi_3-2025/Evaluation_LeWiDi_2025_Metrics.ipynb``
in ``Le-Wi-Di/le-wi-di.github.io`` (functions ``average_MD``, ``multilabel_average_MD``,
``average_WS``, ``error_rate``, ``multilabel_error_rate``, ``mean_absolute_distance``;
participant copies such as ``tomasruizt/lewidi2025`` ``lewidi_lib/src/lewidi_org.py``
hold the same code) and the 2023 SemEval scorer's ``cross_entropy``. Where the official
code rounds, ``decimals=5`` reproduces it (Python's ``round`` on each value, as there);
``None`` (the default) does not round. Distributions are ``(n_items, n_labels)`` arrays;
per-annotator labels are ragged, one array per item.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

__all__ = [
    "LEWIDI_METRICS",
    "LewidiMetrics",
    "NormaliserConvention",
    "cross_entropy_2023",
    "error_rate",
    "hard_label_micro_f1",
    "manhattan_distance",
    "manhattan_per_item",
    "multilabel_error_rate",
    "multilabel_manhattan_distance",
    "normalized_absolute_distance",
    "ordinal_normaliser",
    "wasserstein_distance",
    "wasserstein_per_item",
]

FloatArray = npt.NDArray[np.float64]
NormaliserConvention = Literal["code", "range"]
"""The divisor of the normalised absolute distance on a scale of ``n`` values:

- ``code``: ``n`` (11 for Paraphrase, 6 for CSC): what the official scorer passes
  (``perspectivist_evaluation``), the ``lewidi`` preset;
- ``range``: ``n - 1`` (10 and 5), the largest possible distance, so the metric lies in
  [0, 1]; the docstring of ``mean_absolute_distance`` says "10 for Par and 5 for CSC" in
  the copies participants used (the notebook's later docstring says 11 and 6).
"""


def _round(values: FloatArray, decimals: int | None) -> FloatArray:
    if decimals is None:
        return values
    return np.array([round(float(v), decimals) for v in values], dtype=float)


def _mean(values: FloatArray, decimals: int | None) -> float:
    mean = float(values.mean()) if len(values) else float("nan")
    return mean if decimals is None else round(mean, decimals)


def _pair(targets: npt.ArrayLike, predictions: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    t = np.asarray(targets, dtype=float)
    p = np.asarray(predictions, dtype=float)
    if t.shape != p.shape or t.ndim != 2:
        raise ValueError(f"targets {t.shape} and predictions {p.shape}: need equal (n, K)")
    return t, p


# -- soft-label metrics ----------------------------------------------------------------


def manhattan_per_item(targets: npt.ArrayLike, predictions: npt.ArrayLike) -> FloatArray:
    """Each item's Manhattan (L1) distance ``sum_k |p_k - t_k|`` (in [0, 2])."""
    t, p = _pair(targets, predictions)
    result: FloatArray = np.abs(p - t).sum(axis=1)
    return result


def manhattan_distance(
    targets: npt.ArrayLike, predictions: npt.ArrayLike, decimals: int | None = None
) -> float:
    """LeWiDi 2025's soft-label score of MP: the average Manhattan distance.

    ``AMD = (1/N) sum_i sum_k |p_ik - t_ik|`` (official ``average_MD``; lower is better).
    With ``decimals=5`` each item's distance and the mean are rounded to 5 decimals, as
    the official code does.

    Args:
        targets: ``(N, K)`` gold distributions (the annotators' soft labels).
        predictions: ``(N, K)`` predicted distributions, same label order.
        decimals: Round as the official code (5), or not (None).

    Returns:
        The mean distance.

    """
    return _mean(_round(manhattan_per_item(targets, predictions), decimals), decimals)


def multilabel_manhattan_distance(
    targets: npt.ArrayLike, predictions: npt.ArrayLike, decimals: int | None = None
) -> float:
    """LeWiDi 2025's soft-label score of VariErrNLI: Manhattan over per-label binary splits.

    The mean over items of the mean over base labels of the Manhattan distance between
    binary distributions. Each base label ``j`` of item ``i`` has a binary distribution
    ``[1 - s_ij, s_ij]`` (the share of annotators who did not / did give label ``j``), so
    its distance is
    ``2 |p_ij - t_ij|``; ``MAMD = (1/N) sum_i (1/L) sum_j 2 |p_ij - t_ij|`` (official
    ``multilabel_average_MD``). With ``decimals=5``: each binary distance, each item's mean
    and the overall mean rounded, as there.

    Args:
        targets: ``(N, L)`` shares of "1" per base label, or ``(N, L, 2)`` binary
            distributions ``[share of 0, share of 1]`` as the files give them.
        predictions: Same shape as ``targets``.
        decimals: Round as the official code (5), or not (None).

    Returns:
        The mean distance.

    """
    t = np.asarray(targets, dtype=float)
    p = np.asarray(predictions, dtype=float)
    if t.ndim == 2:
        t, p = np.stack([1 - t, t], axis=-1), np.stack([1 - p, p], axis=-1)
    if t.shape != p.shape or t.ndim != 3:
        raise ValueError(f"targets {t.shape} and predictions {p.shape}: need (N, L[, 2])")
    per_label = np.abs(p - t).sum(axis=2)  # (N, L)
    if decimals is not None:
        per_label = np.vectorize(lambda v: round(float(v), decimals))(per_label)
    per_item = _round(per_label.mean(axis=1), decimals)
    return _mean(per_item, decimals)


def wasserstein_per_item(
    targets: npt.ArrayLike, predictions: npt.ArrayLike, support: npt.ArrayLike | None = None
) -> FloatArray:
    """Each item's 1-Wasserstein (earth mover's) distance on an ordinal support.

    ``scipy.stats.wasserstein_distance(support, support, p, t)``; with the default
    support ``0, 1, ..., K-1`` this is the official ``ot.emd2(t, p, |i - j|)``
    (``sum_k |CDF_p(k) - CDF_t(k)|``). scipy normalises each distribution to sum 1; POT's
    ``emd2`` instead requires equal sums (the files' 2-decimal soft labels may sum to 0.99
    or 1.01).

    Args:
        targets: ``(N, K)`` gold distributions.
        predictions: ``(N, K)`` predicted distributions.
        support: The ``K`` ordered values (default ``0 .. K-1``: unit spacing).

    Returns:
        ``(N,)`` distances.

    """
    from scipy.stats import wasserstein_distance as scipy_wasserstein

    t, p = _pair(targets, predictions)
    values = np.arange(t.shape[1], dtype=float) if support is None else np.asarray(support, float)
    return np.array([scipy_wasserstein(values, values, pi, ti) for pi, ti in zip(p, t)])


def wasserstein_distance(
    targets: npt.ArrayLike,
    predictions: npt.ArrayLike,
    support: npt.ArrayLike | None = None,
    decimals: int | None = None,
) -> float:
    """LeWiDi 2025's soft-label score of Paraphrase and CSC: the average Wasserstein distance.

    ``AWD = (1/N) sum_i W1(p_i, t_i)`` with cost ``|h - k|`` between label positions
    (official ``average_WS``; only the mean is rounded there, ``decimals=5``).

    Args:
        targets: ``(N, K)`` gold distributions, in scale order.
        predictions: ``(N, K)`` predicted distributions.
        support: The ordered values (default unit spacing, as the official cost matrix).
        decimals: Round the mean as the official code (5), or not (None).

    Returns:
        The mean distance.

    """
    return _mean(wasserstein_per_item(targets, predictions, support), decimals)


def cross_entropy_2023(targets: npt.ArrayLike, predictions: npt.ArrayLike) -> float:
    """LeWiDi 2023's soft-label score: cross-entropy of the predictions against the targets.

    ``CE = -(1/N) sum_i sum_k t_ik ln(clip(p_ik, 1e-12, 1 - 1e-12) + 1e-9)``, natural
    logarithm, exactly as the SemEval 2023 scorer's ``cross_entropy`` (lower is better).

    Args:
        targets: ``(N, K)`` gold distributions.
        predictions: ``(N, K)`` predicted distributions.

    Returns:
        The cross-entropy.

    """
    t, p = _pair(targets, predictions)
    clipped = np.clip(p, 1e-12, 1.0 - 1e-12)
    return float(-np.sum(t * np.log(clipped + 1e-9)) / t.shape[0])


def hard_label_micro_f1(
    gold: Sequence[str] | npt.ArrayLike,
    predicted: Sequence[str] | npt.ArrayLike,
    labels: Sequence[str] | None = None,
) -> float:
    """LeWiDi 2023's hard-label score: micro-averaged F1 (scikit-learn ``f1_score``).

    For single-label predictions micro-F1 equals accuracy.

    Args:
        gold: The hard (majority) labels, e.g. ``AnnotatedCorpus.item_hard_labels``.
        predicted: The predicted labels.
        labels: The label set (default: those present).

    Returns:
        Micro-F1.

    """
    from sklearn.metrics import f1_score

    return float(f1_score(gold, predicted, labels=labels, average="micro", zero_division=0))


# -- perspectivist metrics -------------------------------------------------------------


def _ragged(
    targets: Sequence[npt.ArrayLike], predictions: Sequence[npt.ArrayLike]
) -> list[tuple[np.ndarray, np.ndarray]]:
    if len(targets) != len(predictions):
        raise ValueError(f"{len(targets)} target items but {len(predictions)} predicted")
    pairs = []
    for i, (t, p) in enumerate(zip(targets, predictions)):
        t_, p_ = np.asarray(t), np.asarray(p)
        if t_.shape != p_.shape or t_.size == 0:
            raise ValueError(f"item {i}: targets {t_.shape} and predictions {p_.shape} differ")
        pairs.append((t_, p_))
    return pairs


def error_rate(
    targets: Sequence[npt.ArrayLike],
    predictions: Sequence[npt.ArrayLike],
    decimals: int | None = None,
) -> float:
    """LeWiDi 2025's perspectivist score of MP: the average error rate.

    Per item ``i`` with ``a_i`` annotators, the share of them whose label is predicted
    wrongly; then the mean over items: ``ER = (1/N) sum_i (1/a_i) sum_k [t_ik != p_ik]``
    (lower is better). The official ``error_rate`` computes ``sum_k |t_ik - p_ik| / a_i``
    on 0/1 labels, which is the same; comparing labels makes it defined for any nominal
    scale. With ``decimals=5`` each item's rate is rounded, as there (the mean is not).

    Args:
        targets: Per item, the annotators' labels (any comparable values).
        predictions: Per item, the predicted label of each of those annotators.
        decimals: Round as the official code (5), or not (None).

    Returns:
        The mean error rate.

    """
    rates = np.array([float(np.mean(t != p)) for t, p in _ragged(targets, predictions)])
    return float(_round(rates, decimals).mean())


def multilabel_error_rate(
    targets: Sequence[npt.ArrayLike],
    predictions: Sequence[npt.ArrayLike],
    decimals: int | None = None,
) -> float:
    """LeWiDi 2025's perspectivist score of VariErrNLI: the multi-label error rate.

    Each item holds, per annotator, a 0/1 vector over the ``L`` base labels
    (:func:`inspect_plural.label_sets.label_set_indicators`). Per item and base label
    ``j``: the share of annotators whose membership of ``j`` is predicted wrongly; the
    item's rate is the mean over ``j``, and the score the mean over items:
    ``MER = (1/N) sum_i (1/L) sum_j (1/a_i) sum_k |t_ijk - p_ijk|`` (official
    ``multilabel_error_rate``, which applies ``error_rate`` to each item's ``L`` vectors).
    A set predicted with one label too many or too few thus costs ``1/L`` for that
    annotator, not a whole error. With ``decimals=5`` each per-label rate is rounded.

    Args:
        targets: Per item, an ``(a_i, L)`` 0/1 array (annotators x base labels).
        predictions: Per item, the predicted ``(a_i, L)`` 0/1 array.
        decimals: Round as the official code (5), or not (None).

    Returns:
        The mean error rate.

    """
    rates = []
    for t, p in _ragged(targets, predictions):
        if t.ndim != 2:
            raise ValueError("multi-label targets need an (annotators, labels) array per item")
        per_label = np.abs(t.astype(float) - p.astype(float)).mean(axis=0)  # (L,)
        rates.append(float(_round(per_label, decimals).mean()))
    return float(np.mean(rates))


def ordinal_normaliser(n_values: int, convention: NormaliserConvention = "range") -> int:
    """The divisor of :func:`normalized_absolute_distance` for a scale of ``n_values``.

    Args:
        n_values: How many values the scale has (11 for Paraphrase, 6 for CSC).
        convention: ``code`` (``n_values``, the official scorer and the ``lewidi``
            preset) or ``range`` (``n_values - 1``, the largest distance; the default).

    Returns:
        11/10 for Paraphrase, 6/5 for CSC.

    """
    if n_values < 2:
        raise ValueError("an ordinal scale has at least two values")
    return n_values if convention == "code" else n_values - 1


def normalized_absolute_distance(
    targets: Sequence[npt.ArrayLike], predictions: Sequence[npt.ArrayLike], normaliser: float
) -> float:
    """LeWiDi 2025's perspectivist score of Paraphrase and CSC.

    ``ANAD = (1/N) sum_i (1/a_i) sum_k |t_ik - p_ik| / s`` over the numeric values of the
    labels (official ``mean_absolute_distance``; the notebook's formula multiplies by 100,
    its code does not, nor does this). ``s`` is :func:`ordinal_normaliser`: the code uses
    11 (Paraphrase) and 6 (CSC), the range is 10 and 5.

    Args:
        targets: Per item, the annotators' numeric labels (e.g. -5..5).
        predictions: Per item, the predicted value for each of those annotators.
        normaliser: ``s``.

    Returns:
        The mean normalised distance (lower is better).

    """
    if normaliser <= 0:
        raise ValueError("the normaliser must be positive")
    distances = [
        float(np.mean(np.abs(t.astype(float) - p.astype(float)))) / normaliser
        for t, p in _ragged(targets, predictions)
    ]
    return float(np.mean(distances))


# -- presets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LewidiMetrics:
    """The official metrics of one LeWiDi dataset.

    Attributes:
        edition: 2023 or 2025.
        soft: The soft-label metric: ``cross_entropy`` (2023), ``manhattan``,
            ``multilabel_manhattan`` or ``wasserstein``.
        hard: 2023's hard-label metric (``micro_f1``), else None.
        perspectivist: 2025's per-annotator metric: ``error_rate``,
            ``multilabel_error_rate`` or ``normalized_absolute_distance``; None in 2023.
        normaliser: The official code's divisor for ``normalized_absolute_distance``.

    """

    edition: int
    soft: str
    hard: str | None = None
    perspectivist: str | None = None
    normaliser: int | None = None


_2023 = LewidiMetrics(2023, "cross_entropy", hard="micro_f1")
LEWIDI_METRICS = {
    "armis": _2023,
    "brexit": _2023,
    "convabuse": _2023,
    "md_agreement": _2023,
    "mp": LewidiMetrics(2025, "manhattan", perspectivist="error_rate"),
    "varierrnli": LewidiMetrics(
        2025, "multilabel_manhattan", perspectivist="multilabel_error_rate"
    ),
    "paraphrase": LewidiMetrics(
        2025, "wasserstein", perspectivist="normalized_absolute_distance", normaliser=11
    ),
    "csc": LewidiMetrics(
        2025, "wasserstein", perspectivist="normalized_absolute_distance", normaliser=6
    ),
}
"""Dataset -> its official metrics (the ``lewidi`` preset; normalisers as the code's)."""
