"""PERSE's baselines without a model call: moved to :mod:`inspect_plural.solvers.perse`.

This module keeps the old import path working.
"""

from inspect_plural.solvers.perse import (
    COLD_START,
    NO_TRAINING,
    matrix_factorization,
    prior_average,
)

__all__ = ["COLD_START", "NO_TRAINING", "matrix_factorization", "prior_average"]
