"""Rating tasks: one sample = one generated output with human ratings on several dimensions.

:func:`rating_task` turns :class:`~inspect_plural.records.RatedOutput` records into an
Inspect ``Task`` with any rating method (``maj_eval``, ``geval``, ``chateval``,
``rouge_l``). The methods predict a score per dimension and the metrics correlate the
predictions with the human scores across samples (MAJ-Eval §4).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from inspect_plural.records import RatedOutput, RatedSampleMetadata, RatingDimension
from inspect_plural.scorers.ratings import rating_mean, rating_metrics, rating_scorer
from inspect_plural.solvers.chateval import chateval
from inspect_plural.solvers.geval import geval
from inspect_plural.solvers.maj_eval import maj_eval
from inspect_plural.solvers.rouge import rouge_l
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._options import MethodOption, option_value
from inspect_plural.tasks._viewer import rating_viewer

__all__ = [
    "RATING_COMMON_OPTIONS",
    "RATING_METHODS",
    "RATING_METHOD_OPTIONS",
    "rated_record_to_sample",
    "rating_task",
]

RATING_METHODS: dict[str, Callable[..., Solver]] = {
    "maj_eval": maj_eval,
    "geval": geval,
    "chateval": chateval,
    "rouge_l": rouge_l,
}
"""Methods selectable with ``-T method=NAME`` on every rating task."""

RATING_METHOD_OPTIONS: dict[str, MethodOption] = {
    "personas": MethodOption("maj_eval", "personas", None, str),
    "persona_docs": MethodOption("maj_eval", "persona_docs", None, list),
    "groups": MethodOption("maj_eval", "groups", None, list),
    "n_personas": MethodOption("maj_eval", "n_personas", None, int),
    "max_rounds": MethodOption("maj_eval", "max_rounds", 3, int),
    "simple_roles": MethodOption("maj_eval", "simple_roles", False, bool),
    "closing_call": MethodOption("maj_eval", "closing_call", False, bool),
    "geval_mode": MethodOption("geval", "mode", "auto", str),
    "geval_n": MethodOption("geval", "n", 20, int),
    "geval_temperature": MethodOption("geval", "temperature", None, float),
    "geval_official": MethodOption("geval", "official", False, bool),
    "chateval_strategy": MethodOption("chateval", "strategy", "one_by_one", str),
    "chateval_roles": MethodOption("chateval", "roles", "two", str),
    "chateval_rounds": MethodOption("chateval", "rounds", 2, int),
    "rouge_type": MethodOption("rouge_l", "rouge_type", "rougeL", str),
    "rouge_stemmer": MethodOption("rouge_l", "use_stemmer", False, bool),
}
"""Options of single rating methods, with the method they belong to and their defaults."""

RATING_COMMON_OPTIONS: dict[str, Any] = {
    "method": "maj_eval",
    "temperature": 0.0,
    "prompts": None,
    "correlation": "pooled",
    "absolute": False,
    "alpha_level": "interval",
    "alpha_dimensions": "overall",
}
"""Options every rating task accepts (``-T name=value``), with their defaults."""

CORRELATIONS = ("pooled", "per_item")
ALPHA_LEVELS = ("nominal", "ordinal", "interval", "ratio")


def rated_record_to_sample(
    output: RatedOutput,
    dataset: str,
    dimensions: Sequence[RatingDimension],
    task_description: str,
    content_label: str,
    context_label: str,
    demo: bool,
) -> Sample:
    """One rated output as an Inspect sample.

    The input is the rated content (what Inspect View lists), the target the human
    scores as ``name=value`` pairs, and the metadata a :class:`RatedSampleMetadata`.

    Args:
        output: The rated output.
        dataset: The dataset name.
        dimensions: The dimensions to predict.
        task_description: What the generated content is for.
        content_label: What the content is called in prompts.
        context_label: What the context is called in prompts.
        demo: Whether the record is demo data.

    Returns:
        The sample, with ``id`` = the output's id.
    """
    gold = output.gold()
    metadata = RatedSampleMetadata(
        dataset=dataset,
        item_id=output.id,
        demo=demo,
        output=output,
        dimensions=list(dimensions),
        task_description=task_description,
        content_label=content_label,
        context_label=context_label,
        gold=gold,
    )
    target = "; ".join(f"{d.name}={gold[d.name]:g}" for d in dimensions if d.name in gold)
    return Sample(
        id=output.id,
        input=output.content or "(empty)",
        target=target or "(no human rating)",
        metadata=metadata.model_dump(),
    )


PATH_OPTIONS = ("personas", "persona_docs")
"""Method options that may hold the user's file paths."""


def _logged(option: str, value: Any) -> Any:
    """An option's value for the task metadata: files by name only, never by path.

    Logs are shared; the user's folder layout says nothing about the run, and the persona
    set in every sample's store already records its documents by name and SHA-256.
    """
    if option not in PATH_OPTIONS:
        return value
    if isinstance(value, list):
        return [Path(v).name for v in value]
    return Path(value).name if Path(value).is_file() else value


def _method(name: str, opts: dict[str, Any], given: set[str], seed: int) -> Solver:
    if name not in RATING_METHODS:
        raise ValueError(f"unknown method {name!r}; one of {sorted(RATING_METHODS)}")
    factory = RATING_METHODS[name]
    accepted = inspect.signature(factory).parameters
    shared = {"seed": seed, "prompts": opts["prompts"], "temperature": float(opts["temperature"])}
    if name == "geval":
        del shared["temperature"]  # G-Eval samples at its own temperature (geval_temperature)
    kwargs = {key: value for key, value in shared.items() if key in accepted}
    for option, spec in RATING_METHOD_OPTIONS.items():
        if option in given and spec.method != name:
            raise ValueError(f"option {option} configures method {spec.method}, not {name}")
        if option in given and spec.method == name:
            kwargs[spec.parameter] = option_value(option, spec, opts[option])
    return factory(**kwargs)


def rating_task(
    outputs: Sequence[RatedOutput],
    dataset: str,
    dimensions: Sequence[RatingDimension],
    task_description: str,
    content_label: str,
    context_label: str,
    demo: bool = False,
    data_source: str = "",
    seed: int = 42,
    task_metadata: dict[str, Any] | None = None,
    version: int | str | None = None,
    **options: Any,
) -> Task:
    """Build a rating task from rated outputs.

    Args:
        outputs: The records, in sample order.
        dataset: The dataset name (also the key of its shipped persona file).
        dimensions: The dimensions to predict (``overall`` first when the data has it).
        task_description: What the generated content is for, shown to evaluators.
        content_label: What the content is called in prompts.
        context_label: What its context is called in prompts.
        demo: Whether the records are demo data.
        data_source: Where the records came from (for the task metadata).
        seed: Seed of every random choice and generation.
        task_metadata: Further task metadata (the dataset's own options).
        version: The task version recorded in the log (default: the version of the task
            named ``dataset`` in its family's ``eval.yaml``).
        **options: Any of :data:`RATING_COMMON_OPTIONS` (``method``, ``temperature``,
            ``prompts``, ``correlation`` = ``pooled``/``per_item``, ``absolute``,
            ``alpha_level``, ``alpha_dimensions`` = ``overall``/``all``) and the options
            of :data:`RATING_METHOD_OPTIONS` for the chosen method.

    Returns:
        The task.

    Raises:
        ValueError: An unknown option or value, or an option of another method.
        UnknownTaskError: No ``version`` given, and no ``eval.yaml`` lists ``dataset``.
    """
    if version is None:
        version = task_version(dataset)
    valid = set(RATING_COMMON_OPTIONS) | set(RATING_METHOD_OPTIONS)
    unknown = sorted(set(options) - valid)
    if unknown:
        raise ValueError(f"unknown task option(s) {unknown}; valid: {sorted(valid)}")
    given = {k for k, v in options.items() if v is not None}
    opts = {**RATING_COMMON_OPTIONS, **{k: v for k, v in options.items() if v is not None}}
    if opts["correlation"] not in CORRELATIONS:
        raise ValueError(f"correlation must be one of {list(CORRELATIONS)}")
    if opts["alpha_level"] not in ALPHA_LEVELS:
        raise ValueError(f"alpha_level must be one of {list(ALPHA_LEVELS)}")
    if opts["alpha_dimensions"] not in ("overall", "all"):
        raise ValueError("alpha_dimensions must be overall or all")
    absolute = option_value("absolute", MethodOption("", "", False, bool), opts["absolute"])
    solver = _method(str(opts["method"]), opts, given, seed)
    samples = [
        rated_record_to_sample(
            output, dataset, dimensions, task_description, content_label, context_label, demo
        )
        for output in outputs
    ]
    names = [d.name for d in dimensions]
    return Task(
        dataset=MemoryDataset(samples, name=dataset + ("_demo" if demo else "")),
        solver=solver,
        scorer=rating_scorer(),
        metrics=rating_metrics(
            dimensions=names,
            correlation=opts["correlation"],
            absolute=absolute,
            alpha_level=opts["alpha_level"],
            alpha_dimensions=opts["alpha_dimensions"],
        ),
        config=GenerateConfig(temperature=float(opts["temperature"])),
        # under --epochs, average each score key over the epochs that have it
        epochs=Epochs(1, rating_mean()),
        version=version,
        viewer=rating_viewer(dimensions) if dimensions else None,
        metadata={
            "family": "ratings",
            "dataset": dataset,
            "data_source": data_source,
            "demo": demo,
            "seed": seed,
            "method": opts["method"],
            "method_options": {
                k: _logged(k, option_value(k, RATING_METHOD_OPTIONS[k], opts[k]))
                for k in sorted(given & set(RATING_METHOD_OPTIONS))
            },
            "dimensions": [d.model_dump() for d in dimensions],
            "correlation": opts["correlation"],
            "alpha_level": opts["alpha_level"],
            **(task_metadata or {}),
        },
    )
