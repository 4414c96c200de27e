"""The LeWiDi JSON layout (2023 and 2025 editions), read into one annotated corpus.

Each split file is one JSON object ``{item_id: record}``. A record holds:

- ``text``: a string (2023; ConvAbuse's is a JSON object *inside* the string, read into
  :attr:`Item.parts`) or an object of parts (2025: ``post``/``reply``,
  ``context``/``response``, ``Question1``/``Question2``, ``context``/``statement``);
- ``annotators``: comma-separated ids. 2023: ``annotations`` is comma-separated and
  aligned with it. 2025: ``annotations`` is an object id -> label, and ``annotators`` may
  repeat an id once per label that annotator gave (VariErrNLI ``"Ann2,Ann2"`` with
  ``"Ann2": "entailment,neutral"``); the set of ids must equal the object's keys;
- ``soft_label`` (label -> share; VariErrNLI: base label -> ``{"0": share, "1": share}``),
  ``hard_label`` (2023), ``split``, ``lang``;
- ``other_info``: further label rows (``other annotations`` in HS-Brexit,
  ``other_annotations`` in ConvAbuse), annotator groups (HS-Brexit: ``annotators group``
  aligned with the annotators, group names under ``group1``...; ArMIS: annotator id ->
  group), and MD-Agreement's ``domain`` (the item's context).

Item ids restart at "1" in every 2023 file, and VariErrNLI reuses an id across files for
different items (ids there name the premise), so items are keyed ``<split>-<id>`` (or
numbered from 0 across the files, ``id_style="sequence"``, as PersEval's flattened
MD-Agreement file is).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import OFFICIAL_SPLITS, AnnotatedCorpus, dedupe_judgments
from inspect_plural.sources._once import data_logger
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources.lewidi._files import read_json_object
from inspect_plural.sources.lewidi._record import (
    MAIN_ANNOTATIONS,
    SPLIT_ALIASES,
    UNKNOWN_TRAIT,
    annotators_and_values,
    content,
    groups_of,
    hard_label,
    json_parts,
    soft_key,
    soft_label,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MAIN_ANNOTATIONS", "SPLIT_ALIASES", "UNKNOWN_TRAIT", "read_lewidi", "soft_key"]

logger = data_logger(__name__)


class _Rows:
    """Flat columns collected while walking the records (vectorised afterwards)."""

    def __init__(self) -> None:
        self.annotator_ids: list[str] = []
        self.item_ids: list[str] = []
        self.raw: list[str] = []
        self.origin: list[int] = []  # index into self.records, for error messages
        self.records: list[tuple[Path, int, str]] = []
        self.items: dict[str, Item] = {}
        self.splits: dict[str, str] = {}
        self.soft: dict[str, dict[str, float]] = {}
        self.hard: dict[str, str] = {}
        self.groups: dict[str, str] = {}
        self.group_conflicts: set[str] = set()
        self.per_file: dict[Path, int] = {}
        self.mislabelled_splits = 0


def _walk(
    files: Sequence[tuple[str, Path]],
    field: str,
    scale: LabelScale,
    soft_keys: Mapping[str, int],
    multilabel: Sequence[str] | None,
    id_style: Literal["split", "sequence"],
    text_json: bool,
) -> _Rows:
    rows = _Rows()
    for split, path in files:
        official = SPLIT_ALIASES.get(split, split)
        if official not in OFFICIAL_SPLITS:
            raise ValueError(f"{path}: split {split!r} is not one of {OFFICIAL_SPLITS}")
        data = read_json_object(path)
        rows.per_file[path] = len(data)
        for row, (raw_id, record) in enumerate(data.items()):
            if not isinstance(record, dict):
                raise DataRowError(path, row, "(record)", f"item {raw_id!r} is not an object")
            item_id = f"{split}-{raw_id}" if id_style == "split" else str(len(rows.items))
            item = content(path, row, raw_id, item_id, record)
            if text_json:
                item = json_parts(path, row, raw_id, item)
            who, values = annotators_and_values(path, row, raw_id, record, field)
            rows.records.append((path, row, raw_id))
            rows.annotator_ids += who
            rows.item_ids += [item_id] * len(who)
            rows.raw += values
            rows.origin += [len(rows.records) - 1] * len(who)
            for annotator, group in groups_of(record, who).items():
                if rows.groups.setdefault(annotator, group) != group:
                    rows.group_conflicts.add(annotator)
            rows.items[item_id] = item
            rows.splits[item_id] = official
            if str(record.get("split", official)).strip() not in (official, split):
                rows.mislabelled_splits += 1
            if soft_keys or multilabel is not None:
                soft = soft_label(path, row, raw_id, record, scale, soft_keys, multilabel)
                if soft is not None:
                    rows.soft[item_id] = soft
                hard = hard_label(path, row, raw_id, record, scale, soft_keys)
                if hard is not None:
                    rows.hard[item_id] = hard
    return rows


def _codes(
    rows: _Rows,
    field: str,
    codes: Mapping[str, int],
    normalise: Callable[[str], str] | None,
    aliases: Mapping[str, str],
) -> tuple[pd.Series, dict[str, int]]:
    """Every raw label as a scale index, mapped once per distinct value (vectorised)."""
    import pandas as pd

    raw = pd.Series(rows.raw, dtype=object)
    lookup: dict[str, float] = {}
    aliased: dict[str, int] = {}
    counts = raw.value_counts()
    for value in counts.index:
        key = str(value)
        try:
            key = normalise(key) if normalise else key
        except ValueError:
            lookup[str(value)] = math.nan
            continue
        if key not in codes and key in aliases:
            aliased[str(value)] = int(counts[value])
            key = aliases[key]
        lookup[str(value)] = float(codes[key]) if key in codes else math.nan
    mapped = raw.map(lookup)
    if mapped.isna().any():
        first = int(mapped.isna().to_numpy().argmax())
        path, row, raw_id = rows.records[rows.origin[first]]
        raise DataRowError(
            path,
            row,
            field,
            f"item {raw_id!r}: label {rows.raw[first]!r} of {rows.annotator_ids[first]} is not "
            f"one of {sorted(codes)}",
        )
    return mapped.astype(int), aliased


def _warn(name: str, files: Sequence[tuple[str, Path]], rows: _Rows) -> None:
    """Say what reading changed or left out: empty split files, conflicting groups."""
    empty = [path.name for path, n in rows.per_file.items() if n == 0]
    if empty:
        counts = ", ".join(f"{split} {rows.per_file[path]}" for split, path in files)
        logger.warning(
            "%s: %s hold(s) no items, so that split is empty (items per split: %s)",
            name,
            ", ".join(empty),
            counts,
        )
    if rows.group_conflicts:
        logger.warning(
            "%s: %d of %d annotators are in different groups in different records (e.g. %r); "
            "the first record's group is kept",
            name,
            len(rows.group_conflicts),
            len(rows.groups),
            sorted(rows.group_conflicts)[0],
        )


def read_lewidi(
    files: Sequence[tuple[str, Path]],
    name: str,
    field: str,
    scale: LabelScale,
    raw_labels: Sequence[str] | Mapping[str, int],
    origin: str,
    demo: bool = False,
    id_style: Literal["split", "sequence"] = "split",
    aliases: Mapping[str, str] | None = None,
    *,
    normalise: Callable[[str], str] | None = None,
    soft_keys: Mapping[str, int] | None = None,
    multilabel: Sequence[str] | None = None,
    text_json: bool = False,
    group_traits: Callable[[str], dict[str, str]] | None = None,
    annotator_traits: Mapping[str, Mapping[str, str]] | None = None,
    trait_dimensions: Sequence[str] | None = None,
    folder: str = "",
) -> AnnotatedCorpus:
    """Read LeWiDi JSON split files (2023 or 2025 layout) into one corpus.

    Args:
        files: ``(split, path)`` pairs (``validation`` is read as the official ``dev``).
        name: Dataset name.
        field: ``annotations`` (the main task) or a key of ``other_info``'s other
            annotations (HS-Brexit ``other annotations``, ConvAbuse ``other_annotations``).
        scale: The label scale.
        raw_labels: The file's value of each label: a sequence aligned with
            ``scale.labels``, or a mapping raw value -> label index (several values may
            share a label, e.g. ConvAbuse's -3..-1 all "abusive").
        origin: Description of the source, for the log.
        demo: Whether the files are demo data.
        id_style: ``split`` keys items ``<split>-<id>``; ``sequence`` numbers them from 0
            across the files in order.
        aliases: Other spellings of raw labels (e.g. ``{"No": "0"}``); each use is counted,
            logged as a warning and noted in the origin.
        normalise: Applied to each raw value before lookup (VariErrNLI: a comma-separated
            label list to its label-set label); a ``ValueError`` marks the value bad.
        soft_keys: Soft- and hard-label key (as :func:`soft_key` spells it) -> label index;
            empty: read neither (the file's soft label describes another label). Default:
            ``raw_labels`` for the main annotations, empty for other fields.
        multilabel: The base labels, when the soft label holds one binary distribution per
            base label (VariErrNLI); :attr:`AnnotatedCorpus.item_soft_labels` then gives
            each base label's share of "1".
        text_json: The text is a JSON object of parts written as a string (ConvAbuse).
        group_traits: Turns a group named in ``other_info`` into traits (default
            ``{"group": name}``).
        annotator_traits: Traits per annotator from a metadata file (2025); annotators
            absent there get :data:`UNKNOWN_TRAIT` for each of ``trait_dimensions``.
        trait_dimensions: The trait dimensions, in display order (default: those found).
        folder: The folder read, without an absolute path (:attr:`AnnotatedCorpus.folder`).

    Returns:
        The corpus, with each item's official split, and the file's soft and hard labels
        where ``soft_keys`` apply.

    Raises:
        DataRowError: A record misses a field, its labels do not align with its annotators,
            a label is off the scale, or an item id repeats within a file.

    """
    import pandas as pd

    codes = (
        dict(raw_labels)
        if isinstance(raw_labels, Mapping)
        else {raw: i for i, raw in enumerate(raw_labels)}
    )
    if soft_keys is None:
        default = field == MAIN_ANNOTATIONS and multilabel is None
        soft_keys = {soft_key(k): v for k, v in codes.items()} if default else {}
    rows = _walk(files, field, scale, soft_keys, multilabel, id_style, text_json)
    labels, aliased = _codes(rows, field, codes, normalise, aliases or {})
    alias_map = dict(aliases or {})
    for spelled, count in aliased.items():
        logger.warning(
            "%s %s: %d label(s) spelled %r read as %r",
            name,
            field,
            count,
            spelled,
            alias_map.get(spelled, spelled),
        )
    if aliased:
        origin += "; " + ", ".join(
            f"{n} label(s) {s!r} read as {alias_map[s]!r}" for s, n in aliased.items()
        )
    if rows.mislabelled_splits:
        logger.warning(
            "%s: %d record(s) name another split than their file's; the file's is used",
            name,
            rows.mislabelled_splits,
        )
    frame = pd.DataFrame(
        {"annotator_id": rows.annotator_ids, "item_id": rows.item_ids, "label": labels.to_numpy()}
    )
    _warn(name, files, rows)
    frame, _ = dedupe_judgments(frame, name)
    expand = group_traits or (lambda group: {"group": group})
    traits: dict[str, dict[str, str]] = {}
    for annotator in dict.fromkeys(rows.annotator_ids):
        if annotator_traits is not None:
            given = annotator_traits.get(annotator, {})
            traits[annotator] = {d: given.get(d, UNKNOWN_TRAIT) for d in trait_dimensions or given}
        elif annotator in rows.groups:
            traits[annotator] = expand(rows.groups[annotator])
        else:
            traits[annotator] = {}
    dims = list(trait_dimensions or [])
    if trait_dimensions is None:
        for annotator_traits_ in traits.values():
            dims += [d for d in annotator_traits_ if d not in dims]
    return AnnotatedCorpus(
        name=name,
        scale=scale,
        annotators={a: Annotator(id=a, traits=t) for a, t in sorted(traits.items())},
        items=rows.items,
        judgments=frame,
        origin=origin,
        demo=demo,
        trait_dimensions=dims,
        item_splits=rows.splits,
        item_soft_labels=rows.soft,
        item_hard_labels=rows.hard,
        folder=folder,
    )
