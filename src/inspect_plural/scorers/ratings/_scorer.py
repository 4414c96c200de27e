"""The per-sample scorer of rating tasks and its epoch reducer.

:func:`rating_scorer` reads the method's :class:`~inspect_plural.prediction.Prediction`
and writes numbers only (the keys of :mod:`inspect_plural.scorers.ratings._values`).
"""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.scorer import Score, Scorer, ScoreReducer, Target, score_reducer, scorer
from inspect_ai.solver import TaskState

from inspect_plural.prediction import PanelScores, Prediction
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.scorers._reduce import mean_by_key
from inspect_plural.scorers._values import make_score
from inspect_plural.scorers.ratings._metrics import rating_metrics
from inspect_plural.scorers.ratings._panels import OVERALL
from inspect_plural.scorers.ratings._values import GROUP_PREFIX, INITIAL_GROUP_PREFIX, finite

__all__ = ["group_initial_scores", "rating_mean", "rating_scorer"]


def _scores(prefix: str, scores: Mapping[str, float]) -> dict[str, float]:
    return {f"{prefix}{dim}": float(v) for dim, v in scores.items() if finite(v)}


def group_initial_scores(panel: PanelScores) -> dict[str, float]:
    """A panel's score per dimension before discussion: the mean of its members' scores.

    The same rule as the panel's final score (the mean of the final scores); members
    without a parsed score for a dimension are left out of its mean.

    Args:
        panel: The panel's scores.

    Returns:
        Dimension -> mean of the members' initial scores (only dimensions somebody
        scored).
    """
    values: dict[str, list[float]] = {}
    for scores in panel.initial.values():
        for dim, value in scores.items():
            if finite(value):
                values.setdefault(dim, []).append(float(value))
    return {dim: sum(v) / len(v) for dim, v in values.items()}


@scorer(metrics=rating_metrics())
def rating_scorer() -> Scorer:
    """Score a rating ``Prediction`` against the human scores of one generated output.

    Per sample: ``pred/{dim}``, ``gold/{dim}``, ``pred_initial/{dim}``,
    ``group/{g}/{dim}``, ``group_initial/{g}/{dim}``, ``parse_ok``, ``n_scored``,
    ``model_calls``, ``tokens``, ``n_answers`` and ``failed_answers``. The value shows
    ``pred/{dim}`` and ``gold/{dim}`` of the first dimension (``overall`` when the data
    has it); the others are in the metadata's ``values``
    (:mod:`inspect_plural.scorers._values`), beside ``panels`` (every member's scores)
    and ``group`` (the output's review or story).

    Returns:
        The scorer. Its own metrics are the headline defaults; the tasks attach
        ``rating_metrics(...)`` through ``Task(metrics=...)`` so the metrics follow the
        task options.
    """

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(RatedSampleMetadata)
        prediction = Prediction.read(state.store)
        pred = _scores("pred/", prediction.scores)
        value: dict[str, float] = {**pred, **_scores("gold/", metadata.gold)}
        value.update(_scores("pred_initial/", prediction.initial_scores))
        for group, panel in prediction.panels.items():
            value.update(_scores(f"{GROUP_PREFIX}{group}/", panel.scores))
        for group, panel in prediction.panels.items():
            initial = group_initial_scores(panel)
            value.update(_scores(f"{INITIAL_GROUP_PREFIX}{group}/", initial))
        value.update(
            {
                "parse_ok": float(prediction.parse_ok),
                "n_scored": float(len(pred)),
                "model_calls": float(prediction.model_calls),
                "tokens": float(prediction.tokens),
                "n_answers": float(len(prediction.answers)),
                "failed_answers": float(sum(1 for a in prediction.answers if not a.parse_ok)),
            }
        )
        head = metadata.dimensions[0].name if metadata.dimensions else OVERALL
        answer = prediction.scores.get(OVERALL, prediction.score)
        return make_score(
            value,
            [f"pred/{head}", f"gold/{head}"],
            answer=None if answer is None else f"{answer:g}",
            explanation=prediction.error if not prediction.parse_ok else prediction.rationale,
            metadata={
                "panels": {g: p.model_dump() for g, p in prediction.panels.items()},
                "group": metadata.output.group,
            },
        )

    return score


@score_reducer(name="rating_mean")
def rating_mean() -> ScoreReducer:
    """Reduce epochs key by key, each key over the epochs that have it.

    ``pred/{dim}`` is the mean over the epochs that scored the dimension (Inspect's
    ``mean`` raises when the keys differ between epochs). ``parse_ok`` is the mean too,
    so a sample that failed in any epoch counts in ``parse_failures``. The metadata
    (panels, group) is the first epoch's, as with Inspect's reducers, so ``group_alpha``
    and the per-panel cost read the first epoch.

    Returns:
        The reducer.
    """

    def reduce(scores: list[Score]) -> Score:
        return mean_by_key(scores)

    return reduce
