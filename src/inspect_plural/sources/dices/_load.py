"""DICES (Aroyo et al. 2023): safety of chatbot conversations, rated by diverse rater pools.

Two official CSV files from GitHub ``google-research-datasets/dices-dataset`` (CC BY 4.0),
one row per (rater, conversation):

- DICES-350, ``350/diverse_safety_adversarial_dialog_350.csv``: 43,050 rows, 350
  conversations x 123 raters (every rater rated every conversation), 41 columns.
- DICES-990, ``990/diverse_safety_adversarial_dialog_990.csv``: 72,103 rows, 990
  conversations, 173 raters (each rated a sample), 43 columns, with ``rater_locale``.

What was found about the source (offline, from stored versions of the repository):

- The repository README (commit :data:`DICES_COMMIT`) names both paths, and the
  TensorFlow Datasets builder downloads exactly those paths from ``raw.githubusercontent``
  (branch ``main``) and parses them with ``pandas.read_csv``, so the files are plain git
  blobs (about 48 MiB for the 990 file), not git LFS pointers. None of the stored versions
  of the repository contained the CSVs themselves (they are over the index's size cap),
  so the CSV bytes were never seen here; a downloaded file that turns out to be an LFS
  pointer is rejected with an explanation.
- Column-name quirks of the real files (read from the TFDS builder and published analysis
  scripts, which name the real columns) against the READMEs: the 990 file has
  ``rater_race_raw`` (README ``rater_raw_race``), ``Q3_unfair_bias_overall`` (README
  ``Q3_bias_overall``) and ``Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_
  incites_or_promote_hatred_based_on_any_of_the_attributes_noted_above`` (README
  ``Q3_bias_racial_religious_or_other_slurs_and_stereotypes``); the 350 file has
  ``Q6_policy_guidelines_other`` (README ``..._other_type``). Either spelling is accepted.

The judgment is a rater's ``Q2_harmful_content_overall`` (``Yes`` / ``Unsure`` / ``No``),
as in PersEval, mapped to the indices No 0, Unsure 1, Yes 2 of a three-class scale. Other
per-rater ``Yes`` / ``No`` / ``Unsure`` questions present in the file can be chosen with
``label``. ``degree_of_harm``, ``harm_type`` and ``safety_gold`` are expert labels of the
conversation, the same for every rater, and are refused as targets.

Traits follow PersEval: Gender (``rater_gender``), Generation (``rater_age``: ``gen z``,
``millenial``, ``gen x+`` as written in the data), Race (``rater_race``), Education
(``rater_education``), plus Locale (``rater_locale``) for DICES-990; empty values are
``UNK``. No rater-quality filter is applied (PersEval applies none; the DICES papers keep
104 of 123 and 160 of 173 raters). Item ids are the files' numeric ``item_id``; PersEval
keys items by a 12-hex ``text_id`` of its own derived copy, whose derivation is unknown.

The code lives in private modules, one concept each, re-exported here unchanged: the
columns, their aliases and the rater traits (``_dices_columns``), and the rater
questions, their scale and the reading of a CSV into records (``_dices_read``). This
module keeps where the files come from (the pinned commit and paths, the local search,
the download and its LFS-pointer check, the demo files) and the loader.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path

from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._hub import cache_dir, download_file, sha256_of
from inspect_plural.sources._paths import DataNotFoundError, data_folder, data_root
from inspect_plural.sources.dices._columns import (
    DICES_COLUMN_ALIASES,
    DICES_COLUMNS,
    DICES_EXPERT_FIELDS,
    DICES_TRAITS,
)
from inspect_plural.sources.dices._read import (
    DICES_ANSWERS,
    DICES_DEFAULT_LABEL,
    UNKNOWN,
    check_label,
    dices_label_columns,
    dices_scale,
    read_dices_csv,
)

__all__ = [
    "DICES_ANSWERS",
    "DICES_COLUMNS",
    "DICES_COLUMN_ALIASES",
    "DICES_COMMIT",
    "DICES_DEFAULT_LABEL",
    "DICES_EXPERT_FIELDS",
    "DICES_FILES",
    "DICES_REPO",
    "DICES_TRAITS",
    "DICES_URL",
    "dices_label_columns",
    "dices_scale",
    "load_dices",
    "read_dices_csv",
    # the unknown-trait value, importable from here as before the split
    "UNKNOWN",
]

DICES_REPO = "google-research-datasets/dices-dataset"
"""The official GitHub repository."""

DICES_COMMIT = "6e0f08a6bbf230410aa2008645c1fd3d46f1c09b"
"""Pinned commit: the stored version of the top-level README that names both CSV paths
and matches the TFDS 1.0.0 descriptions (72,103 and 43,050 rows)."""

DICES_FILES = {
    "350": "350/diverse_safety_adversarial_dialog_350.csv",
    "990": "990/diverse_safety_adversarial_dialog_990.csv",
}
"""Subset -> path of its CSV inside the repository."""

DICES_URL = (
    "https://raw.githubusercontent.com/google-research-datasets/dices-dataset/{commit}/{path}"
)
"""Download URL template (``commit`` and ``path`` from :data:`DICES_FILES`)."""

LOCAL_SUBDIR = "dices"


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/dices")))


def _missing(subset: str, url: str, searched: list[Path]) -> str:
    name = Path(DICES_FILES[subset]).name
    return (
        f"DICES-{subset} needs the official file {name} ({DICES_REPO}, {DICES_FILES[subset]}, "
        f"CC BY 4.0). Searched: {', '.join(str(p) for p in searched)}. Download it from {url} "
        f"and put it in {data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER; or run with "
        "network access to download it automatically; or use the offline demo rows: "
        "-T demo=true."
    )


def _check_not_lfs_pointer(path: Path, message: str) -> None:
    with open(path, "rb") as handle:
        start = handle.read(64)
    if start.startswith(b"version https://git-lfs"):
        raise DataNotFoundError(
            f"{path} is a git LFS pointer, not the CSV; fetch the real file.\n{message}"
        )


def load_dices(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = DICES_DEFAULT_LABEL,
    subset: str | int = "350",
    revision: str | None = None,
) -> AnnotatedCorpus:
    """Load DICES-350 or DICES-990 as records.

    Search order for ``diverse_safety_adversarial_dialog_<subset>.csv``: ``data_dir`` (also
    its ``<subset>/`` folder, as in the repository); else ``<data root>/dices``; else the
    download cache ``<cache>/dices/<commit>/``; else a download from GitHub at the pinned
    commit (failing fast when offline).

    Args:
        data_dir: Folder holding the official CSV (no download when given).
        demo: Use the demo file written for this package (same schema, invented text).
        label: Per-rater question column, default ``Q2_harmful_content_overall``; other
            Yes/No/Unsure columns of the file (``Q_overall``, ``Q3_bias_overall``, ...) are
            allowed, expert columns such as ``degree_of_harm`` are not.
        subset: ``"350"`` (default, PersEval's DICES) or ``"990"`` (numbers accepted).
        revision: Commit to download instead of :data:`DICES_COMMIT`.

    Returns:
        The corpus.

    Raises:
        DataNotFoundError: No copy can be found or downloaded.
        ValueError: An unknown subset, an expert or unknown label, or missing columns.

    """
    subset = str(subset)
    if subset not in DICES_FILES:
        raise ValueError(f"unknown DICES subset {subset!r}; one of {list(DICES_FILES)}")
    check_label(label)
    name = Path(DICES_FILES[subset]).name
    commit = revision or DICES_COMMIT
    url = DICES_URL.format(commit=commit, path=DICES_FILES[subset])
    if demo:
        path = _demo_dir() / name
        if not path.is_file():
            raise DataNotFoundError(f"the DICES demo file {path} is missing from the package")
        return read_dices_csv(
            path,
            subset,
            label,
            origin=f"demo data written for inspect_plural ({name}, sha256 {sha256_of(path)[:16]})",
            demo=True,
        )
    local = data_folder(data_dir, LOCAL_SUBDIR)
    folder = local.path
    searched = [folder / name, folder / DICES_FILES[subset]]
    found = next((p for p in searched if p.is_file()), None)
    kind = "local"
    if found is None:
        if data_dir:
            raise DataNotFoundError(_missing(subset, url, searched))
        cached = cache_dir() / LOCAL_SUBDIR / commit / DICES_FILES[subset]
        kind = "cached" if cached.is_file() else "downloaded"
        found = download_file(url, cached, _missing(subset, url, [*searched, cached]))
        kind += f" from GitHub {DICES_REPO}@{commit[:12]}"
    _check_not_lfs_pointer(found, _missing(subset, url, searched))
    corpus = read_dices_csv(
        found,
        subset,
        label,
        origin=f"{kind} {DICES_FILES[subset]} (sha256 {sha256_of(found)[:16]})",
    )
    return replace(corpus, folder=local.label if kind == "local" else "")
