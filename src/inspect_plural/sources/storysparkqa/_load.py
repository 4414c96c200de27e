"""StorySparkQA's rated outputs: the ratings joined with their story sections, or the demo."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from inspect_plural.records import RatedOutput
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import DataNotFoundError
from inspect_plural.sources.storysparkqa._dataset import (
    DEMO_PACKAGE_DIR,
    DEMO_RATINGS,
    DEMO_SPLIT,
    STORYSPARKQA_REVISION,
)
from inspect_plural.sources.storysparkqa._ratings import load_ratings
from inspect_plural.sources.storysparkqa._sections import (
    StorySparkQASections,
    load_storysparkqa_sections,
    read_storysparkqa_sections,
)

__all__ = ["NO_RATINGS", "load_demo_sections", "load_storysparkqa"]


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
