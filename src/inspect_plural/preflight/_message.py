"""The message of a failed check: at most ten lines, naming the model, URL, cause and fix."""

from __future__ import annotations

from collections.abc import Sequence

from inspect_plural.preflight._probe import Finding

__all__ = ["MAX_LINES", "SKIP_HINT", "failure_message", "summary"]

MAX_LINES = 10
SKIP_HINT = "Skip this check: INSPECT_PLURAL_PREFLIGHT=off."
RETRIES = "During a run Inspect retries 429 and 5xx answers (bound it: --max-retries N)."


def _fix(finding: Finding) -> str:
    target = finding.target
    url_var = target.base_url_var or "the provider's base URL variable"
    key_var = target.key_var or "the provider's API key variable"
    problem = finding.problem
    if problem.startswith(("401", "403")):
        return f"Fix: set {key_var} to a key this server accepts."
    if problem.startswith("404"):
        provider = target.model[: -len(target.name)] if target.model.endswith(target.name) else ""
        return f"Fix: --model {provider}NAME with a NAME the server has, or load the model there."
    if target.kind == "model_list":
        return f"Fix: start the server, or set {url_var} to its URL (key: {key_var})."
    return f"Fix: check the network and {url_var} (key: {key_var})."


def _block(finding: Finding) -> list[str]:
    target = finding.target
    lines = [f"Model {target.model} cannot be used: {finding.problem}."]
    if finding.detail:
        lines.append(f"  Server said: {finding.detail}")
    if target.base_url:
        where = f" ({target.base_url_var} or --model-base-url)" if target.base_url_var else ""
        lines.append(f"  Base URL: {target.base_url}{where}")
    lines.append(f"  Checked before any sample ran: {finding.checked}")
    lines.append(_fix(finding))
    return lines


def failure_message(failures: Sequence[Finding]) -> str:
    """The user's message for models that cannot be used (at most :data:`MAX_LINES` lines).

    Args:
        failures: Findings that are not ok (at least one).

    Returns:
        Plain text: per model its problem, the server's words, the base URL and its
        variable, the request made and the fix; then the retry hint and how to skip the
        check. Models that do not fit in the lines are named on one line.
    """
    tail = [RETRIES, SKIP_HINT]
    lines: list[str] = []
    left = list(failures)
    while left and len(lines) + len(_block(left[0])) + len(tail) + (len(left) > 1) <= MAX_LINES:
        lines += _block(left.pop(0))
    if not lines:  # never: one block is at most five lines
        lines = _block(left.pop(0))[: MAX_LINES - len(tail)]
    if left:
        lines.append("Also failed: " + ", ".join(f.target.model for f in left) + ".")
    return "\n".join(lines + tail)


def summary(findings: Sequence[Finding]) -> str:
    """One Markdown line per model checked, for the transcript of the sample that checked."""
    lines = ["**Model check** (before the first call)", ""]
    for finding in findings:
        outcome = "ok" if finding.ok else f"failed: {finding.problem}"
        cost = f"; {finding.requests} request, {finding.tokens} tokens" if finding.requests else ""
        note = f" ({finding.note})" if finding.note else ""
        lines.append(f"- {finding.target.model}: {outcome}{note} - {finding.checked}{cost}")
    return "\n".join(lines)
