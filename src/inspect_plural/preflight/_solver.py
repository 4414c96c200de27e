"""Where the check runs: when the task is built, and as the task's setup solver."""

from __future__ import annotations

import time

import anyio
from inspect_ai.log import transcript
from inspect_ai.model import ChatMessageUser, GenerateConfig, Model, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_plural._inspect_private import active_model
from inspect_plural.preflight._check import (
    check_targets,
    preflight_enabled,
    raise_for,
    recent_success,
    remember,
    run_models,
)
from inspect_plural.preflight._message import summary
from inspect_plural.preflight._probe import REQUEST_TIMEOUT, Finding, one_line
from inspect_plural.preflight._target import ProbeTarget, probe_target

__all__ = ["check_task_models", "preflight", "task_setup"]

FAILURE_TTL = 60.0
"""Seconds a failed check stands for the other samples of a run (then it is tried again)."""
_REQUEST = "Reply with the word OK."


def _active_model() -> Model | None:
    # Inspect sets the evaluated model (and the roles) before it builds a task given by
    # name (eval_resolve_tasks); a Task built in Python before eval() sees none
    return active_model()


def check_task_models(calls_model: bool = True) -> list[Finding]:
    """Check the run's models while the task is being built (``inspect eval``).

    Inspect prints a :class:`~inspect_plural.preflight.ModelUnreachable` raised here in a
    few lines and exits non-zero, before any sample starts. Outside ``eval()`` (a Task
    built in Python) there is no model yet, and the setup solver checks instead.

    Args:
        calls_model: Whether the task's method calls a model at all.

    Returns:
        The findings (free probes only).

    Raises:
        ModelUnreachable: A model the run would call cannot be used.
    """
    if not (calls_model and preflight_enabled()):
        return []
    main = _active_model()
    if main is None:
        return []
    findings = check_targets([probe_target(m) for m in run_models(main)])
    raise_for(findings)
    return findings


async def _request_probe(model: Model, target: ProbeTarget) -> Finding:
    """One minimal generation through Inspect (so the log counts it), without long retries."""
    config = GenerateConfig(
        max_tokens=16, max_retries=1, timeout=int(3 * REQUEST_TIMEOUT), temperature=0
    )
    checked = f"one generation of at most 16 tokens ({target.model})"
    try:
        output = await model.generate([ChatMessageUser(content=_REQUEST)], config=config)
    except Exception as error:
        status = getattr(error, "status_code", None) or getattr(error, "code", None)
        problem = f"HTTP {status}" if isinstance(status, int) else type(error).__name__
        if status in (401, 403, 404):
            problem = {401: "401 unauthorized", 403: "403 forbidden", 404: "404 model not found"}[
                status
            ]
        return Finding(
            target=target,
            ok=False,
            problem=problem,
            detail=one_line(str(error)),
            checked=checked,
            requests=1,
        )
    tokens = output.usage.total_tokens if output.usage is not None else 0
    return Finding(target=target, ok=True, checked=checked, requests=1, tokens=tokens)


@solver
def preflight() -> Solver:
    """Check, once per run, that every model the run will call can be used.

    The first samples wait on one check; a model that failed it fails every sample for a
    minute (then it is tried again); a model that passed is not checked again. Free
    probes (an OpenAI-compatible server's model list, OpenAI's and Anthropic's model
    lookup) made when the task was built are not repeated; providers without one get a
    single minimal generation here, in the first sample, so the log counts it.
    ``plural/random``, ``mockllm`` and other in-process models are never checked.

    Returns:
        A solver that leaves the state unchanged, or raises
        :class:`~inspect_plural.preflight.ModelUnreachableInRun`.
    """
    lock = anyio.Lock()
    failed: dict[tuple[str, str, str, int], Finding] = {}
    reported: set[tuple[tuple[str, str, str, int], float]] = set()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if not preflight_enabled():
            return state
        async with lock:
            findings: list[Finding] = []
            pending: list[ProbeTarget] = []
            for model in run_models(get_model()):
                target = probe_target(model)
                if target.kind == "skip":
                    continue
                earlier = recent_success(target) or failed.get(target.identity)
                if earlier is not None and (
                    earlier.ok or time.monotonic() - earlier.at <= FAILURE_TTL
                ):
                    findings.append(earlier)
                elif target.kind == "request":
                    findings.append(await _request_probe(model, target))
                else:
                    pending.append(target)
            if pending:
                findings += await anyio.to_thread.run_sync(check_targets, pending)
            remember(findings)
            failed.update({f.target.identity: f for f in findings if not f.ok})
            # the sample that sees a check first reports it (also one made when the task
            # was built), so the log shows what was asked and what it cost
            new = [f for f in findings if (f.target.identity, f.at) not in reported]
            reported.update((f.target.identity, f.at) for f in new)
            if new:
                transcript().info(summary(new), source="preflight")
        raise_for(findings, in_run=True)
        return state

    return solve


def task_setup(calls_model: bool = True) -> Solver:
    """A task's ``setup``: the run's models checked now, and the :func:`preflight` solver.

    Inside ``inspect eval`` the models are checked while the task is built; the solver
    checks what could not be checked then (a Task built in Python, minimal requests).

    Args:
        calls_model: Whether the task's method calls a model (False: no check now; the
            setup solver still checks a ``--solver`` that does).

    Raises:
        ModelUnreachable: A model the run would call cannot be used.
    """
    check_task_models(calls_model)
    return preflight()
