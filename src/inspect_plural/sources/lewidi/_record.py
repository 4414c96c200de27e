"""One LeWiDi record's fields: its content, annotators and labels, groups, soft and hard label.

The pieces :func:`inspect_plural.sources.lewidi.read_lewidi` assembles; each raises
:class:`~inspect_plural.sources.DataRowError` naming the file, the record's position and
the field. See :mod:`inspect_plural.sources.lewidi._read` for the layout.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_plural.records import Item, LabelScale
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources._read import parse_json_field

__all__ = [
    "MAIN_ANNOTATIONS",
    "SPLIT_ALIASES",
    "UNKNOWN_TRAIT",
    "annotators_and_values",
    "content",
    "groups_of",
    "hard_label",
    "json_parts",
    "soft_key",
    "soft_label",
]

MAIN_ANNOTATIONS = "annotations"
"""Key of the main task's labels in a record."""

UNKNOWN_TRAIT = "UNK"
"""Trait value of an annotator whose metadata lacks the dimension."""

SPLIT_ALIASES = {"validation": "dev"}
"""Split names used for ids (HS-Brexit keeps the hub's ``validation``) -> official split."""

_OTHER_ANNOTATIONS = ("other annotations", "other_annotations")


def soft_key(key: object) -> str:
    """A soft-label or hard-label key as text: ``"0.0"``, ``0`` and ``"0"`` all give ``"0"``."""
    text = str(key).strip()
    try:
        number = float(text)
    except ValueError:
        return text
    return str(int(number)) if math.isfinite(number) and number.is_integer() else text


def content(path: Path, row: int, raw_id: str, item_id: str, record: dict[str, Any]) -> Item:
    text = record.get("text")
    if isinstance(text, dict):
        parts = {str(k): str(v).strip() for k, v in text.items() if v is not None}
        if not parts or not any(parts.values()):
            raise DataRowError(path, row, "text", f"item {raw_id!r} has no text parts")
        return Item(id=item_id, parts=parts)
    if not isinstance(text, str) or not text.strip():
        raise DataRowError(path, row, "text", f"item {raw_id!r} has no text")
    domain = (record.get("other_info") or {}).get("domain")
    return Item(id=item_id, text=text.strip(), context=str(domain) if domain else None)


def json_parts(path: Path, row: int, raw_id: str, item: Item) -> Item:
    """ConvAbuse: the text is a JSON object of conversation turns written as a string."""
    expected = f"item {raw_id!r}: a JSON object of turns"
    turns = parse_json_field(item.text or "", path, row, "text", expected)
    if not isinstance(turns, dict) or not turns:
        raise DataRowError(path, row, "text", f"item {raw_id!r}: not a JSON object of turns")
    parts = {str(k): "" if v is None else str(v).strip() for k, v in turns.items()}
    return Item(id=item.id, parts=parts)


def annotators_and_values(
    path: Path, row: int, raw_id: str, record: dict[str, Any], field: str
) -> tuple[list[str], list[str]]:
    listed = record.get("annotators")
    if not isinstance(listed, str) or not listed.strip():
        raise DataRowError(
            path, row, "annotators", f"item {raw_id!r}: expected a comma-separated string"
        )
    who = [a.strip() for a in listed.split(",")]
    if field == MAIN_ANNOTATIONS:
        value = record.get(MAIN_ANNOTATIONS)
    else:
        other = record.get("other_info") or {}
        found = [other[k] for k in _OTHER_ANNOTATIONS if isinstance(other.get(k), dict)]
        value = found[0].get(field) if found else None
    if isinstance(value, dict):  # 2025: id -> label; "annotators" repeats an id per label
        labels = {str(a).strip(): "" if v is None else str(v).strip() for a, v in value.items()}
        if set(who) != set(labels):
            raise DataRowError(
                path,
                row,
                "annotators",
                f"item {raw_id!r}: annotators {sorted(set(who))} differ from the ids of its "
                f"{field!r} {sorted(labels)}",
            )
        ordered = list(dict.fromkeys(who))
        return ordered, [labels[a] for a in ordered]
    if not isinstance(value, str):
        raise DataRowError(path, row, field, f"item {raw_id!r} has no {field!r} labels")
    values = [v.strip() for v in value.split(",")]
    if len(who) != len(values) or "" in who:
        raise DataRowError(
            path,
            row,
            "annotators",
            f"item {raw_id!r}: {len(who)} annotators but {len(values)} labels",
        )
    return who, values


def groups_of(record: dict[str, Any], who: list[str]) -> dict[str, str]:
    """Annotator -> group named in ``other_info`` (HS-Brexit's aligned list, ArMIS's map)."""
    other = record.get("other_info") or {}
    if not isinstance(other, dict):
        return {}
    found = {a: str(other[a]).strip() for a in who if isinstance(other.get(a), str)}
    groups = str(other.get("annotators group", "")).split(",")
    if len(groups) == len(who):
        for annotator, group in zip(who, groups):
            if group.strip():
                found[annotator] = str(other.get(group.strip(), group.strip()))
    return found


def _number(path: Path, row: int, raw_id: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise DataRowError(path, row, "soft_label", f"item {raw_id!r}: {value!r} is not a share")
    return float(value)


def soft_label(
    path: Path,
    row: int,
    raw_id: str,
    record: dict[str, Any],
    scale: LabelScale,
    soft_keys: Mapping[str, int],
    multilabel: Sequence[str] | None,
) -> dict[str, float] | None:
    soft = record.get("soft_label")
    if soft is None:
        return None
    if not isinstance(soft, dict):
        raise DataRowError(path, row, "soft_label", f"item {raw_id!r}: expected an object")
    if multilabel is not None:  # base label -> {"0": share without, "1": share with}
        if set(soft) != set(multilabel):
            raise DataRowError(
                path, row, "soft_label", f"item {raw_id!r}: keys {sorted(soft)} != {multilabel}"
            )
        shares = {}
        for base in multilabel:
            binary = soft[base]
            if not isinstance(binary, dict) or "1" not in binary:
                raise DataRowError(
                    path, row, "soft_label", f"item {raw_id!r}: {base!r} lacks the share of '1'"
                )
            shares[base] = _number(path, row, raw_id, binary["1"])
        return shares
    shares = dict.fromkeys(scale.labels, 0.0)
    for key, value in soft.items():
        share = _number(path, row, raw_id, value)
        index = soft_keys.get(soft_key(key))
        if index is None:
            if share == 0.0:  # e.g. a "0" bin on the 1-6 CSC scale: nothing to place
                continue
            raise DataRowError(
                path, row, "soft_label", f"item {raw_id!r}: key {key!r} is not on the scale"
            )
        shares[scale.labels[index]] += share
    return shares


def hard_label(
    path: Path, row: int, raw_id: str, record: dict[str, Any], scale: LabelScale, keys: Any
) -> str | None:
    if "hard_label" not in record:
        return None
    index = keys.get(soft_key(record["hard_label"]))
    if index is None:
        raise DataRowError(
            path, row, "hard_label", f"item {raw_id!r}: {record['hard_label']!r} not on the scale"
        )
    return str(scale.labels[index])
