"""The two rating tasks of MAJ-Eval: MSLR-Cochrane summaries and StorySparkQA QA pairs.

Both take the options shared by rating tasks, passed through to
:func:`~inspect_plural.tasks._panels.rating_task`: ``method`` (``maj_eval``, ``geval``,
``chateval``, ``rouge_l``), ``temperature``, ``prompts``, ``correlation``
(``pooled``/``per_item``), ``absolute``, ``alpha_level``, ``alpha_dimensions`` and the
single-method options of ``RATING_METHOD_OPTIONS`` (``personas``, ``max_rounds``,
``simple_roles``, ``geval_mode``, ``chateval_strategy``, ``rouge_type``, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from inspect_ai import Task, task

from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources.mslr import (
    MSLR_DIMENSIONS,
    MSLR_TASK_DESCRIPTION,
    load_mslr,
    mslr_files,
    read_mslr,
)
from inspect_plural.sources.mslr import sample_per_system as subset_per_system
from inspect_plural.sources.storysparkqa import (
    STORYSPARKQA_DIMENSIONS,
    STORYSPARKQA_REVISION,
    STORYSPARKQA_TASK_DESCRIPTION,
    load_storysparkqa,
    storysparkqa_files,
)
from inspect_plural.tasks._options import user_options
from inspect_plural.tasks._panels import rating_task

__all__ = ["mslr_cochrane", "storysparkqa"]

DEFAULT_SEED = 42


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
            the paper's 102-summary design (the demo has 4 per system). None: all 600.
        mslr_other: ``missing`` (default): an "Other" effect-direction or strength answer
            leaves that dimension unrated; ``official``: it counts as disagreement, as
            the dataset's own script does.
        pio_na: ``exclude`` (default): an N/A population, intervention or outcome answer
            is left out of the PIO mean; ``zero``: it counts as 0.
        seed: Seed of the subset and of every generation.
        **options: Options shared by rating tasks (module docstring).
    """
    if demo:
        outputs = load_mslr(data_dir=data_dir, other=mslr_other, pio_na=pio_na, demo=True)
        source = "demo"
    else:  # load_mslr's own steps, keeping the sheets' origin (names and blobs, no path)
        paths, source = mslr_files(data_dir)
        outputs = read_mslr(paths, other=mslr_other, pio_na=pio_na)
    if sample_per_system is not None:
        outputs = subset_per_system(outputs, int(sample_per_system), seed)
    return rating_task(
        outputs,
        dataset="mslr_cochrane",
        dimensions=MSLR_DIMENSIONS,
        task_description=MSLR_TASK_DESCRIPTION,
        content_label="generated summary",
        context_label="target summary",
        demo=demo,
        data_source=source,
        seed=seed,
        task_metadata={
            "sample_per_system": sample_per_system,
            "mslr_other": mslr_other,
            "pio_na": pio_na,
        },
        **user_options(options),
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
    format the README defines, or from the demo ratings written for this package.
    Dimensions: ``overall`` (mean of the four), ``grammar_correctness``,
    ``answer_relevancy``, ``contextual_consistency``, ``educational_appropriateness``
    (1–5).

    Args:
        ratings: The ratings file (CSV, README format).
        demo: Use the demo stories and ratings written for this package.
        data_dir: Folder with the StorySparkQA CSVs (default: ``data/storysparkqa``,
            else the pinned Hugging Face download).
        revision: Hugging Face revision of the stories.
        seed: Seed of every generation.
        **options: Options shared by rating tasks (module docstring).
    """
    outputs = load_storysparkqa(ratings=ratings, demo=demo, data_dir=data_dir, revision=revision)
    return rating_task(
        outputs,
        dataset="storysparkqa",
        dimensions=STORYSPARKQA_DIMENSIONS,
        task_description=STORYSPARKQA_TASK_DESCRIPTION,
        content_label="question-answer pair",
        context_label="story section",
        demo=demo,
        data_source="demo" if demo else _ratings_source(ratings, data_dir, revision),
        seed=seed,
        task_metadata={"revision": revision, "ratings": Path(ratings).name if ratings else None},
        **user_options(options),
    )


def _ratings_source(ratings: str | None, data_dir: str | None, revision: str) -> str:
    """The ratings file and the stories, for the log: names and SHA-256s, no paths."""
    if not ratings:  # load_storysparkqa has already refused this
        raise ValueError("storysparkqa needs a ratings file or demo=true")
    _, stories = storysparkqa_files(data_dir, revision)
    return f"ratings {Path(ratings).name} (sha256 {sha256_of(Path(ratings))[:16]}); {stories}"
