"""EPIC (Frenda et al. 2023): irony in post-reply pairs, 74 annotators with demographics.

The official release is the Hugging Face dataset ``Multilingual-Perspectivist-NLU/EPIC``
(CC BY-NC-SA 4.0), one file ``EPICorpus.csv`` with one row per annotator x pair: the
annotator ``user`` (a Prolific id), the reply ``id_original`` with its ``text``, the post
``parent_text`` it answers, the ``label`` (``iro`` or ``not``) and the annotator's
demographics (``Sex``, ``Age``, ``Nationality``, ``Ethnicity simplified``, ...).

Records follow PersEval (``perseval/data.py``): the annotator is ``user``, the item is
``id_original`` with the parts ``{"post": parent_text, "reply": text}``, ``iro`` is 1 and
``not`` is 0, and the traits are ``Gender`` (``Sex``), ``Nationality`` and ``Generation``
(``int(Age)`` binned at 58/42/26; an age that is not an integer, e.g. ``DATA_EXPIRED``,
gives ``UNK``). Nothing is filtered.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments, kept_rows
from inspect_plural.sources._hub import hub_dataframe, sha256_of
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_folder, data_root
from inspect_plural.sources._read import read_csv_file, require_columns

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EPIC_COLUMNS",
    "EPIC_FILE",
    "EPIC_HF_REPO",
    "EPIC_HF_REVISION",
    "EPIC_LABELS",
    "EPIC_TRAIT_DIMENSIONS",
    "generation_of_age",
    "load_epic",
    "read_epic_frame",
]

EPIC_HF_REPO = "Multilingual-Perspectivist-NLU/EPIC"
"""Hugging Face dataset used by PersEval (split ``train``)."""

EPIC_HF_REVISION = "main"
"""Hub revision. No commit SHA could be read offline; pass ``-T revision=SHA`` to pin one."""

EPIC_FILE = "EPICorpus.csv"
"""The official file, expected in the local data folder."""

EPIC_COLUMNS = [
    "id_original",
    "text",
    "parent_id_original",
    "parent_text",
    "language_variety",
    "user",
    "label",
    "Sex",
    "Age",
    "Ethnicity simplified",
    "Country of birth",
    "Country of residence",
    "Nationality",
    "Student status",
    "Employment status",
]
"""Columns of ``EPICorpus.csv`` known from code that reads it (the full list is not verified).

Only ``user``, ``id_original``, ``parent_text``, ``text``, ``label``, ``Sex``, ``Age`` and
``Nationality`` are required; the demo file has all of these columns.
"""

REQUIRED_COLUMNS = [
    "user",
    "id_original",
    "parent_text",
    "text",
    "label",
    "Sex",
    "Age",
    "Nationality",
]

EPIC_LABELS: dict[str, dict[str, int]] = {"irony": {"not": 0, "iro": 1}}
"""Label name -> raw value of the ``label`` column -> index into the scale."""

EPIC_TRAIT_DIMENSIONS = ["Gender", "Generation", "Nationality"]
"""The PersEval trait dimensions of EPIC, in display order."""

EPIC_EXPECTED = "EPICorpus.csv, one row per annotator and post-reply pair"

UNKNOWN = "UNK"
LOCAL_SUBDIR = "epic"

EPIC_SCALE = LabelScale(
    kind="nominal",
    labels=["not ironic", "ironic"],
    description=(
        "Read the post and the reply to it. Is the reply ironic, that is, does it mean "
        "something different from, or opposite to, what it literally says?"
    ),
)


def generation_of_age(age: pd.Series) -> pd.Series:
    """PersEval's EPIC generation of an age column (strings as in the CSV).

    Args:
        age: Raw ``Age`` values.

    Returns:
        ``Boomer`` (>= 58), ``GenX`` (>= 42), ``GenY`` (>= 26) or ``GenZ``; ``UNK`` where
        ``int(value)`` fails, as in the official code.

    """
    import pandas as pd

    text = age.astype("string").str.strip()
    is_int = text.str.fullmatch(r"[+-]?\d+").fillna(False).astype(bool)
    years = pd.to_numeric(text.where(is_int), errors="coerce").to_numpy(
        dtype=float, na_value=np.nan
    )
    binned = np.select(
        [years >= 58, years >= 42, years >= 26, ~np.isnan(years)],
        ["Boomer", "GenX", "GenY", "GenZ"],
        default=UNKNOWN,
    )
    result: pd.Series = pd.Series(binned, index=age.index, dtype=object)
    return result


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/epic")))


def _missing(searched: Path) -> str:
    return (
        f"EPIC needs the file {EPIC_FILE} from the Hugging Face dataset {EPIC_HF_REPO} "
        f"(huggingface.co/datasets/{EPIC_HF_REPO}, file {EPIC_FILE}; license CC BY-NC-SA 4.0). "
        f"Searched: {searched / EPIC_FILE}. Put it in {data_root() / LOCAL_SUBDIR}/ "
        "(or set INSPECT_PLURAL_DATA_DIR) or pass -T data_dir=FOLDER, run with access to "
        "the Hugging Face hub, or use the offline demo rows: -T demo=true."
    )


def _strings(frame: pd.DataFrame, column: str, source: str, allow_empty: bool) -> pd.Series:
    """A column as stripped strings; a missing (or, unless allowed, empty) value is an error."""
    raw = frame[column]
    missing = raw.isna().to_numpy()
    values = raw.astype(str).str.strip()
    values[missing] = ""
    if not allow_empty:
        empty = (values == "").to_numpy()
        if empty.any():
            row = int(empty.argmax())
            raise DataRowError(source, row, column, "the value is empty")
    return values


def read_epic_frame(
    frame: pd.DataFrame, source: str, origin: str, label: str = "irony", demo: bool = False
) -> AnnotatedCorpus:
    """Records from the rows of ``EPICorpus.csv``.

    Args:
        frame: The rows, in file order.
        source: The file (or hub id) named in row errors.
        origin: Description of the source, for the log.
        label: The label (only ``irony``).
        demo: Whether the rows are demo data.

    Returns:
        The corpus.

    Raises:
        DataFileError: Required columns are missing.
        DataRowError: A row has an empty id or an unknown label.

    """
    import pandas as pd

    require_columns(frame.columns, REQUIRED_COLUMNS, source, EPIC_EXPECTED)
    codes = EPIC_LABELS[label]
    users = _strings(frame, "user", source, allow_empty=False)
    item_ids = _strings(frame, "id_original", source, allow_empty=False)
    raw_labels = _strings(frame, "label", source, allow_empty=True)
    values = raw_labels.map(codes)
    bad = values.isna().to_numpy()
    if bad.any():
        row = int(bad.argmax())
        raise DataRowError(
            source, row, "label", f"{raw_labels.iloc[row]!r} is not one of {sorted(codes)}"
        )
    judgments = pd.DataFrame(
        {"annotator_id": users, "item_id": item_ids, "label": values.astype(int)}
    )
    judgments, _ = dedupe_judgments(judgments, source)

    posts = _strings(frame, "parent_text", source, allow_empty=True)
    replies = _strings(frame, "text", source, allow_empty=True)
    first = kept_rows(
        item_ids,
        pd.DataFrame({"post": posts, "reply": replies}),
        source,
        "item ids (id_original) repeat with a different post or reply",
    )
    items = {
        i: Item(id=i, parts={"post": p, "reply": r})
        for i, p, r in zip(item_ids[first].tolist(), posts[first].tolist(), replies[first].tolist())
    }

    # The official code rewrites the traits on every row, so the last row of a user wins.
    everyone = pd.DataFrame(
        {
            "user": users,
            "Gender": _strings(frame, "Sex", source, allow_empty=True),
            "Generation": generation_of_age(frame["Age"]),
            "Nationality": _strings(frame, "Nationality", source, allow_empty=True),
        }
    )
    last = kept_rows(
        users,
        everyone[EPIC_TRAIT_DIMENSIONS],
        source,
        "annotators (user) repeat with different traits",
        keep="last",
    )
    people = everyone[last].replace("", UNKNOWN)
    annotators = {
        u: Annotator(id=u, traits={"Gender": g, "Generation": a, "Nationality": n})
        for u, g, a, n in people[["user", *EPIC_TRAIT_DIMENSIONS]].itertuples(index=False)
    }
    return AnnotatedCorpus(
        name="epic",
        scale=EPIC_SCALE,
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=origin,
        demo=demo,
        trait_dimensions=list(EPIC_TRAIT_DIMENSIONS),
    )


def load_epic(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = "irony",
    revision: str | None = None,
) -> AnnotatedCorpus:
    """Load EPIC as records.

    Search order: ``data_dir``; ``<data root>/epic``; the Hugging Face hub (split
    ``train``). A given ``data_dir`` without the file fails at once, with no download.

    Args:
        data_dir: Folder holding ``EPICorpus.csv``.
        demo: Use the demo file written for this package (same schema, invented text).
        label: ``irony`` (the only label).
        revision: Hub revision when downloading (default ``main``).

    Returns:
        The corpus (items keyed by ``id_original``, annotators by ``user``).

    Raises:
        DataNotFoundError: No copy can be found or downloaded.
        ValueError: An unknown label, or the file lacks required columns.
        DataRowError: A malformed row.

    """
    if label not in EPIC_LABELS:
        raise ValueError(f"unknown EPIC label {label!r}; one of {list(EPIC_LABELS)}")
    found = None if demo else data_folder(data_dir, LOCAL_SUBDIR)
    folder = _demo_dir() if found is None else found.path
    path = folder / EPIC_FILE
    if path.is_file():
        frame = read_csv_file(path, EPIC_EXPECTED, dtype=str, keep_default_na=False)
        digest = sha256_of(path)[:16]
        kind = "demo data written for inspect_plural" if demo else "local file"
        origin = f"{kind}: {folder.name}/{EPIC_FILE} (sha256 {digest})"
        corpus = read_epic_frame(frame, str(path), origin, label=label, demo=demo)
        return replace(corpus, folder="" if found is None else found.label)
    if data_dir or demo:
        raise DataNotFoundError(_missing(folder))
    revision = revision or EPIC_HF_REVISION
    frame, origin = hub_dataframe(EPIC_HF_REPO, revision, _missing(folder), split="train")
    return read_epic_frame(frame, f"hub {EPIC_HF_REPO}", origin, label=label)
