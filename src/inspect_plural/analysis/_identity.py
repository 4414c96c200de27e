"""What ran: the method and the full configuration of a log, read from what Inspect records.

The method is the solver Inspect records for the run: the ``--solver`` given on the
command line (``log.eval.solver``), else the task's own solver, which is the single step
of the log's plan (``log.plan.steps``), with its arguments. So a log run with
``-T method=cinemetric`` and one run with ``--solver inspect_plural/cinemetric`` both say
``cinemetric``, and no task metadata can contradict it.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.log import EvalLog

__all__ = [
    "PACKAGE_PREFIX",
    "TASK_DEFAULT",
    "is_demo",
    "method_args",
    "method_of",
    "model_roles",
    "run_configuration",
    "run_key",
]

PACKAGE_PREFIX = "inspect_plural/"
"""Registry prefix of the package's tasks, solvers and scorers."""

TASK_DEFAULT = "(task default)"
"""``task_method`` of a ``--solver`` run on a task given no ``-T method``."""

_NOT_METHODS = ("generate", "system_message", "prompt_template", "user_message", "preflight")
"""Plan steps that set up a prompt rather than answer (shown only if nothing else ran)."""


def _short(name: str) -> str:
    return name.removeprefix(PACKAGE_PREFIX)


def _steps(log: EvalLog) -> list[tuple[str, dict[str, Any]]]:
    steps = [(s.solver, dict(s.params or {})) for s in log.plan.steps] if log.plan else []
    methods = [(n, p) for n, p in steps if _short(n) not in _NOT_METHODS]
    return methods or steps


def method_of(log: EvalLog) -> str:
    """The method that ran, as its registry name without the package prefix.

    Args:
        log: A log (a header is enough).

    Returns:
        ``cinemetric``, ``llm_judge``, ... (a chain of several solvers: their names joined
        by ``+``; a third-party solver keeps its own prefix).
    """
    if log.eval.solver:
        return _short(log.eval.solver)
    steps = _steps(log)
    if steps:
        return "+".join(_short(name) for name, _ in steps)
    # a log without a plan (written by hand, not by Inspect): what its task was told
    for source in (log.eval.task_args or {}, log.eval.metadata or {}):
        method = source.get("method")
        if isinstance(method, str) and method:
            return method
    return "(none)"


def is_demo(log: EvalLog) -> bool:
    """Whether the run read the demo data written for this package (``-T demo=true``).

    The task's metadata says so (every task of the package records ``demo``); a log
    without it (a third-party task) is a demo run when its task argument ``demo`` is set.
    """
    metadata = log.eval.metadata or {}
    if isinstance(metadata.get("demo"), bool):
        return bool(metadata["demo"])
    given = (log.eval.task_args or {}).get("demo")
    return given is True or str(given).strip().lower() in ("true", "1", "yes")


def _given(params: dict[str, Any]) -> dict[str, Any]:
    """Arguments without the ones left at None (a default), so absent and None compare equal."""
    return {k: v for k, v in params.items() if v is not None}


def method_args(log: EvalLog) -> dict[str, Any]:
    """The method's arguments, as the plan that ran records them (None values left out).

    The plan's step holds every argument the solver was built with, also when it was
    chosen with ``--solver`` (``log.eval.solver_args`` holds only the ones typed), so two
    runs of one solver with the same settings have the same arguments however the
    solver was chosen.
    """
    steps = _steps(log)
    if log.eval.solver:
        ran = [params for name, params in steps if name == log.eval.solver]
        return _given(ran[0] if len(ran) == 1 else dict(log.eval.solver_args or {}))
    if len(steps) == 1:
        return _given(steps[0][1])
    return {_short(name): _given(params) for name, params in steps}


def model_roles(log: EvalLog) -> dict[str, str]:
    """Model role -> the model that played it (several joined by ``,``)."""
    roles: dict[str, str] = {}
    for role, config in (log.eval.model_roles or {}).items():
        configs = config if isinstance(config, list) else [config]
        roles[role] = ",".join(str(getattr(c, "model", c)) for c in configs)
    return roles


def run_configuration(log: EvalLog) -> dict[str, Any]:
    """Everything that makes a run this run and not another.

    The task, its arguments (None values, i.e. defaults, left out), the method and its
    arguments, the model with its arguments and generation settings, its roles, the
    samples and epochs run (``--limit``, ``--sample-id``, ``--epochs``), and the metric
    preset. Two logs with equal
    configurations are repeats; any difference makes them different rows of a table.
    The task argument ``method`` is replaced by ``task_method``, the method the task
    built its samples for: the method that ran, or with ``--solver`` the task's own
    choice (``-T method``, else ``(task default)``). So ``-T method=llm_judge`` and the
    default llm_judge run are repeats, while ``-T method=cinemetric`` and ``--solver
    inspect_plural/cinemetric`` on a task built for llm_judge are not (the task may have
    built its samples differently, e.g. how many training examples each carries).

    Args:
        log: A log (a header is enough).

    Returns:
        The configuration, JSON-serialisable.
    """
    metadata = log.eval.metadata or {}
    roles = model_roles(log)
    config = log.eval.config
    task_args = _given(dict(log.eval.task_args or {}))
    given_method = task_args.pop("method", None)
    method = method_of(log)
    if log.eval.solver:
        task_method = str(given_method) if given_method is not None else TASK_DEFAULT
    else:
        task_method = method
    return {
        "task": _short(log.eval.task),
        "task_args": task_args,
        "task_method": task_method,
        "task_version": log.eval.task_version,
        "method": method,
        "method_args": method_args(log),
        "model": log.eval.model,
        "model_args": _given(dict(log.eval.model_args or {})),
        "generate_config": _given(log.eval.model_generate_config.model_dump()),
        "model_roles": roles,
        "samples": _given(
            {
                "limit": config.limit,
                "sample_id": config.sample_id,
                "epochs": config.epochs,
            }
        ),
        "metrics_preset": metadata.get("metrics_preset", "default"),
    }


def run_key(log: EvalLog) -> str:
    """The configuration as one canonical string (equal for repeats only)."""
    return json.dumps(run_configuration(log), sort_keys=True, default=str)
