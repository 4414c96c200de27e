"""Inspect entry point: importing this registers every task, solver, scorer and model API."""

# ruff: noqa: F401
from inspect_plural.models import plural
from inspect_plural.scorers import (
    accuracy,
    accuracy_by_trait,
    annotator_macro_f1,
    annotator_scorer,
    brier_score,
    ece,
    failed_answers,
    macro_f1,
    mae,
    mean_rank,
    modal_row,
    parse_failures,
    prf_annotator,
    prf_global,
    prf_text,
    prf_trait,
    role_scorer,
    text_macro_f1,
    top1,
    top2,
    trait_macro_f1,
    within_one,
)
from inspect_plural.solvers import (
    annotator_majority,
    cinemetric,
    item_majority,
    llm_judge,
    personalized_judge,
    retrieval_examples,
    role_identification,
    trait_ensemble,
)
from inspect_plural.tasks import (
    brexit,
    dices,
    dp,
    epic,
    md_agreement,
    mhs,
    opinionqa,
    personaeval_drama,
    personaeval_expertise,
    personaeval_literary,
)
