"""MHS rows -> records: one judgment per row, each item once, traits once per annotator.

:func:`read_mhs_frame` checks the ids, the ``hatespeech`` answers, the texts and the
ages row by row (a bad row is a :class:`~inspect_plural.sources.DataRowError`), maps
each annotator's last non-missing demographics through the official tables, and builds
the :class:`~inspect_plural.sources.AnnotatedCorpus`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from inspect_plural.records import Annotator, Item
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments, kept_rows
from inspect_plural.sources._paths import DataRowError
from inspect_plural.sources._read import require_columns
from inspect_plural.sources.mhs._columns import MHS_REQUIRED_COLUMNS
from inspect_plural.sources.mhs._mappings import (
    MHS_EDUCATION,
    MHS_IDEOLOGY,
    MHS_INCOME,
    MHS_LABELS,
    MHS_TRAIT_DIMENSIONS,
    UNKNOWN,
    generation_of_age,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_mhs_frame"]


def _ids(frame: pd.DataFrame, column: str, source: str) -> pd.Series:
    """An id column as strings (integers without a decimal point)."""
    import pandas as pd

    raw = frame[column]
    missing = raw.isna().to_numpy()
    if missing.any():
        raise DataRowError(source, int(missing.argmax()), column, "the id is missing")
    if pd.api.types.is_integer_dtype(raw.dtype):
        return raw.astype("int64").astype(str)
    if pd.api.types.is_float_dtype(raw.dtype):
        fractional = raw.to_numpy() % 1 != 0
        if fractional.any():
            row = int(fractional.argmax())
            raise DataRowError(source, row, column, f"{raw.iloc[row]!r} is not an integer id")
        return raw.astype("int64").astype(str)
    values = raw.astype(str).str.strip()
    empty = (values == "").to_numpy()
    if empty.any():
        raise DataRowError(source, int(empty.argmax()), column, "the id is empty")
    return values


def _first_row(frame: pd.DataFrame, column: str, value: object) -> int:
    hits = (frame[column] == value).to_numpy()
    return int(hits.argmax())


def _mapped(
    frame: pd.DataFrame, people: pd.DataFrame, column: str, mapping: dict[str, str], source: str
) -> pd.Series:
    """Per-annotator values mapped through the official table; unknown values are errors."""
    raw = people[column]
    text = raw.where(raw.isna(), raw.astype(str).str.strip())
    mapped = text.map(mapping)
    unknown = (mapped.isna() & text.notna()).to_numpy()
    if unknown.any():
        value = raw.iloc[int(unknown.argmax())]
        raise DataRowError(
            source,
            _first_row(frame, column, value),
            column,
            f"{value!r} is not one of {sorted(mapping)}",
        )
    result: pd.Series = mapped
    return result


def read_mhs_frame(
    frame: pd.DataFrame, source: str, origin: str, label: str = "hateful", demo: bool = False
) -> AnnotatedCorpus:
    """Records from the rows of the MHS parquet (or CSV).

    Args:
        frame: The rows in file order; at least :data:`MHS_REQUIRED_COLUMNS`.
        source: The file (or hub id) named in row errors.
        origin: Description of the source, for the log.
        label: ``hateful`` (default) or ``hatespeech``.
        demo: Whether the rows are demo data.

    Returns:
        The corpus.

    Raises:
        ValueError: Required columns are missing, or the label is unknown.
        DataRowError: A row has a missing id, a ``hatespeech`` outside 0/1/2, a missing
            text, an age that is not a number or a demographic value the official
            mappings do not know.

    """
    import pandas as pd

    if label not in MHS_LABELS:
        raise ValueError(f"unknown MHS label {label!r}; one of {list(MHS_LABELS)}")
    require_columns(frame.columns, MHS_REQUIRED_COLUMNS, source, "the MHS table")
    frame = frame.reset_index(drop=True)
    annotator_ids = _ids(frame, "annotator_id", source)
    item_ids = _ids(frame, "comment_id", source)

    score = pd.to_numeric(frame["hatespeech"], errors="coerce")
    bad = ~score.isin([0, 1, 2]).to_numpy()
    if bad.any():
        row = int(bad.argmax())
        raise DataRowError(
            source, row, "hatespeech", f"{frame['hatespeech'].iloc[row]!r} is not 0, 1 or 2"
        )
    codes = (score > 0).astype(int) if label == "hateful" else score.astype(int)
    judgments = pd.DataFrame({"annotator_id": annotator_ids, "item_id": item_ids, "label": codes})
    judgments, _ = dedupe_judgments(judgments, source)

    first = kept_rows(item_ids, frame["text"], source, "comment ids repeat with a different text")
    texts = frame["text"][first]
    no_text = texts.isna().to_numpy()
    if no_text.any():
        row = int(np.flatnonzero(first)[int(no_text.argmax())])
        raise DataRowError(source, row, "text", "the text is missing")
    items = {
        i: Item(id=i, text=t)
        for i, t in zip(item_ids[first].tolist(), texts.astype(str).str.strip().tolist())
    }

    ages = pd.to_numeric(frame["annotator_age"], errors="coerce")
    bad_age = (ages.isna() & frame["annotator_age"].notna()).to_numpy()
    if bad_age.any():
        row = int(bad_age.argmax())
        raise DataRowError(
            source, row, "annotator_age", f"{frame['annotator_age'].iloc[row]!r} is not a number"
        )
    demographic = ["annotator_gender", "annotator_educ", "annotator_income", "annotator_ideology"]
    rows = frame[demographic].assign(annotator_id=annotator_ids, annotator_age=ages)
    # groupby().last() takes each column's last non-missing value, as the official
    # per-row rewrite (guarded by "is not None") leaves it.
    people = rows.groupby("annotator_id", sort=False).last()
    gender = people["annotator_gender"]
    traits = pd.DataFrame(
        {
            "Education": _mapped(frame, people, "annotator_educ", MHS_EDUCATION, source),
            "Gender": gender.where(gender.isna(), gender.astype(str)).fillna(UNKNOWN),
            "Ideology": _mapped(frame, people, "annotator_ideology", MHS_IDEOLOGY, source),
            "Income": _mapped(frame, people, "annotator_income", MHS_INCOME, source),
            "Age": generation_of_age(people["annotator_age"]),
        },
        index=people.index,
    )
    columns = [traits[d].astype(object).tolist() for d in MHS_TRAIT_DIMENSIONS]
    annotators = {
        a: Annotator(
            id=a,
            traits={d: v for d, v in zip(MHS_TRAIT_DIMENSIONS, values) if isinstance(v, str)},
        )
        for a, *values in zip(people.index.astype(str).tolist(), *columns)
    }
    return AnnotatedCorpus(
        name="mhs",
        scale=MHS_LABELS[label],
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=origin,
        demo=demo,
        trait_dimensions=list(MHS_TRAIT_DIMENSIONS),
    )
