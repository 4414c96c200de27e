"""Scorer and metrics of the distribution target (LeWiDi soft-label and perspectivist scores).

Per item, :func:`distribution_scorer` reads the method's
:class:`~inspect_plural.prediction.Prediction` (its distribution over the scale's
labels), the per-annotator runs of a pooled method and any steered distributions, and
writes numbers only (:func:`~inspect_plural.scorers.distribution._item_values.item_values`). N
items, K labels, ``t`` the gold and ``p`` the predicted distribution, ``a_i`` annotators:

- ``manhattan`` = (1/N) Σᵢ Σₖ |pᵢₖ − tᵢₖ|; on label sets (VariErrNLI) the mean over base
  labels j of the binary distributions' distance 2 |pᵢⱼ − tᵢⱼ|, pᵢⱼ being the predicted
  share of the sets that hold j (LeWiDi 2025 ``average_MD``, ``multilabel_average_MD``);
- ``wasserstein`` = (1/N) Σᵢ W1(pᵢ, tᵢ) over the label positions (``average_WS``);
- ``cross_entropy`` = −(1/N) Σᵢ Σₖ tᵢₖ ln(clip(pᵢₖ, 1e−12, 1 − 1e−12) + 1e−9) (LeWiDi 2023);
- ``hard_micro_f1``: scikit-learn's micro-F1 of the top predicted label against the hard
  label (LeWiDi 2023);
- ``error_rate`` = (1/N) Σᵢ (1/aᵢ) Σₖ [predicted label of annotator k ≠ theirs]; on label
  sets the mean over base labels of the membership errors (``error_rate``,
  ``multilabel_error_rate``);
- ``norm_abs_distance`` = (1/N) Σᵢ (1/aᵢ) Σₖ |position of their label − predicted| / s
  (``mean_absolute_distance``), s from the preset.

An annotator's predicted label is their own run's (pooled methods) or the distribution's
best guess for everyone (:func:`~inspect_plural.scorers.distribution._item_values.decision_label`).
A failed prediction is scored as the uniform distribution (and counted in
``parse_failures``); a failed per-annotator label as wrong, at the largest distance.

Presets (:data:`~inspect_plural.scorers.distribution._item_values.DISTRIBUTION_PRESETS`):
``default`` does not round, divides by the scale's range (10, 5) and takes the majority
of the test judgments as the hard label; ``lewidi`` follows the official code: 5-decimal
rounding where it rounds, the number of values (11, 6), the release's hard labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from inspect_plural.item_records import (
    AnnotatorPredictions,
    ItemSampleKeys,
    SteeredDistributions,
)
from inspect_plural.prediction import Prediction
from inspect_plural.scorers._cost import cost, cost_values
from inspect_plural.scorers._failures import answer_failures, failure_reasons, failure_values
from inspect_plural.scorers._values import make_score
from inspect_plural.scorers.distribution._item_values import (
    DISTRIBUTION_PRESETS,
    REP_KEY,
    REP_STEERED_KEY,
    DistributionConfig,
    HardLabel,
    decision_label,
    item_values,
    predicted_vector,
)
from inspect_plural.scorers.distribution._lewidi import LEWIDI_METRICS, NormaliserConvention
from inspect_plural.scorers.distribution._metrics import (
    PERSPECTIVIST_METRICS,
    SOFT_METRICS,
    cross_entropy,
    group_representativeness,
    hard_micro_f1,
    headline_representativeness,
    manhattan,
    norm_abs_distance,
    perspectivist_error_rate,
    wasserstein,
)
from inspect_plural.scorers.role import failed_answers, parse_failures

__all__ = [
    "DISTRIBUTION_PRESETS",
    "REP_KEY",
    "REP_STEERED_KEY",
    "DistributionConfig",
    "cross_entropy",
    "decision_label",
    "distribution_metric_names",
    "distribution_metrics",
    "distribution_scorer",
    "group_representativeness",
    "hard_micro_f1",
    "headline_representativeness",
    "item_values",
    "manhattan",
    "norm_abs_distance",
    "perspectivist_error_rate",
    "predicted_vector",
    "wasserstein",
]

_OFFICIAL = {
    "cross_entropy": "cross_entropy",
    "manhattan": "manhattan",
    "multilabel_manhattan": "manhattan",
    "wasserstein": "wasserstein",
    "micro_f1": "hard_micro_f1",
    "error_rate": "error_rate",
    "multilabel_error_rate": "error_rate",
    "normalized_absolute_distance": "norm_abs_distance",
}
"""``LEWIDI_METRICS`` names -> the metric names of the log."""


def distribution_metric_names(
    dataset: str, preset: str, kinds: Iterable[str], multilabel: bool = False
) -> list[str]:
    """The soft-label and perspectivist metrics a task logs.

    Args:
        dataset: The dataset (its official LeWiDi metrics under the ``lewidi`` preset).
        preset: ``default`` or ``lewidi``.
        kinds: The scale kinds of the items (``nominal``, ``ordinal``).
        multilabel: The labels are label sets (VariErrNLI).

    Returns:
        ``default``: every metric that applies (``manhattan``; ``wasserstein`` on ordinal
        scales; ``cross_entropy`` and ``hard_micro_f1`` on single-label scales;
        ``error_rate`` on nominal, ``norm_abs_distance`` on ordinal ones). ``lewidi``: the
        dataset's official pair (2023: cross-entropy and micro-F1, plus the 2025
        perspectivist metric of its scale; 2025 as the shared task), or for another
        dataset the 2025 choice by scale (Manhattan and error rate on nominal scales,
        Wasserstein and normalised distance on ordinal ones).
    """
    kinds = set(kinds)
    ordinal, nominal = "ordinal" in kinds, bool(kinds - {"ordinal"})
    perspectivist = [
        *(["error_rate"] if nominal else []),
        *(["norm_abs_distance"] if ordinal else []),
    ]
    official = LEWIDI_METRICS.get(dataset.removesuffix("_demo"))
    if preset == "lewidi" and official is not None:
        names = [_OFFICIAL[official.soft]]
        if official.hard:
            names.append(_OFFICIAL[official.hard])
        if official.perspectivist:
            return [*names, _OFFICIAL[official.perspectivist]]
        return [*names, *perspectivist]
    if preset == "lewidi":
        soft = [*(["manhattan"] if nominal else []), *(["wasserstein"] if ordinal else [])]
        return [*soft, *perspectivist]
    soft = ["manhattan", *(["wasserstein"] if ordinal else [])]
    if not multilabel:
        soft += ["cross_entropy", "hard_micro_f1"]
    return [*soft, *perspectivist]


def distribution_metrics(
    names: Sequence[str],
    config: DistributionConfig,
    dimensions: Sequence[str] = (),
    steered: Sequence[str] = (),
    level: Literal["headline", "full"] = "headline",
) -> list[Metric]:
    """The corpus metrics of a distribution task.

    Args:
        names: The soft-label and perspectivist metrics (:func:`distribution_metric_names`).
        config: The metric definitions (rounding).
        dimensions: Trait dimensions for representativeness (none: not logged).
        steered: Steered dimensions.
        level: ``headline`` (per-dimension representativeness) or ``full`` (per group too).

    Returns:
        The metrics in :data:`SOFT_METRICS` then :data:`PERSPECTIVIST_METRICS` order, then
        ``parse_failures``, ``failed_answers``, calls and tokens per sample, and
        representativeness.
    """
    factories = {
        "manhattan": lambda: manhattan(config.decimals),
        "wasserstein": lambda: wasserstein(config.decimals),
        "cross_entropy": cross_entropy,
        "hard_micro_f1": hard_micro_f1,
        "error_rate": perspectivist_error_rate,
        "norm_abs_distance": norm_abs_distance,
    }
    ordered = [n for n in (*SOFT_METRICS, *PERSPECTIVIST_METRICS) if n in names]
    metrics: list[Metric] = [factories[name]() for name in ordered]
    metrics += [parse_failures(), failed_answers(), failure_reasons(), cost()]
    if dimensions:
        metrics.append(group_representativeness(list(dimensions), list(steered), level))
    return metrics


def shown_keys(names: Sequence[str]) -> list[str]:
    """The per-item numbers Inspect View shows for a task that logs these metrics.

    The dataset's soft-label metric, the hard label's correctness (when the F1 is
    logged) and its perspectivist metric: at most three columns.

    Args:
        names: The task's distribution metrics (:func:`distribution_metric_names`).

    Returns:
        The per-item score keys.
    """
    soft = [n for n in SOFT_METRICS if n in names and n != "hard_micro_f1"][:1]
    hard = ["hard_correct"] if "hard_micro_f1" in names else []
    perspectivist = [n for n in PERSPECTIVIST_METRICS if n in names][:1]
    return [*soft, *hard, *perspectivist]


@scorer(metrics=distribution_metrics(["manhattan"], DistributionConfig()))
def distribution_scorer(
    decimals: int | None = None,
    normaliser: NormaliserConvention = "range",
    hard_label: HardLabel = "majority",
    shown: Sequence[str] = ("manhattan", "hard_correct", "error_rate"),
) -> Scorer:
    """Score an item's predicted label distribution against its annotators'.

    Args:
        decimals: Round as the official LeWiDi code (5) where it rounds; None: not.
        normaliser: ``range`` (10, 5) or ``code`` (11, 6): the normalised distance's divisor.
        hard_label: ``majority`` or ``file`` (the release's hard label): the F1's gold.
        shown: The per-item numbers shown in Inspect View (:func:`shown_keys`); every
            number is kept in the score's metadata.

    Returns:
        The scorer; the tasks attach :func:`distribution_metrics` for their dataset.
    """
    config = DistributionConfig(decimals=decimals, normaliser=normaliser, hard_label=hard_label)

    async def score(state: TaskState, target: Target) -> Score:
        metadata = state.metadata_as(ItemSampleKeys)
        prediction = Prediction.read(state.store)
        keys = set(state.store.keys())
        pooled = "AnnotatorPredictions:runs" in keys
        runs = AnnotatorPredictions.read(state.store) if pooled else None
        steering = "SteeredDistributions:answers" in keys
        steered = SteeredDistributions.read(state.store) if steering else None
        value = item_values(metadata, prediction, runs, steered, config)
        value |= cost_values(prediction)
        # the item's own answers (a pooled prediction has none), its annotators' runs'
        # (a stakeholder panel's runs have none) and the steered ones
        answers = [
            *prediction.answers,
            *(a for run in (runs.runs if runs else []) for a in run.answers),
            *(steered.answers if steered else []),
        ]
        if answers:
            value["n_answers"] = float(len(answers))
            value["failed_answers"] = float(sum(1 for a in answers if not a.parse_ok))
        value.update(
            failure_values(answer_failures(prediction, answers[len(prediction.answers) :]))
        )
        ok = value["parse_ok"] >= 1.0
        return make_score(
            value,
            list(shown),
            answer=prediction.label if ok else None,
            explanation=prediction.rationale if ok else prediction.error,
            metadata=None if ok else {"failure": prediction.failure},
        )

    return score
