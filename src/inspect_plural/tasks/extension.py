# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""Annotator-level tasks for datasets this package does not ship.

Two ways in, both giving the same methods, split protocols, options and scorers as the
built-in annotator-level tasks:

- ``inspect eval inspect_plural/perspective -T dataset=NAME`` runs any dataset adapter
  installed under the entry-point group ``inspect_plural.datasets``
  (:mod:`inspect_plural.adapters`); ``-T`` options that are not task options go to the
  adapter (``data_dir``, ``demo``, its own).
- :func:`annotator_task` builds the task from records in a third party's own package, to
  wrap in its own ``@task`` and register under the ``inspect_ai`` entry-point group.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task

from inspect_plural.adapters import (
    DatasetPluginError,
    DatasetRecords,
    available_datasets,
    build_corpus,
    load_dataset,
    plugin_identity,
    resolve_dataset,
)
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks.annotator import (
    COMMON_OPTIONS,
    METHOD_OPTIONS,
    check_annotator_options,
    perspective_task,
)
from inspect_plural.tasks.perspective import DATASET_PROTOCOLS, DEFAULT_SEED, SplitDefaults

__all__ = ["annotator_task", "perspective"]

TASK_OPTIONS = frozenset(COMMON_OPTIONS) | frozenset(METHOD_OPTIONS)
"""``-T`` options the task keeps; the others are the adapter's."""


def annotator_task(
    dataset: DatasetRecords | AnnotatedCorpus,
    seed: int = DEFAULT_SEED,
    version: int | str = 0,
    **options: Any,
) -> Task:
    """An annotator-level task over a dataset's records, with any annotator-level method.

    Use it in your own package::

        from inspect_ai import task
        from inspect_plural import DatasetRecords, annotator_task

        @task
        def my_panel(demo: bool = False, seed: int = 42, **options):
            return annotator_task(load_my_panel(demo), seed=seed, version="1.0.0", **options)

    and register the module under ``[project.entry-points.inspect_ai]`` so that
    ``inspect eval my_package/my_panel -T method=cinemetric`` finds it.

    Args:
        dataset: The records (validated here, errors naming the record), or a corpus.
        seed: Seed of every random choice (split, tie-breaking).
        version: The task version recorded in the log.
        **options: The annotator-level task options (``method``, ``split``, ``named``,
            ``adaptation``, ``answer_format``, ...; see docs/perseval.md).

    Returns:
        The task. Split defaults come from the records' ``default_split`` and
        ``text_split``, else from the built-in dataset of the same name.

    Raises:
        DatasetPluginError: Malformed records.
        ValueError: An unknown option or an impossible method and setting combination.

    """
    return _task(dataset, None, seed, version, options)


def _task(
    dataset: DatasetRecords | AnnotatedCorpus,
    plugin: str | None,
    seed: int,
    version: int | str,
    options: dict[str, Any],
    identity: dict[str, str] | None = None,
) -> Task:
    if isinstance(dataset, DatasetRecords):
        corpus = build_corpus(dataset, plugin=plugin)
        default_split, text_split = dataset.default_split, dataset.text_split
    else:
        corpus = dataset
        defaults = DATASET_PROTOCOLS.get(corpus.name, SplitDefaults())
        default_split, text_split = defaults.default_split, defaults.text_split
    return perspective_task(
        corpus,
        seed=seed,
        default_split=default_split,
        text_split=text_split,
        version=version,
        adapter=identity,
        **options,
    )


@task
def perspective(dataset: str | None = None, seed: int = DEFAULT_SEED, **options: Any) -> Task:
    """Any installed dataset adapter as an annotator-level task.

    Args:
        dataset: The adapter's name in the ``inspect_plural.datasets`` entry-point group
            (the built-in annotator datasets are registered there too).
        seed: Seed of every random choice.
        **options: Annotator-level task options (``method``, ``split``, ...); every other
            option (``data_dir``, ``demo``, ``label``, ...) goes to the adapter.

    Returns:
        The task.

    Raises:
        DatasetPluginError: No dataset named, an unknown one, or malformed records; the
            message names the plugin and the record.

    """
    if not dataset:
        raise DatasetPluginError(
            "(none)", f"name one with -T dataset=NAME; installed: {sorted(available_datasets())}"
        )
    adapter_options = {k: v for k, v in options.items() if k not in TASK_OPTIONS}
    task_options = {k: v for k, v in options.items() if k in TASK_OPTIONS}
    check_annotator_options("perspective", task_options)  # before the adapter reads data
    loaded = load_dataset(dataset, TASK_OPTIONS, **adapter_options)
    plugin = f"{dataset!r} ({resolve_dataset(dataset).value})"
    return _task(
        loaded, plugin, seed, task_version("perspective"), task_options, plugin_identity(dataset)
    )
