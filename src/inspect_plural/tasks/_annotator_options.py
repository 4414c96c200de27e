"""The options of annotator-level tasks, and the method each builds.

Every annotator-level task (the seven built-in datasets, the generic ``perspective``
task and :func:`~inspect_plural.tasks.extension.annotator_task`) accepts
:data:`COMMON_SPECS` and the single-method options of :data:`METHOD_SPECS`, declared as
:class:`~inspect_plural.options.TaskOption` and checked before any data is read.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai.solver import Solver

from inspect_plural.errors import OptionError
from inspect_plural.options import TaskOption, metrics_option
from inspect_plural.solvers.baselines import annotator_majority, item_majority
from inspect_plural.solvers.cinemetric import cinemetric
from inspect_plural.solvers.distribution_baselines import label_prior, uniform
from inspect_plural.solvers.distribution_judge import distribution_judge
from inspect_plural.solvers.judge import llm_judge, personalized_judge
from inspect_plural.solvers.retrieval import retrieval_examples
from inspect_plural.solvers.stakeholder_panel import stakeholder_panel
from inspect_plural.solvers.trait_ensemble import trait_ensemble
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit
from inspect_plural.structured import structured_option, structured_value
from inspect_plural.tasks._protocols import PROTOCOLS, MethodSettings, method_settings

__all__ = [
    "COMMON_OPTIONS",
    "COMMON_SPECS",
    "ITEM_METHODS",
    "METHODS",
    "METHOD_OPTIONS",
    "METHOD_SPECS",
    "NEEDS_TRAITS",
    "TARGETS",
    "build_method",
    "check_method",
    "check_target",
    "dataset_specs",
    "given_method_options",
]

METHODS: dict[str, Callable[..., Solver]] = {
    "llm_judge": llm_judge,
    "personalized_judge": personalized_judge,
    "cinemetric": cinemetric,
    "trait_ensemble": trait_ensemble,
    "retrieval_examples": retrieval_examples,
    "annotator_majority": annotator_majority,
    "item_majority": item_majority,
    "distribution_judge": distribution_judge,
    "uniform": uniform,
    "label_prior": label_prior,
    "stakeholder_panel": stakeholder_panel,
}
"""Methods selectable with ``-T method=NAME`` on every annotator-level task (the
:data:`ITEM_METHODS` predict an item's distribution: ``-T target=distribution`` only)."""

ITEM_METHODS = ("distribution_judge", "uniform", "label_prior", "stakeholder_panel")
"""Methods that predict an item's label distribution directly (no per-annotator runs)."""

PANEL_METHOD = "stakeholder_panel"

TARGETS = ("annotator", "distribution")
"""Values of the ``target`` option: one sample per judgment, or one per item."""

NEEDS_TRAITS = ("personalized_judge",)
"""Methods that show the annotator's traits, so need ``named=true``."""

COMMON_SPECS: tuple[TaskOption, ...] = (
    TaskOption("method", "llm_judge", choices=tuple(METHODS), help="the method"),
    TaskOption(
        "target",
        "annotator",
        choices=TARGETS,
        help="annotator: one sample per judgment; distribution: one per item, gold = its "
        "annotators' label distribution",
    ),
    TaskOption(
        "split",
        None,
        choices=("cinemetric", "perseval", "lewidi"),
        help="split protocol (default: the dataset's paper's; lewidi for the distribution "
        "target on data with official splits)",
    ),
    TaskOption(
        "pool",
        None,
        "list",
        choices=("train", "dev"),
        help="lewidi split: the official splits of the training pool (default train, else dev)",
    ),
    TaskOption("n_annotators", 100, "int", low=1, help="CINEMETRIC split: annotators sampled"),
    TaskOption("k_train", 5, "int", low=0, help="CINEMETRIC split: training judgments each"),
    TaskOption("m_test", 10, "int", low=1, help="CINEMETRIC split: test judgments each"),
    TaskOption(
        "adaptation",
        "test",
        choices=("none", "train", "test"),
        help="PersEval split: whose judgments adapt the method",
    ),
    TaskOption("extended", False, "bool", help="PersEval split: the extended variant"),
    TaskOption("named", None, "bool", help="show traits to methods (default: when known)"),
    TaskOption(
        "max_examples", None, "int", low=-1, help="example judgments kept per sample (-1: all)"
    ),
    TaskOption("answer_format", "label", choices=("label", "distribution"), help="answer"),
    TaskOption(
        "reasoning", None, "bool", help="brief reasoning before the answer (default: protocol's)"
    ),
    TaskOption(
        "temperature", None, "float", low=0.0, help="sampling temperature (default: protocol's)"
    ),
    TaskOption(
        "max_tokens", None, "int", low=1, help="max output tokens per call (default: method's)"
    ),
    structured_option(),
    TaskOption("prompts", None, help="folder of replacement prompt templates"),
    TaskOption(
        "metrics_preset",
        "default",
        choices=("default", "perseval", "lewidi"),
        help="metric definitions (perseval: annotator target; lewidi: distribution target)",
    ),
    metrics_option(),
    TaskOption(
        "protocol",
        "default",
        choices=PROTOCOLS,
        help="paper: each method's published sampling settings (temperature, runs, tokens)",
    ),
)
"""Options every annotator-level task accepts (``-T name=value``)."""

METHOD_SPECS: tuple[TaskOption, ...] = (
    TaskOption("training_examples", True, "bool", method="cinemetric"),
    TaskOption("character_names", True, "bool", method="cinemetric"),
    TaskOption("selection_rationale", True, "bool", method="cinemetric"),
    TaskOption("n_candidates", 5, "int", low=1, method="cinemetric"),
    TaskOption("n_personas", 3, "int", low=1, method="cinemetric"),
    TaskOption("max_selection_rounds", 2, "int", low=1, method="cinemetric"),
    TaskOption("persona_cache", True, "bool", method="cinemetric"),
    TaskOption("trait_scope", "own", choices=("own", "all"), method="trait_ensemble"),
    TaskOption("retrieval_k", 3, "int", low=1, method="retrieval_examples"),
    TaskOption(
        "steer",
        None,
        "list",
        method="distribution_judge",
        help="trait dimensions whose groups the model is also asked for (steered)",
    ),
    TaskOption(
        "personas",
        None,
        "raw",
        method=PANEL_METHOD,
        help="a persona file, a shipped set, or inline profiles 'profile; group: profile' "
        "(default: one per trait value of the dataset)",
    ),
    TaskOption(
        "persona_docs", None, "list", method=PANEL_METHOD, help="documents to create it from"
    ),
    TaskOption(
        "panel_groups",
        None,
        "list",
        method=PANEL_METHOD,
        help="only these stakeholder groups (the default panel's: trait dimensions)",
    ),
    TaskOption(
        "personas_per_group", None, "int", low=1, method=PANEL_METHOD, help="the first N of each"
    ),
)
"""Options of single methods (``method`` names the method they configure)."""

_PARAMETER = {"retrieval_k": "k"}
"""Method options whose solver parameter has another name."""

COMMON_OPTIONS: dict[str, Any] = {spec.name: spec.default for spec in COMMON_SPECS}
"""Every common option's default (``None``: chosen by the dataset, protocol or method)."""

METHOD_OPTIONS: dict[str, TaskOption] = {spec.name: spec for spec in METHOD_SPECS}
"""Method options by name."""

MAX_EXAMPLES = {"retrieval_examples": 100}
"""``max_examples`` defaults that differ from 20: retrieval picks from a larger pool."""


def dataset_specs(
    labels: Mapping[str, Any] | None = None, default_label: str | None = None
) -> list[TaskOption]:
    """The dataset parameters of a built-in annotator task, as option specs.

    Args:
        labels: The dataset's labels (the ``label`` option's choices), if it has several.
        default_label: The default label.

    Returns:
        ``data_dir``, ``demo``, ``seed`` and, when given, ``label``.
    """
    specs = [
        TaskOption("data_dir", None, help="folder of the official files"),
        TaskOption("demo", False, "bool", help="the demo data written for this package"),
        TaskOption("seed", 42, "int", help="seed of every random choice"),
    ]
    if labels is not None:
        specs.append(TaskOption("label", default_label, choices=tuple(labels), help="label"))
    return specs


def given_method_options(opts: Mapping[str, Any], given: set[str]) -> dict[str, Any]:
    """The method options the user gave, parsed (for the task metadata)."""
    return {name: opts[name] for name in sorted(given & set(METHOD_OPTIONS))}


def check_target(opts: Mapping[str, Any], given: set[str]) -> None:
    """Refuse a method or preset the chosen target cannot use (before any data is read).

    Raises:
        OptionError: Naming the option to change.
    """
    method, preset = opts["method"], opts["metrics_preset"]
    if opts["target"] == "annotator":
        if method in ITEM_METHODS:
            raise OptionError(
                "method",
                f"{method} predicts an item's label distribution, not one person's label",
                "run with -T target=distribution",
            )
        if preset == "lewidi":
            raise OptionError(
                "metrics_preset",
                "the lewidi preset scores items' label distributions",
                "run with -T target=distribution",
            )
        return
    if preset == "perseval":
        raise OptionError(
            "metrics_preset",
            "the perseval preset scores one label per annotator",
            "use default or lewidi with -T target=distribution, or -T target=annotator",
        )
    if method == "distribution_judge" and "answer_format" in given:
        raise OptionError(
            "answer_format",
            "distribution_judge always answers with a distribution (answer_format sets the "
            "answers of the per-annotator methods that are pooled)",
        )
    if method == PANEL_METHOD and "answer_format" in given:
        raise OptionError(
            "answer_format",
            f"{PANEL_METHOD}'s personas each vote one label, and the item's distribution "
            "is their vote shares",
        )


def check_method(
    name: str,
    opts: Mapping[str, Any],
    given: set[str],
    named: bool,
    split: CorpusSplit,
    has_traits: bool,
) -> None:
    """Refuse method and setting combinations that cannot work, before any model call.

    Raises:
        OptionError: The combination, naming the option to change.
    """
    for option in sorted(given & set(METHOD_OPTIONS)):
        owner = METHOD_OPTIONS[option].method
        if owner != name:
            raise OptionError(
                option, f"configures method {owner}, not {name}", f"use -T method={owner}"
            )
    if name == PANEL_METHOD and not has_traits and not (opts["personas"] or opts["persona_docs"]):
        raise OptionError(
            "personas",
            f"{PANEL_METHOD}'s default panel has one persona per trait value, and this "
            "dataset has no annotator traits",
            'pass -T personas="a nurse; parents: a parent" (inline profiles), a persona file '
            "written by `inspect-plural personas`, or -T persona_docs=DOCUMENT",
        )
    if name == "trait_ensemble" and not has_traits:
        raise OptionError("method", "trait_ensemble impersonates traits; this dataset has none")
    if name in NEEDS_TRAITS and not named:
        raise OptionError(
            "named",
            f"{name} shows the annotator's traits: it needs named=true",
            "run with -T named=true (a dataset without traits cannot be named)",
        )
    if name == "trait_ensemble" and opts["trait_scope"] == "own" and not named:
        raise OptionError(
            "named",
            "trait_ensemble impersonates the annotator's own traits: it needs named=true",
            "or -T trait_scope=all, the official code's every-trait-for-everyone variant",
        )
    if name in ("retrieval_examples", "cinemetric") and split.examples.empty:
        uses_examples = name == "retrieval_examples" or opts["training_examples"]
        if uses_examples and not (name == "cinemetric" and named):
            raise OptionError(
                "adaptation",
                f"{name} needs the annotators' example judgments, and this split gives "
                "none (PersEval adaptation=none)",
                "use -T adaptation=train or test"
                + (" or named=true" if name == "cinemetric" else ""),
            )
    if name == "cinemetric" and not named and not opts["training_examples"]:
        raise OptionError(
            "training_examples",
            "cinemetric with training_examples=false selects characters from traits alone: "
            "it needs named=true",
            "run with -T named=true",
        )


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


def build_method(
    name: str, opts: Mapping[str, Any], corpus: AnnotatedCorpus, seed: int
) -> tuple[Solver, MethodSettings]:
    """The solver of a method with the task's options, and the sampling settings it got.

    Args:
        name: The method.
        opts: The task's parsed options.
        corpus: The records (``trait_scope=all`` lists every trait value).
        seed: The task seed.

    Returns:
        The solver and its settings (temperature, max tokens, runs) under the protocol.
    """
    factory = METHODS[name]
    accepted = inspect.signature(factory).parameters
    settings = method_settings(
        name, opts["protocol"], opts["temperature"], opts["max_tokens"], opts["reasoning"]
    )
    shared = {
        "seed": seed,
        "reasoning": settings.reasoning,
        "prompts": opts["prompts"],
        "temperature": settings.temperature,
        "max_tokens": settings.max_tokens,
        "structured": structured_value(opts["structured"]),
        "answer_format": opts["answer_format"],
        "panel_per_epoch": settings.panel_per_epoch,
    }
    kwargs = {key: value for key, value in shared.items() if key in accepted}
    for spec in METHOD_SPECS:
        if spec.method == name:
            kwargs[_PARAMETER.get(spec.name, spec.name)] = opts[spec.name]
    if name == "trait_ensemble" and kwargs.get("trait_scope") == "all":
        kwargs["trait_values"] = _trait_values(corpus)
    if name == PANEL_METHOD:
        given = kwargs.get("personas") is not None or bool(kwargs.get("persona_docs"))
        kwargs["trait_values"] = None if given else _trait_values(corpus)
        # one question for the whole dataset (not OpinionQA's, whose questions differ)
        kwargs["task_description"] = None if corpus.item_scales else corpus.scale.description
    return factory(**kwargs), settings
