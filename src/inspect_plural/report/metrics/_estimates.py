"""Per-log metric estimates: the log's metrics, recomputed from the per-sample values.

For each scorer of the package, every headline metric is recomputed from the score
values stored per sample, with the definitions of the task's ``metrics_preset``, and
given a seeded bootstrap interval (:mod:`inspect_plural.report._bootstrap`); breakdowns the headline
log leaves out are recomputed the same way. The family modules hold the definitions:
:mod:`._annotator` (annotator tasks, probability answers),
:mod:`._ratings` (MAJ-Eval correlations), :mod:`._personal` (PERSE),
:mod:`._generic` (LeWiDi, representativeness, unknown scorers).

How each interval is made (:data:`INTERVALS`):

- a mean of a per-sample value: the bootstrap of the mean over samples;
- a mean over annotators or items of a per-group value (``annotator_macro_f1``,
  ``text_macro_f1``): the bootstrap of the mean over the groups;
- a corpus statistic (macro-F1, ECE, correlations, Per-DOC's mean over aspects):
  samples resampled and the statistic recomputed on each resample;
- none, with a visible note: fewer than 5 units, a statistic undefined in some
  resamples, a value that differs from the log's, per-item correlations, Krippendorff's
  alpha, and the metrics of scorers the report does not know.

A log run over several epochs is first reduced to one row per sample as the tasks'
reducers do (:func:`~._base.reduce_epochs`: means over epochs, the modal
prediction for F1); a metric reduced otherwise by its task shows the log's value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from inspect_plural.report._bootstrap import MIN_UNITS, Bootstrap
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics._annotator import distribution_metrics, perspective_metrics
from inspect_plural.report.metrics._base import (
    GROUP_MEAN,
    LOG_ONLY,
    MEAN,
    RECOMPUTED,
    MetricValue,
    log_only,
    reduce_epochs,
)
from inspect_plural.report.metrics._generic import lewidi_metrics, other_metrics
from inspect_plural.report.metrics._personal import choice_metrics, review_metrics
from inspect_plural.report.metrics._ratings import rating_metrics

__all__ = ["HEADLINE", "INTERVALS", "log_metrics"]

INTERVALS: dict[str, str] = {
    "accuracy, MAE, within-one, top-1, top-2, mean rank, Brier, exact-match accuracy, "
    "ROUGE-1, BLEU, per-aspect accuracy, accuracy per trait value, LeWiDi per-item "
    "metrics, representativeness": MEAN,
    "annotator-level and text-level macro-F1": GROUP_MEAN.format(unit="annotators / items"),
    "global macro-F1, F1 per class, ECE, Spearman / Kendall / Pearson (pooled; per "
    "stakeholder group; before the debate), Per-DOC accuracy (mean over aspects)": RECOMPUTED,
    f"cells with fewer than {MIN_UNITS} units, per-item correlations, Krippendorff's "
    "alpha, other scorers' metrics, a value that differs from the log's (e.g. epochs "
    "reduced otherwise)": LOG_ONLY,
}
"""How each metric's interval is made (the report's method notes show it)."""

HEADLINE: dict[str, tuple[str, ...]] = {
    "annotator_scorer": ("accuracy",),
    "role_scorer": ("top1",),
    "rating_scorer": ("overall/spearman",),
    "review_scorer": ("spearman", "pearson"),
    "choice_scorer": ("accuracy",),
}
"""The metric the method x model bar chart shows, per scorer (first one present)."""

Compute = Callable[[LogData, Bootstrap], Iterator[MetricValue | None]]

_BY_SCORER: dict[str, Compute] = {
    "annotator_scorer": perspective_metrics,
    "role_scorer": distribution_metrics,
    "rating_scorer": rating_metrics,
    "review_scorer": review_metrics,
    "choice_scorer": choice_metrics,
}


def _compute(log: LogData) -> Compute:
    if log.family == "lewidi":
        return lewidi_metrics
    return _BY_SCORER.get(log.scorer or "", other_metrics)


def _stored(log: LogData) -> list[str]:
    return [name for name in log.metrics if not name.endswith("_undefined")]


def log_metrics(
    log: LogData, boot: Bootstrap, warn: Callable[[str], None] | None = None
) -> list[MetricValue]:
    """The cells of one log, in the scorer's report order (breakdowns included).

    Args:
        log: The log.
        boot: The bootstrap settings.
        warn: Called with a message if the per-sample values cannot be used (the log's
            own values are shown then, without intervals).

    Returns:
        One value per metric the log holds and the report shows, and per breakdown.
    """
    compute = _compute(log)
    if log.epochs > 1 and compute in (perspective_metrics, distribution_metrics, choice_metrics):
        log = reduce_epochs(log)  # checked against the log's values like any other
    try:
        found = [value for value in compute(log, boot) if value is not None]
    except Exception as ex:  # unexpected per-sample values: show the log's own figures
        note = f"per-sample values not usable ({type(ex).__name__}: {ex}): log value"
        if warn is not None:
            warn(f"{log.name}: {note}")
        return [log_only(log, name, note) for name in _stored(log)]
    shown = {value.name for value in found}
    rest = [log_only(log, name) for name in _stored(log) if name not in shown]
    return found + rest
