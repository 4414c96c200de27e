"""Which model plays a model role: the one bound with ``--model-role``, else the evaluated one."""

# inspect-evals-lint: ignore-file[get_model_location] -- runs at sample time (solve, score)

from __future__ import annotations

from inspect_ai.model import Model, get_model

__all__ = ["role_model"]


def role_model(role: str) -> Model:
    """The model bound to ``role``, else the model under evaluation.

    Every method and scorer of the package resolves its model roles (``judge``,
    ``persona_builder``, ``grader``, ...) here, so the fallback documented in
    docs/running.md ("Model roles") is one explicit choice rather than Inspect's
    implicit one. Either way the returned model carries ``role``, so each call's
    model event in the log (and the log's per-role usage) names the role it was made for.

    Call it at sample time (in a solver's ``solve`` or a scorer's ``score``), where
    Inspect has made the eval's model and model roles active.

    Args:
        role: The model role's name.

    Returns:
        The model to call.

    Raises:
        ValueError: No eval is running and ``INSPECT_EVAL_MODEL`` is not set.
    """
    return get_model(role=role, default=get_model())
