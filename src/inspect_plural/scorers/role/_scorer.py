"""Scorer and corpus metrics for role identification (PersonaEval).

Per sample, the scorer reads the :class:`~inspect_plural.prediction.Prediction` and
writes numbers only: ``correct`` (top-1), ``top2``, ``rank``, ``p_true``, ``max_prob``,
``brier``, ``parse_ok``, ``renormalised``, ``n_answers``, ``failed_answers``,
``n_options``, ``gold_index`` and the probabilities ``p_0..p_{K-1}`` in the data file's
candidate order (so tie rules follow the file, as the official code does, whatever
order the candidates were shown in). The corpus metrics recompute
everything from those probabilities, so a reported figure always equals the figure
recomputed from the stored distributions.

Definitions (``preset="default"``):
    - a parse failure is scored as the uniform distribution (no top-k credit, chance
      rank, the Brier and calibration of an uninformative answer) and counted in
      ``parse_failures``;
    - top-k ties are never credited (``tie_break="strict"``);
    - mean rank uses average ranks for ties (``rank_method="average"``);
    - Brier is scikit-learn's multiclass Brier (sum over options, range 0-2);
    - ECE uses 15 equal-width ``(low, high]`` bins of the top-1 probability.

``preset="personaeval"`` reproduces the official PersonaEval code: failures dropped,
argmax top-1 (ties to the first option) and ``np.argsort`` top-2 and rank, Brier divided
by the number of options, ECE with 20 bins. Values are fractions; the paper's tables
show ECE and Brier multiplied by 100.

The code lives in private modules, one concept each, re-exported here unchanged: the
metric definitions and their presets (``_role_config``), the corpus metrics
(``_role_metrics``), and the per-sample values of an answer (``_role_values``). This
module keeps the scorer and the epoch reducer.
"""

from __future__ import annotations

from typing import Literal

from inspect_ai.scorer import Score, Scorer, ScoreReducer, Target, score_reducer, scorer
from inspect_ai.solver import TaskState

from inspect_plural.prediction import Prediction
from inspect_plural.records import RoleSampleMetadata
from inspect_plural.scorers._calibration import RankMethod, TieBreak
from inspect_plural.scorers._cost import cost_values
from inspect_plural.scorers._failures import answer_failures, failure_values
from inspect_plural.scorers._reduce import mean_by_key
from inspect_plural.scorers._values import make_score
from inspect_plural.scorers.role._config import (
    ROLE_PRESETS,
    Failures,
    RoleMetricConfig,
    resolve_role_config,
)
from inspect_plural.scorers.role._metrics import (
    brier_score,
    distribution_metrics,
    ece,
    failed_answers,
    mean_rank,
    parse_failures,
    role_metrics,
    top1,
    top2,
)
from inspect_plural.scorers.role._values import ranked_answer, score_distribution

__all__ = [
    "ROLE_PRESETS",
    "RoleMetricConfig",
    "brier_score",
    "distribution_metrics",
    "ece",
    "failed_answers",
    "mean_rank",
    "parse_failures",
    "resolve_role_config",
    "role_mean",
    "role_metrics",
    "role_scorer",
    "score_distribution",
    "top1",
    "top2",
]


SHOWN = ("correct", "rank", "p_true")
"""The numbers Inspect View shows per sample; the others are in the score's metadata."""


@scorer(metrics=role_metrics(ROLE_PRESETS["default"]))
def role_scorer(
    preset: str = "default",
    tie_break: TieBreak | None = None,
    rank_method: RankMethod | None = None,
    n_bins: int | None = None,
    brier_normalize: Literal["sum", "mean_over_classes"] | None = None,
    failures: Failures | None = None,
) -> Scorer:
    """Score a role-identification ``Prediction`` against the true role.

    Args:
        preset: ``default`` or ``personaeval`` (the official code's definitions).
        tie_break: Override the preset's top-k tie handling.
        rank_method: Override the preset's rank tie handling.
        n_bins: Override the preset's number of ECE bins.
        brier_normalize: Override the preset's Brier normalisation.
        failures: Override how parse failures count (``uniform`` or ``drop``).

    Returns:
        The scorer. Its own metrics follow ``preset="default"``; the tasks attach
        ``role_metrics(resolve_role_config(preset))`` so the metrics follow the chosen
        preset. Used outside the tasks with another preset, pass those metrics to
        ``Task(metrics=...)`` too.

    """
    config = resolve_role_config(preset, tie_break, rank_method, n_bins, brier_normalize, failures)

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(RoleSampleMetadata)
        names = metadata.file_order or metadata.candidate_names  # ties break in file order
        gold_index = names.index(metadata.true_role)
        prediction = Prediction.read(state.store)
        ok = bool(prediction.parse_ok and prediction.distribution)
        error = prediction.error
        if ok and config.official_parsing:
            lenient = [a for a in prediction.answers if a.parse_ok and a.read_as != "json"]
            if lenient:
                ok = False
                error = (
                    f"not accepted by the official parser: read as {lenient[0].read_as}, "
                    "not as a JSON object"
                )
            elif prediction.renormalised:
                ok = False
                error = "not accepted by the official parser: the probabilities do not sum to 1"
        if ok and prediction.distribution is not None:
            probs = [float(prediction.distribution.get(name, 0.0)) for name in names]
        else:
            probs = [1.0 / len(names)] * len(names)
        value = score_distribution(probs, gold_index, config)
        if not ok:  # a failure is never credited, whatever the tie rule
            value["correct"] = value["top2"] = 0.0
        value["parse_ok"] = float(ok)
        value["renormalised"] = float(prediction.renormalised)
        value["n_answers"] = float(len(prediction.answers))
        value["failed_answers"] = float(sum(1 for a in prediction.answers if not a.parse_ok))
        value.update(failure_values(answer_failures(prediction)))
        value.update(cost_values(prediction))
        return make_score(
            value,
            SHOWN,
            answer=ranked_answer(prediction.distribution, names) if ok else None,
            explanation=error if not ok else prediction.rationale,
            metadata=None if ok else {"failure": prediction.failure},
        )

    return score


@score_reducer(name="role_mean")
def role_mean() -> ScoreReducer:
    """Reduce epochs to the mean of each score key, as Inspect's ``mean`` does, in floats.

    The probabilities ``p_*`` become the mean distribution over the epochs, ``correct``
    and ``top2`` the share of epochs credited, and ``parse_ok`` the share of epochs
    with a usable answer (so a sample that failed in any epoch counts in
    ``parse_failures``). The role tasks use it by default: Inspect's ``mean`` gives
    the same values (up to float rounding) but computes each of the score's 12 + K
    keys in exact fractions, even with one epoch.

    Returns:
        The reducer.
    """

    def reduce(scores: list[Score]) -> Score:
        return mean_by_key(scores)

    return reduce
