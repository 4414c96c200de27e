"""PERSE records as Inspect samples, and where a task's data came from (for its log)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inspect_ai.dataset import Sample

from inspect_plural.records import (
    LabelScale,
    PairSampleMetadata,
    PairwisePreference,
    PersonalReview,
    ReviewSampleMetadata,
    TrainingFactors,
    read_only_values,
)
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import data_folder, local_folder
from inspect_plural.sources.perse import CHOICES, PERDOC_ASPECTS, SCORE_SCALE

__all__ = [
    "CHOICE_SCALE",
    "data_sources",
    "local_source",
    "preference_record_to_sample",
    "review_record_to_sample",
]

CHOICE_SCALE = LabelScale(
    kind="nominal",
    labels=list(CHOICES),
    description="The plot the annotator preferred on the aspect.",
)
"""The Per-DOC answer space."""


def review_record_to_sample(
    record: PersonalReview,
    training_factors: TrainingFactors | None = None,
    demo: bool = False,
) -> Sample:
    """One Per-MPST instance as an Inspect sample.

    Args:
        record: The instance.
        training_factors: The factorisation's values of the instance's stories, when the
            task fitted one.
        demo: Whether the record is demo data.

    Returns:
        The sample: input = the new plot, target = the reviewer's score, id = the
        record's (``{reviewer}/{story}``).
    """
    metadata = ReviewSampleMetadata(
        dataset="per_mpst",
        item_id=record.target.item_id,
        annotator_id=record.reviewer_id,
        scale=SCORE_SCALE,
        demo=demo,
        review=record,
        gold=record.target.score,
        k=len(record.history),
        training_factors=training_factors,
    )
    return Sample(
        id=record.id,
        input=record.target.plot,
        target=f"{record.target.score:g}",
        metadata=read_only_values(metadata.model_dump()),
    )


def preference_record_to_sample(record: PairwisePreference, demo: bool = False) -> Sample:
    """One Per-DOC instance as an Inspect sample.

    Args:
        record: The instance.
        demo: Whether the record is demo data.

    Returns:
        The sample: input = the aspect's question and the two plots, target = the
        preferred plot, id = the record's (``{aspect}/{annotator}/{idx}``).
    """
    aspect = PERDOC_ASPECTS[record.aspect]
    metadata = PairSampleMetadata(
        dataset="per_doc",
        item_id=record.id,
        annotator_id=record.annotator_id,
        scale=CHOICE_SCALE,
        demo=demo,
        preference=record,
        aspect=aspect.key,
        aspect_title=aspect.title,
        aspect_question=aspect.question,
        gold=record.choice,
    )
    text = (
        f"[{aspect.title}] {aspect.question}\n\n[Plot A]\n{record.pair.plot_a}\n\n"
        f"[Plot B]\n{record.pair.plot_b}"
    )
    return Sample(
        id=record.id,
        input=text,
        target=record.choice,
        metadata=read_only_values(metadata.model_dump()),
    )


def local_source(data_dir: str | Path | None, subdir: str, files: Sequence[str]) -> str:
    """Where the records came from, for the log, without the user's directory layout.

    A path would leak the user's folders into shared logs and still not say which data
    was read; the folder's own name and each file's name and SHA-256 identify the data.

    Args:
        data_dir: The task's ``data_dir`` (None: the default data folder).
        subdir: The dataset's folder under the data root (``per_mpst``, ``per_doc``).
        files: The names of the files read, in that folder.

    Returns:
        E.g. ``local perse/: PerMPST.k3.sample.jsonl (sha256 0123456789abcdef)``.
    """
    folder = local_folder(data_dir, subdir)
    digests = ", ".join(f"{name} (sha256 {sha256_of(folder / name)[:16]})" for name in files)
    return f"local {folder.name}/: {digests}"


def data_sources(
    data_dir: str | Path | None, demo: bool, subdir: str, files: Sequence[str]
) -> dict[str, str]:
    """The task metadata's ``data_source`` and ``data_folder`` (see :func:`local_source`)."""
    if demo:
        return {"data_source": "demo", "data_folder": ""}
    return {
        "data_source": local_source(data_dir, subdir, files),
        "data_folder": data_folder(data_dir, subdir).label,
    }
