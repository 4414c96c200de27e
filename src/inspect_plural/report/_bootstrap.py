"""Point estimates with seeded 95% bootstrap intervals (``scipy.stats.bootstrap``).

Every interval is a percentile interval over ``resamples`` bootstrap resamples of the
samples (the rows) of one log, or of its annotators or items for the metrics that are
means over those. The percentile method keeps the cost linear in the number of samples
(BCa's jackknife is quadratic). The random generator of each cell is seeded from the
report seed and the cell's own key, so a cell's interval does not change when other
logs are added to the directory, and the whole report is the same for the same seed.
"""

from __future__ import annotations

import inspect
import math
import warnings
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from scipy.stats import bootstrap

__all__ = [
    "CONFIDENCE",
    "FLAG",
    "FLAG_SHARE",
    "MIN_UNITS",
    "TOO_FEW",
    "UNDEFINED_IN_RESAMPLES",
    "Bootstrap",
    "Estimate",
    "FloatArray",
    "Source",
]

FloatArray = npt.NDArray[np.float64]
Source = Literal["bootstrap", "log"]

CONFIDENCE = 0.95
"""Confidence level of every interval."""

MIN_UNITS = 5
"""Fewer units (samples, annotators, items) than this: no interval, and a note says so."""

FLAG_SHARE = 0.10
"""A cell whose failed answers exceed this share of its samples is flagged."""
FLAG = "†"
"""Marks such a cell (and its run in a figure): not compared with the others."""

_MAX_BATCH_CELLS = 4_000_000
"""Resamples x observations held in memory at once (bounds a large log's footprint)."""

_SEED_KEYWORD = "rng" if "rng" in inspect.signature(bootstrap).parameters else "random_state"
"""scipy >= 1.15 takes ``rng``; older releases ``random_state``."""


@dataclass(frozen=True)
class Estimate:
    """One table cell: a point estimate, its interval, its units and its failures.

    Attributes:
        value: The point estimate (NaN when undefined).
        low: Lower end of the 95% interval (None when not available).
        high: Upper end of the 95% interval (None when not available).
        n: Units behind the estimate (samples, or annotators/items for grouped metrics).
        source: ``bootstrap`` (recomputed from the per-sample values; the interval is a
            bootstrap interval when ``low`` is set) or ``log`` (the value stored in the
            log, no interval).
        note: Why the interval is not available, when it is not.
        failed: Samples behind the cell whose answer failed (not parsed, or errored).
        total: Samples behind the cell, failed ones included (None: not counted).
    """

    value: float
    low: float | None
    high: float | None
    n: int
    source: Source = "bootstrap"
    note: str | None = None
    failed: int = 0
    total: int | None = None

    @property
    def has_interval(self) -> bool:
        """Whether the cell has an interval."""
        return self.low is not None and self.high is not None

    @property
    def failure_share(self) -> float:
        """Failed samples over the cell's samples (0 when not counted)."""
        return self.failed / self.total if self.total else 0.0

    @property
    def flagged(self) -> bool:
        """Whether failures exceed :data:`FLAG_SHARE` of the cell's samples."""
        return self.failure_share > FLAG_SHARE

    def with_failures(self, failed: int, total: int) -> Estimate:
        """The same estimate, with its failed and total samples."""
        return replace(self, failed=int(failed), total=int(total))


TOO_FEW = f"fewer than {MIN_UNITS} units: no interval"
"""The note of a cell with too few units for an interval."""
UNDEFINED_IN_RESAMPLES = (
    "the statistic is undefined in some resamples (e.g. a correlation of a resample "
    "with constant values): no interval"
)
"""The note of a cell whose bootstrap distribution has undefined values."""


def _too_few(point: float, n: int) -> Estimate:
    return Estimate(point, None, None, n, note=TOO_FEW)


def _cell_rng(seed: int, key: str) -> np.random.Generator:
    return np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])


@dataclass(frozen=True)
class Bootstrap:
    """Seeded percentile bootstrap settings shared by every cell of a report.

    Attributes:
        seed: The report seed (combined with each cell's key).
        resamples: Bootstrap resamples per cell.
    """

    seed: int = 42
    resamples: int = 2000

    def mean(self, values: Sequence[float] | FloatArray, key: str) -> Estimate:
        """The mean of per-unit values with a bootstrap interval of the mean.

        Args:
            values: One value per unit (sample, annotator or item); NaNs are errors.
            key: The cell's identity (seeds its generator).

        Returns:
            The estimate; no interval with fewer than :data:`MIN_UNITS` units.
        """
        array = np.asarray(values, dtype=float)
        if len(array) == 0:
            return Estimate(math.nan, None, None, 0, note="no samples")
        point = float(array.mean())
        if len(array) < MIN_UNITS:
            return _too_few(point, len(array))

        def statistic(x: FloatArray, axis: int = -1) -> FloatArray:
            return np.asarray(np.mean(x, axis=axis), dtype=float)

        return self._run((array,), statistic, point, key)

    def statistic(
        self,
        data: Sequence[Sequence[float] | FloatArray],
        statistic: Callable[..., Any],
        key: str,
    ) -> Estimate:
        """A corpus statistic of paired per-sample arrays, resampling samples.

        Args:
            data: Equal-length arrays, one entry per sample (resampled together).
            statistic: Vectorised: ``statistic(*arrays, axis=-1)`` reduces the last axis
                (scipy passes batches of resamples as leading dimensions).
            key: The cell's identity (seeds its generator).

        Returns:
            The estimate; no interval with fewer than :data:`MIN_UNITS` samples or when
            the statistic is undefined in some resamples (the note says in how many).
        """
        arrays = tuple(np.asarray(d, dtype=float) for d in data)
        n = len(arrays[0]) if arrays else 0
        if n == 0:
            return Estimate(math.nan, None, None, 0, note="no samples")
        point = float(statistic(*arrays, axis=-1))
        if n < MIN_UNITS:
            return _too_few(point, n)
        if not math.isfinite(point):
            return Estimate(point, None, None, n, note="undefined on these samples")
        return self._run(arrays, statistic, point, key)

    def _run(
        self,
        arrays: tuple[FloatArray, ...],
        statistic: Callable[..., Any],
        point: float,
        key: str,
    ) -> Estimate:
        n = len(arrays[0])
        batch = max(1, min(self.resamples, _MAX_BATCH_CELLS // max(n, 1)))
        kwargs: dict[str, Any] = {_SEED_KEYWORD: _cell_rng(self.seed, key)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # degenerate data is reported in the note
            result = bootstrap(
                arrays,
                statistic,
                n_resamples=self.resamples,
                batch=batch,
                vectorized=True,
                paired=len(arrays) > 1,
                confidence_level=CONFIDENCE,
                method="percentile",
                **kwargs,
            )
        low = float(result.confidence_interval.low)
        high = float(result.confidence_interval.high)
        if not (math.isfinite(low) and math.isfinite(high)):
            return Estimate(point, None, None, n, note=UNDEFINED_IN_RESAMPLES)
        return Estimate(point, low, high, n)
