"""A run checks, before its samples start, that every model it will call can be used.

A model that cannot be reached, refuses the key, or does not exist on its server makes a
run hang for many minutes (the provider SDKs retry a refused connection) or fail late.
So each task checks the evaluated model and every model bound to one of the package's
roles (:data:`ROLES`) first, with the cheapest request its provider allows:

- an OpenAI-compatible server (``openai-api/SERVICE/MODEL``, vLLM, SGLang, Ollama, ...):
  ``GET BASE_URL/models``, free, and the name looked up in it (a name the server does not
  list is confirmed with one generation of one token: llama.cpp answers any name);
- OpenAI: ``GET /models/NAME``; Anthropic: ``GET /v1/models/NAME`` (both free);
- Inspect's other remote providers: one minimal generation in the first sample, which the
  log counts;
- ``plural/random``, ``mockllm`` and other in-process models, and providers from other
  packages: no check.

On ``inspect eval`` the check runs while the task is built, and a failure prints at most
ten lines (the model, the base URL and its variable, the error class, the fix) and exits
non-zero within seconds. A Task built in Python before ``eval()`` is checked by its setup
solver (:func:`preflight`) in the first sample instead. Rate limits and server errors
found by a check let the run go on: Inspect retries them during the run.
``INSPECT_PLURAL_PREFLIGHT=off`` skips every check.
"""

from inspect_plural.preflight._check import (
    PREFLIGHT_ENV,
    ROLES,
    ModelUnreachable,
    ModelUnreachableInRun,
    check_targets,
    preflight_enabled,
    run_models,
)
from inspect_plural.preflight._message import MAX_LINES, failure_message
from inspect_plural.preflight._probe import Finding, probe
from inspect_plural.preflight._solver import check_task_models, preflight, task_setup
from inspect_plural.preflight._target import ProbeTarget, probe_target

__all__ = [
    "MAX_LINES",
    "PREFLIGHT_ENV",
    "ROLES",
    "Finding",
    "ModelUnreachable",
    "ModelUnreachableInRun",
    "ProbeTarget",
    "check_targets",
    "check_task_models",
    "failure_message",
    "preflight",
    "preflight_enabled",
    "probe",
    "probe_target",
    "run_models",
    "task_setup",
]
