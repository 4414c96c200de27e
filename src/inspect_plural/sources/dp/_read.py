"""The DP JSON-lines file read into records: one annotator per rater, items by comment."""

from __future__ import annotations

from pathlib import Path

from inspect_plural.records import Annotator, Item
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments, kept_rows
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources._read import read_json_lines, require_columns
from inspect_plural.sources.dp._fields import (
    DP_LABELS,
    DP_TOXICITY_LABELS,
    DP_TRAITS,
    UNKNOWN_TRAIT,
    _flag_values,
    _is_missing,
    _rater_ids,
    _trait_values,
)

__all__ = ["COMMENT_COLUMNS", "read_dp_jsonl"]


COMMENT_COLUMNS = ("comment", "comment_id", "ratings")

DP_EXPECTED = "the DP toxicity ratings: JSON lines, one comment object with its ratings a line"


def read_dp_jsonl(path: Path, label: str = "toxic_score", demo: bool = False) -> AnnotatedCorpus:
    """Read the DP JSON-lines file into records.

    Args:
        path: The file.
        label: ``toxic_score`` (default) or one of the binary flags of :data:`DP_LABELS`.
        demo: Whether the file is demo data.

    Returns:
        The corpus.

    Raises:
        ValueError: An unknown label.
        DataFileError: The file is not UTF-8 JSON lines, or a comment field is missing
            from the whole file.
        DataRowError: A line that is not a JSON object, or a rating with a bad label.

    """
    import pandas as pd

    if label not in DP_LABELS:
        raise ValueError(f"unknown DP label {label!r}; one of {list(DP_LABELS)}")
    numbered = read_json_lines(path, DP_EXPECTED)
    for n, record in numbered:
        if not isinstance(record, dict):
            raise DataRowError(path, n, "(line)", "expected one JSON object per line")
    if not numbered:
        raise DataRowError(path, 0, "(line)", "the file holds no comments")
    comments = pd.DataFrame([record for _, record in numbered], dtype=object)
    require_columns(comments.columns, COMMENT_COLUMNS, path, DP_EXPECTED, kind="field")
    comments["_row"] = [n for n, _ in numbered]

    item_ids = comments["comment_id"].map(lambda v: "" if _is_missing(v) else str(v).strip())
    texts = comments["comment"].map(lambda v: "" if _is_missing(v) else str(v).strip())
    for field, values in (("comment_id", item_ids), ("comment", texts)):
        empty = values == ""
        if empty.any():
            raise DataRowError(
                path, int(comments["_row"][empty].iloc[0]), field, "missing or empty"
            )
    bad_list = ~comments["ratings"].map(lambda v: isinstance(v, list))
    if bad_list.any():
        row = int(comments["_row"][bad_list].iloc[0])
        raise DataRowError(path, row, "ratings", "expected a list of rating objects")
    comments["item_id"] = item_ids

    exploded = comments[["_row", "item_id", "ratings"]].explode("ratings", ignore_index=True)
    exploded = exploded[exploded["ratings"].notna()]
    exploded["_position"] = exploded.groupby("_row", sort=False).cumcount()
    not_object = ~exploded["ratings"].map(lambda v: isinstance(v, dict))
    if not_object.any():
        bad = exploded[not_object].iloc[0]
        raise DataRowError(
            path, int(bad["_row"]), f"ratings[{bad['_position']}]", "expected a JSON object"
        )
    ratings = pd.DataFrame(exploded["ratings"].tolist(), dtype=object)
    where = exploded[["_row", "item_id", "_position"]].reset_index(drop=True)
    if label not in ratings.columns:
        raise ValueError(f"{path}: no rating has the field {label!r}")
    raw = ratings[label]
    if label == "toxic_score":
        numbers = pd.to_numeric(raw.map(lambda v: None if isinstance(v, bool) else v), "coerce")
        valid = numbers.isin(range(len(DP_TOXICITY_LABELS)))
        problem = f"expected an integer 0-{len(DP_TOXICITY_LABELS) - 1}"
    else:
        numbers = _flag_values(raw)
        valid = numbers.notna()
        problem = "expected a boolean (true/false)"
    if not valid.all():
        position = int((~valid).to_numpy().argmax())
        bad = where.iloc[position]
        raise DataRowError(
            path,
            int(bad["_row"]),
            f"ratings[{bad['_position']}].{label}",
            f"{raw.iloc[position]!r}: {problem}",
        )

    annotator_ids = _rater_ids(ratings)
    judgments, _ = dedupe_judgments(
        pd.DataFrame(
            {
                "annotator_id": annotator_ids.to_numpy(),
                "item_id": where["item_id"].to_numpy(),
                "label": numbers.astype(int).to_numpy(),
            }
        ),
        str(path),
    )
    once = kept_rows(
        comments["item_id"], texts, str(path), "comment ids repeat with a different comment"
    )
    items = {i: Item(id=i, text=t) for i, t in zip(comments["item_id"][once], texts[once])}

    trait_columns = {
        name: (
            field
            if field in ratings.columns or field != "political_affilation"
            else "political_affiliation"
        )
        for name, field in DP_TRAITS.items()
    }
    present = [f for f in trait_columns.values() if f in ratings.columns]
    first = pd.Series(
        kept_rows(
            annotator_ids,
            ratings[present],
            str(path),
            "raters (worker_id) repeat with different survey answers",
        ),
        index=ratings.index,
    )
    profile = pd.DataFrame(
        {
            name: (
                _trait_values(ratings.loc[first, field])
                if field in ratings.columns
                else UNKNOWN_TRAIT
            )
            for name, field in trait_columns.items()
        },
        index=ratings.index[first],
    )
    names = list(DP_TRAITS)
    annotators = {
        a: Annotator(id=a, traits=dict(zip(names, values)))
        for a, values in zip(
            annotator_ids[first].tolist(), profile[names].to_numpy(dtype=object).tolist()
        )
    }
    kind = "demo data written for inspect_plural" if demo else "local DP JSON lines"
    return AnnotatedCorpus(
        name="dp",
        scale=DP_LABELS[label],
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=f"{kind} {path.name} (sha256 {sha256_of(path)[:16]})",
        demo=demo,
        trait_dimensions=names,
    )
