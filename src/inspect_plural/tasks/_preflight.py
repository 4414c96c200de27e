"""Every task's setup: the check that the run's models can be used (issue 28)."""

from __future__ import annotations

from inspect_ai.solver import Solver

from inspect_plural.preflight import task_setup

__all__ = ["NO_CALL_METHODS", "model_check"]

NO_CALL_METHODS = frozenset(
    {
        "annotator_majority",
        "item_majority",
        "uniform",
        "label_prior",
        "rouge_l",
        "prior_average",
        "matrix_factorization",
        "lewidi_most_frequent",
        "lewidi_random",
    }
)
"""Methods that call no model (``BATCH_SUPPORT``'s ``not_applicable`` rows; a test keeps
the two equal: ``_batch`` imports every task module, so it cannot be imported here)."""


def model_check(method: str) -> Solver:
    """The ``setup`` of a task running ``method``: checks its models now and in the run.

    A method that calls no model is not checked when the task is built; the setup
    solver still checks a ``--solver`` that calls one.

    Raises:
        ModelUnreachable: A model the run would call cannot be used.
    """
    return task_setup(calls_model=method not in NO_CALL_METHODS)
