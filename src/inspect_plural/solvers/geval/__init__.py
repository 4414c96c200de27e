"""G-Eval: chain-of-thought form filling, one prompt per dimension (a MAJ-Eval baseline).

``_solver`` is the ``@solver``; ``_scores`` the prompt and how answers become scores,
``_records`` what is recorded per sample.
"""

from inspect_plural.solvers.geval._records import (
    DEFAULT_TEMPERATURE,
    GEvalDimension,
    GEvalRecord,
    TokenProbability,
)
from inspect_plural.solvers.geval._scores import (
    MIN_PROBABILITY,
    LogprobReading,
    geval_prompt,
    read_logprob_score,
    sample_mean_score,
    weighted_score,
)
from inspect_plural.solvers.geval._solver import (
    GEVAL_MODES,
    geval,
)

__all__ = [
    "DEFAULT_TEMPERATURE",
    "GEVAL_MODES",
    "MIN_PROBABILITY",
    "GEvalDimension",
    "GEvalRecord",
    "LogprobReading",
    "TokenProbability",
    "geval",
    "geval_prompt",
    "read_logprob_score",
    "sample_mean_score",
    "weighted_score",
]
