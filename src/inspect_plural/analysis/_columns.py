"""Column specs for ``inspect_ai.analysis``: flat numeric scores, ids, traits, the method.

Every spec is an Inspect ``SampleColumn`` or ``EvalColumn`` whose path is a function of
the sample (or log header), so the frames are read by Inspect's own reader. A path that
returns a mapping fills a wildcard column (``score_*``) with one column per key.

Naming (documented in ``docs/analysis.md``):

- ``score_<key>``: each numeric key of the *first* scorer's dict value
  (``score_correct``, ``score_abs_error``, ``score_pred/fluency``, ``score_p_0``),
  including the numbers a scorer keeps in ``Score.metadata["values"]`` (full precision,
  where it shows only a few rounded ones in its value);
- ``score_<scorer>/<key>``: each numeric key of any *other* scorer's dict value (a panel
  appended by ``inspect score``: ``score_panel/overall``,
  ``score_panel/overall/group/parents``);
- ``score_<scorer>``: a scorer whose value is one value (``match``: C/I as 1/0, with
  Inspect's ``value_to_float``);
- ``trait_<dimension>``: the annotator's traits (``metric_traits``, which the task
  keeps even when traits are hidden from the method; else ``traits``);
- ``metric_<name>`` / ``metric_<scorer>/<name>``: a log's metrics, the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspect_ai.analysis import EvalColumn, SampleColumn
from inspect_ai.log import EvalLog, EvalSample, EvalSampleSummary
from inspect_ai.scorer import Score, value_to_float

from inspect_plural.analysis._identity import (
    PACKAGE_PREFIX,
    is_demo,
    method_args,
    method_of,
    model_roles,
    run_key,
)
from inspect_plural.scorers._values import VALUES_KEY, values_of

__all__ = [
    "EVAL_COLUMNS",
    "RESULT_COLUMNS",
    "SAMPLE_COLUMNS",
    "SUMMARY_REMOVED",
    "VALUES_KEY",
    "log_metrics",
    "label_texts",
    "sample_ids",
    "sample_traits",
    "score_numbers",
    "score_values",
    "thinned",
]

"""``Score.metadata`` key where a package scorer keeps every number of the sample."""
SUMMARY_REMOVED = "Key removed from summary"
"""How Inspect's sample summary marks a metadata value it left out (over 1k)."""

_TO_FLOAT = value_to_float()
_LETTERS = frozenset({"C", "I", "P", "N"})
"""Inspect's CORRECT, INCORRECT, PARTIAL and NOANSWER."""
_IDS = ("annotator_id", "item_id", "aspect")
"""Sample metadata kept as columns of their own (ids, and Per-DOC's aspect)."""


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    return None


def score_numbers(score: Score) -> dict[str, float] | None:
    """Every number of a dict-valued score, at full precision; None for a single value.

    A package scorer may show a few rounded numbers in ``Score.value`` and keep every
    number in ``Score.metadata["values"]`` (Inspect View makes a column of each value
    key); the metadata's numbers win (:func:`~inspect_plural.scorers._values.values_of`).
    A score with every number in its value is read from its value.
    """
    kept = (score.metadata or {}).get(VALUES_KEY)
    if not isinstance(score.value, Mapping) and not isinstance(kept, Mapping):
        return None
    return values_of(score)


def thinned(sample: EvalSample | EvalSampleSummary) -> bool:
    """Whether a summary left out a score's numbers (Inspect drops metadata over 1k)."""
    for score in (sample.scores or {}).values():
        kept = (score.metadata or {}).get(VALUES_KEY)
        if isinstance(kept, str) and kept.startswith(SUMMARY_REMOVED):
            return True
    return False


def score_values(sample: EvalSample | EvalSampleSummary) -> dict[str, float]:
    """Every numeric score value of a sample, flat (the module's naming rule).

    Args:
        sample: A sample or its summary.

    Returns:
        ``key`` (first scorer), ``scorer/key`` (other scorers) or ``scorer`` (a scorer
        with a single value) -> the number; non-numeric values are left out.
    """
    out: dict[str, float] = {}
    for position, (name, score) in enumerate((sample.scores or {}).items()):
        numbers = score_numbers(score)
        if numbers is not None:
            prefix = "" if position == 0 else f"{name}/"
            out.update({f"{prefix}{key}": number for key, number in numbers.items()})
            continue
        value = score.value
        number = _scalar(value)
        if number is not None:
            out[name] = number
    return out


def _scalar(value: Any) -> float | None:
    """A single score value as a number: numbers, booleans, C/I/P/N, numeric text."""
    number = _number(value)
    if number is not None:
        return number
    if isinstance(value, str):
        text = value.strip()
        if text in _LETTERS:
            return float(_TO_FLOAT(text))
        try:
            return float(text)
        except ValueError:
            return None
    return None


def sample_ids(sample: EvalSample | EvalSampleSummary) -> dict[str, str]:
    """``annotator_id``, ``item_id`` and ``aspect`` of the sample's metadata, where set."""
    metadata = sample.metadata or {}
    return {key: str(metadata[key]) for key in _IDS if metadata.get(key) is not None}


def sample_traits(sample: EvalSample | EvalSampleSummary) -> dict[str, str]:
    """The annotator's traits: ``metric_traits``, else ``traits``, else ``trait:<dim>`` keys."""
    metadata = sample.metadata or {}
    for key in ("metric_traits", "traits"):
        traits = metadata.get(key)
        if isinstance(traits, Mapping) and traits:
            return {str(k): str(v) for k, v in traits.items() if v is not None}
    return {
        key.removeprefix("trait:"): str(value)
        for key, value in metadata.items()
        if key.startswith("trait:") and value is not None
    }


LABEL_SCORERS = ("annotator_scorer", "distribution_scorer")
"""Scorers whose ``pred`` and ``gold`` are indices into the sample's label scale."""


def _scale_labels(metadata: Mapping[str, Any]) -> list[str]:
    scale = metadata.get("scale")
    labels = scale.get("labels") if isinstance(scale, Mapping) else None
    return [str(x) for x in labels] if isinstance(labels, list) else []


def _label_at(names: list[str], index: Any) -> str | None:
    number = _number(index)
    if number is None or not number.is_integer() or not 0 <= number < len(names):
        return None  # a failed answer (-1), or no such label
    return names[int(number)]


def label_texts(sample: EvalSample | EvalSampleSummary) -> dict[str, str]:
    """The label text beside each label index of the first scorer's value.

    The label of ``pred`` and ``gold`` for annotator and distribution samples (they
    index the scale's labels), of ``gold_index`` for PersonaEval (it indexes the
    candidates as presented).

    Args:
        sample: A sample or its summary.

    Returns:
        ``pred`` / ``gold`` -> label text, for the indices the sample has (the frames
        name the columns ``pred_label`` and ``gold_label``).
    """
    scores = sample.scores or {}
    if not scores:
        return {}
    name, score = next(iter(scores.items()))
    numbers = score_numbers(score) or {}
    metadata = sample.metadata or {}
    out: dict[str, str] = {}
    if name in LABEL_SCORERS:
        names = _scale_labels(metadata)
        for key in ("pred", "gold"):
            text = _label_at(names, numbers.get(key))
            if text is not None:
                out[key] = text
    elif "gold_index" in numbers and isinstance(metadata.get("candidates"), list):
        candidates = [
            str(c.get("name", c)) if isinstance(c, Mapping) else str(c)
            for c in metadata["candidates"]
        ]
        text = _label_at(candidates, numbers["gold_index"])
        if text is not None:
            out["gold"] = text
    return out


def log_metrics(log: EvalLog) -> dict[str, float]:
    """A log's metrics, flat: ``name`` (first scorer) or ``scorer/name`` (the others)."""
    out: dict[str, float] = {}
    for position, score in enumerate(log.results.scores if log.results else []):
        prefix = "" if position == 0 else f"{score.name}/"
        for name, metric in score.metrics.items():
            out[f"{prefix}{name}"] = float(metric.value)
    return out


def _task(log: EvalLog) -> str:
    return log.eval.task.removeprefix(PACKAGE_PREFIX)


def _preset(log: EvalLog) -> str:
    return str((log.eval.metadata or {}).get("metrics_preset", "default"))


EVAL_COLUMNS = [
    EvalColumn("task", path=_task, required=True),
    EvalColumn("method", path=method_of, required=True),
    EvalColumn("model", path="eval.model", required=True),
    EvalColumn("metrics_preset", path=_preset),
    EvalColumn("demo", path=is_demo),
    EvalColumn("task_arg_*", path="eval.task_args"),
]
"""The run's columns repeated on each sample row (joined by Inspect on ``eval_id``)."""

SAMPLE_COLUMNS = [
    SampleColumn("id", path="id", required=True, type=str),
    SampleColumn("epoch", path="epoch", required=True),
    SampleColumn("*", path=sample_ids),
    SampleColumn("trait_*", path=sample_traits),
    SampleColumn("score_*", path=score_values),
    SampleColumn("label_*", path=label_texts),
    SampleColumn("error", path="error"),
    SampleColumn("summary_thinned", path=thinned),
]
"""Per-sample columns, read from the sample summaries (no full sample read)."""

RESULT_COLUMNS = [
    *EVAL_COLUMNS,
    EvalColumn("status", path="status", required=True),
    EvalColumn("created", path="eval.created", type=str, required=True),
    EvalColumn("task_version", path="eval.task_version"),
    EvalColumn("method_args", path=method_args),
    EvalColumn("role_*", path=model_roles),
    EvalColumn("epochs", path="eval.config.epochs"),
    EvalColumn("limit", path="eval.config.limit"),
    EvalColumn("samples", path="results.completed_samples"),
    EvalColumn("run_key", path=run_key),
    EvalColumn("metric_*", path=log_metrics),
]
"""One row per log: the configuration and every metric."""
