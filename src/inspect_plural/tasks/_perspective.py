"""Annotator-level tasks: one sample = one annotator's judgment of one item.

:func:`perspective_task` turns an :class:`~inspect_plural.sources._corpus.AnnotatedCorpus`
into an Inspect ``Task`` under either split protocol, with any annotator-level method.
The seven dataset tasks (``opinionqa``, ``dp``, ``brexit``, ``epic``, ``mhs``,
``md_agreement``, ``dices``) are thin wrappers in :mod:`inspect_plural.tasks.perspective`.
"""

from __future__ import annotations

import inspect
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
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
    calibration_metrics,
    modal_row,
    perspective_metrics,
    resolve_perspective_config,
)
from inspect_plural.solvers._answers import check_answer_format
from inspect_plural.solvers.baselines import annotator_majority, item_majority
from inspect_plural.solvers.cinemetric import cinemetric
from inspect_plural.solvers.judge import llm_judge, personalized_judge
from inspect_plural.solvers.retrieval import retrieval_examples
from inspect_plural.solvers.trait_ensemble import trait_ensemble
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import (
    Adaptation,
    CorpusSplit,
    SplitProtocol,
    cinemetric_split,
    perseval_split,
)
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._options import MethodOption, as_bool, option_value
from inspect_plural.tasks._viewer import annotator_viewer

__all__ = [
    "COMMON_OPTIONS",
    "METHODS",
    "METHOD_OPTIONS",
    "build_samples",
    "perspective_task",
    "record_to_sample",
]

METHODS: dict[str, Callable[..., Solver]] = {
    "llm_judge": llm_judge,
    "personalized_judge": personalized_judge,
    "cinemetric": cinemetric,
    "trait_ensemble": trait_ensemble,
    "retrieval_examples": retrieval_examples,
    "annotator_majority": annotator_majority,
    "item_majority": item_majority,
}
"""Methods selectable with ``-T method=NAME`` on every annotator-level task."""

NEEDS_TRAITS = ("personalized_judge",)
"""Methods that show the annotator's traits, so need ``named=true``."""


METHOD_OPTIONS: dict[str, MethodOption] = {
    "training_examples": MethodOption("cinemetric", "training_examples", True, bool),
    "character_names": MethodOption("cinemetric", "character_names", True, bool),
    "selection_rationale": MethodOption("cinemetric", "selection_rationale", True, bool),
    "n_candidates": MethodOption("cinemetric", "n_candidates", 5, int),
    "n_personas": MethodOption("cinemetric", "n_personas", 3, int),
    "max_selection_rounds": MethodOption("cinemetric", "max_selection_rounds", 2, int),
    "persona_cache": MethodOption("cinemetric", "persona_cache", True, bool),
    "trait_scope": MethodOption("trait_ensemble", "trait_scope", "own", str),
    "retrieval_k": MethodOption("retrieval_examples", "k", 3, int),
}
"""Options of single methods, with the method they belong to and their defaults."""

MAX_EXAMPLES = {"retrieval_examples": 100}
"""``max_examples`` defaults that differ from 20: retrieval picks from a larger pool."""

COMMON_OPTIONS = {
    "method": "llm_judge",
    "split": None,
    "n_annotators": 100,
    "k_train": 5,
    "m_test": 10,
    "adaptation": "test",
    "extended": False,
    "named": None,
    "max_examples": None,
    "answer_format": "label",
    "reasoning": True,
    "temperature": 0.0,
    "prompts": None,
    "metrics_preset": "default",
}
"""Options every annotator-level task accepts (``-T name=value``), with their defaults
(``max_examples`` None: 20, or 100 for ``retrieval_examples``). :data:`METHOD_OPTIONS`
are accepted too, with the method they configure."""


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


def _round_robin(test: pd.DataFrame) -> pd.DataFrame:
    """The test judgments interleaved by annotator: each one's first, then each one's second...

    Inspect starts samples in dataset order, up to ``max_samples`` at a time. Grouped by
    annotator, those slots would all wait on one annotator's persona work (CINEMETRIC's
    panel is built by the first sample and awaited by the rest), serialising the panels;
    interleaved, the panels of different annotators are built concurrently.
    """
    frame = test[["annotator_id", "item_id", "label"]]
    rank = frame.groupby("annotator_id", sort=False).cumcount().to_numpy()
    first_seen = pd.factorize(frame["annotator_id"])[0]
    order = np.lexsort((first_seen, rank))  # by rank, then by annotator's first appearance
    result: pd.DataFrame = frame.iloc[order]
    return result


def build_samples(
    corpus: AnnotatedCorpus,
    split: CorpusSplit,
    named: bool,
    max_examples: int | None = 20,
    seed: int = 42,
) -> list[Sample]:
    """The samples of a split: one per test judgment, interleaved by annotator (stable).

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
    for annotator_id, item_id, label in _round_robin(split.test).itertuples(index=False):
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
            extended=as_bool("extended", options["extended"]),
            text_split=text_split,
        )
    raise ValueError(f"unknown split {split!r}; one of ['cinemetric', 'perseval']")


def _trait_values(corpus: AnnotatedCorpus) -> list[list[str]]:
    """Every known ``(dimension, value)`` of the corpus, in dimension then value order."""
    pairs = {
        (dim, value)
        for annotator in corpus.annotators.values()
        for dim, value in annotator.traits.items()
        if value and value != "UNK"
    }
    order = {dim: i for i, dim in enumerate(corpus.trait_dimensions)}
    return [[d, v] for d, v in sorted(pairs, key=lambda p: (order.get(p[0], len(order)), p))]


def _method(
    name: str, opts: dict[str, Any], given: set[str], corpus: AnnotatedCorpus, seed: int
) -> Solver:
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; one of {sorted(METHODS)}")
    factory = METHODS[name]
    accepted = inspect.signature(factory).parameters
    shared = {
        "seed": seed,
        "reasoning": as_bool("reasoning", opts["reasoning"]),
        "prompts": opts["prompts"],
        "temperature": float(opts["temperature"]),
        "answer_format": opts["answer_format"],
    }
    kwargs = {key: value for key, value in shared.items() if key in accepted}
    for option, spec in METHOD_OPTIONS.items():
        if option in given and spec.method != name:
            raise ValueError(f"option {option} configures method {spec.method}, not {name}")
        if spec.method == name:
            value = opts.get(option, spec.default)
            kwargs[spec.parameter] = option_value(option, spec, value)
    if name == "trait_ensemble" and kwargs.get("trait_scope") == "all":
        kwargs["trait_values"] = _trait_values(corpus)
    return factory(**kwargs)


def _method_options(opts: dict[str, Any], given: set[str]) -> dict[str, Any]:
    """The method options given, parsed (for the task metadata)."""
    parsed: dict[str, Any] = {}
    for option in sorted(given & set(METHOD_OPTIONS)):
        spec = METHOD_OPTIONS[option]
        value = opts[option]
        parsed[option] = option_value(option, spec, value)
    return parsed


def _check_method(
    name: str, opts: dict[str, Any], named: bool, split: CorpusSplit, has_traits: bool
) -> None:
    """Refuse method and setting combinations that cannot work, before any model call."""
    if name == "trait_ensemble" and not has_traits:
        raise ValueError("trait_ensemble impersonates traits, and this dataset has none")
    if name in NEEDS_TRAITS and not named:
        raise ValueError(f"{name} shows the annotator's traits: it needs named=true")
    if name == "trait_ensemble" and opts.get("trait_scope", "own") == "own" and not named:
        raise ValueError(
            "trait_ensemble impersonates the annotator's own traits: it needs named=true "
            "(or trait_scope=all, the official code's every-trait-for-everyone variant)"
        )
    if name in ("retrieval_examples", "cinemetric") and split.examples.empty:
        uses_examples = name == "retrieval_examples" or as_bool(
            "training_examples", opts.get("training_examples", True)
        )
        if uses_examples and not (name == "cinemetric" and named):
            raise ValueError(
                f"{name} needs the annotators' example judgments, and this split gives "
                "none (PersEval adaptation=none); use adaptation=train|test"
                + (" or named=true" if name == "cinemetric" else "")
            )
    if (
        name == "cinemetric"
        and not named
        and not as_bool("training_examples", opts.get("training_examples", True))
    ):
        raise ValueError(
            "cinemetric with training_examples=false selects characters from traits "
            "alone: it needs named=true"
        )


def perspective_task(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    default_split: SplitProtocol = "perseval",
    text_split: tuple[float, float] | None = None,
    version: int | str | None = None,
    **options: Any,
) -> Task:
    """Build an annotator-level task from a corpus.

    Args:
        corpus: The records.
        seed: Seed of every random choice (split, tie-breaking).
        default_split: The split protocol when ``split`` is not given.
        text_split: BREXIT-style text proportions for the PersEval split.
        version: The task version recorded in the log (default: the version of the task
            named like the corpus in its family's ``eval.yaml``; tasks and corpora of other
            names must pass theirs).
        **options: Any of :data:`COMMON_OPTIONS`: ``method``, ``split``
            (``cinemetric``/``perseval``), ``n_annotators``, ``k_train``, ``m_test``
            (CINEMETRIC split), ``adaptation`` (``none``/``train``/``test``), ``extended``
            (PersEval split), ``named`` (show traits to methods; default: when the dataset
            has traits), ``max_examples`` (cap on the annotator's example judgments kept in
            each sample, default 20, 100 for ``retrieval_examples``; -1 keeps all),
            ``answer_format`` (``label``/``distribution``), ``reasoning``,
            ``temperature``, ``prompts``, ``metrics_preset`` (``default``/``perseval``),
            and the options of :data:`METHOD_OPTIONS` for the chosen method.

    Returns:
        The task.

    Raises:
        ValueError: An unknown option or value, or a combination PersEval forbids.
        UnknownTaskError: No ``version`` given, and no ``eval.yaml`` lists the corpus name.

    """
    if version is None:
        version = task_version(corpus.name)
    valid = set(COMMON_OPTIONS) | set(METHOD_OPTIONS)
    unknown = sorted(set(options) - valid)
    if unknown:
        raise ValueError(f"unknown task option(s) {unknown}; valid: {sorted(valid)}")
    given = {k for k, v in options.items() if v is not None}
    opts: dict[str, Any] = {**COMMON_OPTIONS, **{k: v for k, v in options.items() if v is not None}}
    split_name: SplitProtocol = opts["split"] or default_split
    has_traits = bool(corpus.trait_dimensions)
    named = has_traits if opts["named"] is None else as_bool("named", opts["named"])
    if named and not has_traits:
        raise ValueError(f"{corpus.name} has no annotator traits: it can only run named=false")
    adaptation: Adaptation = opts["adaptation"]
    if split_name == "perseval" and adaptation == "none" and not named:
        raise ValueError(
            "adaptation=none with named=false leaves nothing to tell test users apart "
            "(PersEval forbids it); use adaptation=train|test or named=true"
        )
    config = resolve_perspective_config(opts["metrics_preset"])
    method = opts["method"]
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; one of {sorted(METHODS)}")
    answer_format = check_answer_format(opts["answer_format"])

    split = _split(corpus, split_name, seed, opts, text_split)
    _check_method(method, opts, named, split, has_traits)
    solver = _method(method, opts, given, corpus, seed)
    max_examples = int(
        opts["max_examples"] if opts["max_examples"] is not None else MAX_EXAMPLES.get(method, 20)
    )
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
    if answer_format == "distribution":
        metrics += calibration_metrics(config)
    return Task(
        dataset=MemoryDataset(samples, name=corpus.name + ("_demo" if corpus.demo else "")),
        solver=solver,
        scorer=annotator_scorer(distribution=answer_format == "distribution"),
        metrics=metrics,
        config=GenerateConfig(temperature=float(opts["temperature"])),
        # label indices must stay integers under --epochs, and one epoch's values stay
        # together: keep the row of the modal prediction
        epochs=Epochs(1, modal_row()),
        version=version,
        viewer=annotator_viewer(
            ordinal=ordinal,
            max_error=None if corpus.item_scales else float(len(corpus.scale.labels) - 1),
            distribution=answer_format == "distribution",
        ),
        metadata={
            "family": "perspective",
            "dataset": corpus.name,
            "data_source": corpus.origin,
            "demo": corpus.demo,
            "seed": seed,
            "named": named,
            "method": method,
            "answer_format": answer_format,
            "method_options": _method_options(opts, given),
            "metrics_preset": opts["metrics_preset"],
            "scale": corpus.scale.model_dump(),
            "split": split.summary,
        },
    )
