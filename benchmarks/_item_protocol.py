"""The protocol minimum of the distribution target (``-T target=distribution``).

An item sample holds one run of a per-annotator method for each of the item's test
annotators (``AnnotatorPredictions``). By the protocol the item needs exactly the calls
those annotators' samples would need on the annotator target, so the minimum is
computed on *annotator samples* rebuilt from the item's metadata (the annotator's id,
visible traits, the item) and from the records each run kept (a CINEMETRIC panel's
candidates, whether this run built it): :func:`annotator_samples` and :func:`expand`.
Direct methods: ``distribution_judge`` makes 1 call per item plus 1 per group of the
item in each steered dimension (:func:`steered_groups`); ``uniform``,
``label_prior``, ``lewidi_most_frequent`` and ``lewidi_random`` make none;
``stakeholder_panel`` makes 1 call per persona of the panel
per item (:func:`panel_votes`), plus the panel's creation once per run, by the item
whose record says it built it (:func:`panel_creation`): 1 call per profile it kept
(inline profiles, or the default panel's one per trait value), from documents 1
extraction per document chunk + 1 grouping + 1 per group created, none from a file or
the disk cache.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.log import EvalSample

from inspect_plural.item_records import is_item_sample, item_sample, split_group_key
from inspect_plural.solvers._steering import steer_styles
from inspect_plural.stakeholders.create import (
    DEFAULT_MAX_DOC_CHARS,
    read_document,
    split_document,
)

__all__ = [
    "ITEM_NO_CALLS",
    "PANEL_METHOD",
    "annotator_samples",
    "expand",
    "is_item",
    "panel_creation",
    "panel_creation_of",
    "panel_votes",
    "steered_groups",
]

ITEM_NO_CALLS = frozenset({"uniform", "label_prior", "lewidi_most_frequent", "lewidi_random"})
"""Direct item methods that make no model call."""
PANEL_METHOD = "stakeholder_panel"
"""The item method whose panel votes on every item (its record: ``StakeholderVotes``)."""
_VOTES = "StakeholderVotes:"


def is_item(sample: EvalSample) -> bool:
    """Whether a logged sample is an item sample of the distribution target."""
    return is_item_sample(sample.metadata)


def _steer(options: Mapping[str, Any]) -> list[str]:
    steer = options.get("steer") or []
    if isinstance(steer, str):
        return [s.strip() for s in steer.split(",") if s.strip()]
    return [str(s) for s in steer]


def steered_groups(sample: EvalSample, options: Mapping[str, Any]) -> int:
    """The item's trait groups in the steered dimensions, once per steering style."""
    dimensions = set(_steer(options))
    groups = sample.metadata.get("groups") or {}
    styles = len(steer_styles(options.get("steer_style")))
    return styles * sum(1 for key in groups if split_group_key(key)[0] in dimensions)


def panel_votes(sample: EvalSample) -> int:
    """``stakeholder_panel``: one vote per persona of the panel the item's record lists."""
    return len(sample.store.get(_VOTES + "personas") or [])


def _documents(options: Mapping[str, Any]) -> list[str]:
    docs = options.get("persona_docs") or []
    if isinstance(docs, str):
        return [d.strip() for d in docs.split(",") if d.strip()]
    return [str(d) for d in docs]


def panel_creation_of(sample: EvalSample, options: Mapping[str, Any]) -> int:
    """The creation calls of the panel a ``stakeholder_panel`` item built (0 if it did not).

    Args:
        sample: A logged item sample.
        options: The run's task options (``persona_docs``: their chunks).

    Returns:
        0 unless its record says it made creation calls; then 1 per persona of a panel
        from profiles (one profile each), or for documents 1 per chunk + 1 + 1 per group
        created (before any ``panel_groups`` selection).
    """
    store = sample.store
    if not store.get(_VOTES + "creation_calls"):
        return 0
    origin = store.get(_VOTES + "origin")
    if origin in ("traits", "profiles"):
        return panel_votes(sample)
    if origin == "documents":
        docs = _documents(options)
        chunks = sum(len(split_document(read_document(d), DEFAULT_MAX_DOC_CHARS)) for d in docs)
        return chunks + 1 + int(store.get(_VOTES + "created_groups") or 0)
    return 0


def panel_creation(samples: Sequence[EvalSample], options: Mapping[str, Any]) -> int:
    """``stakeholder_panel``'s creation, once per run: the first item that built it."""
    return next((calls for s in samples if (calls := panel_creation_of(s, options))), 0)


def annotator_samples(sample: EvalSample) -> list[EvalSample]:
    """The annotator samples an item sample's runs stand for, one per test annotator.

    Args:
        sample: A logged item sample.

    Returns:
        Per annotator of the item (metadata order): a sample with the annotator
        target's ids and visible traits, whose store holds the records of that
        annotator's run (none when the method left no run for them).
    """
    runs = {
        str(run.get("annotator_id")): run
        for run in sample.store.get("AnnotatorPredictions:runs") or []
    }
    # an item sample of this process's run keeps its annotators' traits in the run's
    # context; one written by hand (the worked examples) holds them itself
    shown = (
        {a.annotator_id: a.traits for a in item_sample(sample.metadata).annotators}
        if sample.metadata.get("context")
        else {}
    )
    result = []
    for annotator in sample.metadata.get("annotators") or []:
        annotator_id = str(annotator["annotator_id"])
        traits = shown.get(annotator_id, annotator.get("traits") or {})
        run = runs.get(annotator_id) or {}
        result.append(
            EvalSample(
                id=f"{annotator_id}:{sample.id}",
                epoch=sample.epoch,
                input="",
                target=str(annotator.get("label", "")),
                metadata={
                    "dataset": sample.metadata.get("dataset"),
                    "item_id": sample.metadata.get("item_id"),
                    "annotator_id": annotator_id,
                    "traits": dict(traits),
                },
                store=dict(run.get("records") or {}),
            )
        )
    return result


def expand(samples: Sequence[EvalSample]) -> list[EvalSample]:
    """Samples with every item sample replaced by its annotator samples."""
    result: list[EvalSample] = []
    for sample in samples:
        result.extend(annotator_samples(sample) if is_item(sample) else [sample])
    return result
