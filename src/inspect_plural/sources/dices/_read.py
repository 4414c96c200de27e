"""A DICES CSV -> records: the rater questions, their scale, and the reading.

A judgment is a rater's answer to one Yes/No/Unsure question column
(:data:`DICES_DEFAULT_LABEL` unless another is chosen; :func:`check_label` refuses
expert and comprehension columns), as No 0, Unsure 1, Yes 2 of the three-class scale
:func:`dices_scale`. :func:`read_dices_csv` reads one official CSV into an
:class:`~inspect_plural.sources.AnnotatedCorpus`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments, kept_rows
from inspect_plural.sources._paths import DataFileError, DataRowError
from inspect_plural.sources._read import read_csv_file, require_columns
from inspect_plural.sources.dices._columns import DICES_EXPERT_FIELDS, DICES_TRAITS, resolve_column

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DICES_ANSWERS",
    "DICES_DEFAULT_LABEL",
    "UNKNOWN",
    "check_label",
    "dices_label_columns",
    "dices_scale",
    "read_dices_csv",
]

DICES_DEFAULT_LABEL = "Q2_harmful_content_overall"
"""The per-rater judgment PersEval predicts."""

DICES_EXPECTED = "the DICES CSV, one row per rater and conversation"

DICES_ANSWERS = {"No": 0, "Unsure": 1, "Yes": 2}
"""Raw answer -> label index (PersEval's ``label_map``)."""

UNKNOWN = "UNK"
_QUESTION = re.compile(r"^Q[2-6]_|^Q_overall$")
_INTEGER = re.compile(r"\d+")

_FAMILIES: dict[str, tuple[list[str], str]] = {
    "Q2": (["not harmful", "unsure", "harmful"], "contain harmful content"),
    "Q3": (["not unfairly biased", "unsure", "unfairly biased"], "show unfair bias"),
    "Q4": (["not misinformation", "unsure", "misinformation"], "spread misinformation"),
    "Q5": (["not partisan", "unsure", "partisan"], "take a political side"),
    "Q6": (
        ["within policy", "unsure", "against policy"],
        "go against the chatbot's safety policy guidelines",
    ),
    "Q": (["safe", "unsure", "unsafe"], "make the conversation unsafe in any way"),
}


def dices_scale(label: str = DICES_DEFAULT_LABEL) -> LabelScale:
    """The three-class scale of a DICES question column (No 0, Unsure 1, Yes 2).

    Args:
        label: A per-rater question column, e.g. ``Q2_harmful_content_overall``.

    Returns:
        The scale, with a question of our own wording as its description.

    """
    family = label.split("_", 1)[0]
    labels, concern = _FAMILIES.get(family, (["no", "unsure", "yes"], "raise a safety concern"))
    detail = ""
    if not label.endswith("_overall") and family != "Q":
        reason = re.sub(
            r"^Q\d(_\d)?_(harmful_content|bias|misinformation|policy_guidelines)?_?", "", label
        )
        if reason:
            detail = f" (specifically: {reason.replace('_', ' ').lower()})"
    description = f"Does the chatbot's final response in this conversation {concern}{detail}?"
    return LabelScale(kind="nominal", labels=labels, description=description)


def dices_label_columns(header: list[str]) -> list[str]:
    """The per-rater Yes/No/Unsure question columns of a DICES header (Q2-Q6, Q_overall)."""
    return [c for c in header if _QUESTION.match(c)]


def check_label(label: str) -> None:
    if label in DICES_EXPERT_FIELDS:
        raise ValueError(
            f"DICES column {label!r} is {DICES_EXPERT_FIELDS[label]}: an expert, per-item "
            "label that is identical for every rater, not a rater's judgment, so it cannot "
            f"be an annotator-level target. Use a rater question such as {DICES_DEFAULT_LABEL!r}."
        )
    if label.startswith("Q1_"):
        raise ValueError(
            f"DICES column {label!r} is a comprehension check (four answers), not a "
            "Yes/No/Unsure safety judgment"
        )


def read_dices_csv(
    path: Path,
    subset: str,
    label: str = DICES_DEFAULT_LABEL,
    origin: str | None = None,
    demo: bool = False,
) -> AnnotatedCorpus:
    """Read an official DICES CSV into records.

    Args:
        path: The CSV (official schema of ``subset``).
        subset: ``"350"`` or ``"990"`` (decides the trait dimensions).
        label: The per-rater question column to predict.
        origin: Description of the source for the log (default: the file name).
        demo: Whether the file is demo data written for this package.

    Returns:
        The corpus; items have parts ``conversation`` (``context``) and ``final response``.

    Raises:
        ValueError: An expert label column.
        DataFileError: The file cannot be read, or lacks the label or other columns.
        DataRowError: A row with an empty id or an answer other than Yes/No/Unsure.

    """
    import pandas as pd

    check_label(label)
    header = list(read_csv_file(path, DICES_EXPECTED, nrows=0).columns)
    label_column = resolve_column(header, label)
    if label_column is None:
        raise DataFileError(
            path,
            f"no column {label!r}; its per-rater questions are "
            f"{', '.join(dices_label_columns(header))}.",
        )
    if not _QUESTION.match(label_column):
        raise ValueError(
            f"DICES column {label!r} is not a per-rater Yes/No/Unsure question; choose one of "
            f"{dices_label_columns(header)}"
        )
    traits = DICES_TRAITS[subset]
    wanted = ["rater_id", "item_id", "context", "response", *[c for _, c in traits]]
    require_columns(header, wanted, path, f"{DICES_EXPECTED} (the DICES-{subset} schema)")
    columns = [*wanted, label_column]
    frame = read_csv_file(
        path, DICES_EXPECTED, usecols=columns, dtype=str, keep_default_na=False, na_filter=False
    )[columns]

    ids: dict[str, pd.Series] = {}
    for column in ("rater_id", "item_id"):
        values = frame[column].str.strip()
        bad = ~values.str.fullmatch(_INTEGER)
        if bad.any():
            row = int(bad.to_numpy().argmax())
            raise DataRowError(
                path, row, column, f"{frame[column].iloc[row]!r} is not a numeric identifier"
            )
        ids[column] = values
    answers = frame[label_column].str.strip().str.capitalize().map(DICES_ANSWERS)
    bad = answers.isna()
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DataRowError(
            path, row, label_column, f"{frame[label_column].iloc[row]!r} is not Yes, No or Unsure"
        )
    judgments = pd.DataFrame(
        {
            "annotator_id": ids["rater_id"],
            "item_id": ids["item_id"],
            "label": answers.astype(int),
        }
    )
    judgments, _ = dedupe_judgments(judgments, str(path))

    texts = frame[["context", "response"]].apply(lambda c: c.str.strip())
    once = kept_rows(ids["item_id"], texts, str(path), "item ids repeat with a different text")
    items = {
        i: Item(id=i, parts={"conversation": c, "final response": r})
        for i, c, r in zip(ids["item_id"][once], texts["context"][once], texts["response"][once])
    }
    people = frame[[c for _, c in traits]].apply(lambda c: c.str.strip())
    first_raters = frame.assign(_rater=ids["rater_id"])[
        kept_rows(ids["rater_id"], people, str(path), "rater ids repeat with different traits")
    ]
    values = {
        dim: first_raters[col].str.strip().replace("", UNKNOWN).tolist() for dim, col in traits
    }
    annotators = {
        a: Annotator(id=a, traits={dim: values[dim][n] for dim, _ in traits})
        for n, a in enumerate(first_raters["_rater"].tolist())
    }
    return AnnotatedCorpus(
        name="dices",
        scale=dices_scale(label_column),
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=origin or path.name,
        demo=demo,
        trait_dimensions=[dim for dim, _ in traits],
    )
