"""Dataset adapters: third-party annotator-level datasets as entry-point plugins.

A package makes a dataset available to every annotator-level method by registering a
*dataset adapter* in the entry-point group :data:`ENTRY_POINT_GROUP`::

    [project.entry-points."inspect_plural.datasets"]
    toxicity_panel = "my_package.data:load_panel"

An adapter is a callable taking keyword options (``data_dir``, ``demo``, anything of its
own) and returning :class:`DatasetRecords`: the shared records (annotators with traits,
items, judgments) and the label scale. Then

    inspect eval inspect_plural/perspective -T dataset=toxicity_panel -T method=cinemetric

runs it with the same methods, split protocols, options and scorers as the built-in tasks.
The built-in annotator datasets are registered in the same group (their loaders return an
:class:`~inspect_plural.sources.AnnotatedCorpus` directly, which adapters may also do).

Records may be given as the pydantic models or as plain mappings; they are validated
once, in one pass, and any problem raises :class:`DatasetPluginError` naming the plugin
and the offending record.

Names: a built-in dataset keeps its name whatever else is installed. A third-party
adapter named like one (``brexit``) does not replace it: it is reachable under its
qualified name ``package:name`` (``my-package:brexit``, the distribution's name as pip
shows it), and a warning names both. Every adapter also answers to its qualified name;
a name two third-party packages both register must be given qualified. The entry points
are read once per ``sys.path``, and only when a dataset is looked up by name.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from inspect_plural._dataset_entry_points import (
    ENTRY_POINT_GROUP,
    DatasetPluginError,
    available_datasets,
    describe_entry_point,
    plugin_identity,
    resolve_dataset,
)
from inspect_plural.errors import closest
from inspect_plural.records import Annotator, Item, Judgment, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments
from inspect_plural.splits import SplitProtocol

__all__ = [
    "ENTRY_POINT_GROUP",
    "DatasetAdapter",
    "DatasetPluginError",
    "DatasetRecords",
    "available_datasets",
    "build_corpus",
    "load_dataset",
    "plugin_identity",
    "resolve_dataset",
]

SplitName = SplitProtocol
"""A split protocol a dataset may default to (``lewidi`` needs ``item_splits``)."""


@dataclass(frozen=True)
class DatasetRecords:
    """What a dataset adapter returns: the records of one annotator-level dataset.

    Attributes:
        name: The dataset's name (sample ids and the log use it).
        scale: The label scale (nominal or ordinal: annotator-level tasks predict labels).
        annotators: :class:`~inspect_plural.records.Annotator` records or mappings with
            ``id`` and optional ``traits`` (dimension -> value).
        items: :class:`~inspect_plural.records.Item` records or mappings with ``id`` and
            ``text`` or ``parts``.
        judgments: :class:`~inspect_plural.records.Judgment` records or mappings with
            ``annotator_id``, ``item_id`` and ``label``, a label of the item's scale
            (matched as text, so ``1`` matches the label ``"1"``).
        origin: Where the data came from (file, version, checksum), for the log.
        demo: True when the records are demo data rather than the real dataset.
        item_scales: Item id -> scale, for items whose answer options differ.
        trait_dimensions: The trait names in display order (default: first seen).
        default_split: The split protocol when the user gives none.
        text_split: PersEval's optional text proportions (train-only, adaptation).
        item_splits: Item id -> the release's own split (``train``, ``dev``, ``test``),
            for the ``lewidi`` split protocol; empty when the dataset has none.

    """

    name: str
    scale: LabelScale
    annotators: Iterable[Annotator | Mapping[str, Any]]
    items: Iterable[Item | Mapping[str, Any]]
    judgments: Iterable[Judgment | Mapping[str, Any]]
    origin: str = ""
    demo: bool = False
    item_scales: Mapping[str, LabelScale] = field(default_factory=dict)
    trait_dimensions: Sequence[str] | None = None
    default_split: SplitName = "perseval"
    text_split: tuple[float, float] | None = None
    item_splits: Mapping[str, str] = field(default_factory=dict)


DatasetAdapter = Callable[..., "DatasetRecords | AnnotatedCorpus"]
"""The type of an adapter: keyword options in, records (or a built corpus) out."""


def _check_options(
    plugin: str,
    adapter: Callable[..., Any],
    options: Mapping[str, Any],
    task_options: Iterable[str] = (),
) -> None:
    try:
        parameters = inspect.signature(adapter).parameters
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return
    accepted = {
        name
        for name, p in parameters.items()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    }
    unknown = sorted(set(options) - accepted)
    if unknown:
        valid = accepted | set(task_options)
        near = closest(unknown[0], valid)
        hint = f" Did you mean {' or '.join(near)}?" if near else ""
        raise DatasetPluginError(
            plugin,
            f"option {unknown[0]} is neither an annotator-level task option nor one of "
            f"the adapter's ({', '.join(sorted(accepted))}).{hint}",
        )


def load_dataset(
    name: str, task_options: Iterable[str] = (), **options: Any
) -> AnnotatedCorpus | DatasetRecords:
    """Run the adapter registered under ``name`` with ``options``.

    Args:
        name: The adapter's name, bare or qualified (``package:name``).
        task_options: The task's own option names (suggested for a misspelled option).
        **options: Keyword options for the adapter (``data_dir``, ``demo``, ...).

    Returns:
        What the adapter returned: :class:`DatasetRecords`, or a corpus already built.

    Raises:
        DatasetPluginError: No such adapter (or a name several packages register), it
            cannot be imported, it rejects the options, or it returns something else.

    """
    entry = resolve_dataset(name)
    plugin = describe_entry_point(entry)
    try:
        adapter = entry.load()
    except Exception as ex:  # the plugin's own import failure, reported with its name
        raise DatasetPluginError(plugin, f"cannot be imported: {ex!r}") from ex
    if not callable(adapter):
        raise DatasetPluginError(plugin, f"is a {type(adapter).__name__}, not a callable")
    _check_options(plugin, adapter, options, task_options)
    result = adapter(**options)
    if not isinstance(result, (DatasetRecords, AnnotatedCorpus)):
        raise DatasetPluginError(
            plugin, f"returned a {type(result).__name__}; expected DatasetRecords"
        )
    return result


def _validated(
    plugin: str, kind: str, model: type[BaseModel], records: Iterable[Any], **defaults: Any
) -> Iterable[Any]:
    for n, record in enumerate(records):
        if isinstance(record, model):
            yield record
            continue
        if not isinstance(record, Mapping):
            raise DatasetPluginError(
                plugin, f"{kind} record {n} is a {type(record).__name__}, not a mapping"
            )
        try:
            yield model.model_validate({**defaults, **record})
        except ValidationError as ex:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc']) or 'record'}: {e['msg']}" for e in ex.errors()
            )
            raise DatasetPluginError(
                plugin, f"{kind} record {n} {dict(record)!r} is malformed: {problems}"
            ) from None


def _label_index(scale: LabelScale) -> dict[str, int]:
    return {label: i for i, label in enumerate(scale.labels)}


def _scale_value(label: str | float | int) -> str:
    if isinstance(label, float) and label.is_integer():
        label = int(label)
    return str(label)


def build_corpus(records: DatasetRecords, plugin: str | None = None) -> AnnotatedCorpus:
    """Validate an adapter's records and build the corpus the tasks split (linear time).

    Args:
        records: The records.
        plugin: How to name the plugin in errors (default: the dataset name).

    Returns:
        The corpus.

    Raises:
        DatasetPluginError: A record lacks a field, has a wrong type, repeats an id, refers
            to an unknown annotator or item, or has a label outside its item's scale.

    """
    import pandas as pd

    plugin = plugin or repr(records.name)
    scales = [records.scale, *records.item_scales.values()]
    if any(s.kind == "interval" for s in scales):
        raise DatasetPluginError(
            plugin, "annotator-level tasks predict labels: the scale must be nominal or ordinal"
        )
    annotators: dict[str, Annotator] = {}
    for a in _validated(plugin, "annotator", Annotator, records.annotators):
        if a.id in annotators:
            raise DatasetPluginError(plugin, f"annotator id {a.id!r} repeats")
        annotators[a.id] = a
    items: dict[str, Item] = {}
    for i in _validated(plugin, "item", Item, records.items):
        if i.id in items:
            raise DatasetPluginError(plugin, f"item id {i.id!r} repeats")
        if not (i.text or i.parts):
            raise DatasetPluginError(plugin, f"item {i.id!r} has neither text nor parts")
        items[i.id] = i
    unknown_scales = sorted(set(records.item_scales) - items.keys())
    if unknown_scales:
        raise DatasetPluginError(plugin, f"item_scales name unknown items {unknown_scales[:5]}")
    indices = {item_id: _label_index(s) for item_id, s in records.item_scales.items()}
    default_index = _label_index(records.scale)
    rows: list[tuple[str, str, int]] = []
    for n, j in enumerate(
        _validated(plugin, "judgment", Judgment, records.judgments, scale=records.scale)
    ):
        where = f"judgment record {n} (annotator {j.annotator_id!r}, item {j.item_id!r})"
        if j.annotator_id not in annotators:
            raise DatasetPluginError(plugin, f"{where}: unknown annotator")
        if j.item_id not in items:
            raise DatasetPluginError(plugin, f"{where}: unknown item")
        index = indices.get(j.item_id, default_index)
        label = _scale_value(j.label)
        if label not in index:
            raise DatasetPluginError(
                plugin, f"{where}: label {j.label!r} is outside the scale {list(index)}"
            )
        rows.append((j.annotator_id, j.item_id, index[label]))
    if not rows:
        raise DatasetPluginError(plugin, "yields no judgments")
    frame, _ = dedupe_judgments(pd.DataFrame(rows, columns=["annotator_id", "item_id", "label"]))
    dimensions = list(records.trait_dimensions or [])
    if records.trait_dimensions is None:
        for a in annotators.values():
            dimensions += [d for d in a.traits if d not in dimensions]
    return AnnotatedCorpus(
        name=records.name,
        scale=records.scale,
        annotators=annotators,
        items=items,
        judgments=frame,
        origin=records.origin or f"dataset plugin {plugin}",
        demo=records.demo,
        item_scales=dict(records.item_scales),
        trait_dimensions=dimensions,
        item_splits=dict(records.item_splits),
    )
