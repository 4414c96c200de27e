"""PERSE's personalised story-evaluation tasks: Per-MPST (scores) and Per-DOC (choices).

``per_mpst``: one sample = (reviewer, new plot) with the reviewer's k prior
(plot, review, score) triples; the target is the reviewer's 1–10 score. Methods:
``perse_review`` (1 call), ``prior_average`` and ``matrix_factorization`` (0 calls).

``per_doc``: one sample = (annotator, plot pair, aspect) with the annotator's earlier
comparison on that aspect (k = 1); the target is the preferred plot. Methods:
``perse_aspect`` (1 call, 2 with ``both_orders``) and ``prior_average`` (0 calls).

Both split the data by reviewer (PERSE §4.1, validation reviewers unseen in training):
the release's own split when its file names declare one, else 10% of the reviewers
drawn with the seed (``split``, ``valid_fraction``). Only the validation reviewers are
evaluated; the training reviewers' full histories are what matrix factorisation fits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from inspect_plural.records import (
    LabelScale,
    PairSampleMetadata,
    PairwisePreference,
    PersonalReview,
    ReviewSampleMetadata,
    TrainingFactors,
)
from inspect_plural.scorers.personal import (
    PERSONAL_PRESETS,
    choice_metrics,
    choice_scorer,
    review_metrics,
    review_scorer,
)
from inspect_plural.scorers.ratings import rating_cost, rating_mean
from inspect_plural.scorers.role import parse_failures
from inspect_plural.solvers._factorization import (
    FactorModel,
    fit_factor_model,
    training_ratings,
)
from inspect_plural.solvers.perse import perse_aspect, perse_review
from inspect_plural.solvers.perse_baselines import (
    PAIRWISE_UNSUPPORTED,
    matrix_factorization,
    prior_average,
)
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import local_folder
from inspect_plural.sources.perse import (
    CHOICES,
    PERDOC_ASPECTS,
    SCORE_HIGH,
    SCORE_LOW,
    SCORE_SCALE,
    SplitMode,
    load_per_doc,
    load_per_mpst,
    split_by_reviewer,
)
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._options import as_bool
from inspect_plural.tasks._viewer import choice_viewer, review_viewer

__all__ = [
    "PER_DOC_METHODS",
    "PER_MPST_METHODS",
    "per_doc",
    "per_mpst",
    "preference_record_to_sample",
    "review_record_to_sample",
]

logger = logging.getLogger(__name__)

DEFAULT_SEED = 42
PERSE_TEMPERATURE = 0.8
"""PERSE's sampling temperature (§4.2), the default of the LLM methods."""
PERSE_MAX_TOKENS = 600
"""PERSE's generation limit (§4.2)."""

PER_MPST_METHODS: dict[str, Callable[..., Solver]] = {
    "perse_review": perse_review,
    "prior_average": prior_average,
    "matrix_factorization": matrix_factorization,
}
"""Methods of ``per_mpst`` (``-T method=NAME``)."""
PER_DOC_METHODS: dict[str, Callable[..., Solver]] = {
    "perse_aspect": perse_aspect,
    "prior_average": prior_average,
}
"""Methods of ``per_doc`` (``-T method=NAME``)."""

CHOICE_SCALE = LabelScale(
    kind="nominal",
    labels=list(CHOICES),
    description="The plot the annotator preferred on the aspect.",
)

MetricsPreset = Literal["default", "perse"]


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
        metadata=metadata.model_dump(),
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
    return Sample(id=record.id, input=text, target=record.choice, metadata=metadata.model_dump())


def _local_source(data_dir: str | Path | None, subdir: str, files: Sequence[str]) -> str:
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


def _check_options(method: str, methods: Sequence[str], given: dict[str, tuple[Any, str]]) -> None:
    if method not in methods:
        raise ValueError(f"unknown method {method!r}; one of {list(methods)}")
    for option, (value, owner) in given.items():
        if value is not None and method not in owner.split("|"):
            raise ValueError(
                f"option {option} configures {owner.replace('|', ' or ')}, not {method}"
            )


def _preset(metrics_preset: str) -> tuple[str, str]:
    if metrics_preset not in PERSONAL_PRESETS:
        raise ValueError(f"metrics_preset must be one of {list(PERSONAL_PRESETS)}")
    return PERSONAL_PRESETS[metrics_preset]


def _factor_model(
    train: Sequence[PersonalReview], mf_factors: int, mf_reg: float, seed: int
) -> FactorModel:
    if not train:
        raise ValueError(
            "matrix_factorization needs training reviewers, and this split has none (the "
            "repository's sample file has a single reviewer). Use the release's files, or "
            "-T split=seeded on data with more reviewers."
        )
    return fit_factor_model(training_ratings(train), n_factors=mf_factors, reg=mf_reg, seed=seed)


@task
def per_mpst(
    data_dir: str | None = None,
    demo: bool = False,
    k: int = 3,
    method: str = "perse_review",
    split: SplitMode = "auto",
    valid_fraction: float = 0.1,
    metrics_preset: MetricsPreset = "default",
    temperature: float | None = None,
    max_tokens: int | None = None,
    review_words: int | None = None,
    prompts: str | None = None,
    mf_factors: int | None = None,
    mf_reg: float | None = None,
    seed: int = DEFAULT_SEED,
) -> Task:
    """Per-MPST (PERSE): predict a reviewer's 1–10 score of a new plot from k prior reviews.

    Args:
        data_dir: Folder with ``PerMPST.k{K}.*.jsonl`` files (default ``data/per_mpst``;
            ``../shared/data/perse``-style sample files work too).
        demo: Use the demo files written for this package (invented reviewers and
            plots, release-style train/valid split). Not with ``data_dir``.
        k: Prior reviews per sample (1–5 in the paper; from the ``k{k}`` files, else the
            first k of a larger K's).
        method: ``perse_review`` (default), ``prior_average`` or ``matrix_factorization``.
        split: ``auto`` (the files' declared train/valid split, else seeded), ``seeded``,
            ``release`` or ``all`` (evaluate every row; nothing is training data).
        valid_fraction: Share of reviewers held out by a seeded split (PERSE: 0.1).
        metrics_preset: ``default`` (rows without a score predict the middle of the
            scale and count as wrong) or ``perse`` (dropped, as the official code does).
        temperature: ``perse_review``'s sampling temperature (default 0.8, PERSE's).
        max_tokens: ``perse_review``'s generation limit (default 600, PERSE's).
        review_words: ``perse_review``: word budget of each prior review (default 150).
        prompts: ``perse_review``: folder of replacement templates.
        mf_factors: ``matrix_factorization``: latent factors (default 10).
        mf_reg: ``matrix_factorization``: regularisation (default 5.0).
        seed: Seed of the split, the factorisation and every generation.
    """
    demo = as_bool("demo", demo)
    _check_options(
        method,
        list(PER_MPST_METHODS),
        {
            "temperature": (temperature, "perse_review"),
            "max_tokens": (max_tokens, "perse_review"),
            "review_words": (review_words, "perse_review"),
            "prompts": (prompts, "perse_review"),
            "mf_factors": (mf_factors, "matrix_factorization"),
            "mf_reg": (mf_reg, "matrix_factorization"),
        },
    )
    review_failures, _ = _preset(metrics_preset)
    rows = load_per_mpst(data_dir=data_dir, k=int(k), demo=demo)
    parts = split_by_reviewer(rows, split, float(valid_fraction), seed)
    model: FactorModel | None = None
    if method == "matrix_factorization":
        model = _factor_model(
            parts.train,
            int(mf_factors if mf_factors is not None else 10),
            float(mf_reg if mf_reg is not None else 5.0),
            seed,
        )
    samples = [
        review_record_to_sample(
            record,
            None
            if model is None
            else model.for_movies([*(h.item_id for h in record.history), record.target.item_id]),
            demo,
        )
        for record in parts.valid
    ]
    temp = PERSE_TEMPERATURE if temperature is None else float(temperature)
    tokens = PERSE_MAX_TOKENS if max_tokens is None else int(max_tokens)
    if method == "perse_review":
        solver = perse_review(
            review_words=150 if review_words is None else int(review_words),
            temperature=temp,
            max_tokens=tokens,
            seed=seed,
            prompts=prompts,
        )
    else:
        solver = PER_MPST_METHODS[method]()
    return Task(
        dataset=MemoryDataset(samples, name="per_mpst" + ("_demo" if demo else "")),
        solver=solver,
        scorer=review_scorer(),
        metrics=[
            review_metrics(review_failures, float(SCORE_LOW), float(SCORE_HIGH)),
            parse_failures(),
            rating_cost(),
        ],
        config=GenerateConfig(temperature=temp, max_tokens=tokens, seed=seed)
        if method == "perse_review"
        else GenerateConfig(),
        epochs=Epochs(1, rating_mean()),
        version=task_version("per_mpst"),
        viewer=review_viewer(float(SCORE_LOW), float(SCORE_HIGH)),
        metadata={
            "family": "personal",
            "dataset": "per_mpst",
            "data_source": "demo" if demo else _local_source(data_dir, "per_mpst", rows.files),
            "files": rows.files,
            "demo": demo,
            "seed": seed,
            "method": method,
            "k": int(k),
            "load": rows.summary,
            "split": parts.summary,
            "metrics_preset": metrics_preset,
            "factorisation": None
            if model is None
            else {
                "n_factors": model.n_factors,
                "reg": model.reg,
                "train_reviewers": model.reviewers,
                "train_ratings": model.ratings,
            },
        },
    )


@task
def per_doc(
    data_dir: str | None = None,
    demo: bool = False,
    aspects: str | list[str] | None = None,
    method: str = "perse_aspect",
    both_orders: bool | None = None,
    split: SplitMode = "auto",
    valid_fraction: float = 0.1,
    metrics_preset: MetricsPreset = "default",
    temperature: float | None = None,
    max_tokens: int | None = None,
    prompts: str | None = None,
    seed: int = DEFAULT_SEED,
) -> Task:
    """Per-DOC (PERSE): which of two plots an annotator preferred on an aspect (k = 1).

    Args:
        data_dir: Folder with ``PerDOC.<I|A|S|C|E>.*.jsonl`` files (default
            ``data/per_doc``; the repository's sample has Interestingness only).
        demo: Use the demo files written for this package (all five aspects).
        aspects: Comma-separated aspects: ``interestingness``, ``adaptability``,
            ``surprise``, ``character_development``, ``ending`` or their codes
            ``I,A,S,C,E`` (default: all five).
        method: ``perse_aspect`` (default) or ``prior_average`` (the annotator's earlier
            choice). ``matrix_factorization`` cannot apply (PERSE §4.2).
        both_orders: ``perse_aspect``: also ask with the plots swapped and report
            position consistency.
        split: ``auto``, ``seeded``, ``release`` or ``all`` (as ``per_mpst``).
        valid_fraction: Share of annotators held out by a seeded split.
        metrics_preset: ``default`` (a failed parse is wrong) or ``perse`` (dropped).
        temperature: ``perse_aspect``'s sampling temperature (default 0.8).
        max_tokens: ``perse_aspect``'s generation limit (default 600).
        prompts: ``perse_aspect``: folder of replacement templates.
        seed: Seed of the split and every generation.
    """
    demo = as_bool("demo", demo)
    if method == "matrix_factorization":
        raise ValueError(PAIRWISE_UNSUPPORTED)
    _check_options(
        method,
        list(PER_DOC_METHODS),
        {
            "both_orders": (both_orders, "perse_aspect"),
            "temperature": (temperature, "perse_aspect"),
            "max_tokens": (max_tokens, "perse_aspect"),
            "prompts": (prompts, "perse_aspect"),
        },
    )
    _, choice_failures = _preset(metrics_preset)
    rows = load_per_doc(data_dir=data_dir, aspects=aspects, demo=demo)
    parts = split_by_reviewer(rows, split, float(valid_fraction), seed)
    samples = [preference_record_to_sample(record, demo) for record in parts.valid]
    temp = PERSE_TEMPERATURE if temperature is None else float(temperature)
    tokens = PERSE_MAX_TOKENS if max_tokens is None else int(max_tokens)
    if method == "perse_aspect":
        solver = perse_aspect(
            both_orders=as_bool("both_orders", both_orders or False),
            temperature=temp,
            max_tokens=tokens,
            seed=seed,
            prompts=prompts,
        )
    else:
        solver = PER_DOC_METHODS[method]()
    return Task(
        dataset=MemoryDataset(samples, name="per_doc" + ("_demo" if demo else "")),
        solver=solver,
        scorer=choice_scorer(),
        metrics=[choice_metrics(choice_failures), parse_failures(), rating_cost()],
        config=GenerateConfig(temperature=temp, max_tokens=tokens, seed=seed)
        if method == "perse_aspect"
        else GenerateConfig(),
        epochs=Epochs(1, rating_mean()),
        version=task_version("per_doc"),
        viewer=choice_viewer(
            both_orders=method == "perse_aspect" and as_bool("both_orders", both_orders or False)
        ),
        metadata={
            "family": "personal",
            "dataset": "per_doc",
            "data_source": "demo" if demo else _local_source(data_dir, "per_doc", rows.files),
            "files": rows.files,
            "demo": demo,
            "seed": seed,
            "method": method,
            "aspects": rows.summary["aspects"],
            "load": rows.summary,
            "split": parts.summary,
            "metrics_preset": metrics_preset,
        },
    )
