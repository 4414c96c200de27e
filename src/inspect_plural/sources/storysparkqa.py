"""StorySparkQA (Chen et al., EMNLP 2024): story sections, expert QA, and human ratings.

The public dataset (GitHub ``neuhai/StorySparkQA`` and Hugging Face
:data:`STORYSPARKQA_HF_REPO`, MIT) holds 5,868 expert-written question-answer pairs
(train 4,300, val 799, test 769) over 278 children's stories, one CSV row per pair with
the story section it belongs to. It does **not** hold the human ratings of generated
QA pairs (grammar correctness, answer relevancy, contextual consistency, educational
appropriateness) that a rating task predicts. Those are read from a ratings file the
user supplies (format: ``docs/storysparkqa_ratings.md`` and :func:`load_ratings`); the
public CSVs give each rated pair its section text (the context) and the section's expert
QA pairs (the references of ROUGE-L).

``demo=True`` uses files written for this package (``demo/storysparkqa/``): three invented
stories in the merged CSV schema and invented ratings, all labelled demo.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pandas as pd

from inspect_plural.records import RatedOutput, RatingDimension
from inspect_plural.sources._hub import hub_offline_reason, sha256_of
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_root, local_folder

__all__ = [
    "RATINGS_COLUMNS",
    "RATINGS_OPTIONAL_COLUMNS",
    "STORYSPARKQA_CONTENT_LABEL",
    "STORYSPARKQA_CONTEXT_LABEL",
    "STORYSPARKQA_DIMENSIONS",
    "STORYSPARKQA_FILES",
    "STORYSPARKQA_HF_REPO",
    "STORYSPARKQA_REVISION",
    "STORYSPARKQA_TASK_DESCRIPTION",
    "StorySection",
    "StorySparkQASections",
    "format_qa",
    "load_demo_sections",
    "load_ratings",
    "load_storysparkqa",
    "load_storysparkqa_sections",
    "read_storysparkqa_sections",
    "storysparkqa_files",
]

STORYSPARKQA_HF_REPO = "NEU-HAI/StorySparkQA"
"""The Hugging Face dataset."""

STORYSPARKQA_REVISION = "a6a22d67aa31ce057051c834d2aa37b3c0e4e362"
"""Pinned hub revision: the commit whose tree has the ``data-merged-in-csv/`` folder of the
GitHub layout. Its SHA was read from stored metadata and could not be checked against
the hub offline; pass ``-T revision=SHA`` to use another one."""

STORYSPARKQA_FILES: dict[str, str] = {
    "train": "data-merged-in-csv/train_split.csv",
    "val": "data-merged-in-csv/val_split.csv",
    "test": "data-merged-in-csv/test_split.csv",
}
"""Split -> path of its CSV in the repository (the hub names the middle split ``val``)."""

LOCAL_SUBDIR = "storysparkqa"
"""Sub-folder of the data root searched for the CSVs."""

SECTION_COLUMNS = ("story_name", "section_id", "section_text", "question", "answer")
"""The columns of the merged CSVs read here (they also have ``word_id``, ``concept (sub)``,
``relation`` and ``obj``)."""

DIMENSION_COLUMNS = (
    "grammar_correctness",
    "answer_relevancy",
    "contextual_consistency",
    "educational_appropriateness",
)

RATINGS_COLUMNS = (
    "qa_id",
    "story_name",
    "section_id",
    "question",
    "answer",
    "rater_id",
    *DIMENSION_COLUMNS,
)
"""The required columns of a ratings file."""

RATINGS_OPTIONAL_COLUMNS = ("section_text", "generator")
"""The optional columns of a ratings file."""

QA_FIELDS = ("story_name", "section_id", "question", "answer", *RATINGS_OPTIONAL_COLUMNS)
"""Columns that describe the QA pair, so must be the same on every row of a ``qa_id``."""

DEMO_PACKAGE_DIR = "demo/storysparkqa"
DEMO_SPLIT = "demo_split.csv"
DEMO_RATINGS = "demo_ratings.csv"

_RATING = re.compile(r"^([1-5])(\.0*)?$")
_INTEGER = re.compile(r"^\d+$")

STORYSPARKQA_CONTENT_LABEL = "generated question-answer pair"
"""What the rated content is called in prompts."""

STORYSPARKQA_CONTEXT_LABEL = "story section"
"""What the context is called in prompts."""

STORYSPARKQA_TASK_DESCRIPTION = (
    "In interactive story reading, an adult reads a children's fairy tale aloud to a child "
    "aged 3 to 6 and stops after a section to talk about it. A system reads one section "
    "of the story and writes a question-answer pair for that pause. A good pair starts "
    "from something in the section, such as a word, an object or an event, and leads "
    "beyond the story to real-world knowledge the child can learn (what an animal eats, "
    "what a tool is for), in words a young child understands, with an answer that is "
    "correct and fits the question."
)
"""What the rated QA pairs are for, shown to evaluators (our own wording)."""

STORYSPARKQA_DIMENSIONS: list[RatingDimension] = [
    RatingDimension(
        name="overall",
        title="Overall quality",
        description=(
            "How good the question-answer pair is overall for reading this story with a "
            "3-6-year-old: well written, answerable, tied to the section, and teaching "
            "something suitable and worthwhile."
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="grammar_correctness",
        title="Grammar correctness",
        description=(
            "Are the question and the answer grammatical, well-formed English that an adult "
            "could read aloud to a child exactly as written?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="answer_relevancy",
        title="Answer relevancy",
        description=(
            "Does the answer actually answer the question asked, correctly and to the "
            "point, rather than drifting to something else?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="contextual_consistency",
        title="Contextual consistency",
        description=(
            "Does the pair fit the story section: it builds on something the section "
            "mentions and does not contradict it, even where it reaches beyond the story?"
        ),
        low=1.0,
        high=5.0,
    ),
    RatingDimension(
        name="educational_appropriateness",
        title="Educational appropriateness",
        description=(
            "Is the pair suitable and useful for a child of 3 to 6: simple language, a "
            "worthwhile piece of real-world knowledge, and nothing unsuitable for young "
            "children?"
        ),
        low=1.0,
        high=5.0,
    ),
]
"""The rated dimensions, ``overall`` first (the mean of the other four per rater)."""


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
    """A CSV with every cell a stripped string; DataRowError when a column is missing."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.columns = pd.Index([str(c).strip() for c in frame.columns])
    for column in columns:
        if column not in frame.columns:
            raise DataRowError(
                path, 0, column, f"column missing from the header {list(frame.columns)}"
            )
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


@dataclass
class _RatedQA:
    row: int
    fields: dict[str, str]
    ratings: dict[str, dict[str, float]] = field(default_factory=dict)
    raw: dict[str, dict[str, str]] = field(default_factory=dict)


def _rating(path: Path, row: int, column: str, text: str) -> float | None:
    if not text:
        return None
    match = _RATING.match(text)
    if match is None:
        raise DataRowError(path, row, column, f"{text!r} is not an integer from 1 to 5")
    return float(match.group(1))


def _check_row(path: Path, row: int, record: Mapping[str, str]) -> None:
    for column in ("qa_id", "rater_id", "story_name", "question", "answer"):
        if not record[column]:
            raise DataRowError(path, row, column, "empty")
    if _section_id(record["section_id"]) is None:
        raise DataRowError(
            path, row, "section_id", f"{record['section_id']!r} is not a whole number"
        )


def _qa_fields(record: Mapping[str, str]) -> dict[str, str]:
    fields = {c: record.get(c, "") for c in QA_FIELDS}
    fields["section_id"] = _section_id(fields["section_id"]) or fields["section_id"]
    return fields


def _add_rating_row(
    path: Path, row: int, record: Mapping[str, str], pairs: dict[str, _RatedQA]
) -> None:
    _check_row(path, row, record)
    fields = _qa_fields(record)
    pair = pairs.setdefault(record["qa_id"], _RatedQA(row, fields))
    for column in QA_FIELDS:
        if fields[column] != pair.fields[column]:
            raise DataRowError(
                path,
                row,
                column,
                f"differs from data row {pair.row} of the same qa_id {record['qa_id']!r}",
            )
    rater = record["rater_id"]
    if rater in pair.raw:
        raise DataRowError(
            path, row, "rater_id", f"rater {rater!r} already rated qa_id {record['qa_id']!r}"
        )
    pair.raw[rater] = {c: record[c] for c in DIMENSION_COLUMNS}
    values = {c: _rating(path, row, c, record[c]) for c in DIMENSION_COLUMNS}
    given = [v for v in values.values() if v is not None]
    if given:
        values = {"overall": sum(given) / len(given), **values}
    for name, value in values.items():
        if value is not None:
            pair.ratings.setdefault(name, {})[rater] = value


def _context(
    path: Path, pair: _RatedQA, sections: Mapping[tuple[str, str], StorySection] | None
) -> tuple[str | None, list[str]]:
    """The pair's context (the file's section text first) and its references."""
    key = (pair.fields["story_name"], pair.fields["section_id"])
    section = sections.get(key) if sections is not None else None
    own = pair.fields["section_text"] or None
    if sections is not None and section is None and own is None:
        raise DataRowError(
            path,
            pair.row,
            "section_id",
            f"section {key[1]} of story {key[0]!r} is not in StorySparkQA and the row has no "
            "section_text",
        )
    references = list(section.references) if section else []
    return own or (section.text if section else None), references


def _output(
    path: Path, qa_id: str, pair: _RatedQA, sections: Mapping[tuple[str, str], StorySection] | None
) -> RatedOutput:
    context, references = _context(path, pair, sections)
    order = [d.name for d in STORYSPARKQA_DIMENSIONS]
    return RatedOutput(
        id=qa_id,
        content=format_qa(pair.fields["question"], pair.fields["answer"]),
        context=context,
        references=references,
        parts={
            "question": pair.fields["question"],
            "answer": pair.fields["answer"],
            "story_name": pair.fields["story_name"],
            "section_id": str(pair.fields["section_id"]),
        },
        ratings={name: pair.ratings[name] for name in order if name in pair.ratings},
        group=pair.fields["story_name"],
        system=pair.fields["generator"] or None,
        raw=pair.raw,
    )


def load_ratings(
    path: str | Path, sections: Mapping[tuple[str, str], StorySection] | None = None
) -> list[RatedOutput]:
    """Read a StorySparkQA ratings file (the format of ``docs/storysparkqa_ratings.md``).

    A CSV (UTF-8) in long format, one row per (``qa_id``, ``rater_id``), with the columns
    :data:`RATINGS_COLUMNS` and optionally :data:`RATINGS_OPTIONAL_COLUMNS`. Ratings are
    integers 1-5; an empty cell is a missing rating. Each rater's ``overall`` is the mean
    of the dimensions they rated.

    Args:
        path: The file.
        sections: The StorySparkQA sections to join (see
            :func:`load_storysparkqa_sections`). Without them the context is the file's
            ``section_text`` (or None) and there are no references.

    Returns:
        One output per ``qa_id``, in file order: content :func:`format_qa` of the pair,
        context the section text (the file's own ``section_text`` when given, else the
        dataset's), references the section's expert QA pairs, group the story, system
        the ``generator``; ``raw`` holds each rater's cells.

    Raises:
        DataRowError: A missing column, an empty or malformed field, a rating that is not
            an integer 1-5, a repeated (``qa_id``, ``rater_id``), pair fields that differ
            within a ``qa_id``, or (with ``sections``) a section that is not in them and
            has no ``section_text``.
        ValueError: The file has no data rows.

    """
    path = Path(path)
    frame = _read_frame(path, RATINGS_COLUMNS)
    if frame.empty:
        raise ValueError(f"{path}: the ratings file has no data rows")
    pairs: dict[str, _RatedQA] = {}
    for row, record in enumerate(frame.to_dict("records")):
        _add_rating_row(path, row, {str(k): str(v) for k, v in record.items()}, pairs)
    return [_output(path, qa_id, pair, sections) for qa_id, pair in pairs.items()]


def _demo_file(name: str) -> Path:
    path = Path(str(resources.files("inspect_plural").joinpath(f"{DEMO_PACKAGE_DIR}/{name}")))
    if not path.is_file():
        raise DataNotFoundError(f"the StorySparkQA demo file {path} is missing from the package")
    return path


def load_demo_sections() -> StorySparkQASections:
    """The demo stories written for this package (``demo/storysparkqa/demo_split.csv``)."""
    path = _demo_file(DEMO_SPLIT)
    origin = f"demo data written for inspect_plural ({DEMO_SPLIT}, sha256 {sha256_of(path)[:16]})"
    return read_storysparkqa_sections({"demo": path}, origin=origin, demo=True)


NO_RATINGS = (
    "StorySparkQA rating tasks need human ratings of generated question-answer pairs, and "
    "those ratings are not public (neither the GitHub repository nor the Hugging Face "
    "dataset has them). Pass your own ratings file with -T ratings=FILE (a CSV with one row "
    "per qa_id and rater_id; the format is in docs/storysparkqa_ratings.md), or run the "
    "offline demo with -T demo=true."
)


def load_storysparkqa(
    ratings: str | Path | None = None,
    demo: bool = False,
    data_dir: str | Path | None = None,
    revision: str = STORYSPARKQA_REVISION,
) -> list[RatedOutput]:
    """Load rated, generated StorySparkQA QA pairs joined with their story sections.

    Args:
        ratings: The user's ratings file (see :func:`load_ratings`).
        demo: Use the demo stories and ratings written for this package instead.
        data_dir: A folder holding the merged StorySparkQA CSVs (see
            :func:`storysparkqa_files`).
        revision: The hub revision when downloading the CSVs.

    Returns:
        One output per rated QA pair (see :func:`load_ratings`).

    Raises:
        DataNotFoundError: No ratings file and no demo, or the CSVs cannot be found.
        ValueError: Both a ratings file and ``demo``.
        DataRowError: A malformed row.

    """
    if demo and ratings:
        raise ValueError("pass either a ratings file or demo=true, not both")
    if demo:
        return load_ratings(_demo_file(DEMO_RATINGS), load_demo_sections().sections)
    if not ratings:
        raise DataNotFoundError(NO_RATINGS)
    if not Path(ratings).is_file():
        raise DataNotFoundError(f"the ratings file {ratings} does not exist. {NO_RATINGS}")
    sections = load_storysparkqa_sections(data_dir, revision)
    return load_ratings(ratings, sections.sections)
