"""Every private Inspect name the package depends on, in this one module.

Inspect's underscore modules change without a deprecation period, so nothing else in the
package imports one: it imports the name from here. When an Inspect release moves a name,
``tests/unit/test_inspect_private.py`` fails naming it, and this module is the only place
to change (``[tool.inspect-evals-lint]`` exempts this file, and only this file, from the
``private_api_imports`` rule). Each entry says why no public API serves.

- :class:`PrerequisiteError`: the exception Inspect's command line prints as its message
  alone, without a traceback; :class:`~inspect_plural.errors.UserError` subclasses it so
  that a user's mistake reads as a short message. Inspect exports no public equivalent.
- :func:`sample_total_tokens`: the tokens of every model call of the running sample, so
  far. The public equivalent is ``TaskState.token_usage``, but the scorers' cost values
  are computed from a prediction, where no ``TaskState`` is at hand.
- :func:`active_model`: the model being evaluated, or None outside an evaluation. The
  model check (:mod:`inspect_plural.preflight`) runs while Inspect builds a task given by
  name, when that model is set; public ``get_model()`` would fall back to
  ``INSPECT_EVAL_MODEL`` (another model) or raise where this says "none yet".
- :data:`PROGRESS_METRICS_MODULE`: not an import but a module name, recognised on the call
  stack to tell Inspect's interim metric recomputation (the progress display) from the
  final one (:mod:`inspect_plural.scorers._undefined`).
"""

from __future__ import annotations

from inspect_ai._util.error import PrerequisiteError
from inspect_ai.model._model import active_model, sample_total_tokens

__all__ = [
    "PRIVATE_NAMES",
    "PROGRESS_METRICS_MODULE",
    "PrerequisiteError",
    "active_model",
    "sample_total_tokens",
]

PROGRESS_METRICS_MODULE = "inspect_ai._eval.task.run"
"""The module whose progress-display callback recomputes metrics while a task runs."""

PRIVATE_NAMES: dict[str, str] = {
    "PrerequisiteError": "inspect_ai._util.error",
    "sample_total_tokens": "inspect_ai.model._model",
    "active_model": "inspect_ai.model._model",
}
"""Each private name imported above -> the Inspect module it comes from (for the test)."""
