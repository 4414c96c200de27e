# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""PERSE's personalised story-evaluation tasks: Per-MPST (scores) and Per-DOC (choices).

``per_mpst``: one sample = (reviewer, new plot) with the reviewer's k prior
(plot, review, score) triples (k = 0: none, the paper's zero-shot row); the target is
the reviewer's 1–10 score. Methods: ``perse_review`` (1 call), ``prior_average`` and
``matrix_factorization`` (0 calls). ``review_content=false`` is the paper's "w/o review
content" ablation; ``shuffle_reviews=N`` its review-order robustness test (N epochs,
each a seeded shuffle of the prior reviews).

``per_doc``: one sample = (annotator, plot pair, aspect) with the annotator's earlier
comparison on that aspect (k = 1); the target is the preferred plot. Methods:
``perse_aspect`` (1 call, 2 with ``both_orders``) and ``prior_average`` (0 calls).

Both split the data by reviewer (PERSE §4.1, validation reviewers unseen in training):
the release's own split when its file names declare one, else 10% of the reviewers
drawn with the seed (``split``, ``valid_fraction``). Only the validation reviewers are
evaluated; the training reviewers' full histories are what matrix factorisation fits.

Options are checked before any data is read (:mod:`~inspect_plural.tasks.perse._options`);
the task metadata records the method's options, the protocol and the generation
settings applied, and the metrics level and preset (the method itself is the log's plan).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from inspect_plural.errors import UserError
from inspect_plural.records import PersonalReview
from inspect_plural.scorers._cost import cost
from inspect_plural.scorers._failures import failure_reasons
from inspect_plural.scorers.personal import (
    PERSONAL_PRESETS,
    REVIEW_ACCURACY,
    choice_metrics,
    choice_scorer,
    review_metrics,
    review_scorer,
)
from inspect_plural.scorers.ratings import rating_mean
from inspect_plural.scorers.role import failed_answers, parse_failures
from inspect_plural.solvers.perse import (
    matrix_factorization,
    perse_aspect,
    perse_review,
    prior_average,
)
from inspect_plural.solvers.perse._factorization import (
    FactorModel,
    fit_factor_model,
    training_ratings,
)
from inspect_plural.sources.perse import (
    SCORE_HIGH,
    SCORE_LOW,
    load_per_doc,
    load_per_mpst,
    split_by_reviewer,
)
from inspect_plural.structured import structured_value
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._preflight import model_check
from inspect_plural.tasks._viewer import choice_viewer, headline, review_viewer
from inspect_plural.tasks.perse._options import (
    DEFAULT_SEED,
    PER_DOC_METHODS,
    PER_MPST_METHODS,
    GenerateSettings,
    check_perse_options,
    given_options,
    method_settings,
)
from inspect_plural.tasks.perse._samples import (
    data_sources,
    preference_record_to_sample,
    review_record_to_sample,
)

__all__ = [
    "PER_DOC_METHODS",
    "PER_MPST_METHODS",
    "per_doc",
    "per_mpst",
    "preference_record_to_sample",
    "review_record_to_sample",
]

logger = logging.getLogger(__name__)

MF_FACTORS = 10
MF_REG = 5.0
REVIEW_WORDS = 150


def _factor_model(
    train: Sequence[PersonalReview], mf_factors: int, mf_reg: float, seed: int
) -> FactorModel:
    if not train:
        raise UserError(
            "matrix_factorization needs training reviewers, and this split has none (the "
            "repository's sample file has a single reviewer). Use the release's files, or "
            "-T split=seeded on data with more reviewers."
        )
    return fit_factor_model(training_ratings(train), n_factors=mf_factors, reg=mf_reg, seed=seed)


def _mpst_solver(
    method: str, options: dict[str, Any], settings: GenerateSettings | None
) -> tuple[Solver, dict[str, Any]]:
    """The method's solver and the method options it runs with (for the metadata)."""
    if method == "perse_review":
        assert settings is not None
        applied: dict[str, Any] = {
            "review_words": options["review_words"] or REVIEW_WORDS,
            "review_content": options["review_content"] is not False,
            "shuffle_reviews": options["shuffle_reviews"],
            "prompts": options["prompts"],
            "structured": structured_value(options["structured"]),
        }
        solver = perse_review(
            review_words=applied["review_words"],
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            seed=settings.seed,
            prompts=options["prompts"],
            review_content=applied["review_content"],
            shuffle_reviews=options["shuffle_reviews"] is not None,
            structured=applied["structured"],
        )
        return solver, applied
    if method == "prior_average":
        return prior_average(seed=options["seed"]), {}
    return matrix_factorization(), {
        "mf_factors": MF_FACTORS if options["mf_factors"] is None else options["mf_factors"],
        "mf_reg": MF_REG if options["mf_reg"] is None else options["mf_reg"],
    }


def _run_metadata(
    applied: dict[str, Any],
    options: dict[str, Any],
    settings: GenerateSettings | None,
) -> dict[str, Any]:
    """What configures the run's method and scoring, for the log (issue 20)."""
    # the method itself is the log's plan: Inspect records the solver that ran, whether
    # chosen with -T method= or --solver, which task metadata could not follow
    return {
        "method_options": applied,
        "protocol": options["protocol"],
        "generate": None if settings is None else settings.model_dump(),
        "metrics": options["metrics"],
        "metrics_preset": options["metrics_preset"],
    }


@task
def per_mpst(
    data_dir: str | None = None,
    demo: bool = False,
    k: int = 3,
    method: str = "perse_review",
    split: str = "auto",
    valid_fraction: float = 0.1,
    metrics_preset: str = "default",
    metrics: str = "headline",
    protocol: str = "default",
    temperature: float | None = None,
    max_tokens: int | None = None,
    review_words: int | None = None,
    review_content: bool | None = None,
    shuffle_reviews: int | None = None,
    prompts: str | None = None,
    structured: bool | str | None = None,
    mf_factors: int | None = None,
    mf_reg: float | None = None,
    seed: int = DEFAULT_SEED,
    **options: Any,
) -> Task:
    """Per-MPST (PERSE): predict a reviewer's 1–10 score of a new plot from k prior reviews.

    Args:
        data_dir: Folder with ``PerMPST.k{K}.*.jsonl`` files (default ``data/per_mpst``;
            ``../shared/data/perse``-style sample files work too).
        demo: Use the demo files written for this package (invented reviewers and
            plots, release-style train/valid split). Not with ``data_dir``.
        k: Prior reviews per sample (default 3; the paper uses 0–5). From the ``k{k}``
            files, else the first k of a larger K's; 0 shows none (the zero-shot row:
            ``perse_review`` sees the instruction and the new plot only, ``prior_average``
            draws a random score as the paper's simple baseline does).
        method: ``perse_review`` (default), ``prior_average`` or ``matrix_factorization``.
        split: ``auto`` (default: the files' declared train/valid split, else seeded),
            ``seeded``, ``release`` or ``all`` (every row; nothing is training data).
        valid_fraction: Share of reviewers held out by a seeded split (PERSE: 0.1).
        metrics_preset: ``default`` (a row without a score predicts the middle of the
            scale and is wrong; accuracy rounds the prediction half up) or ``perse`` (such
            rows dropped and the raw prediction compared, as ``get_score.py`` does).
        metrics: ``headline`` (default: the paper's numbers, parse failures, calls,
            tokens) or ``full`` (also the other accuracy rule, cold starts, per-shuffle
            correlations).
        protocol: ``default`` (temperature 0, seeded) or ``paper`` (temperature 0.8, as
            PERSE samples).
        temperature: ``perse_review``: sampling temperature (default protocol only).
        max_tokens: ``perse_review``: generation limit (default 600).
        review_words: ``perse_review``: word budget of each prior review (default 150).
        review_content: ``perse_review``: false shows the prior plots with their scores
            only (the paper's "w/o review content" ablation, Table 5).
        shuffle_reviews: ``perse_review``: N runs (epochs), each showing the prior
            reviews in an order shuffled with the seed, the sample and the epoch (the
            paper's order-robustness test uses 3); needs k >= 2.
        prompts: ``perse_review``: folder of replacement templates.
        structured: ``perse_review``: constrain the answer to its JSON schema (``true``,
            or ``json_object`` for llama-cpp-python; default off).
        mf_factors: ``matrix_factorization``: latent factors (default 10).
        mf_reg: ``matrix_factorization``: regularisation (default 5.0).
        seed: Seed of the split, the factorisation, the shuffles and every generation
            (default 42).
        **options: Nothing else is accepted: an unknown option fails with the closest
            valid names.
    """
    opts = check_perse_options("per_mpst", given_options(locals(), options))
    method_name = str(opts["method"])
    settings = method_settings(method_name, opts)
    review_failures, _ = PERSONAL_PRESETS[opts["metrics_preset"]]
    rows = load_per_mpst(data_dir=opts["data_dir"], k=opts["k"], demo=opts["demo"])
    parts = split_by_reviewer(rows, opts["split"], opts["valid_fraction"], opts["seed"])
    solver, applied = _mpst_solver(method_name, opts, settings)
    model: FactorModel | None = None
    if method_name == "matrix_factorization":
        model = _factor_model(parts.train, applied["mf_factors"], applied["mf_reg"], opts["seed"])
    samples = [
        review_record_to_sample(
            record,
            None
            if model is None
            else model.for_movies([*(h.item_id for h in record.history), record.target.item_id]),
            opts["demo"],
        )
        for record in parts.valid
    ]
    shuffles = int(opts["shuffle_reviews"] or 0)
    return Task(
        setup=model_check(method_name),
        dataset=MemoryDataset(samples, name="per_mpst" + ("_demo" if opts["demo"] else "")),
        solver=solver,
        scorer=review_scorer(),
        metrics=[
            review_metrics(
                review_failures,
                float(SCORE_LOW),
                float(SCORE_HIGH),
                REVIEW_ACCURACY[opts["metrics_preset"]],
                opts["metrics"],
            ),
            parse_failures(),
            failed_answers(),
            failure_reasons(),
            cost(),
        ],
        config=GenerateConfig() if settings is None else settings.config(),
        epochs=Epochs(max(1, shuffles), rating_mean()),
        version=task_version("per_mpst"),
        viewer=review_viewer(float(SCORE_LOW), float(SCORE_HIGH)),
        **headline("spearman"),
        metadata={
            "family": "personal",
            "dataset": "per_mpst",
            **data_sources(opts["data_dir"], opts["demo"], "per_mpst", rows.files),
            "files": rows.files,
            "demo": opts["demo"],
            "seed": opts["seed"],
            **_run_metadata(applied, opts, settings),
            "k": opts["k"],
            "load": rows.summary,
            "split": parts.summary,
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
    split: str = "auto",
    valid_fraction: float = 0.1,
    metrics_preset: str = "default",
    metrics: str = "headline",
    protocol: str = "default",
    temperature: float | None = None,
    max_tokens: int | None = None,
    prompts: str | None = None,
    structured: bool | str | None = None,
    seed: int = DEFAULT_SEED,
    **options: Any,
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
        metrics: ``headline`` (default) or ``full`` (also rows per aspect, micro
            accuracy, the first-shown rate).
        protocol: ``default`` (temperature 0, seeded) or ``paper`` (temperature 0.8).
        temperature: ``perse_aspect``: sampling temperature (default protocol only).
        max_tokens: ``perse_aspect``: generation limit (default 600).
        prompts: ``perse_aspect``: folder of replacement templates.
        structured: ``perse_aspect``: constrain each answer to its JSON schema (``true``,
            or ``json_object`` for llama-cpp-python; default off).
        seed: Seed of the split and every generation (default 42).
        **options: Nothing else is accepted: an unknown option fails with the closest
            valid names.
    """
    opts = check_perse_options("per_doc", given_options(locals(), options))
    method_name = str(opts["method"])
    settings = method_settings(method_name, opts)
    _, choice_failures = PERSONAL_PRESETS[opts["metrics_preset"]]
    rows = load_per_doc(data_dir=opts["data_dir"], aspects=opts["aspects"], demo=opts["demo"])
    parts = split_by_reviewer(rows, opts["split"], opts["valid_fraction"], opts["seed"])
    samples = [preference_record_to_sample(record, opts["demo"]) for record in parts.valid]
    both = bool(opts["both_orders"])
    if method_name == "perse_aspect":
        assert settings is not None
        solver = perse_aspect(
            both_orders=both,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            seed=settings.seed,
            prompts=opts["prompts"],
            structured=structured_value(opts["structured"]),
        )
        applied: dict[str, Any] = {"both_orders": both, "prompts": opts["prompts"]}
        applied["structured"] = structured_value(opts["structured"])
    else:
        solver, applied = prior_average(seed=opts["seed"]), {}
    return Task(
        setup=model_check(method_name),
        dataset=MemoryDataset(samples, name="per_doc" + ("_demo" if opts["demo"] else "")),
        solver=solver,
        scorer=choice_scorer(),
        metrics=[
            choice_metrics(choice_failures, opts["metrics"]),
            parse_failures(),
            failed_answers(),
            failure_reasons(),
            cost(),
        ],
        config=GenerateConfig() if settings is None else settings.config(),
        epochs=Epochs(1, rating_mean()),
        version=task_version("per_doc"),
        viewer=choice_viewer(both_orders=method_name == "perse_aspect" and both),
        **headline("accuracy"),
        metadata={
            "family": "personal",
            "dataset": "per_doc",
            **data_sources(opts["data_dir"], opts["demo"], "per_doc", rows.files),
            "files": rows.files,
            "demo": opts["demo"],
            "seed": opts["seed"],
            **_run_metadata(applied, opts, settings),
            "aspects": rows.summary["aspects"],
            "load": rows.summary,
            "split": parts.summary,
        },
    )
