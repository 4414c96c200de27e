"""A role-identification answer's per-sample values and the viewer's answer text.

:func:`score_distribution` turns one probability answer (in the data file's candidate
order) into the numbers the role scorer writes: top-1 and top-2 credit, the true role's
rank and probability, the top probability, the row's Brier term, and the probabilities
themselves. :func:`ranked_answer` writes the distribution as the answer Inspect View
shows.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from inspect_plural.scorers._calibration import gold_rank, top_ks_correct
from inspect_plural.scorers.role._config import RoleMetricConfig

__all__ = ["ranked_answer", "score_distribution"]


def ranked_answer(distribution: dict[str, float] | None, names: list[str]) -> str | None:
    """The candidates with their probabilities, most probable first (the viewer's answer).

    Args:
        distribution: The predicted distribution (None: no answer).
        names: The candidates, in the order ties keep.

    Returns:
        e.g. ``"Maren Holloway 0.62 · Jonah Carrow 0.20 · ..."``, or None.
    """
    if not distribution:
        return None
    order = sorted(names, key=lambda n: -float(distribution.get(n, 0.0)))
    return " · ".join(f"{n} {float(distribution.get(n, 0.0)):.2f}" for n in order)


def _row_brier(
    probs: list[float], gold_index: int, normalize: Literal["sum", "mean_over_classes"]
) -> float:
    """Brier of one row (the corpus metric uses scikit-learn; this is its per-row term)."""
    total = sum((p - (1.0 if i == gold_index else 0.0)) ** 2 for i, p in enumerate(probs))
    return total / len(probs) if normalize == "mean_over_classes" else total


def score_distribution(
    probs: list[float], gold_index: int, config: RoleMetricConfig
) -> dict[str, float]:
    """The numeric per-sample values of one probability answer."""
    p = np.asarray([probs], dtype=float)
    g = np.asarray([gold_index], dtype=np.int64)
    top = top_ks_correct(p, g, (1, 2), config.tie_break)
    value = {
        "correct": float(top[1][0]),
        "top2": float(top[2][0]),
        "rank": float(gold_rank(p, g, config.rank_method)[0]),
        "p_true": float(probs[gold_index]),
        "max_prob": float(max(probs)),
        "brier": _row_brier(probs, gold_index, config.brier_normalize),
        "n_options": float(len(probs)),
        "gold_index": float(gold_index),
    }
    value.update({f"p_{i}": float(x) for i, x in enumerate(probs)})
    return value
