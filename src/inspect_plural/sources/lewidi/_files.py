"""Where the LeWiDi files are, how to read their JSON, and what to say when they are missing.

Every LeWiDi dataset is a few JSON files named ``<Name>_<split>.json`` (and, in 2025,
``<Name>_annotators_meta.json``) in the public repository :data:`LEWIDI_REPO`, pinned
at :data:`LEWIDI_COMMIT`: the 2023 datasets under ``LeWiDi_2-2023/``, the 2025 ones
under ``LeWiDi_3-2025/<Name>/``. A folder given with ``data_dir`` may hold the files
directly (``-T data_dir=.../lewidi/2023`` holds all four 2023 datasets), or in a
``<Name>/`` or ``<Name>_dataset/`` subfolder as in the repository.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from inspect_plural.sources._paths import (
    DataBase,
    DataNotFoundError,
    DataRowError,
    data_base,
    data_root,
)
from inspect_plural.sources._read import read_json_file

__all__ = [
    "LEWIDI_COMMIT",
    "LEWIDI_FOLDERS",
    "LEWIDI_REPO",
    "LEWIDI_SPLITS",
    "LewidiRelease",
    "LewidiFiles",
    "find_release",
    "read_json_object",
]

LEWIDI_REPO = "Le-Wi-Di/le-wi-di.github.io"
"""The public GitHub repository of the LeWiDi shared tasks (data for 2023 and 2025)."""

LEWIDI_COMMIT = "45d7b06e4c36b59472d6bdf9281f7f1e395eb0e0"
"""The commit the loaders were written and tested against (2025-11-07)."""

LEWIDI_FOLDERS = {2023: "LeWiDi_2-2023", 2025: "LeWiDi_3-2025"}
"""Edition -> its folder in :data:`LEWIDI_REPO`."""

LEWIDI_SPLITS = ("train", "dev", "test")
"""Split files of a LeWiDi dataset, in reading order (``<Name>_<split>.json``)."""

_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


@dataclass(frozen=True)
class LewidiRelease:
    """One LeWiDi dataset's files.

    Attributes:
        name: The file prefix (``ArMIS``, ``HS-Brexit``, ``MP``, ...).
        edition: 2023 or 2025.
        subdir: Its folder under the local data root and under ``demo/`` (``armis``).
        optional: Splits whose file may be absent (MP and CSC ship no train file in the
            copy these loaders were tested on).
        meta: Whether ``<Name>_annotators_meta.json`` belongs to it (2025).

    """

    name: str
    edition: int
    subdir: str
    optional: tuple[str, ...] = ()
    meta: bool = False

    def file(self, split: str) -> str:
        """The file name of a split."""
        return f"{self.name}_{split}.json"

    @property
    def meta_file(self) -> str:
        """The annotator-metadata file name."""
        return f"{self.name}_annotators_meta.json"

    @property
    def required(self) -> list[str]:
        """Every file that must be present."""
        files = [self.file(s) for s in LEWIDI_SPLITS if s not in self.optional]
        return files + ([self.meta_file] if self.meta else [])


@dataclass(frozen=True)
class LewidiFiles:
    """The files found for a release.

    Attributes:
        folder: The folder holding them.
        splits: ``(split, path)`` of every split file present, in :data:`LEWIDI_SPLITS` order.
        absent: Optional splits whose file is absent.
        meta: The annotator-metadata file, if the release has one.
        label: The folder described without an absolute path (empty for the demo files).

    """

    folder: Path
    splits: list[tuple[str, Path]]
    absent: list[str]
    meta: Path | None
    label: str = ""


def _demo_dir(release: LewidiRelease) -> Path:
    return Path(str(resources.files("inspect_plural").joinpath(f"demo/{release.subdir}")))


def _candidates(release: LewidiRelease, base: DataBase) -> list[Path]:
    """The folders searched, as for every dataset: the data root's, then the folder itself."""
    roots = [base.path / release.subdir, base.path / "lewidi" / str(release.edition)]
    if base.given:  # -T data_dir or the variable may name the dataset's own folder
        roots.append(base.path)
    return [
        folder
        for root in roots
        for folder in (root, root / release.name, root / f"{release.name}_dataset")
    ]


def missing_message(release: LewidiRelease, searched: list[Path]) -> str:
    """What to download and where to put it, naming every folder searched."""
    upstream = LEWIDI_FOLDERS[release.edition]
    where = f"{upstream}/" if release.edition == 2023 else f"{upstream}/{release.name}/"
    optional = (
        f" ({', '.join(release.file(s) for s in release.optional)} may be absent: the dev "
        "file is then the training pool)"
        if release.optional
        else ""
    )
    return (
        f"{release.name} (LeWiDi {release.edition}) needs {', '.join(release.required)}"
        f"{optional}. Get them from the LeWiDi repository https://github.com/{LEWIDI_REPO} "
        f"at commit {LEWIDI_COMMIT}, folder {where}; put them in "
        f"{data_root() / release.subdir}/ or pass -T data_dir=FOLDER (a folder holding the "
        f"files, or a {release.name}/ or {release.name}_dataset/ subfolder with them). Or "
        "run the offline demo rows: -T demo=true. Searched: "
        + ", ".join(str(p) for p in searched)
        + "."
    )


def find_release(
    release: LewidiRelease, data_dir: str | Path | None = None, demo: bool = False
) -> LewidiFiles:
    """Find a release's files: in the demo folder, in ``data_dir``, or under the data root.

    Args:
        release: The dataset.
        data_dir: The folder the user named (default: ``$INSPECT_PLURAL_DATA_DIR``, else
            ``./data``): as a data root, its ``<subdir>/`` and ``lewidi/<edition>/``
            are searched, then (when named) the folder itself; each with its
            ``<Name>/`` and ``<Name>_dataset/`` subfolders.
        demo: Use the demo files written for this package.

    Returns:
        The first folder that holds every required file.

    Raises:
        DataNotFoundError: No searched folder holds them all; the message says what to get
            from where.

    """
    base = None if demo else data_base(data_dir, release.subdir)
    searched = [_demo_dir(release)] if base is None else _candidates(release, base)
    for folder in searched:
        if all((folder / name).is_file() for name in release.required):
            present = [(s, folder / release.file(s)) for s in LEWIDI_SPLITS]
            return LewidiFiles(
                folder=folder,
                splits=[(s, p) for s, p in present if p.is_file()],
                absent=[s for s, p in present if not p.is_file()],
                meta=folder / release.meta_file if release.meta else None,
                label="" if base is None else base.label(folder),
            )
    raise DataNotFoundError(missing_message(release, searched))


def _no_repeats(path: Path) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(pairs)
        if len(result) != len(pairs):
            seen: set[str] = set()
            for row, (key, _) in enumerate(pairs):
                if key in seen:
                    raise DataRowError(path, row, key, f"key {key!r} repeats in one JSON object")
                seen.add(key)
        return result

    return hook


def read_json_object(path: Path, repair_trailing_commas: bool = False) -> dict[str, Any]:
    """A JSON file holding one object, refusing repeated keys (``json`` keeps the last).

    Args:
        path: The file.
        repair_trailing_commas: Drop commas before ``}``/``]`` if the strict parse fails
            (the 2025 Paraphrase and VariErrNLI metadata files have them).

    Returns:
        The object.

    Raises:
        DataFileError: Not readable, not UTF-8, not JSON or nested too deeply (the file
            and line named; see :mod:`inspect_plural.sources._read`).
        DataRowError: Not an object, or a key repeats (named with its row).

    """
    data = read_json_file(
        path,
        "a LeWiDi JSON file: one object of records keyed by item id",
        object_pairs_hook=_no_repeats(path),
        repair=(lambda text: _TRAILING_COMMA.sub(r"\1", text)) if repair_trailing_commas else None,
    )
    if not isinstance(data, dict):
        raise DataRowError(path, 0, "(file)", "expected a JSON object of records")
    return data
