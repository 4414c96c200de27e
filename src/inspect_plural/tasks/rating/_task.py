"""Rating tasks: one sample = one generated output with human ratings on several dimensions.

:func:`rating_task` turns :class:`~inspect_plural.records.RatedOutput` records into an
Inspect ``Task`` with any rating method (``maj_eval``, ``geval``, ``chateval``,
``rouge_l``). The methods predict a score per dimension and the metrics correlate the
predictions with the human scores across samples (MAJ-Eval §4). Options are declared
and checked in :mod:`inspect_plural.tasks.rating._options`, sampling protocols in
:mod:`inspect_plural.tasks.rating._protocol`, the metric sets in
:mod:`inspect_plural.scorers.ratings._metrics`.
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

from inspect_plural.errors import UserError
from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.records import (
    RatedOutput,
    RatedSampleMetadata,
    RatingDimension,
    read_only_values,
)
from inspect_plural.scorers.ratings import rating_mean, rating_metrics, rating_scorer
from inspect_plural.solvers._ratings import SCORE_HIGH, SCORE_LOW
from inspect_plural.solvers.chateval import chateval
from inspect_plural.solvers.geval import geval
from inspect_plural.solvers.maj_eval import maj_eval
from inspect_plural.solvers.rouge import rouge_l
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._preflight import model_check
from inspect_plural.tasks._viewer import headline, rating_viewer
from inspect_plural.tasks.rating._options import (
    METHOD_PARAMETERS,
    RATING_METHOD_OPTIONS,
    RATING_OPTIONS,
    RatingOptions,
    check_rating_options,
)
from inspect_plural.tasks.rating._protocol import ProtocolSettings, resolve_protocol

__all__ = [
    "RATING_METHODS",
    "RATING_METHOD_OPTIONS",
    "RATING_OPTIONS",
    "headline_coefficients",
    "prediction_scale",
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

PREDICTION_SCALES: dict[str, tuple[float, float]] = {"rouge_l": (0.0, 1.0)}
"""A method's prediction scale when not the rating methods' 1–5 rubric."""


def prediction_scale(method: str) -> tuple[float, float]:
    """The scale a rating method predicts on (the viewer names and colours it)."""
    return PREDICTION_SCALES.get(method, (float(SCORE_LOW), float(SCORE_HIGH)))


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
        metadata=read_only_values(metadata.model_dump()),
    )


PATH_OPTIONS = ("personas", "persona_docs")
"""Method options that may hold the user's file paths."""

HEADLINE_EXTRAS = 3
"""Headline values besides the correlations: parse failures, calls and tokens per sample."""


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


def _method(options: RatingOptions, settings: ProtocolSettings) -> Solver:
    """The chosen method's solver, with its options and the protocol's settings."""
    factory = RATING_METHODS[options.method]
    accepted = inspect.signature(factory).parameters
    shared: dict[str, Any] = {
        "seed": settings.seed,
        "prompts": options.prompts,
        "temperature": settings.temperature,
    }
    if options.method == "geval":
        del shared["temperature"]  # G-Eval samples at its own temperature (geval_temperature)
    kwargs = {key: value for key, value in shared.items() if key in accepted}
    chosen = {**settings.method_options, **options.method_options}
    for option, value in chosen.items():
        kwargs[METHOD_PARAMETERS.get(option, option)] = value
    try:
        return factory(**kwargs)
    except (ValueError, OSError) as ex:  # the solvers check their parameters and templates
        raise UserError(f"method {options.method}: {ex}") from None


def headline_coefficients(n_dimensions: int) -> list[str] | None:
    """The headline coefficients that keep a log within :data:`MAX_HEADLINE_METRICS`.

    All three (None) while 3 per dimension plus parse failures, calls and tokens fit;
    Spearman alone (MAJ-Eval's main figure) for datasets with more dimensions.
    """
    if 3 * n_dimensions + HEADLINE_EXTRAS <= MAX_HEADLINE_METRICS:
        return None
    return ["spearman"]


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
    protocol_settings: dict[str, Any] | None = None,
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
        protocol_settings: Dataset settings the protocol applied (recorded with the
            method's under ``protocol_settings``).
        **options: Any of :data:`RATING_OPTIONS` (``method``, ``protocol``,
            ``temperature``, ``prompts``, ``metrics``, ``metrics_preset``,
            ``correlation``, ``absolute``, ``alpha_level``, ``alpha_dimensions``) and the
            options of :data:`RATING_METHOD_OPTIONS` for the chosen method.

    Returns:
        The task.

    Raises:
        OptionError: An unknown option or value, or an option of another method.
        UnknownTaskError: No ``version`` given, and no ``eval.yaml`` lists ``dataset``.
    """
    opts, _ = check_rating_options(dataset, options)
    if version is None:
        version = task_version(dataset)
    settings = resolve_protocol(
        opts.protocol, opts.method, seed, opts.temperature, opts.method_options
    )
    settings.dataset_options.update(protocol_settings or {})
    solver = _method(opts, settings)
    samples = [
        rated_record_to_sample(
            output, dataset, dimensions, task_description, content_label, context_label, demo
        )
        for output in outputs
    ]
    names = [d.name for d in dimensions]
    return Task(
        setup=model_check(opts.method),
        dataset=MemoryDataset(samples, name=dataset + ("_demo" if demo else "")),
        solver=solver,
        scorer=rating_scorer(predicted_scale=prediction_scale(opts.method)),
        metrics=rating_metrics(
            correlation=opts.correlation,
            absolute=opts.absolute,
            alpha_level=opts.alpha_level,
            alpha_dimensions=opts.alpha_dimensions,
            dimensions=names,
            metrics=opts.metrics,
            preset=opts.metrics_preset,
            stakeholder_groups=opts.method == "maj_eval",
            coefficients=headline_coefficients(len(names)),
        ),
        config=GenerateConfig(temperature=settings.temperature),
        # under --epochs, average each score key over the epochs that have it
        epochs=Epochs(1, rating_mean()),
        version=version,
        viewer=rating_viewer(dimensions, prediction_scale(opts.method)) if dimensions else None,
        **headline(f"{names[0]}/spearman" if names else "spearman"),
        metadata={
            "family": "ratings",
            "dataset": dataset,
            "data_source": data_source,
            "demo": demo,
            "seed": seed,
            # the method is the log's plan (what ran, whether chosen with -T method= or
            # --solver); these are the options given for the task's own method
            "method_options": {k: _logged(k, v) for k, v in sorted(opts.method_options.items())},
            "protocol": opts.protocol,
            "protocol_settings": settings.model_dump(),
            "metrics": opts.metrics,
            "metrics_preset": opts.metrics_preset,
            "dimensions": [d.model_dump() for d in dimensions],
            "correlation": opts.correlation,
            "absolute": opts.absolute,
            "alpha_level": opts.alpha_level,
            **(task_metadata or {}),
        },
    )
