"""The options of annotator-level tasks, checked before any data is read (step 1).

Every annotator-level task (the seven built-in datasets, the generic ``perspective``
task and :func:`~inspect_plural.tasks.extension.annotator_task`) accepts
:data:`COMMON_SPECS` and the single-method options of :data:`METHOD_SPECS`, declared as
:class:`~inspect_plural.options.TaskOption` and checked before any data is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from inspect_ai.solver import Solver

from inspect_plural.errors import OptionError
from inspect_plural.options import RESERVED, TaskOption, check_options, metrics_option
from inspect_plural.solvers.baselines import annotator_majority, item_majority
from inspect_plural.solvers.cinemetric import cinemetric
from inspect_plural.solvers.distribution_baselines import (
    label_prior,
    lewidi_most_frequent,
    lewidi_random,
    uniform,
)
from inspect_plural.solvers.distribution_judge import distribution_judge
from inspect_plural.solvers.judge import llm_judge, personalized_judge
from inspect_plural.solvers.retrieval import retrieval_examples
from inspect_plural.solvers.stakeholder_panel import stakeholder_panel
from inspect_plural.solvers.trait_ensemble import trait_ensemble
from inspect_plural.structured import structured_option
from inspect_plural.tasks._protocols import PROTOCOLS

__all__ = [
    "check_annotator_options",
    "COMMON_OPTIONS",
    "COMMON_SPECS",
    "ITEM_METHODS",
    "MAX_EXAMPLES",
    "METHODS",
    "METHOD_OPTIONS",
    "METHOD_SPECS",
    "NEEDS_TRAITS",
    "PANEL_METHOD",
    "TARGETS",
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
    "lewidi_most_frequent": lewidi_most_frequent,
    "lewidi_random": lewidi_random,
    "stakeholder_panel": stakeholder_panel,
}
"""Methods selectable with ``-T method=NAME`` on every annotator-level task (the
:data:`ITEM_METHODS` predict an item's distribution: ``-T target=distribution`` only)."""

ITEM_METHODS = (
    "distribution_judge",
    "uniform",
    "label_prior",
    "lewidi_most_frequent",
    "lewidi_random",
    "stakeholder_panel",
)
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
        "steer_style",
        None,
        "list",
        choices=("population", "qa", "bio", "portray", "santurkar"),
        method="distribution_judge",
        help="how a steered prompt names the group: population (default), Santurkar et "
        "al.'s qa, bio, portray, or santurkar (those three; one call per group and style)",
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
    TaskOption(
        "persona_max_tokens",
        None,
        "int",
        low=1,
        method=PANEL_METHOD,
        help="output token cap of each persona's creation (default 4,096)",
    ),
)
"""Options of single methods (``method`` names the method they configure)."""


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


ANNOTATOR_SPECS = (*COMMON_SPECS, *METHOD_SPECS)


def check_annotator_options(
    task: str, options: dict[str, Any], extra: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """Check an annotator-level task's options before any data is read.

    Args:
        task: The task's name, for messages.
        options: Every option given (``None`` counts as not given).
        extra: The task's own option specs (``data_dir``, ``demo``, ``label``, ...).

    Returns:
        Every option parsed, defaults filled in.

    Raises:
        OptionError: An unknown option (with suggestions) or a bad value.
    """
    parsed = check_options(task, (*ANNOTATOR_SPECS, *extra), options, reserved=RESERVED)
    check_target(parsed, {k for k, v in options.items() if v is not None})
    return parsed
