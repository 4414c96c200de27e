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


def model_check(method: str, scorers_call_models: bool = True) -> Solver | None:
    """The ``setup`` of a task running ``method``: checks its models now and in the run.

    A method that calls no model is not checked when the task is built; the setup
    solver still checks a ``--solver`` that calls one. A task whose scorers call no model
    either (``scorers_call_models=False``: the annotator and distribution targets) gets
    no setup solver for such a method: Inspect records every solver step of every
    sample (a span, the state before and after), which costs a 0-call sample about a
    tenth of its CPU (docs/benchmarks.md, issue 32); a ``--solver`` that replaces its
    method is then not checked before its first call.

    Args:
        method: The task's method.
        scorers_call_models: Whether the task's scorers may call a model.

    Returns:
        The setup solver, or None (a 0-call method on a task that calls no model).

    Raises:
        ModelUnreachable: A model the run would call cannot be used.
    """
    calls_model = method not in NO_CALL_METHODS
    if not calls_model and not scorers_call_models:
        return None
    return task_setup(calls_model=calls_model)
