"""The key-by-key epoch mean shared by the package's dict-valued scorers."""

from __future__ import annotations

import math

from inspect_ai.scorer import Score

from inspect_plural.scorers._values import values_of, with_values

__all__ = ["mean_by_key"]


def mean_by_key(scores: list[Score]) -> Score:
    """The mean of each score key over the epochs that hold a finite value for it.

    Unlike Inspect's ``mean``, keys may differ between epochs, and the arithmetic is in
    floats (``math.fsum``, then one division): Inspect's ``statistics.mean`` works in
    exact fractions, about 50 microseconds per key per sample even with one epoch,
    which is most of the cost of reducing a score of a dozen keys. Epochs that agree on a
    number keep it exactly. A score that is not
    a dict (an unscored sentinel) is skipped; the answer, explanation and metadata are
    the first scored epoch's, as with Inspect's reducers. Every number of the score is
    reduced, the shown ones and those in its metadata
    (:func:`~inspect_plural.scorers._values.values_of`).

    Args:
        scores: One sample's scores, one per epoch.

    Returns:
        The reduced score (the first score itself when none is a dict).
    """
    rows = [s for s in scores if isinstance(s.value, dict)]
    if not rows:
        return scores[0]
    values = [values_of(s) for s in rows]
    reduced: dict[str, float] = {}
    for key in dict.fromkeys(k for row in values for k in row):
        present = [x for row in values if key in row and math.isfinite(x := float(row[key]))]
        if present:
            # equal epochs keep their value exactly: fsum(3 * [x]) / 3 can be x's
            # neighbouring float, and that breaks ties a rank correlation depends on
            same = all(x == present[0] for x in present)
            reduced[key] = present[0] if same else math.fsum(present) / len(present)
    return with_values(rows[0], reduced)
