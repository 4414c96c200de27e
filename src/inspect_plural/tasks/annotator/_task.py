"""The annotator-level task (step 5): options, split, method and samples made into a ``Task``.

:func:`perspective_task` turns an :class:`~inspect_plural.sources._corpus.AnnotatedCorpus`
into an Inspect ``Task`` under any split protocol, with any annotator-level method:
one sample is one annotator's judgment of one item; with ``-T target=distribution``
one sample is one item and its annotators' label distribution
(:mod:`._distribution_task`).
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Epochs, Task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Metric

from inspect_plural.errors import OptionError
from inspect_plural.records import register_context
from inspect_plural.scorers.perspective import (
    accuracy_by_trait,
    annotator_scorer,
    calibration_metrics,
    modal_row,
    perspective_metrics,
    resolve_perspective_config,
    run_mean,
)
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.splits import (
    CorpusSplit,
    SplitProtocol,
    cinemetric_split,
    lewidi_split,
    perseval_split,
)
from inspect_plural.structured import structured_mode
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._preflight import model_check
from inspect_plural.tasks._viewer import annotator_viewer, headline
from inspect_plural.tasks.annotator._annotator_samples import build_samples
from inspect_plural.tasks.annotator._distribution_task import distribution_task
from inspect_plural.tasks.annotator._methods import build_method, check_method
from inspect_plural.tasks.annotator._options import (
    MAX_EXAMPLES,
    check_annotator_options,
    given_method_options,
)
from inspect_plural.tasks.annotator._sample_parts import run_context, training_votes

__all__ = ["perspective_task"]


def _split(
    corpus: AnnotatedCorpus,
    split: SplitProtocol,
    seed: int,
    opts: dict[str, Any],
    text_split: tuple[float, float] | None,
) -> CorpusSplit:
    if opts["pool"] is not None and split != "lewidi":
        raise OptionError("pool", f"configures the lewidi split, not {split}", "or -T split=lewidi")
    if split == "lewidi":
        if not corpus.item_splits:
            raise OptionError(
                "split",
                f"lewidi needs the release's own train/dev/test split, which {corpus.name} "
                "does not ship",
                "use -T split=cinemetric or perseval",
            )
        return lewidi_split(corpus, seed=seed, pool=tuple(opts["pool"] or ()) or None)
    if split == "cinemetric":
        return cinemetric_split(
            corpus,
            seed=seed,
            n_annotators=opts["n_annotators"],
            k_train=opts["k_train"],
            m_test=opts["m_test"],
        )
    if split == "perseval":
        return perseval_split(
            corpus,
            seed=seed,
            adaptation=opts["adaptation"],
            extended=opts["extended"],
            text_split=text_split,
        )
    raise OptionError("split", f"{split!r} is not available for {corpus.name}")


def perspective_task(
    corpus: AnnotatedCorpus,
    seed: int = 42,
    default_split: SplitProtocol = "perseval",
    text_split: tuple[float, float] | None = None,
    version: int | str | None = None,
    adapter: dict[str, str] | None = None,
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
        adapter: The dataset adapter that produced the corpus (entry point, package,
            version), recorded in the log; None for a built-in dataset.
        **options: Any option of :data:`COMMON_OPTIONS` (``method``, ``target``,
            ``split``, ``pool``, ``n_annotators``, ``k_train``, ``m_test``,
            ``adaptation``, ``extended``, ``named``, ``max_examples``, ``answer_format``,
            ``reasoning``, ``temperature``, ``max_tokens``, ``prompts``,
            ``metrics_preset``, ``metrics``, ``protocol``) and the options of
            :data:`METHOD_OPTIONS` for the chosen method; see the family's docs page.
            ``target=distribution`` builds one sample per item instead
            (:mod:`inspect_plural.tasks.annotator._distribution_task`; ``docs/lewidi.md``).

    Returns:
        The task.

    Raises:
        OptionError: An unknown option or value, or a combination that cannot work.
        UnknownTaskError: No ``version`` given, and no ``eval.yaml`` lists the corpus name.

    """
    if version is None:
        version = task_version(corpus.name)
    given = {k for k, v in options.items() if v is not None}
    opts = check_annotator_options(corpus.name, options)
    target = opts["target"]
    if target == "distribution" and corpus.item_splits:
        default_split = "lewidi"  # an item-level target: the release's own item split
    split_name: SplitProtocol = opts["split"] or default_split
    has_traits = bool(corpus.trait_dimensions)
    named = has_traits if opts["named"] is None else bool(opts["named"])
    if named and not has_traits:
        raise OptionError(
            "named", f"{corpus.name} has no annotator traits", "it can only run named=false"
        )
    if split_name == "perseval" and opts["adaptation"] == "none" and not named:
        raise OptionError(
            "adaptation",
            "adaptation=none with named=false leaves nothing to tell test users apart "
            "(PersEval forbids it)",
            "use -T adaptation=train or test, or named=true",
        )
    method = opts["method"]
    answer_format = opts["answer_format"]

    split = _split(corpus, split_name, seed, opts, text_split)
    check_method(method, opts, given, named, split, has_traits)
    solver, settings = build_method(method, opts, corpus, seed)
    if target == "distribution":
        return distribution_task(
            corpus, opts, split, named, seed, solver, settings, version, adapter, given
        )
    config = resolve_perspective_config(opts["metrics_preset"])
    max_examples = int(
        opts["max_examples"] if opts["max_examples"] is not None else MAX_EXAMPLES.get(method, 20)
    )
    context = run_context(
        corpus,
        split,
        training_votes(corpus, split)[1],
        None if max_examples < 0 else max_examples,
        seed,
    )
    key = register_context(context, corpus.name)
    samples = build_samples(corpus, split, named, context=key)
    scales = [corpus.scale, *corpus.item_scales.values()]
    ordinal = any(s.kind == "ordinal" for s in scales)
    names = None if corpus.item_scales else list(corpus.scale.labels)
    level = opts["metrics"]
    metrics: list[Metric | dict[str, list[Metric]]] = [
        *perspective_metrics(
            opts["metrics_preset"], ordinal=ordinal, names=names, traits=has_traits, level=level
        )
    ]
    if has_traits and level == "full":
        metrics.append(
            accuracy_by_trait(
                list(corpus.trait_dimensions), config.failures, list(config.skip_trait_values)
            )
        )
    if answer_format == "distribution":
        metrics += calibration_metrics(config)
    # label indices must stay integers under --epochs, and one epoch's values stay
    # together: keep the row of the modal prediction; the paper's runs are averaged
    reducer = run_mean() if settings.epochs > 1 else modal_row()
    return Task(
        setup=model_check(method, scorers_call_models=False),
        dataset=MemoryDataset(samples, name=corpus.name + ("_demo" if corpus.demo else "")),
        solver=solver,
        scorer=annotator_scorer(distribution=answer_format == "distribution"),
        metrics=metrics,
        config=GenerateConfig(temperature=settings.temperature, max_tokens=settings.max_tokens),
        epochs=Epochs(settings.epochs, reducer),
        version=version,
        viewer=annotator_viewer(
            ordinal=ordinal,
            max_error=None if corpus.item_scales else float(len(corpus.scale.labels) - 1),
            distribution=answer_format == "distribution",
        ),
        **headline("accuracy"),
        metadata={
            "family": "perspective",
            "dataset": corpus.name,
            "data_source": corpus.origin,
            "data_folder": corpus.folder,
            **({"adapter": adapter} if adapter else {}),
            "demo": corpus.demo,
            "seed": seed,
            "named": named,
            "answer_format": answer_format,
            "structured": structured_mode(opts["structured"]),
            # the method is the log's plan (Inspect records the solver that ran, whether
            # chosen with -T method= or --solver); these are the options given for it
            "method_options": given_method_options(opts, given),
            "protocol": opts["protocol"],
            "sampling": settings.model_dump(),
            "metrics": level,
            "metrics_preset": opts["metrics_preset"],
            "scale": corpus.scale.model_dump(),
            "split": split.summary,
            # what the samples share, once (each sample stores the key)
            "context": {"key": key, **context.log_copy()},
        },
    )
