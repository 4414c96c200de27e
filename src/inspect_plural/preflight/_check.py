"""Checking the models a run will call: which ones, the probes, and the errors raised."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor

from inspect_ai.model import Model, model_roles

from inspect_plural.errors import UserError
from inspect_plural.preflight._message import failure_message
from inspect_plural.preflight._probe import Finding, probe
from inspect_plural.preflight._target import ProbeTarget

__all__ = [
    "PREFLIGHT_ENV",
    "ROLES",
    "ModelUnreachable",
    "ModelUnreachableInRun",
    "check_targets",
    "preflight_enabled",
    "recent_success",
    "remember",
    "run_models",
]

PREFLIGHT_ENV = "INSPECT_PLURAL_PREFLIGHT"
"""``off`` (or ``0``, ``false``, ``no``) skips every check."""
ROLES = (
    "judge",
    "persona_builder",
    "persona",
    "moderator",
    "aggregator",
    "referee",
    "summarizer",
    "grader",
)
"""The model roles the package's methods and scorers call (docs/running.md)."""
SUCCESS_TTL = 600.0
"""Seconds a passed check stands for later checks of the same model in this process."""

_successes: dict[tuple[str, str, str, int], Finding] = {}


class ModelUnreachable(UserError):
    """A model the run would call cannot be used (raised when the task is built)."""


class ModelUnreachableInRun(RuntimeError):
    """The same, found by the first sample (a sample's error must be a plain exception)."""


def preflight_enabled() -> bool:
    """Whether checks run (``$INSPECT_PLURAL_PREFLIGHT`` is not ``off``)."""
    return os.environ.get(PREFLIGHT_ENV, "on").strip().lower() not in {"off", "0", "false", "no"}


def run_models(main: Model | None, roles: Iterable[str] = ROLES) -> list[Model]:
    """The evaluated model and every model bound to one of the package's roles, once each."""
    bound = model_roles()
    models = [] if main is None else [main]
    for role in roles:
        value = bound.get(role)
        models += value if isinstance(value, list) else ([value] if value is not None else [])
    unique: dict[str, Model] = {}
    for model in models:
        unique.setdefault(f"{model}|{model.api.base_url}", model)
    return list(unique.values())


def recent_success(target: ProbeTarget) -> Finding | None:
    """A passed check of the same model, URL and key made in the last 10 minutes."""
    found = _successes.get(target.identity)
    if found is not None and time.monotonic() - found.at <= SUCCESS_TTL:
        return found
    return None


def remember(findings: Iterable[Finding]) -> None:
    """Keep passed checks for :func:`recent_success`."""
    for finding in findings:
        if finding.ok:
            _successes[finding.target.identity] = finding


def check_targets(targets: Sequence[ProbeTarget]) -> list[Finding]:
    """Probe each target that has a free probe, concurrently (a few seconds at most).

    Targets checked with a minimal request or skipped are left out, and so are those
    that passed recently.
    """
    todo = [
        t
        for t in targets
        if t.kind in ("model_list", "openai_model", "anthropic_model") and not recent_success(t)
    ]
    if not todo:
        return []
    with ThreadPoolExecutor(max_workers=len(todo)) as pool:
        findings = list(pool.map(probe, todo))
    remember(findings)
    return findings


def raise_for(findings: Sequence[Finding], in_run: bool = False) -> None:
    """Raise the short error when any finding failed."""
    failures = [f for f in findings if not f.ok]
    if failures:
        message = failure_message(failures)
        raise ModelUnreachableInRun(message) if in_run else ModelUnreachable(message)
