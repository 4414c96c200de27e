"""Per-item values of the distribution target, each one LeWiDi function on a single item.

:func:`item_values` computes a sample's score value from its
:class:`~inspect_plural.item_records.ItemSampleKeys` and the method's records, by
calling the pure functions of :mod:`inspect_plural.scorers.distribution._lewidi` and
:mod:`inspect_plural.scorers.distribution._representativeness` on that one item, so that the corpus
metrics (means over items, rounded where the official code rounds) equal the official
definitions (see :mod:`inspect_plural.scorers.distribution`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict

from inspect_plural.item_records import (
    AnnotatorPredictions,
    ItemSampleKeys,
    SteeredDistributions,
)
from inspect_plural.label_sets import encode_label_set, label_set_indicators
from inspect_plural.prediction import Prediction
from inspect_plural.scorers._prf import FAILED
from inspect_plural.scorers.distribution._lewidi import (
    NormaliserConvention,
    cross_entropy_2023,
    error_rate,
    manhattan_distance,
    multilabel_error_rate,
    multilabel_manhattan_distance,
    normalized_absolute_distance,
    ordinal_normaliser,
    wasserstein_distance,
)
from inspect_plural.scorers.distribution._representativeness import (
    js_representativeness_rows,
    representativeness,
)

__all__ = [
    "DISTRIBUTION_PRESETS",
    "REP_KEY",
    "REP_STEERED_KEY",
    "REP_STYLE_KEY",
    "DistributionConfig",
    "HardLabel",
    "decision_label",
    "item_values",
    "predicted_vector",
]

HardLabel = Literal["majority", "file"]
REP_KEY = "rep/"
"""Prefix of the per-group representativeness keys: ``rep/<dimension>=<value>``."""
REP_STEERED_KEY = "rep_steered/"
"""Prefix of the steered ones (the ``population`` style): ``rep_steered/<dim>=<value>``."""
REP_STYLE_KEY = "rep_steered_{style}/"
"""Prefix of another steering style's: ``rep_steered_qa/<dimension>=<value>``."""


class DistributionConfig(BaseModel):
    """Explicit definitions of the distribution metrics; a preset is a named instance.

    Attributes:
        decimals: Round as the official LeWiDi code (5) where it rounds, or not (None).
        normaliser: The divisor of the normalised absolute distance: ``code`` (the number
            of scale values, 11 and 6, as the official scorer) or ``range`` (the largest
            distance, 10 and 5, as its docstring).
        hard_label: The gold of the hard-label F1: ``file`` (the release's hard label,
            LeWiDi 2023; the majority where it has none) or ``majority`` (the most
            frequent label among the item's test judgments, ties broken by a seeded draw).

    """

    model_config = ConfigDict(frozen=True)

    decimals: int | None = None
    normaliser: NormaliserConvention = "range"
    hard_label: HardLabel = "majority"


DISTRIBUTION_PRESETS: dict[str, DistributionConfig] = {
    "default": DistributionConfig(),
    "lewidi": DistributionConfig(decimals=5, normaliser="code", hard_label="file"),
}
"""Named definitions (``-T metrics_preset=NAME`` under ``-T target=distribution``)."""


def predicted_vector(
    distribution: Mapping[str, float] | None, labels: Sequence[str]
) -> npt.NDArray[np.float64]:
    """A predicted distribution as a vector in scale order (uniform when missing or empty)."""
    vector = np.array([float((distribution or {}).get(label, 0.0)) for label in labels])
    if vector.sum() <= 0:
        return np.full(len(labels), 1.0 / len(labels))
    result: npt.NDArray[np.float64] = vector / vector.sum()
    return result


def decision_label(
    probs: npt.ArrayLike, labels: Sequence[str], kind: str, base: Sequence[str]
) -> str:
    """Every annotator's label as a distribution predicts it (the metric's best guess).

    Used when a method predicts only the distribution (``distribution_judge``, the
    baselines), for the perspectivist metrics.

    Args:
        probs: The distribution over ``labels``.
        labels: The scale's labels.
        kind: The scale's kind (``ordinal`` or ``nominal``).
        base: Base labels of a label-set scale (empty otherwise).

    Returns:
        The most likely label (nominal; the first on ties); the median (ordinal: the
        lowest label whose cumulative share reaches 1/2, which minimises the expected
        absolute distance); on label sets, the set of base labels whose share reaches
        1/2 (at least the most likely one), which minimises the expected per-label error.
    """
    p = np.asarray(probs, dtype=float)
    if base:
        marginals = p @ label_set_indicators(list(labels), list(base)).astype(float)
        members = [b for b, m in zip(base, marginals) if m >= 0.5]
        return encode_label_set(members or [base[int(np.argmax(marginals))]], base)
    if kind == "ordinal":
        return labels[int(np.searchsorted(np.cumsum(p), 0.5 - 1e-12))]
    return labels[int(np.argmax(p))]


def _hard(metadata: ItemSampleKeys, config: DistributionConfig) -> str | None:
    if config.hard_label == "file" and metadata.hard_label is not None:
        return metadata.hard_label
    return metadata.majority_label


def _soft(
    metadata: ItemSampleKeys, p: np.ndarray, ok: bool, config: DistributionConfig
) -> dict[str, float]:
    labels = metadata.labels
    if metadata.multilabel:
        base = metadata.base_labels
        marginals = p @ label_set_indicators(labels, base).astype(float)
        gold = [metadata.gold[b] for b in base]
        return {"manhattan": multilabel_manhattan_distance([gold], [marginals], config.decimals)}
    t = np.array([[metadata.gold.get(label, 0.0) for label in labels]])
    values = {
        "manhattan": manhattan_distance(t, [p], config.decimals),
        "cross_entropy": cross_entropy_2023(t, [p]),
    }
    if metadata.scale is not None and metadata.scale.kind == "ordinal":
        values["wasserstein"] = wasserstein_distance(t, [p])
    hard = _hard(metadata, config)
    if hard is not None:
        gold_index = labels.index(hard)
        pred = int(np.argmax(p)) if ok else FAILED
        values |= {
            "gold": float(gold_index),
            "pred": float(pred),
            "hard_correct": float(gold_index == pred),
        }
    return values


def _perspectivist(
    metadata: ItemSampleKeys, predicted: Sequence[str | None], config: DistributionConfig
) -> dict[str, float]:
    """Error rate or normalised distance of each annotator's predicted label (failures wrong)."""
    labels = metadata.labels
    gold = [a.label for a in metadata.annotators]
    if not gold:
        return {}
    if metadata.multilabel:
        base = metadata.base_labels
        t = label_set_indicators(gold, base)
        rows = [
            label_set_indicators([p], base)[0] if p is not None else 1 - t[i]
            for i, p in enumerate(predicted)
        ]
        return {"error_rate": multilabel_error_rate([t], [np.array(rows)], config.decimals)}
    if metadata.scale is not None and metadata.scale.kind == "ordinal":
        g = [labels.index(label) for label in gold]
        worst = [0 if k >= len(labels) - 1 - k else len(labels) - 1 for k in g]
        q = [labels.index(p) if p is not None else w for p, w in zip(predicted, worst)]
        scale = ordinal_normaliser(len(labels), config.normaliser)
        return {"norm_abs_distance": normalized_absolute_distance([g], [q], scale)}
    shown = [p if p is not None else "\x00unparsed" for p in predicted]
    return {"error_rate": error_rate([gold], [shown], config.decimals)}


def _support(metadata: ItemSampleKeys) -> list[float] | None:
    """Where representativeness measures distances (None: Jensen-Shannon instead).

    The options' own ordinal values (Santurkar et al.'s ``option_ordinal``), else the
    positions of an ordinal scale's labels; None on a nominal scale without values.
    """
    scale = metadata.scale
    if scale is None:
        return None
    if scale.ordinal_values is not None:
        return list(scale.ordinal_values)
    if scale.kind == "ordinal":
        return [float(k) for k in range(len(scale.labels))]
    return None


def _groups(
    metadata: ItemSampleKeys, p: np.ndarray, steered: SteeredDistributions | None
) -> dict[str, float]:
    labels = metadata.labels
    ordinal = _support(metadata)
    styles = _steered_styles(steered)
    keys, rows = [], []
    for key, shares in metadata.groups.items():
        group = [shares.get(label, 0.0) for label in labels]
        if not sum(group) <= 0:  # as before: a group without mass has no value
            keys.append(key)
            rows.append(group)
    if not keys:
        return {}
    groups = np.array(rows, dtype=float)
    # (key prefix, group keys, rows of ``groups``, models: one for all, or one per row)
    pairs: list[tuple[str, list[str], list[int], np.ndarray]] = [
        (REP_KEY, keys, list(range(len(keys))), p)
    ]
    for prefix, (asked, distributions) in styles.items():
        at = [i for i, key in enumerate(keys) if key in asked]
        if at:  # a failed answer counts as the uniform distribution
            asked_of = [predicted_vector(distributions.get(keys[i]), labels) for i in at]
            pairs.append((prefix, [keys[i] for i in at], at, np.array(asked_of)))
    values: dict[str, float] = {}
    for prefix, named, at, models in pairs:
        scores: list[float]
        if ordinal is None:
            scores = js_representativeness_rows(models, groups[at]).tolist()
        else:
            each = [models] * len(at) if models.ndim == 1 else list(models)
            scores = [representativeness([m], [groups[i]], [ordinal]) for m, i in zip(each, at)]
        values.update(zip((prefix + key for key in named), scores))
    return _in_group_order(values, keys, [prefix for prefix, *_ in pairs])


def _in_group_order(
    values: dict[str, float], keys: list[str], prefixes: list[str]
) -> dict[str, float]:
    """The values keyed as before: per group, its unsteered value then each style's.

    The keys are shared strings (:func:`sys.intern`): every item's score repeats them, and
    Inspect holds each score until its eval ends.
    """
    ordered = {}
    for key in keys:
        for prefix in prefixes:
            name = prefix + key
            if name in values:
                ordered[sys.intern(name)] = values[name]
    return ordered


def _steered_styles(
    steered: SteeredDistributions | None,
) -> dict[str, tuple[set[str], dict[str, dict[str, float]]]]:
    """Key prefix -> (the groups asked, their parsed distributions), per steering style."""
    if steered is None:
        return {}
    marks = tuple(f"{style}:" for style in steered.styles if style != "population")
    out = {}
    for style in steered.styles:
        if style == "population":
            asked = {
                a.persona for a in steered.answers if a.persona and not a.persona.startswith(marks)
            }
            out[REP_STEERED_KEY] = (asked, steered.distributions)
        else:
            mark = f"{style}:"
            asked = {
                a.persona.removeprefix(mark)
                for a in steered.answers
                if a.persona and a.persona.startswith(mark)
            }
            out[REP_STYLE_KEY.format(style=style)] = (asked, steered.styled.get(style, {}))
    return out


def item_values(
    metadata: ItemSampleKeys,
    prediction: Prediction,
    runs: AnnotatorPredictions | None,
    steered: SteeredDistributions | None,
    config: DistributionConfig,
) -> dict[str, float]:
    """The score value of one item sample (numbers only).

    Args:
        metadata: The item sample's metadata (gold, annotators, groups).
        prediction: The method's item prediction (its distribution; a failure or a
            missing distribution counts as the uniform distribution).
        runs: The per-annotator runs of a pooled method (None: each annotator's label is
            :func:`decision_label` of the distribution).
        steered: The steered distributions, when the method steered.
        config: The metric definitions.

    Returns:
        ``manhattan`` (every scale), ``wasserstein`` (ordinal), ``cross_entropy``,
        ``gold``/``pred``/``hard_correct`` (the hard label's index and the predicted
        top label's, single-label scales), ``error_rate`` (nominal) or
        ``norm_abs_distance`` (ordinal), ``rep/<dimension>=<value>`` and
        ``rep_steered/<dimension>=<value>`` per trait group, ``parse_ok``, ``pooled``,
        ``n_annotators``, ``n_labels``, ``ordinal``, ``multilabel``.
    """
    labels = metadata.labels
    ok = bool(prediction.parse_ok and prediction.distribution)
    p = predicted_vector(prediction.distribution if ok else None, labels)
    kind = metadata.scale.kind if metadata.scale is not None else "nominal"
    if runs is not None and runs.runs:
        by_id = {run.annotator_id: run.label for run in runs.runs}
        predicted = [by_id.get(a.annotator_id) for a in metadata.annotators]
    else:
        label = decision_label(p, labels, kind, metadata.base_labels) if ok else None
        predicted = [label] * len(metadata.annotators)
    values: dict[str, float] = {
        "parse_ok": float(ok),
        "pooled": float(runs is not None),
        "n_annotators": float(len(metadata.annotators)),
        "n_labels": float(len(labels)),
        "ordinal": float(kind == "ordinal"),
        "multilabel": float(metadata.multilabel),
    }
    values |= _soft(metadata, p, ok, config)
    values |= _perspectivist(metadata, predicted, config)
    values |= _groups(metadata, p, steered)
    return values
