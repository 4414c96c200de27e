"""Scorer and corpus metrics for annotator-level tasks (CINEMETRIC, PersEval).

Per sample, :func:`annotator_scorer` reads the method's
:class:`~inspect_plural.prediction.Prediction` and writes numbers only: ``pred`` and
``gold`` (label indices in the sample's scale; ``pred = -1`` when no label could be
parsed), ``correct``, ``parse_ok``, ``n_labels``, ``ordinal`` and, on ordinal scales,
``abs_error`` (distance in scale positions). ``correct`` (and ``abs_error``, ``p_true``
where they exist) are the score's value, the columns Inspect View shows; the others are
in its metadata (:mod:`inspect_plural.scorers._values`).

The corpus metrics recompute everything from those values plus the sample metadata
(``annotator_id``, ``item_id`` and ``metric_traits``):

- ``accuracy``; ``mae`` and ``within_one`` on ordinal scales;
- ``macro_f1`` (global), ``annotator_macro_f1``, ``text_macro_f1`` and ``trait_macro_f1``
  (one value per trait dimension), the headline figures;
- ``prf_global``, ``prf_annotator``, ``prf_text`` and ``prf_trait``: precision, recall
  and F1 per class plus macro and micro averages at each level (see
  :mod:`inspect_plural.scorers._prf`);
- ``parse_failures``.

Definitions (``preset="default"``): the label set is the whole scale for every group,
``zero_division=0``, a parse failure is a wrong answer (no class for precision, a miss
for recall, the largest possible distance for MAE), unknown trait values form no
group. ``preset="perseval"`` reproduces the official PersEval evaluation: the label set
of each group is inferred from its gold and predicted labels, per-key means run over
the groups that have the key, trait value "UNK" is skipped, and failures are dropped.
"""

from __future__ import annotations

from collections import Counter
from typing import cast

from inspect_ai.scorer import (
    Score,
    Scorer,
    ScoreReducer,
    Target,
    score_reducer,
    scorer,
)
from inspect_ai.solver import TaskState

from inspect_plural.prediction import Prediction
from inspect_plural.records import AnnotatorSampleKeys
from inspect_plural.scorers._cost import cost_values
from inspect_plural.scorers._failures import answer_failures, failure_values
from inspect_plural.scorers._prf import FAILED
from inspect_plural.scorers._reduce import mean_by_key
from inspect_plural.scorers._values import make_score, values_of, with_values
from inspect_plural.scorers.perspective._metrics import (
    PERSPECTIVE_PRESETS,
    TRAIT_KEY,
    PerspectiveMetricConfig,
    accuracy,
    accuracy_by_trait,
    annotator_macro_f1,
    calibration_metrics,
    macro_f1,
    mae,
    perspective_metrics,
    prf_annotator,
    prf_global,
    prf_text,
    prf_trait,
    resolve_perspective_config,
    text_macro_f1,
    trait_macro_f1,
    within_one,
)
from inspect_plural.scorers.role import ROLE_PRESETS, score_distribution

__all__ = [
    "PERSPECTIVE_PRESETS",
    "PerspectiveMetricConfig",
    "TRAIT_KEY",
    "accuracy",
    "accuracy_by_trait",
    "annotator_macro_f1",
    "annotator_scorer",
    "calibration_metrics",
    "mae",
    "modal_row",
    "macro_f1",
    "perspective_metrics",
    "prf_annotator",
    "prf_global",
    "prf_text",
    "prf_trait",
    "resolve_perspective_config",
    "run_mean",
    "text_macro_f1",
    "trait_macro_f1",
    "within_one",
]


@scorer(metrics=perspective_metrics())
def annotator_scorer(distribution: bool = False) -> Scorer:
    """Score a label ``Prediction`` against the annotator's own label.

    Args:
        distribution: Also write the probability of every label (``p_0..p_{K-1}`` in
            scale order, ``p_true``, ``rank``, ``top2``, ``brier``, ``max_prob``,
            ``n_options``, ``gold_index``) for :func:`calibration_metrics`; a prediction
            without a distribution counts as the uniform one.

    Returns:
        The scorer. The tasks attach ``perspective_metrics(preset, ...)`` so that the
        metrics follow the chosen preset and scale.

    """

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(AnnotatorSampleKeys)
        labels = metadata.labels
        gold = labels.index(target.text)
        prediction = Prediction.read(state.store)
        ok = bool(prediction.parse_ok and prediction.label in labels)
        error = prediction.error
        if distribution and ok and not prediction.distribution:
            ok, error = False, "a distribution was asked for and the method gave none"
        pred = labels.index(prediction.label) if ok and prediction.label else FAILED
        ordinal = metadata.scale is not None and metadata.scale.kind == "ordinal"
        value: dict[str, float] = {
            "pred": float(pred),
            "gold": float(gold),
            "correct": float(pred == gold),
            "parse_ok": float(ok),
            "n_labels": float(len(labels)),
            "ordinal": float(ordinal),
        }
        if ordinal:
            worst = max(gold, len(labels) - 1 - gold)
            value["abs_error"] = float(abs(pred - gold) if ok else worst)
        value.update(cost_values(prediction))
        value["n_answers"] = float(len(prediction.answers))
        value["failed_answers"] = float(sum(1 for a in prediction.answers if not a.parse_ok))
        value.update(failure_values(answer_failures(prediction)))
        if distribution:
            dist = prediction.distribution if ok else None
            probs = (
                [float(dist.get(name, 0.0)) for name in labels]
                if dist
                else [1.0 / len(labels)] * len(labels)
            )
            scored = score_distribution(probs, gold, ROLE_PRESETS["default"])
            scored.pop("correct")  # the label's correctness (the vote) stays the headline
            value.update(scored)
        shown = [
            "correct",
            *(["abs_error"] if ordinal else []),
            *(["p_true"] if distribution else []),
        ]
        return make_score(
            value,
            shown,
            answer=prediction.label if ok else None,
            explanation=error if not ok else prediction.rationale,
            metadata=None if ok else {"failure": prediction.failure},
        )

    return score


@score_reducer(name="modal_row")
def modal_row() -> ScoreReducer:
    """Reduce epochs to the epoch whose prediction is the most common (the first on ties).

    Unlike Inspect's ``mode``, which takes the mode of each key separately, the whole row
    of that epoch is kept, so ``pred``, ``correct`` and the probabilities ``p_*`` of a
    distribution answer always come from one and the same answer.

    Returns:
        The reducer.
    """

    def reduce(scores: list[Score]) -> Score:
        rows = [s for s in scores if isinstance(s.value, dict)]
        if not rows:
            return scores[0]
        preds = [values_of(s).get("pred") for s in rows]
        modal = Counter(preds).most_common(1)[0][0]
        chosen = rows[preds.index(modal)]
        return Score(
            value=dict(cast(dict[str, float], chosen.value)),
            answer=chosen.answer,
            explanation=chosen.explanation,
            metadata=chosen.metadata,
        )

    return reduce


@score_reducer(name="run_mean")
def run_mean() -> ScoreReducer:
    """Reduce runs (epochs) as a paper that reports the mean of several runs does.

    ``correct``, ``abs_error``, ``parse_ok``, the probabilities and the cost become their
    means over the runs, so accuracy and MAE are exactly the mean of the runs' values;
    ``pred`` (and the answer) is the modal prediction, the input of the F1 metrics
    (an F1 is not the mean of the runs' F1s). ``protocol=paper`` uses it.

    Returns:
        The reducer.
    """
    modal = modal_row()

    def reduce(scores: list[Score]) -> Score:
        chosen = modal(scores)
        if not isinstance(chosen.value, dict):
            return chosen
        value = values_of(mean_by_key(scores))
        kept = values_of(chosen)
        for key in ("pred", "gold", "gold_index", "n_labels", "ordinal", "n_options"):
            if key in kept:
                value[key] = kept[key]
        return with_values(chosen, value)

    return reduce
