"""The per-sample scorer of rating tasks and its epoch reducer.

:func:`rating_scorer` reads the method's :class:`~inspect_plural.prediction.Prediction`
and writes numbers only (the keys of :mod:`inspect_plural.scorers.ratings._values`).
"""

from __future__ import annotations

from collections.abc import Mapping

from inspect_ai.scorer import Score, Scorer, ScoreReducer, Target, score_reducer, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import Store

from inspect_plural.parsing import FailureReason
from inspect_plural.prediction import PanelScores, Prediction
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.scorers._failures import answer_failures, failure_values
from inspect_plural.scorers._reduce import mean_by_key
from inspect_plural.scorers._values import make_score
from inspect_plural.scorers.ratings._metrics import rating_metrics
from inspect_plural.scorers.ratings._panels import OVERALL
from inspect_plural.scorers.ratings._values import GROUP_PREFIX, INITIAL_GROUP_PREFIX, finite
from inspect_plural.solvers.chateval import ChatEvalRecord
from inspect_plural.solvers.debate import PanelDebate

__all__ = ["group_initial_scores", "rating_mean", "rating_scorer"]


Outcome = tuple[bool, FailureReason | None]


def debate_outcomes(store: Store) -> list[Outcome]:
    """The answers of a sample's discussion that its prediction does not list.

    MAJ-Eval's evaluations, debate turns and syntheses (its prediction lists no answer),
    and ChatEval's discussion turns (its prediction lists the final ones).

    Args:
        store: The sample's store.

    Returns:
        ``(parse_ok, failure)`` per answer.
    """
    keys = set(store.keys())
    outcomes: list[Outcome] = []
    if "PanelDebate:groups" in keys:
        for group in PanelDebate.read(store).groups:
            outcomes += group.answer_outcomes()
    if "ChatEvalRecord:turns" in keys:
        turns = ChatEvalRecord.read(store).turns
        outcomes += [(t.parse_ok is not False, t.failure) for t in turns if not t.final]
    return outcomes


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


def _range(low: float, high: float) -> str:
    return f"{low:g}–{high:g}"


@scorer(metrics=rating_metrics())
def rating_scorer(predicted_scale: tuple[float, float] = (1.0, 5.0)) -> Scorer:
    """Score a rating ``Prediction`` against the human scores of one generated output.

    Per sample: ``pred/{dim}``, ``gold/{dim}``, ``pred_initial/{dim}``,
    ``group/{g}/{dim}``, ``group_initial/{g}/{dim}``, ``parse_ok``, ``n_scored``,
    ``model_calls``, ``tokens``, ``n_answers`` and ``failed_answers``. The value shows
    ``pred/{dim}`` and ``gold/{dim}`` of the first dimension (``overall`` when the data
    has it); the others are in the metadata's ``values``
    (:mod:`inspect_plural.scorers._values`), beside ``panels`` (every member's scores)
    and ``group`` (the output's review or story), and ``scales``: the scale of the
    prediction beside the human raters' scale of each dimension, so a 3.33 on the 1–5
    rubric beside a 0.458 on a 0–1 human scale is read as what it is.

    Args:
        predicted_scale: The method's prediction scale (low, high): the rating methods'
            1–5 rubric, ROUGE-L's 0–1.

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
        discussion = debate_outcomes(state.store)
        failures = answer_failures(prediction)
        failures += [failure or "no_answer" for ok, failure in discussion if not ok]
        value.update(
            {
                "parse_ok": float(prediction.parse_ok),
                "n_scored": float(len(pred)),
                "model_calls": float(prediction.model_calls),
                "tokens": float(prediction.tokens),
                "n_answers": float(len(prediction.answers) + len(discussion)),
                "failed_answers": float(len(failures)),
                **failure_values(failures),
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
                "scales": {
                    d.name: f"pred {_range(*predicted_scale)}, human {_range(d.low, d.high)}"
                    for d in metadata.dimensions
                },
                **({} if prediction.parse_ok else {"failure": prediction.failure}),
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
