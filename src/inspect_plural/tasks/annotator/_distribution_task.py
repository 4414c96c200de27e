"""The distribution target of an annotator-level task (``-T target=distribution``).

One sample per test item (:mod:`inspect_plural.tasks.annotator._item_samples`), scored by
:func:`~inspect_plural.scorers.distribution.distribution_scorer` with the LeWiDi metrics
that apply (all of them under the ``default`` preset, the dataset's official ones under
``lewidi``) and, on data with annotator traits, representativeness per trait group.
The method is any annotator-level method: ``distribution_judge`` and the ``uniform`` and
``label_prior`` baselines predict the distribution directly; every other method runs
once per annotator of the item and is pooled (:mod:`inspect_plural.solvers._pooling`).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Metric
from inspect_ai.solver import Solver

from inspect_plural.errors import OptionError, closest
from inspect_plural.options import MAX_HEADLINE_METRICS
from inspect_plural.records import register_context
from inspect_plural.scorers.distribution import (
    DISTRIBUTION_PRESETS,
    LEWIDI_METRICS,
    distribution_metric_names,
    distribution_metrics,
    distribution_scorer,
    headline_representativeness,
    shown_keys,
)
from inspect_plural.scorers.perspective import modal_row, run_mean
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit
from inspect_plural.tasks._preflight import model_check
from inspect_plural.tasks._protocols import MethodSettings
from inspect_plural.tasks._viewer import distribution_viewer
from inspect_plural.tasks._viewer import headline as headline_metric
from inspect_plural.tasks.annotator._item_samples import build_item_samples, label_set_base
from inspect_plural.tasks.annotator._options import MAX_EXAMPLES, given_method_options
from inspect_plural.tasks.annotator._sample_parts import run_context, training_votes

__all__ = ["EXAMPLE_METHODS", "distribution_task"]

EXAMPLE_METHODS = ("cinemetric", "retrieval_examples")
"""Per-annotator methods that show the annotator's example judgments (kept in the run's context)."""

_OTHER_METRICS = 4
"""Headline values besides the distribution and representativeness metrics: parse
failures, failed answers, calls and tokens per sample."""


def _steered(corpus: AnnotatedCorpus, opts: dict[str, Any]) -> list[str]:
    steer = list(opts["steer"] or [])
    for dimension in steer:
        if dimension not in corpus.trait_dimensions:
            near = closest(dimension, corpus.trait_dimensions, n=1)
            known = ", ".join(corpus.trait_dimensions) or "none"
            raise OptionError(
                "steer",
                f"{dimension!r} is not a trait dimension of {corpus.name} (its dimensions: "
                f"{known})",
                f"did you mean {near[0]}?" if near else "",
            )
    return list(dict.fromkeys(steer))


def distribution_task(
    corpus: AnnotatedCorpus,
    opts: dict[str, Any],
    split: CorpusSplit,
    named: bool,
    seed: int,
    solver: Solver,
    settings: MethodSettings,
    version: int | str,
    adapter: dict[str, str] | None,
    given: set[str],
) -> Task:
    """The distribution-target task of a corpus, its options already checked.

    Args:
        corpus: The records.
        opts: The parsed task options.
        split: The split (its test judgments define the items and their annotators).
        named: Whether traits are visible to methods.
        seed: The task seed.
        solver: The method, built with the task's options.
        settings: Its sampling settings (temperature, runs).
        version: The task version.
        adapter: The dataset adapter's identity, for a plug-in dataset.
        given: The options given by the user.

    Returns:
        The task.

    Raises:
        OptionError: ``steer`` names no trait dimension, or would log more than
            :data:`~inspect_plural.options.MAX_HEADLINE_METRICS` headline values.
    """
    method, level, preset = opts["method"], opts["metrics"], opts["metrics_preset"]
    steer = _steered(corpus, opts)
    scales = [corpus.scale, *corpus.item_scales.values()]
    multilabel = not corpus.item_scales and bool(label_set_base(corpus.scale))
    names = distribution_metric_names(corpus.name, preset, {s.kind for s in scales}, multilabel)
    dimensions = list(corpus.trait_dimensions)
    headline = len(names) + _OTHER_METRICS + headline_representativeness(dimensions, steer)
    if level == "headline" and headline > MAX_HEADLINE_METRICS:
        what = f"{len(steer)} steered" if steer else f"{len(dimensions)} trait"
        raise OptionError(
            "steer" if steer else "metrics",
            f"{what} dimensions would log {headline} headline values (at most "
            f"{MAX_HEADLINE_METRICS})",
            ("steer fewer dimensions, or " if steer else "") + "run with -T metrics=full",
        )
    config = DISTRIBUTION_PRESETS[preset]
    uses_examples = method in EXAMPLE_METHODS and (
        method == "retrieval_examples" or bool(opts["training_examples"])
    )
    max_examples = int(
        opts["max_examples"] if opts["max_examples"] is not None else MAX_EXAMPLES.get(method, 20)
    )
    context = run_context(
        corpus,
        split,
        training_votes(corpus, split)[1],
        None if max_examples < 0 else max_examples,
        seed,
        uses_examples,
    )
    key = register_context(context, corpus.name)
    samples = build_item_samples(corpus, split, named, context=key)
    official = LEWIDI_METRICS.get(corpus.name)
    return Task(
        setup=model_check(str(opts["method"]), scorers_call_models=False),
        dataset=MemoryDataset(samples, name=corpus.name + ("_demo" if corpus.demo else "")),
        solver=solver,
        scorer=distribution_scorer(
            config.decimals, config.normaliser, config.hard_label, shown_keys(names)
        ),
        metrics=list[Metric | dict[str, list[Metric]]](
            distribution_metrics(names, config, dimensions, steer, level)
        ),
        config=GenerateConfig(temperature=settings.temperature, max_tokens=settings.max_tokens),
        epochs=Epochs(settings.epochs, run_mean() if settings.epochs > 1 else modal_row()),
        version=version,
        viewer=distribution_viewer(names),
        **headline_metric(names[0]),
        metadata={
            "family": "perspective",
            "target": "distribution",
            "dataset": corpus.name,
            "data_source": corpus.origin,
            "data_folder": corpus.folder,
            **({"adapter": adapter} if adapter else {}),
            **({"lewidi_edition": official.edition} if official else {}),
            "demo": corpus.demo,
            "seed": seed,
            "named": named,
            "answer_format": "distribution"
            if method == "distribution_judge"
            else opts["answer_format"],
            "method_options": given_method_options(opts, given),
            "protocol": opts["protocol"],
            "sampling": settings.model_dump(),
            "metrics": level,
            "metrics_preset": preset,
            "metric_definitions": config.model_dump(),
            "distribution_metrics": names,
            "steer": steer,
            "scale": corpus.scale.model_dump(),
            "split": split.summary,
            # what the samples share, once (each sample stores the key)
            "context": {"key": key, **context.log_copy()},
        },
    )
