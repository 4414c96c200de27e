"""Measuring Hate Speech (Kennedy et al. 2020; Sachdeva et al. 2022): 135,556 judgments.

The official release is the Hugging Face dataset ``ucberkeley-dlab/measuring-hate-speech``
(CC BY 4.0): one parquet file, one row per annotator x comment, 131 columns (the ten
survey items such as ``hatespeech`` 0/1/2, the IRT scores, target-identity flags and
annotator demographics). It covers 39,565 comments and 7,912 annotators.

Records follow PersEval (``perseval/data.py``): the annotator is ``annotator_id``, the item
is ``comment_id`` with the text ``text``, and the label ``hateful`` is 1 when
``hatespeech > 0``. The ``hatespeech`` label keeps the three answers. The traits are:

- ``Education`` from ``annotator_educ`` (``educ-high`` / ``educ-low``);
- ``Gender``, the raw ``annotator_gender``;
- ``Ideology`` from ``annotator_ideology`` (``conservative`` / ``liberal`` / ``neutral``);
- ``Income`` from ``annotator_income`` (``income-low`` / ``income-high``);
- ``Age``, ``int(annotator_age)`` binned for 2020 at 56/40/24 into Boomer, GenX, GenY and
  GenZ. PersEval names this dimension ``Age``.

A missing value leaves the dimension out for that annotator, as the official code does.
The exception is ``Gender``, which has no check there; a missing gender becomes ``UNK``.
Like the official code, which rewrites the traits on each row, the last non-missing value
of an annotator wins. Nothing is filtered.

Loading reads only the needed columns, maps the traits once per annotator and builds each
item once, so the full file loads in well under a second or two.

The code lives in private modules, one concept each, re-exported here unchanged: the
official columns and the filler of missing ones (``_mhs_columns``), the label scales
and trait mappings (``_mhs_mappings``), and the rows read into records
(``_mhs_read``). This module keeps where the data comes from (the hub pin, the local
files, the demo parquet) and the loader.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._hub import hub_dataframe, sha256_of
from inspect_plural.sources._paths import (
    DataNotFoundError,
    data_folder,
    data_root,
)
from inspect_plural.sources._read import read_csv_file, read_parquet_file, require_columns
from inspect_plural.sources.mhs._columns import (
    EDUCATION_VALUES,
    GENDER_COLUMNS,
    IDEOLOGY_VALUES,
    INCOME_VALUES,
    MHS_COLUMNS,
    MHS_REQUIRED_COLUMNS,
    RACE_VALUES,
    RELIGION_VALUES,
    SEXUALITY_VALUES,
    SURVEY_ITEMS,
    complete_mhs_frame,
)
from inspect_plural.sources.mhs._mappings import (
    MHS_EDUCATION,
    MHS_IDEOLOGY,
    MHS_INCOME,
    MHS_LABELS,
    MHS_TRAIT_DIMENSIONS,
    UNKNOWN,
    generation_of_age,
)
from inspect_plural.sources.mhs._read import read_mhs_frame

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MHS_COLUMNS",
    "MHS_EDUCATION",
    "MHS_FILES",
    "MHS_HF_REPO",
    "MHS_HF_REVISION",
    "MHS_IDEOLOGY",
    "MHS_INCOME",
    "MHS_LABELS",
    "MHS_REQUIRED_COLUMNS",
    "MHS_TRAIT_DIMENSIONS",
    "complete_mhs_frame",
    "generation_of_age",
    "load_mhs",
    "read_mhs_frame",
    # the value lists and the unknown-trait value, importable from here as before the split
    "EDUCATION_VALUES",
    "GENDER_COLUMNS",
    "IDEOLOGY_VALUES",
    "INCOME_VALUES",
    "RACE_VALUES",
    "RELIGION_VALUES",
    "SEXUALITY_VALUES",
    "SURVEY_ITEMS",
    "UNKNOWN",
]

MHS_HF_REPO = "ucberkeley-dlab/measuring-hate-speech"
"""Hugging Face dataset used by PersEval (split ``train``)."""

MHS_HF_REVISION = "main"
"""Hub revision. No commit SHA could be read offline; pass ``-T revision=SHA`` to pin one."""

MHS_FILES = ("measuring-hate-speech.parquet", "measuring-hate-speech.csv")
"""Local file names accepted, in order of preference (the hub ships the parquet)."""

LOCAL_SUBDIR = "mhs"


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/mhs")))


def _missing(searched: Path) -> str:
    return (
        f"MHS needs the file {MHS_FILES[0]} (or a CSV export {MHS_FILES[1]}) from the "
        f"Hugging Face dataset {MHS_HF_REPO} (huggingface.co/datasets/{MHS_HF_REPO}; "
        f"license CC BY 4.0). Searched: {searched}/. Put it in {data_root() / LOCAL_SUBDIR}/ "
        "(or set INSPECT_PLURAL_DATA_DIR) or pass -T data_dir=FOLDER, run with access to "
        "the Hugging Face hub, or use the offline demo rows: -T demo=true."
    )


MHS_EXPECTED = "the MHS table, one row per annotation"


def _read_local(path: Path) -> pd.DataFrame:
    """Only the needed columns of a local parquet or CSV file."""
    if path.suffix == ".parquet":
        return read_parquet_file(path, MHS_EXPECTED, MHS_REQUIRED_COLUMNS)
    header = read_csv_file(path, MHS_EXPECTED, nrows=0).columns
    require_columns(header, MHS_REQUIRED_COLUMNS, path, MHS_EXPECTED)
    return read_csv_file(
        path, MHS_EXPECTED, usecols=MHS_REQUIRED_COLUMNS, keep_default_na=False, na_values=[""]
    )


def load_mhs(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = "hateful",
    revision: str | None = None,
) -> AnnotatedCorpus:
    """Load Measuring Hate Speech as records.

    Search order: ``data_dir``; ``<data root>/mhs``; the Hugging Face hub (split
    ``train``). A folder may hold ``measuring-hate-speech.parquet`` (preferred) or
    ``measuring-hate-speech.csv``. A given ``data_dir`` without either fails at once.

    Args:
        data_dir: Folder holding the official file.
        demo: Use the demo parquet written for this package (official schema).
        label: ``hateful`` (binary, PersEval's label) or ``hatespeech`` (no/unclear/yes).
        revision: Hub revision when downloading (default ``main``).

    Returns:
        The corpus (items keyed by ``comment_id``, annotators by ``annotator_id``).

    Raises:
        DataNotFoundError: No copy can be found or downloaded.
        ValueError: An unknown label.
        DataFileError: The file cannot be read or lacks required columns.
        DataRowError: A malformed row.

    """
    if label not in MHS_LABELS:
        raise ValueError(f"unknown MHS label {label!r}; one of {list(MHS_LABELS)}")
    found = None if demo else data_folder(data_dir, LOCAL_SUBDIR)
    folder = _demo_dir() if found is None else found.path
    for name in MHS_FILES:
        path = folder / name
        if path.is_file():
            digest = sha256_of(path)[:16]
            kind = "demo data written for inspect_plural" if demo else "local file"
            origin = f"{kind}: {folder.name}/{name} (sha256 {digest})"
            corpus = read_mhs_frame(_read_local(path), str(path), origin, label=label, demo=demo)
            return replace(corpus, folder="" if found is None else found.label)
    if data_dir or demo:
        raise DataNotFoundError(_missing(folder))
    revision = revision or MHS_HF_REVISION
    frame, origin = hub_dataframe(MHS_HF_REPO, revision, _missing(folder), split="train")
    return read_mhs_frame(frame, f"hub {MHS_HF_REPO}", origin, label=label)
