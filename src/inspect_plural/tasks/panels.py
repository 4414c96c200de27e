# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""The two rating tasks of MAJ-Eval: MSLR-Cochrane summaries and StorySparkQA QA pairs.

Both take their own data options and the options shared by rating tasks
(:data:`~inspect_plural.tasks.rating._options.RATING_OPTIONS`: ``method``, ``protocol``,
``temperature``, ``prompts``, ``metrics``, ``metrics_preset``, ``correlation``,
``absolute``, ``alpha_level``, ``alpha_dimensions``) and the options of the chosen method
(:data:`~inspect_plural.tasks.rating._options.RATING_METHOD_OPTIONS`: ``personas``,
``max_rounds``, ``geval_mode``, ``chateval_strategy``, ``rouge_type``, ...). Every option
is parsed and checked before any data is read.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task, task

from inspect_plural.errors import OptionError, UserError
from inspect_plural.options import TaskOption, user_options
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import check_path, data_folder
from inspect_plural.sources.mslr import (
    MSLR_DIMENSIONS,
    MSLR_TASK_DESCRIPTION,
    load_mslr,
    mslr_files,
    read_mslr,
)
from inspect_plural.sources.mslr import sample_per_system as subset_per_system
from inspect_plural.sources.storysparkqa import (
    RATINGS_COLUMNS,
    STORYSPARKQA_DIMENSIONS,
    STORYSPARKQA_REVISION,
    STORYSPARKQA_TASK_DESCRIPTION,
    load_storysparkqa,
    storysparkqa_files,
)
from inspect_plural.tasks.rating import PAPER_SAMPLE_PER_SYSTEM, check_rating_options, rating_task

__all__ = ["MSLR_OPTIONS", "STORYSPARKQA_OPTIONS", "mslr_cochrane", "storysparkqa"]

DEFAULT_SEED = 42

MSLR_OPTIONS: tuple[TaskOption, ...] = (
    TaskOption("data_dir", None, help="folder with the annotation TSVs"),
    TaskOption("demo", False, "bool", help="the demo sheets written for this package"),
    TaskOption("sample_per_system", None, "int", low=1, help="rated summaries drawn per system"),
    TaskOption("mslr_other", "missing", choices=("missing", "official")),
    TaskOption("pio_na", "exclude", choices=("exclude", "zero")),
    TaskOption("seed", DEFAULT_SEED, "int", help="seed of the subset and of every generation"),
)
"""The options of ``mslr_cochrane`` besides the rating options."""

STORYSPARKQA_OPTIONS: tuple[TaskOption, ...] = (
    TaskOption("ratings", None, help="the ratings file (CSV, docs/storysparkqa_ratings.md)"),
    TaskOption("demo", False, "bool", help="the demo stories and ratings"),
    TaskOption("data_dir", None, help="folder with the StorySparkQA CSVs"),
    TaskOption("revision", STORYSPARKQA_REVISION, help="Hugging Face revision of the stories"),
    TaskOption("seed", DEFAULT_SEED, "int", help="seed of every generation"),
)
"""The options of ``storysparkqa`` besides the rating options."""

RATINGS_FORMAT = (
    "It should be a CSV with a header row ({columns}) and one row per qa_id and rater_id "
    "(docs/storysparkqa_ratings.md)."
)


@task
def mslr_cochrane(
    data_dir: str | None = None,
    demo: bool = False,
    sample_per_system: int | None = None,
    mslr_other: Literal["missing", "official"] = "missing",
    pio_na: Literal["exclude", "zero"] = "exclude",
    seed: int = DEFAULT_SEED,
    **options: Any,
) -> Task:
    """MSLR-Cochrane (Wang et al. 2023): experts' facet ratings of 600 generated review summaries.

    Dimensions (MAJ-Eval's): ``overall`` (the mean of the available normalised
    dimensions, 0–1), ``fluency`` (0–2), ``pio_consistency`` (mean of the population,
    intervention and outcome answers, 0–2), ``effect_direction`` and
    ``evidence_strength`` (1 when the generated summary's answer equals the target's,
    else 0). Summaries rated by both experts keep both ratings; the target is their mean.

    Args:
        data_dir: Folder with the annotation TSVs (default: ``data/mslr_cochrane``, else
            the pinned GitHub download).
        demo: Use the demo sheets written for this package (official layout, 24 invented
            summaries of 6 invented systems on 4 invented reviews, labelled ``[demo]``);
            runs offline. Not with ``data_dir``.
        sample_per_system: Sample this many rated summaries per system (seeded); 17 gives
            the paper's 102-summary design (the default of ``protocol=paper`` on the
            real data; the demo has 4 per system). None: all 600.
        mslr_other: ``missing`` (default): an "Other" effect-direction or strength answer
            leaves that dimension unrated; ``official``: it counts as disagreement, as
            the dataset's own script does.
        pio_na: ``exclude`` (default): an N/A population, intervention or outcome answer
            is left out of the PIO mean; ``zero``: it counts as 0.
        seed: Seed of the subset and of every generation.
        **options: Options shared by rating tasks (module docstring).
    """
    given = {
        "data_dir": data_dir,
        "demo": demo,
        "sample_per_system": sample_per_system,
        "mslr_other": mslr_other,
        "pio_na": pio_na,
        "seed": seed,
        **user_options(options),
    }
    rating, parsed = check_rating_options("mslr_cochrane", given, MSLR_OPTIONS)
    if parsed["demo"] and parsed["data_dir"]:
        raise OptionError(
            "data_dir", "give data_dir or demo=true, not both", "demo=true reads the demo sheets."
        )
    per_system = parsed["sample_per_system"]
    applied: dict[str, Any] = {}
    if rating.protocol == "paper" and per_system is None and not parsed["demo"]:
        per_system = applied["sample_per_system"] = PAPER_SAMPLE_PER_SYSTEM
    other, pio = parsed["mslr_other"], parsed["pio_na"]
    folder = ""
    if parsed["demo"]:
        outputs = load_mslr(other=other, pio_na=pio, demo=True)
        source = "demo"
    else:  # load_mslr's own steps, keeping the sheets' origin (names and blobs, no path)
        paths, source = mslr_files(parsed["data_dir"])
        outputs = read_mslr(paths, other=other, pio_na=pio)
        if ": local " in source:
            folder = data_folder(parsed["data_dir"], "mslr_cochrane").label
    if per_system is not None:
        try:
            outputs = subset_per_system(outputs, per_system, parsed["seed"])
        except ValueError as ex:  # a system with fewer rated summaries than asked for
            raise OptionError("sample_per_system", str(ex)) from None
    return rating_task(
        outputs,
        dataset="mslr_cochrane",
        dimensions=MSLR_DIMENSIONS,
        task_description=MSLR_TASK_DESCRIPTION,
        content_label="generated summary",
        context_label="target summary",
        demo=parsed["demo"],
        data_source=source,
        seed=parsed["seed"],
        task_metadata={
            "sample_per_system": per_system,
            "mslr_other": other,
            "pio_na": pio,
            "data_folder": folder,
        },
        protocol_settings=applied,
        **_rating_only(given, MSLR_OPTIONS),
    )


@task
def storysparkqa(
    ratings: str | None = None,
    demo: bool = False,
    data_dir: str | None = None,
    revision: str = STORYSPARKQA_REVISION,
    seed: int = DEFAULT_SEED,
    **options: Any,
) -> Task:
    """StorySparkQA (Chen et al. 2024): experts' ratings of generated story QA pairs.

    The QA pairs and stories are public (Hugging Face ``NEU-HAI/StorySparkQA``, pinned);
    the human ratings of generated pairs are not, so they come from a ratings file in the
    format docs/storysparkqa_ratings.md defines, or from the demo ratings written for this
    package.
    Dimensions: ``overall`` (mean of the four), ``grammar_correctness``,
    ``answer_relevancy``, ``contextual_consistency``, ``educational_appropriateness``
    (1–5).

    Args:
        ratings: The ratings file (CSV, docs/storysparkqa_ratings.md).
        demo: Use the demo stories and ratings written for this package.
        data_dir: Folder with the StorySparkQA CSVs (default: ``data/storysparkqa``,
            else the pinned Hugging Face download).
        revision: Hugging Face revision of the stories.
        seed: Seed of every generation.
        **options: Options shared by rating tasks (module docstring).
    """
    given = {
        "ratings": ratings,
        "demo": demo,
        "data_dir": data_dir,
        "revision": revision,
        "seed": seed,
        **user_options(options),
    }
    _, parsed = check_rating_options("storysparkqa", given, STORYSPARKQA_OPTIONS)
    if parsed["demo"] and parsed["ratings"]:
        raise OptionError(
            "ratings", "give ratings=FILE or demo=true, not both", "demo=true reads demo ratings."
        )
    if parsed["ratings"]:
        check_ratings_file(Path(parsed["ratings"]))
    outputs = load_storysparkqa(
        ratings=parsed["ratings"],
        demo=parsed["demo"],
        data_dir=parsed["data_dir"],
        revision=parsed["revision"],
    )
    return rating_task(
        outputs,
        dataset="storysparkqa",
        dimensions=STORYSPARKQA_DIMENSIONS,
        task_description=STORYSPARKQA_TASK_DESCRIPTION,
        content_label="question-answer pair",
        context_label="story section",
        demo=parsed["demo"],
        data_source="demo"
        if parsed["demo"]
        else _ratings_source(parsed["ratings"], parsed["data_dir"], parsed["revision"]),
        seed=parsed["seed"],
        task_metadata={
            "revision": parsed["revision"],
            "ratings": Path(parsed["ratings"]).name if parsed["ratings"] else None,
        },
        **_rating_only(given, STORYSPARKQA_OPTIONS),
    )


def _rating_only(given: dict[str, Any], dataset_options: tuple[TaskOption, ...]) -> dict[str, Any]:
    """The given options that are not the dataset's own (checked again by rating_task)."""
    own = {spec.name for spec in dataset_options}
    return {k: v for k, v in given.items() if k not in own and v is not None}


def check_ratings_file(path: Path) -> None:
    """Refuse a ratings file that is missing, empty, or has a header and no rows.

    Only the first two rows are read; the loader checks the rest, row by row.

    Args:
        path: The ``ratings`` option's file.

    Raises:
        UserError: The file is missing, empty, header-only, or lacks a column (the
            message names the file and what it should contain).
    """
    expected = RATINGS_FORMAT.format(columns=", ".join(RATINGS_COLUMNS))
    if not check_path(path, "the file of option ratings").is_file():
        raise UserError(f"option ratings: {path} does not exist. {expected}")
    try:
        with path.open(encoding="utf-8", newline="") as handle:
            reader = csv.reader(handle)
            header = next(reader, None)
            first = next((row for row in reader if any(cell.strip() for cell in row)), None)
    except (OSError, UnicodeDecodeError, csv.Error) as ex:
        raise UserError(f"{path}: cannot read the ratings file ({ex}). {expected}") from None
    if header is None or not any(cell.strip() for cell in header):
        raise UserError(f"{path}: the ratings file is empty. {expected}")
    missing = [c for c in RATINGS_COLUMNS if c not in {cell.strip() for cell in header}]
    if missing:
        raise UserError(f"{path}: the ratings file has no column {', '.join(missing)}. {expected}")
    if first is None:
        raise UserError(f"{path}: the ratings file has a header but no ratings. {expected}")


def _ratings_source(ratings: str | None, data_dir: str | None, revision: str) -> str:
    """The ratings file and the stories, for the log: names and SHA-256s, no paths."""
    if not ratings:  # load_storysparkqa has already refused this
        raise ValueError("storysparkqa needs a ratings file or demo=true")
    _, stories = storysparkqa_files(data_dir, revision)
    return f"ratings {Path(ratings).name} (sha256 {sha256_of(Path(ratings))[:16]}); {stories}"
