"""The method of an annotator-level task: checked against the split, then built (step 3).

After the split, :func:`check_method` refuses method and setting combinations that
cannot work (before any model call) and :func:`build_method` makes the solver with the
task's options and the sampling settings of its protocol.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from inspect_ai.solver import Solver

from inspect_plural.errors import OptionError
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit
from inspect_plural.structured import structured_value
from inspect_plural.tasks._protocols import MethodSettings, method_settings
from inspect_plural.tasks.annotator._options import (
    METHOD_OPTIONS,
    METHOD_SPECS,
    METHODS,
    NEEDS_TRAITS,
    PANEL_METHOD,
)

__all__ = ["build_method", "check_method"]


_PARAMETER = {"retrieval_k": "k"}
"""Method options whose solver parameter has another name."""


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
