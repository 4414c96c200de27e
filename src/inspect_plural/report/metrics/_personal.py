"""Metrics of the PERSE tasks: Per-MPST scores and Per-DOC choices.

Per-MPST, pooled over every (story, reviewer) row as ``get_score.py`` computes them:
Pearson, Spearman, Kendall tau-b, exact-match accuracy by the preset's rule
(``exact``: the prediction rounded half up; ``exact_raw`` under ``perse``: the
prediction itself, :data:`~inspect_plural.scorers.personal.REVIEW_ACCURACY`), MAE,
and ROUGE-1 and BLEU of the written reviews. Failures are imputed at the scale's
middle (default) or dropped (``perse``). With review-order shuffles
(``-T shuffle_reviews=N``) each shuffle's correlations come from its
``shuffle{e}/pred`` values, and :func:`shuffle_spread` gives their mean and standard
deviation (PERSE Figure 4), checked against the log's ``{coef}_shuffle_mean/_std``.

Per-DOC: accuracy per aspect, their unweighted mean (``accuracy``) and the micro mean.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd

from inspect_plural.report._bootstrap import Bootstrap, Estimate
from inspect_plural.report._logs import LogData
from inspect_plural.report.metrics._base import (
    MetricValue,
    column,
    failed_rows,
    mean_value,
    stat_value,
)
from inspect_plural.report.metrics._ratings import epoch_means
from inspect_plural.report.metrics._statistics import CORRELATIONS, mean_of_group_means
from inspect_plural.scorers import PERSONAL_PRESETS
from inspect_plural.scorers.personal import REVIEW_ACCURACY

__all__ = ["ShuffleSpread", "choice_metrics", "review_metrics", "shuffle_spread"]

_SHUFFLE = re.compile(r"^shuffle(\d+)/pred$")


def _preset(log: LogData) -> str:
    name = log.metadata.get("metrics_preset", log.task_args.get("metrics_preset"))
    return str(name) if name else "default"


def _first(frame: pd.DataFrame, key: str, default: float) -> float:
    if key not in frame:
        return default
    known = pd.to_numeric(frame[key], errors="coerce").dropna()
    return float(known.iloc[0]) if len(known) else default


def _middle(log: LogData) -> float:
    return (_first(log.scale, "low", 1.0) + _first(log.scale, "high", 10.0)) / 2


def _pairs(log: LogData, pred: np.ndarray, gold: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pred, gold) after the preset's failure rule (imputed at the middle, or dropped)."""
    if PERSONAL_PRESETS.get(_preset(log), PERSONAL_PRESETS["default"])[0] == "midpoint":
        pred = np.where(np.isnan(pred), _middle(log), pred)
    used = ~np.isnan(pred) & ~np.isnan(gold)
    return pred[used], gold[used]


def review_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """Per-MPST's correlations, accuracy (the preset's rule), MAE, ROUGE-1 and BLEU."""
    values = epoch_means(log)
    values = values[~np.isnan(column(values, "gold"))]
    rows = np.ones(len(values), dtype=bool)
    parse_ok = column(values, "parse_ok")
    failures = (int(np.sum(parse_ok < 1.0)) + log.errored, len(values) + log.errored)
    raw_pred, gold_all = column(values, "pred"), column(values, "gold")
    pred, gold = _pairs(log, raw_pred, gold_all)
    for coefficient, function in CORRELATIONS.items():
        yield stat_value(log, boot, coefficient, (pred, gold), function, failures)
    key = "exact_raw" if REVIEW_ACCURACY.get(_preset(log), "rounded") == "raw" else "exact"
    exact = np.where(np.isnan(raw_pred), 0.0, column(values, key))
    if PERSONAL_PRESETS.get(_preset(log), PERSONAL_PRESETS["default"])[0] == "drop":
        exact = exact[~np.isnan(raw_pred)]
    yield mean_value(log, boot, "accuracy", exact, failures)
    yield mean_value(log, boot, "mae", np.abs(pred - gold), failures)
    for name in ("review_rouge1", "review_bleu"):
        yield mean_value(log, boot, name, column(values, name)[rows], failures)


@dataclass(frozen=True)
class ShuffleSpread:
    """The correlations of each review-order shuffle, their mean and spread.

    Attributes:
        coefficient: ``spearman``, ``kendall`` or ``pearson``.
        per_shuffle: One value per shuffle (epoch order).
        mean: Their mean (the log's value when it agrees).
        std: Their sample standard deviation (ddof 1; NaN for one shuffle).
        matches_log: Whether mean and std equal the log's ``_shuffle_mean/_std``.
    """

    coefficient: str
    per_shuffle: list[float]
    mean: Estimate
    std: float
    matches_log: bool | None


def shuffle_spread(log: LogData) -> list[ShuffleSpread]:
    """Each coefficient's spread over review-order shuffles (empty without shuffles)."""
    epochs = sorted({int(m.group(1)) for c in log.values.columns if (m := _SHUFFLE.match(str(c)))})
    if not epochs:
        return []
    gold_all = column(log.values, "gold")
    failures = failed_rows(log, np.ones(log.n, dtype=bool))
    out: list[ShuffleSpread] = []
    for coefficient, function in CORRELATIONS.items():
        per = []
        for epoch in epochs:
            rows = (
                (log.sample_meta["epoch"] == epoch).to_numpy()
                if "epoch" in log.sample_meta
                else None
            )
            pred = column(log.values, f"shuffle{epoch}/pred")
            gold = gold_all
            if rows is not None:
                pred, gold = pred[rows], gold[rows]
            p, g = _pairs(log, pred, gold)
            per.append(float(function(p, g)) if len(p) > 1 else math.nan)
        mean = float(np.mean(per))
        std = float(np.std(per, ddof=1)) if len(per) > 1 else math.nan
        logged_mean = log.metrics.get(f"{coefficient}_shuffle_mean")
        logged_std = log.metrics.get(f"{coefficient}_shuffle_std")
        matches = None
        if logged_mean is not None:
            matches = math.isclose(mean, logged_mean, abs_tol=1e-9) and (
                logged_std is None
                or (math.isnan(std) and math.isnan(logged_std))
                or math.isclose(std, logged_std, abs_tol=1e-9)
            )
        note = None if matches is not False else "the log's shuffle mean differs: log value shown"
        value = logged_mean if logged_mean is not None else mean
        if logged_std is not None and matches is not None:
            std = logged_std  # the log's own figures, checked above
        estimate = Estimate(value, None, None, len(per), "bootstrap", note).with_failures(*failures)
        out.append(ShuffleSpread(coefficient, per, estimate, std, matches))
    return out


def choice_metrics(log: LogData, boot: Bootstrap) -> Iterator[MetricValue | None]:
    """Per-DOC: accuracy per aspect, the mean over aspects, the micro mean, consistency."""
    failures_rule = PERSONAL_PRESETS.get(_preset(log), PERSONAL_PRESETS["default"])[1]
    keep = np.ones(log.n, dtype=bool)
    if failures_rule == "drop":
        parse_ok = column(log.values, "parse_ok")
        keep = np.isnan(parse_ok) | (parse_ok >= 1.0)
    correct = column(log.values, "correct")[keep]
    if "aspect" in log.sample_meta:
        aspects_all = log.sample_meta["aspect"].fillna("all").astype(str)
    else:
        aspects_all = pd.Series(["all"] * log.n)
    aspects = aspects_all[keep]
    everything = failed_rows(log, np.ones(log.n, dtype=bool))
    codes = pd.factorize(aspects, sort=False)[0].astype(float)
    yield stat_value(log, boot, "accuracy", (correct, codes), mean_of_group_means, everything)
    yield mean_value(log, boot, "accuracy_micro", correct, everything, True)
    for aspect in sorted(set(aspects_all)):
        rows = (aspects == aspect).to_numpy(dtype=bool)
        failures = failed_rows(log, (aspects_all == aspect).to_numpy(dtype=bool))
        yield mean_value(log, boot, f"accuracy/{aspect}", correct[rows], failures, True)
    yield mean_value(
        log, boot, "position_consistency", column(log.values, "consistent"), everything
    )
    yield mean_value(log, boot, "first_shown_rate", column(log.values, "first_shown"), everything)
