"""StorySparkQA's public CSVs: story sections and their expert question-answer pairs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.sources._hub import hub_offline_reason, sha256_of
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_root, local_folder
from inspect_plural.sources._read import read_csv_file, require_columns
from inspect_plural.sources.storysparkqa._dataset import (
    LOCAL_SUBDIR,
    STORYSPARKQA_FILES,
    STORYSPARKQA_HF_REPO,
    STORYSPARKQA_REVISION,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "SECTION_COLUMNS",
    "StorySection",
    "StorySparkQASections",
    "format_qa",
    "load_storysparkqa_sections",
    "read_storysparkqa_sections",
    "storysparkqa_files",
]


SECTION_COLUMNS = ("story_name", "section_id", "section_text", "question", "answer")
"""The columns of the merged CSVs read here (they also have ``word_id``, ``concept (sub)``,
``relation`` and ``obj``)."""


_INTEGER = re.compile(r"^\d+$")


@dataclass(frozen=True)
class StorySection:
    """One section of a story, with its expert QA pairs.

    Attributes:
        story_name: The story's slug.
        section_id: The section number, as text without leading zeros.
        text: The section text.
        references: The section's expert QA pairs, each ``"{question} {answer}"``, in file
            order without exact repeats.
        split: The split the section's rows are in.

    """

    story_name: str
    section_id: str
    text: str
    references: tuple[str, ...]
    split: str


@dataclass(frozen=True)
class StorySparkQASections:
    """The StorySparkQA sections, keyed by ``(story_name, section_id)``.

    Attributes:
        sections: ``(story_name, section_id)`` -> section.
        rows: Split -> number of QA rows read.
        origin: Where the files came from, for the log.
        demo: Whether these are the demo stories written for this package.

    """

    sections: dict[tuple[str, str], StorySection]
    rows: dict[str, int] = field(default_factory=dict)
    origin: str = ""
    demo: bool = False

    @property
    def stories(self) -> set[str]:
        """The story slugs."""
        return {story for story, _ in self.sections}


def format_qa(question: str, answer: str) -> str:
    """The rated content of a QA pair: ``Question: <question>``, new line, ``Answer: <answer>``."""
    return f"Question: {question}\nAnswer: {answer}"


def _section_id(value: str) -> str | None:
    """The section id without leading zeros, or None when it is not a whole number."""
    text = value.strip()
    return str(int(text)) if _INTEGER.match(text) else None


def _read_frame(path: Path, columns: Iterable[str]) -> pd.DataFrame:
    """A CSV with every cell a stripped string; DataFileError when a column is missing."""
    import pandas as pd

    expected = "a StorySparkQA CSV"
    frame = read_csv_file(path, expected, dtype=str, keep_default_na=False)
    frame.columns = pd.Index([str(c).strip() for c in frame.columns])
    require_columns(frame.columns, list(columns), path, expected)
    for column in frame.columns:
        frame[column] = frame[column].fillna("").str.strip()
    return frame


def _add_split(path: Path, split: str, sections: dict[tuple[str, str], StorySection]) -> int:
    """Read one split CSV into ``sections``; returns its number of rows."""
    frame = _read_frame(path, SECTION_COLUMNS)
    texts: dict[tuple[str, str], str] = {}
    references: dict[tuple[str, str], dict[str, None]] = {}
    rows = zip(*(frame[c].tolist() for c in SECTION_COLUMNS))
    for row, (story, raw_section, text, question, answer) in enumerate(rows):
        section = _section_id(raw_section)
        if not story:
            raise DataRowError(path, row, "story_name", "empty")
        if section is None:
            raise DataRowError(path, row, "section_id", f"{raw_section!r} is not a whole number")
        key = (story, section)
        known = texts.setdefault(key, sections[key].text if key in sections else text)
        if text != known:
            raise DataRowError(path, row, "section_text", f"differs from earlier rows of {key}")
        if question or answer:
            references.setdefault(key, {})[f"{question} {answer}".strip()] = None
    for key, text in texts.items():
        old = sections.get(key)
        refs = (old.references if old else ()) + tuple(references.get(key, {}))
        sections[key] = StorySection(key[0], key[1], text, tuple(dict.fromkeys(refs)), split)
    return len(frame)


def read_storysparkqa_sections(
    paths: Mapping[str, Path], origin: str = "", demo: bool = False
) -> StorySparkQASections:
    """Read merged-schema CSVs into sections and their expert QA pairs.

    Args:
        paths: Split -> CSV (columns ``story_name, section_id, section_text, question,
            answer``; others are ignored).
        origin: Where the files came from, for the log.
        demo: Whether the files are demo data written for this package.

    Returns:
        The sections.

    Raises:
        DataRowError: A missing column, an empty story name, a section id that is not a
            whole number, or a section whose text differs between rows.

    """
    sections: dict[tuple[str, str], StorySection] = {}
    rows = {split: _add_split(Path(path), split, sections) for split, path in paths.items()}
    return StorySparkQASections(sections=sections, rows=rows, origin=origin, demo=demo)


def _missing(searched: Iterable[Path], reason: str) -> str:
    names = ", ".join(STORYSPARKQA_FILES.values())
    return (
        f"StorySparkQA needs the three merged CSVs {names} (github.com/neuhai/StorySparkQA or "
        f"the Hugging Face dataset {STORYSPARKQA_HF_REPO}, MIT). Put them in "
        f"{data_root() / LOCAL_SUBDIR}/data-merged-in-csv/ (or directly in that folder), or "
        "pass -T data_dir=FOLDER, or run with access to the Hugging Face hub; or use the "
        f"offline demo: -T demo=true. Searched: {', '.join(str(p) for p in searched)}. "
        f"Hub: {reason}."
    )


def _hub_files(revision: str, searched: list[Path]) -> tuple[dict[str, Path], str]:
    reason = hub_offline_reason()
    if reason:
        raise DataNotFoundError(_missing(searched, reason))
    try:
        from huggingface_hub import hf_hub_download

        paths = {
            split: Path(
                hf_hub_download(
                    repo_id=STORYSPARKQA_HF_REPO,
                    filename=filename,
                    repo_type="dataset",
                    revision=revision,
                    etag_timeout=5,
                )
            )
            for split, filename in STORYSPARKQA_FILES.items()
        }
    except Exception as ex:  # network, auth or missing-file errors all mean "not available"
        raise DataNotFoundError(
            _missing(searched, f"{type(ex).__name__}: {ex}".strip()[:300])
        ) from ex
    return paths, f"hub {STORYSPARKQA_HF_REPO}@{revision}"


def storysparkqa_files(
    data_dir: str | Path | None = None, revision: str = STORYSPARKQA_REVISION
) -> tuple[dict[str, Path], str]:
    """Locate (or download) the three merged split CSVs.

    Search order: ``data_dir`` (or ``<data root>/storysparkqa``), as
    ``data-merged-in-csv/{split}_split.csv`` or ``{split}_split.csv``; then the Hugging
    Face hub at ``revision`` (failing at once when offline). With ``data_dir`` nothing is
    downloaded.

    Args:
        data_dir: A folder holding the CSVs.
        revision: The hub revision to download.

    Returns:
        Split -> path, and a description of the origin for the log.

    Raises:
        DataNotFoundError: The files cannot be found or downloaded.

    """
    folder = local_folder(data_dir, LOCAL_SUBDIR)
    found: dict[str, Path] = {}
    searched: list[Path] = []
    for split, repo_path in STORYSPARKQA_FILES.items():
        candidates = [folder / repo_path, folder / Path(repo_path).name]
        searched.extend(candidates)
        path = next((p for p in candidates if p.is_file()), None)
        if path is not None:
            found[split] = path
    if len(found) == len(STORYSPARKQA_FILES):
        digests = ", ".join(f"{s} sha256 {sha256_of(p)[:12]}" for s, p in found.items())
        return found, f"local {folder.name}/ ({digests})"
    if data_dir:
        raise DataNotFoundError(_missing(searched, "not tried because data_dir was given"))
    return _hub_files(revision, searched)


def load_storysparkqa_sections(
    data_dir: str | Path | None = None, revision: str = STORYSPARKQA_REVISION
) -> StorySparkQASections:
    """Load the StorySparkQA story sections and their expert QA pairs.

    Args:
        data_dir: A folder holding the merged CSVs (see :func:`storysparkqa_files`).
        revision: The hub revision when downloading.

    Returns:
        The sections of all three splits.

    Raises:
        DataNotFoundError: The files cannot be found or downloaded.
        DataRowError: A malformed row.

    """
    paths, origin = storysparkqa_files(data_dir, revision)
    return read_storysparkqa_sections(paths, origin)
