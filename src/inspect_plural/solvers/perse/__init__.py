"""PERSE's methods (Wang et al.): personalised review and aspect comparison, and the baselines.

``_review`` is ``perse_review`` (Per-MPST), ``_aspect`` ``perse_aspect`` (Per-DOC),
``_baselines`` the no-call baselines and ``_factorization`` the matrix factorisation
they use.
"""

from inspect_plural.solvers.perse._aspect import (
    ASPECT_FIELDS,
    ASPECT_TEMPLATE,
    CHOICE_FORMAT,
    ORDER_UNPARSED,
    ORDERS_DISAGREE,
    perse_aspect,
    render_aspect_prompt,
)
from inspect_plural.solvers.perse._baselines import (
    COLD_START,
    NO_TRAINING,
    matrix_factorization,
    prior_average,
)
from inspect_plural.solvers.perse._review import (
    ORDER_KEY,
    SHUFFLED_REVIEWS,
    perse_review,
    render_review_prompt,
    review_template,
    shuffled_history,
)

__all__ = [
    "ASPECT_FIELDS",
    "ASPECT_TEMPLATE",
    "CHOICE_FORMAT",
    "COLD_START",
    "NO_TRAINING",
    "ORDERS_DISAGREE",
    "ORDER_KEY",
    "ORDER_UNPARSED",
    "SHUFFLED_REVIEWS",
    "matrix_factorization",
    "perse_aspect",
    "perse_review",
    "prior_average",
    "render_aspect_prompt",
    "render_review_prompt",
    "review_template",
    "shuffled_history",
]
