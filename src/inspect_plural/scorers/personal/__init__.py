"""Scorers of the PERSE tasks (Per-MPST scores, Per-DOC choices) and their metrics.

``_scorers`` holds both scorers, ``_review_metrics`` and ``_review_text`` Per-MPST's
corpus metrics and review overlap, ``_choice_metrics`` Per-DOC's.
"""

from inspect_plural.scorers.personal._choice_metrics import (
    ChoiceFailures,
    choice_metrics,
    choice_summary,
)
from inspect_plural.scorers.personal._review_metrics import (
    REVIEW_ACCURACY,
    ReviewAccuracy,
    ReviewFailures,
    review_metrics,
    review_summary,
)
from inspect_plural.scorers.personal._scorers import (
    PERSONAL_PRESETS,
    SHUFFLED_REVIEWS,
    PersonalPreset,
    choice_scorer,
    review_scorer,
)

__all__ = [
    "PERSONAL_PRESETS",
    "REVIEW_ACCURACY",
    "SHUFFLED_REVIEWS",
    "ChoiceFailures",
    "PersonalPreset",
    "ReviewAccuracy",
    "ReviewFailures",
    "choice_metrics",
    "choice_scorer",
    "choice_summary",
    "review_metrics",
    "review_scorer",
    "review_summary",
]
