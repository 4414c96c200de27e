"""Corpus metrics of Per-DOC choices: accuracy per aspect and averaged, N/A, position effects.

``accuracy/{aspect}`` is the share of correct choices on the aspect, ``accuracy`` their
unweighted mean (the paper's Average column). A failed parse counts as wrong
(``failures="wrong"``) or is left out (``drop``, the official rule: rows whose
prediction is -1 are filtered; N/A stays and is wrong). With ``both_orders``,
``position_consistency`` (both orders gave the same answer) and ``first_shown_rate``
(how often the plot shown first was chosen); without it those keys are absent, not NaN.

``metrics=headline`` keeps ``accuracy/{aspect}``, ``accuracy``, ``na_answers`` and
``position_consistency``; ``full`` adds ``n/{aspect}``, ``accuracy_micro`` and
``first_shown_rate``.
"""

from __future__ import annotations

import math
from typing import Literal, cast

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from inspect_plural.scorers.personal._review_metrics import sample_values

__all__ = ["CHOICE_FULL_ONLY", "ChoiceFailures", "choice_metrics", "choice_summary"]

ChoiceFailures = Literal["wrong", "drop"]

CHOICE_FULL_ONLY = ("n/", "accuracy_micro", "first_shown_rate")
"""Prefixes of the keys logged only under ``metrics=full``."""


def choice_summary(
    scores: list[SampleScore], failures: ChoiceFailures = "wrong"
) -> dict[str, float]:
    """Per-aspect and averaged accuracy of Per-DOC choices (every key: ``metrics=full``).

    Args:
        scores: The ``choice_scorer`` scores.
        failures: ``wrong`` or ``drop`` (module docstring).

    Returns:
        ``accuracy/{aspect}`` and ``n/{aspect}`` per aspect, ``accuracy`` (mean over the
        aspects), ``accuracy_micro``, ``na_answers`` (count) and, when some sample was
        asked in both orders, ``position_consistency`` and ``first_shown_rate``.
    """
    if failures not in ("wrong", "drop"):
        raise ValueError(f"failures must be wrong or drop, not {failures!r}")
    by_aspect: dict[str, list[float]] = {}
    na = 0.0
    consistent: list[float] = []
    first: list[float] = []
    for value, sample_metadata in sample_values(scores):
        if "consistent" in value:
            consistent.append(float(value["consistent"]))
        if "first_shown" in value:
            first.append(float(value["first_shown"]))
        na += value.get("na", 0.0)
        if failures == "drop" and value.get("parse_ok", 1.0) < 1.0:
            continue
        aspect = str(sample_metadata.get("aspect", "all"))
        by_aspect.setdefault(aspect, []).append(float(value.get("correct", 0.0)))
    report: dict[str, float] = {}
    for aspect, values in by_aspect.items():
        report[f"accuracy/{aspect}"] = float(np.mean(values))
        report[f"n/{aspect}"] = float(len(values))
    every = [v for values in by_aspect.values() for v in values]
    report["accuracy"] = (
        float(np.mean([report[f"accuracy/{a}"] for a in by_aspect])) if by_aspect else math.nan
    )
    report["accuracy_micro"] = float(np.mean(every)) if every else math.nan
    report["na_answers"] = na
    if consistent:
        report["position_consistency"] = float(np.mean(consistent))
    if first:
        report["first_shown_rate"] = float(np.mean(first))
    return report


@metric
def choice_metrics(failures: str = "wrong", level: str = "headline") -> Metric:
    """Per-aspect and averaged accuracy of Per-DOC choices, N/A answers, position effects.

    Args:
        failures: ``wrong`` (a failed parse is a wrong answer) or ``drop`` (left out, as
            the official code does).
        level: ``headline`` or ``full`` (module docstring).

    Returns:
        The metric (keys of :func:`choice_summary`).
    """
    if level not in ("headline", "full"):
        raise ValueError(f"level must be headline or full, not {level!r}")
    mode = cast(ChoiceFailures, failures)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        report = choice_summary(scores, mode)
        if level == "full":
            return report
        return {k: v for k, v in report.items() if not k.startswith(CHOICE_FULL_ONLY)}

    return compute
