"""Where the user's DP file is (never downloaded) and :func:`load_dp`."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path

from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._paths import DataFileError, DataNotFoundError, data_folder, data_root
from inspect_plural.sources.dp._fields import DP_LABELS
from inspect_plural.sources.dp._read import read_dp_jsonl

__all__ = ["DP_FILE", "DP_FILE_GLOBS", "DP_SCANS_URL", "LOCAL_SUBDIR", "load_dp"]


DP_SCANS_URL = "https://scans.io/study/toxicity-perspectives"
"""Where the encrypted release is published (password on request from the authors)."""


DP_FILE = "toxicity_ratings.json"
"""The expected (decrypted) file: JSON lines, one comment per line."""


DP_FILE_GLOBS = ("*.jsonl", "*.json")
"""File patterns accepted in the data folder (JSON lines in either case)."""


LOCAL_SUBDIR = "dp"


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/dp")))


def _missing(searched: list[Path], detail: str = "") -> str:
    where = ", ".join(str(p) for p in searched)
    return (
        "DP (Kumar et al. 2021 toxicity ratings) needs the file "
        f"{DP_FILE} (JSON lines, one comment per line with its ratings), which cannot be "
        "downloaded automatically: it is published as a single encrypted file on "
        f"{DP_SCANS_URL} and the password must be requested from the authors (Deepak "
        f"Kumar et al.). Decrypt it and put {DP_FILE} (any *.jsonl or *.json file of JSON "
        f"lines is accepted) in {data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER, "
        f"or use the offline demo rows: -T demo=true. Searched: {where}."
        + (f" {detail}" if detail else "")
    )


def _find_file(folder: Path) -> Path | None:
    if not folder.is_dir():
        return None
    if (folder / DP_FILE).is_file():
        return folder / DP_FILE
    candidates = sorted({p for g in DP_FILE_GLOBS for p in folder.glob(g) if p.is_file()})
    if len(candidates) > 1:
        raise DataFileError(
            folder,
            f"several candidate DP files: {', '.join(p.name for p in candidates)}; keep one "
            f"(or name it {DP_FILE})",
        )
    return candidates[0] if candidates else None


def load_dp(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = "toxic_score",
) -> AnnotatedCorpus:
    """Load the DP toxicity ratings (Kumar et al. 2021) as records.

    Search order: ``data_dir``; ``<data root>/dp``. There is no download: the data is
    user-supplied (see the module docstring and the error message).

    Args:
        data_dir: Folder holding the JSON-lines file.
        demo: Use the demo file written for this package.
        label: ``toxic_score`` (default, ordinal 0-4) or a binary flag of :data:`DP_LABELS`.

    Returns:
        The corpus: one annotator per rater (``worker_id`` or survey hash), items keyed by
        ``comment_id``.

    Raises:
        DataNotFoundError: No file is found.
        ValueError: An unknown label.
        DataFileError: Several candidate files, or a file that cannot be read.
        DataRowError: A malformed line or rating.

    """
    if label not in DP_LABELS:
        raise ValueError(f"unknown DP label {label!r}; one of {list(DP_LABELS)}")
    found = None if demo else data_folder(data_dir, LOCAL_SUBDIR)
    folder = _demo_dir() if found is None else found.path
    path = _find_file(folder)
    if path is None:
        raise DataNotFoundError(_missing([folder] if found is None else list(found.searched)))
    corpus = read_dp_jsonl(path, label=label, demo=demo)
    return replace(corpus, folder="" if found is None else found.label)
