"""Intervals of the profile's figures, with the report's seeded bootstrap.

Every interval is the report's (:class:`inspect_plural.report.Bootstrap`: a seeded 95%
percentile bootstrap, no interval under 5 units). The profile adds statistics over
units in *strata* (datasets): rows of every stratum are resampled together, each
stratum's figure is computed on its rows of the resample and the figure is their
unweighted mean (a stratum absent from a resample is left out of it, as the report's
:func:`~inspect_plural.report.mean_of_group_means` does). Differences between models
resample the units both models have, together (paired).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from inspect_plural.profile._results import Value
from inspect_plural.report import Bootstrap

__all__ = [
    "FloatArray",
    "mean_value",
    "paired_value",
    "skill_difference_statistic",
    "single_skill_statistic",
    "skill_statistic",
    "stratified_mean_statistic",
    "stratum_sums",
]

FloatArray = npt.NDArray[np.float64]


def mean_value(boot: Bootstrap, values: Sequence[float] | FloatArray, key: str) -> Value:
    """The mean of per-unit values with its bootstrap interval."""
    return Value.of(boot.mean(np.asarray(values, dtype=float), key))


def paired_value(
    boot: Bootstrap,
    arrays: Sequence[Sequence[float] | FloatArray],
    statistic: Callable[..., FloatArray],
    key: str,
) -> Value:
    """A statistic of per-unit arrays, resampling units together (vectorised statistic)."""
    return Value.of(boot.statistic([np.asarray(a, dtype=float) for a in arrays], statistic, key))


def stratum_sums(
    values: FloatArray, codes: FloatArray, axis: int = -1
) -> tuple[FloatArray, FloatArray]:
    """Per stratum, the sum of the values and the number of units, for every resample.

    Args:
        values: ``(..., n)`` values (leading axes: resamples).
        codes: ``(..., n)`` stratum codes ``0 .. k-1`` (as floats).
        axis: The units' axis.

    Returns:
        ``(m, k)`` sums and counts, ``m`` the product of the leading axes.
    """
    v = np.moveaxis(np.asarray(values, dtype=float), axis, -1)
    g = np.moveaxis(np.asarray(codes, dtype=float), axis, -1).astype(np.int64)
    n = v.shape[-1]
    v, g = v.reshape(-1, n), g.reshape(-1, n)
    k = int(g.max()) + 1 if g.size else 0
    index = (np.arange(v.shape[0])[:, None] * k + g).ravel()
    size = v.shape[0] * k
    sums = np.bincount(index, weights=v.ravel(), minlength=size).reshape(-1, k)
    counts = np.bincount(index, minlength=size).reshape(-1, k)
    return np.asarray(sums, dtype=float), np.asarray(counts, dtype=float)


def _skill(own: FloatArray, ref: FloatArray, codes: FloatArray, axis: int) -> FloatArray:
    own_sum, counts = stratum_sums(own, codes, axis)
    ref_sum, _ = stratum_sums(ref, codes, axis)
    present = (counts > 0) & (ref_sum > 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        skill = np.where(present, 1.0 - own_sum / np.where(present, ref_sum, 1.0), 0.0)
        out = skill.sum(axis=1) / present.sum(axis=1)
    shape = np.moveaxis(np.asarray(own), axis, -1).shape[:-1]
    return np.asarray(out.reshape(shape), dtype=float)


def skill_statistic(
    own: FloatArray, ref: FloatArray, codes: FloatArray, axis: int = -1
) -> FloatArray:
    """The mean over strata of ``1 - sum(own) / sum(ref)`` (a skill score per stratum).

    Worked example: stratum 0 with own (1, 1), ref (2, 2) has skill 1 - 2/4 = 0.5;
    stratum 1 with own (3,), ref (2,) has 1 - 3/2 = -0.5; the statistic is their mean, 0.
    """
    return _skill(own, ref, codes, axis)


def single_skill_statistic(own: FloatArray, ref: FloatArray, axis: int = -1) -> FloatArray:
    """``1 - sum(own) / sum(ref)`` on one stratum."""
    return _skill(own, ref, np.zeros_like(np.asarray(own, dtype=float)), axis)


def skill_difference_statistic(
    own_a: FloatArray,
    ref_a: FloatArray,
    own_b: FloatArray,
    ref_b: FloatArray,
    codes: FloatArray,
    axis: int = -1,
) -> FloatArray:
    """Model a's skill minus model b's, on the same units (for a paired bootstrap)."""
    return _skill(own_a, ref_a, codes, axis) - _skill(own_b, ref_b, codes, axis)


def stratified_mean_statistic(values: FloatArray, codes: FloatArray, axis: int = -1) -> FloatArray:
    """The unweighted mean over strata of each stratum's mean.

    Worked example: values (1, 0, 0, 1, 1) in strata (0, 0, 0, 1, 1) have stratum means
    1/3 and 1, so the statistic is 2/3 (the pooled mean would be 3/5).
    """
    sums, counts = stratum_sums(values, codes, axis)
    present = counts > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(present, sums / np.maximum(counts, 1.0), 0.0)
        out = means.sum(axis=1) / present.sum(axis=1)
    shape = np.moveaxis(np.asarray(values), axis, -1).shape[:-1]
    return np.asarray(out.reshape(shape), dtype=float)
