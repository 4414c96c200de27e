"""Flat dataframes of logs: one row per sample, or one row per log.

Both are ``inspect_ai.analysis`` frames (``samples_df`` and ``evals_df``) read with this
package's column specs (:mod:`inspect_plural.analysis._columns`), so every score key is
a numeric column of its own rather than one JSON string per scorer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from os import PathLike
from typing import Any

import pandas as pd
from inspect_ai.analysis import SampleColumn, evals_df
from inspect_ai.analysis import samples_df as inspect_samples_df
from inspect_ai.log import EvalLog

from inspect_plural.analysis._columns import (
    EVAL_COLUMNS,
    RESULT_COLUMNS,
    SAMPLE_COLUMNS,
    thinned,
)

__all__ = ["LogSource", "long_scores", "results_df", "samples_df", "trait_name"]

LogSource = str | PathLike[str] | EvalLog | Sequence[str | PathLike[str]] | Sequence[EvalLog]
"""Log files, log folders (read recursively) or ``EvalLog`` objects, as Inspect takes them."""

_NUMERIC_PREFIXES = ("score_", "metric_")
FULL_READ = SampleColumn("summary_thinned", path=thinned, full=True)
"""Replaces the summary's column of the same name: makes Inspect read full samples."""


def _logs(logs: LogSource) -> Any:
    if isinstance(logs, EvalLog | str | PathLike):
        return logs
    items = list(logs)
    return [str(x) if isinstance(x, PathLike) else x for x in items]


def _numeric(frame: pd.DataFrame) -> pd.DataFrame:
    """Score and metric columns as floats (NaN where a row has no such key)."""
    for column in frame.columns:
        if str(column).startswith(_NUMERIC_PREFIXES):
            frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    return frame


TRAIT_PREFIX = "trait_"
LABEL_PREFIX = "label_"
"""Inspect's prefix of the label-text columns, renamed ``<key>_label`` beside the index."""
_KEEP = ("sample_id", "eval_id", "log", "id", "epoch", "task", "method", "model")
"""Columns every frame has, even when empty (an empty frame of no samples)."""


def trait_name(dimension: str) -> str:
    """One spelling of a trait dimension (``AGE``, ``Age`` -> ``age``).

    Lower case, and each run of other characters one underscore
    (``Country of birth`` -> ``country_of_birth``).
    """
    return re.sub(r"[^0-9a-z]+", "_", dimension.strip().lower()).strip("_") or "trait"


def _traits(frame: pd.DataFrame) -> pd.DataFrame:
    """``trait_<dimension>`` columns under one spelling each, spellings merged."""
    columns = [c for c in frame.columns if str(c).startswith(TRAIT_PREFIX)]
    merged: dict[str, pd.Series] = {}
    for column in columns:
        name = TRAIT_PREFIX + trait_name(str(column).removeprefix(TRAIT_PREFIX))
        values = frame[column]
        merged[name] = values if name not in merged else merged[name].combine_first(values)
    traits = pd.DataFrame({name: merged[name] for name in sorted(merged)}, index=frame.index)
    tidy: pd.DataFrame = pd.concat([frame.drop(columns=columns), traits], axis=1)
    return tidy


def _labels_beside_indices(frame: pd.DataFrame) -> pd.DataFrame:
    """``label_pred`` -> ``pred_label``, placed right after ``score_pred`` (and gold)."""
    renamed = {
        c: f"{str(c).removeprefix(LABEL_PREFIX)}_label"
        for c in frame.columns
        if str(c).startswith(LABEL_PREFIX)
    }
    frame = frame.rename(columns=renamed)
    order = [c for c in frame.columns if c not in renamed.values()]
    for label in renamed.values():
        key = label.removesuffix("_label")
        anchor = next((a for a in (f"score_{key}", f"score_{key}_index") if a in order), None)
        order.insert(order.index(anchor) + 1 if anchor is not None else len(order), label)
    ordered: pd.DataFrame = frame[order]
    return ordered


def _tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Trait spellings merged, label texts beside their indices, empty columns dropped."""
    frame = _labels_beside_indices(_traits(frame))
    empty = [c for c in frame.columns if c not in _KEEP and frame[c].isna().all()]
    kept: pd.DataFrame = frame.drop(columns=empty)
    return kept


def long_scores(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (sample, score key): ``score_key`` and ``score``, NaNs left out.

    Args:
        frame: A :func:`samples_df` frame.

    Returns:
        The other columns repeated on each row, then ``score_key`` (the key without the
        ``score_`` prefix: ``correct``, ``pred/overall``) and ``score``.
    """
    scores = [c for c in frame.columns if str(c).startswith("score_")]
    others = [c for c in frame.columns if c not in scores]
    long: pd.DataFrame = frame.melt(
        id_vars=others, value_vars=scores, var_name="score_key", value_name="score"
    )
    long["score_key"] = long["score_key"].str.removeprefix("score_")
    kept: pd.DataFrame = long.dropna(subset=["score"]).reset_index(drop=True)
    return kept


def samples_df(
    logs: LogSource, *, parallel: bool | int = False, long: bool = False
) -> pd.DataFrame:
    """One row per sample (and epoch), every score key a numeric column.

    Columns: ``sample_id``, ``eval_id``, ``log``, ``id``, ``epoch``; the run's ``task``,
    ``method`` (:func:`~inspect_plural.analysis.method_of`), ``model``,
    ``metrics_preset`` and ``task_arg_<name>``; the sample's ``annotator_id``,
    ``item_id`` and ``aspect`` where set, ``trait_<dimension>`` for the annotator's
    traits (:func:`trait_name`), ``score_<key>`` for each numeric score key
    (``score_<scorer>/<key>`` for a second scorer such as an appended panel;
    ``docs/analysis.md``), and ``error``.

    Tidy: a column empty for every row read is left out; trait dimensions have one
    spelling (``trait_age`` for ``AGE`` and ``Age``); ``pred_label`` / ``gold_label``
    give the label text beside the index (annotator, distribution and PersonaEval
    samples).

    Read from the sample summaries, so large folders load fast; a log whose summaries
    left out a score's numbers (Inspect drops score metadata over 1k characters from a
    summary) is read again in full.

    Args:
        logs: Log files, folders, or ``EvalLog`` objects.
        parallel: Read with a process pool (Inspect's option: True, or a worker count).
        long: One row per (sample, score key) instead (:func:`long_scores`).

    Returns:
        The frame.
    """
    columns = [*EVAL_COLUMNS, *SAMPLE_COLUMNS]
    frame = inspect_samples_df(_logs(logs), columns=columns, parallel=parallel, quiet=True)
    thin = frame["summary_thinned"].fillna(False).astype(bool) if len(frame) else frame.index
    if len(frame) and thin.any():  # a summary left some numbers out: read those logs fully
        again = sorted(set(frame.loc[thin, "log"]))
        full = inspect_samples_df(again, columns=[*columns, FULL_READ], quiet=True)
        frame = pd.concat([frame[~frame["log"].isin(again)], full], ignore_index=True)
    frame = _tidy(_numeric(frame.drop(columns=["summary_thinned"], errors="ignore")))
    return long_scores(frame) if long else frame


def results_df(logs: LogSource) -> pd.DataFrame:
    """One row per log: its configuration and every metric as a numeric column.

    Columns: ``eval_id``, ``log``, ``task``, ``method``, ``model``, ``metrics_preset``,
    ``task_arg_<name>``, ``status``, ``created``, ``task_version``, ``method_args``
    (JSON), ``role_<role>`` (the model of each model role), ``epochs``, ``limit``,
    ``samples`` (completed), ``run_key`` (the canonical configuration: equal for repeats
    only; :func:`~inspect_plural.analysis.run_key`) and ``metric_<name>``
    (``metric_<scorer>/<name>`` for a second scorer).

    Args:
        logs: Log files, folders, or ``EvalLog`` objects.

    Returns:
        The frame.
    """
    frame = evals_df(_logs(logs), columns=RESULT_COLUMNS, quiet=True)
    return _numeric(frame)
