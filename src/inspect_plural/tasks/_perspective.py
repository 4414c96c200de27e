"""Annotator-level tasks: one sample = one annotator's judgment of one item.

:func:`perspective_task` turns an :class:`~inspect_plural.sources._corpus.AnnotatedCorpus`
into an Inspect ``Task`` under either split protocol, with any annotator-level method.
The seven dataset tasks (``opinionqa``, ``dp``, ``brexit``, ``epic``, ``mhs``,
``md_agreement``, ``dices``) are thin wrappers in :mod:`inspect_plural.tasks.perspective`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pandas as pd
from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Metric
from inspect_ai.solver import Solver

from inspect_plural.records import (
    Annotator,
    AnnotatorSampleMetadata,
    Item,
    LabeledExample,
)
from inspect_plural.scorers.perspective import (
    TRAIT_KEY,
    accuracy_by_trait,
    annotator_scorer,
    perspective_metrics,
    resolve_perspective_config,
)
from inspect_plural.solvers.baselines import annotator_majority, item_majority
from inspect_plural.solvers.judge import llm_judge, personalized_judge
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import (
    Adaptation,
    CorpusSplit,
    SplitProtocol,
    cinemetric_split,
    perseval_split,
)

__all__ = [
    "COMMON_OPTIONS",
    "METHODS",
    "TASK_VERSION",
    "build_samples",
    "perspective_task",
    "record_to_sample",
]

TASK_VERSION = "1.0.0"

METHODS: dict[str, Callable[..., Solver]] = {
    "llm_judge": llm_judge,
    "personalized_judge": personalized_judge,
    "annotator_majority": annotator_majority,
    "item_majority": item_majority,
}
"""Methods selectable with ``-T method=NAME`` on every annotator-level task."""

COMMON_OPTIONS = {
    "method": "llm_judge",
    "split": None,
    "n_annotators": 100,
    "k_train": 5,
    "m_test": 10,
    "adaptation": "test",
    "extended": False,
    "named": None,
    "max_examples": 20,
    "reasoning": True,
    "temperature": 0.0,
    "prompts": None,
    "metrics_preset": "default",
}
"""Options every annotator-level task accepts (``-T name=value``), with their defaults."""


def record_to_sample(
    corpus: AnnotatedCorpus,
    annotator: Annotator,
    item: Item,
    label: int,
    split: SplitProtocol,
    named: bool,
    training: list[LabeledExample],
    item_votes: dict[str, int],
    pool_votes: dict[str, int],
    training_dump: list[dict[str, Any]] | None = None,
    own_votes: dict[str, int] | None = None,
) -> Sample:
    """One test judgment as an Inspect sample.

    Args:
        corpus: The corpus the judgment belongs to.
        annotator: Whose judgment it is.
        item: The judged item.
        label: The gold label index in the item's scale.
        split: The split protocol that produced it.
        named: Whether the annotator's traits are visible to methods.
        training: The annotator's judgments a method may see.
        item_votes: The training pool's labels of this item.
        pool_votes: The training pool's labels overall.
        own_votes: The annotator's labels over all their examples (default: ``training``'s).
        training_dump: ``training`` already dumped; passing the same list for every sample
            of an annotator keeps one copy in memory instead of one per sample.

    Returns:
        The sample: id ``<annotator>:<item>``, input the item content, target the gold
        label; metadata follows :class:`~inspect_plural.records.AnnotatorSampleMetadata`
        plus one ``trait:<dimension>`` key per trait dimension (for grouped metrics).

    """
    scale = corpus.scale_of(item.id)
    metadata = AnnotatorSampleMetadata(
        dataset=corpus.name + ("_demo" if corpus.demo else ""),
        item_id=item.id,
        annotator_id=annotator.id,
        traits=dict(annotator.traits) if named else {},
        scale=scale,
        demo=corpus.demo,
        item=item,
        training=[] if training_dump is not None else training,
        metric_traits=dict(annotator.traits),
        item_votes=item_votes,
        pool_votes=pool_votes,
        own_votes=own_votes
        if own_votes is not None
        else {label: n for label, n in Counter(ex.label for ex in training).items()},
        named=named,
        split=split,
    ).model_dump(exclude_defaults=False)
    if training_dump is not None:
        metadata["training"] = training_dump
    for dim in corpus.trait_dimensions:
        metadata[TRAIT_KEY.format(dim)] = annotator.traits.get(dim) or "UNK"
    return Sample(
        id=f"{annotator.id}:{item.id}",
        input=item.text or "\n\n".join(f"{k}: {v}" for k, v in item.parts.items()),
        target=scale.labels[label],
        metadata=metadata,
    )


def _votes(frame: pd.DataFrame) -> dict[str, dict[int, int]]:
    """Item id -> label index -> count."""
    counts = frame.groupby(["item_id", "label"], sort=False).size().reset_index(name="n")
    result: dict[str, dict[int, int]] = {}
    for item_id, label, count in counts.itertuples(index=False):
        result.setdefault(str(item_id), {})[int(label)] = int(count)
    return result


def build_samples(
    corpus: AnnotatedCorpus,
    split: CorpusSplit,
    named: bool,
    max_examples: int | None = 20,
    seed: int = 42,
) -> list[Sample]:
    """The samples of a split: one per test judgment, in the split's stable order.

    Args:
        corpus: The records.
        split: The split.
        named: Whether traits are visible to methods.
        max_examples: At most this many of an annotator's example judgments go into each
            of their samples (a seeded subset, the same for all their samples); None: all.
            PersEval's adaptation sets reach hundreds per annotator on DICES, which would
            copy every conversation into every sample of that annotator.
        seed: Seed of that subset.

    Returns:
        The samples.

    """
    examples: dict[str, list[LabeledExample]] = {}
    for annotator_id, item_id, label in split.examples[
        ["annotator_id", "item_id", "label"]
    ].itertuples(index=False):
        scale = corpus.scale_of(item_id)
        examples.setdefault(str(annotator_id), []).append(
            LabeledExample(
                item=corpus.items[item_id],
                label=scale.labels[int(label)],
                scale=scale if item_id in corpus.item_scales else None,
            )
        )
    own_votes = {a: dict(Counter(ex.label for ex in own)) for a, own in examples.items()}
    if max_examples is not None:
        for annotator_id, own in examples.items():
            if len(own) > max_examples:
                keep = sorted(
                    random.Random(f"{seed}:examples:{annotator_id}").sample(
                        range(len(own)), max_examples
                    )
                )
                examples[annotator_id] = [own[i] for i in keep]
    dumps = {a: [ex.model_dump() for ex in own] for a, own in examples.items()}
    test_items = set(split.test["item_id"].unique())
    item_counts = _votes(split.train[split.train["item_id"].isin(test_items)])
    label_counts = split.train["label"].value_counts()
    pool_counts: dict[int, int] = {}
    if not corpus.item_scales:  # label positions mean nothing across questions
        pool_counts = dict(zip(label_counts.index.astype(int).tolist(), label_counts.tolist()))
    samples = []
    for annotator_id, item_id, label in split.test[["annotator_id", "item_id", "label"]].itertuples(
        index=False
    ):
        labels = corpus.scale_of(item_id).labels
        own_counts = item_counts.get(item_id, {})
        samples.append(
            record_to_sample(
                corpus,
                corpus.annotators[annotator_id],
                corpus.items[item_id],
                int(label),
                split.protocol,
                named,
                examples.get(str(annotator_id), []),
                {labels[i]: n for i, n in own_counts.items() if i < len(labels)},
                {labels[i]: n for i, n in pool_counts.items() if i < len(labels)},
                training_dump=dumps.get(str(annotator_id), []),
                own_votes=own_votes.get(str(annotator_id), {}),
            )
        )
    ids = [sample.id for sample in samples]
    if len(set(ids)) != len(ids):
        repeated = next(i for i in ids if ids.count(i) > 1)
        raise ValueError(f"{corpus.name}: sample id {repeated!r} repeats (ids contain ':'?)")
    return samples


def _as_bool(name: str, value: Any) -> bool:
    """A boolean option, given as a bool or as the strings true/false/yes/no/1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise ValueError(f"option {name} must be true or false, not {value!r}")


def _split(
    corpus: AnnotatedCorpus,
    split: SplitProtocol,
    seed: int,
    options: dict[str, Any],
    text_split: tuple[float, float] | None,
) -> CorpusSplit:
    if split == "cinemetric":
        return cinemetric_split(
            corpus,
            seed=seed,
            n_annotators=int(options["n_annotators"]),
            k_train=int(options["k_train"]),
            m_test=int(options["m_test"]),
        )
    if split == "perseval":
        return perseval_split(
            corpus,
            seed=seed,
            adaptation=options["adaptation"],
            extended=_as_bool("extended", options["extended"]),
            text_split=text_split,
        )
    raise ValueError(f"unknown split {split!r}; one of ['cinemetric', 'perseval']")


def _method(
    name: str, seed: int, reasoning: bool, prompts: str | None, temperature: float
) -> Solver:
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; one of {sorted(METHODS)}")
    if name in ("annotator_majority", "item_majority"):
        return METHODS[name](seed=seed)
    return METHODS[name](reasoning=reasoning, prompts=prompts, temperature=temperature, seed=seed)


def perspective_task(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    default_split: SplitProtocol = "perseval",
    text_split: tuple[float, float] | None = None,
    **options: Any,
) -> Task:
    """Build an annotator-level task from a corpus.

    Args:
        corpus: The records.
        seed: Seed of every random choice (split, tie-breaking).
        default_split: The split protocol when ``split`` is not given.
        text_split: BREXIT-style text proportions for the PersEval split.
        **options: Any of :data:`COMMON_OPTIONS`: ``method``, ``split``
            (``cinemetric``/``perseval``), ``n_annotators``, ``k_train``, ``m_test``
            (CINEMETRIC split), ``adaptation`` (``none``/``train``/``test``), ``extended``
            (PersEval split), ``named`` (show traits to methods; default: when the dataset
            has traits), ``max_examples`` (cap on the annotator's example judgments kept in
            each sample, default 20; -1 keeps all), ``reasoning``, ``temperature``, ``prompts`` and
            ``metrics_preset`` (``default``/``perseval``).

    Returns:
        The task.

    Raises:
        ValueError: An unknown option or value, or a combination PersEval forbids.

    """
    unknown = sorted(set(options) - set(COMMON_OPTIONS))
    if unknown:
        raise ValueError(f"unknown task option(s) {unknown}; valid: {sorted(COMMON_OPTIONS)}")
    opts: dict[str, Any] = {**COMMON_OPTIONS, **{k: v for k, v in options.items() if v is not None}}
    split_name: SplitProtocol = opts["split"] or default_split
    has_traits = bool(corpus.trait_dimensions)
    named = has_traits if opts["named"] is None else _as_bool("named", opts["named"])
    if named and not has_traits:
        raise ValueError(f"{corpus.name} has no annotator traits: it can only run named=false")
    if opts["method"] == "personalized_judge" and not named:
        raise ValueError("personalized_judge shows the annotator's traits: it needs named=true")
    adaptation: Adaptation = opts["adaptation"]
    if split_name == "perseval" and adaptation == "none" and not named:
        raise ValueError(
            "adaptation=none with named=false leaves nothing to tell test users apart "
            "(PersEval forbids it); use adaptation=train|test or named=true"
        )
    config = resolve_perspective_config(opts["metrics_preset"])

    split = _split(corpus, split_name, seed, opts, text_split)
    max_examples = int(opts["max_examples"])
    samples = build_samples(corpus, split, named, None if max_examples < 0 else max_examples, seed)
    scales = [corpus.scale, *corpus.item_scales.values()]
    ordinal = any(s.kind == "ordinal" for s in scales)
    names = None if corpus.item_scales else list(corpus.scale.labels)
    metrics: list[Metric | dict[str, list[Metric]]] = [
        *perspective_metrics(
            opts["metrics_preset"], ordinal=ordinal, names=names, traits=has_traits
        )
    ]
    if has_traits:
        metrics.append(
            accuracy_by_trait(
                list(corpus.trait_dimensions), config.failures, list(config.skip_trait_values)
            )
        )
    return Task(
        dataset=MemoryDataset(samples, name=corpus.name + ("_demo" if corpus.demo else "")),
        solver=_method(
            opts["method"],
            seed,
            _as_bool("reasoning", opts["reasoning"]),
            opts["prompts"],
            float(opts["temperature"]),
        ),
        scorer=annotator_scorer(),
        metrics=metrics,
        config=GenerateConfig(temperature=float(opts["temperature"])),
        # label indices must stay integers under --epochs: take the mode, not the mean
        epochs=Epochs(1, "mode"),
        version=TASK_VERSION,
        metadata={
            "family": "perspective",
            "dataset": corpus.name,
            "data_source": corpus.origin,
            "demo": corpus.demo,
            "seed": seed,
            "named": named,
            "method": opts["method"],
            "metrics_preset": opts["metrics_preset"],
            "scale": corpus.scale.model_dump(),
            "split": split.summary,
        },
    )
