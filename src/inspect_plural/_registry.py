"""Inspect entry point: importing this registers every task, solver, scorer and model API."""

# ruff: noqa: F401
from inspect_plural.models import plural
from inspect_plural.scorers import (
    brier_score,
    ece,
    failed_answers,
    mean_rank,
    parse_failures,
    role_scorer,
    top1,
    top2,
)
from inspect_plural.solvers import role_identification
from inspect_plural.tasks import personaeval_drama, personaeval_expertise, personaeval_literary
