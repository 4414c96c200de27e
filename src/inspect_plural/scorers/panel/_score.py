"""What the ``panel`` scorer shows its personas, and the score it writes for one sample.

The personas see the sample's input, its target when asked (``use_target``), and the
output being graded, as Markdown sections. The score's value is flat and numeric:

- ``{dim}``: the panel's score, the mean of the groups' means (every group weighs the
  same, as in MAJ-Eval);
- ``{dim}/group/{group}``: each group's mean of its personas' final scores (group names
  as keys: lower case, ``_`` for anything but letters and digits);
- ``model_calls``, ``tokens``: what grading the sample cost (the sample that created
  the personas also carries their creation);
- ``parse_failures``: persona answers that could not be read on every dimension
  (refused echoes and copied examples, and a refused synthesis, included), and
  ``failed/<reason>`` per reason (:mod:`inspect_plural.scorers._failures`).

A dimension no persona could score is NaN (so every sample has the same keys); a
sample on which no persona gave a usable score is kept with reason ``grader_failed``
and an explanation, never dropped. The metadata holds the panel
(:class:`PanelRecord`) and the whole debate (``debate``: each group's
:class:`~inspect_plural.solvers.GroupDebate`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import ChatMessage
from inspect_ai.scorer import Score, Target
from inspect_ai.solver import TaskState
from pydantic import BaseModel, Field

from inspect_plural.parsing import FailureReason
from inspect_plural.records import RatingDimension
from inspect_plural.scorers._cost import CALLS_KEY, TOKENS_KEY
from inspect_plural.scorers._failures import failure_values
from inspect_plural.scorers._values import MAX_SHOWN, make_score
from inspect_plural.solvers.debate import GroupDebate
from inspect_plural.stakeholders import Persona

__all__ = [
    "DEBATE_KEY",
    "PANEL_KEY",
    "PARSE_FAILURES_KEY",
    "PanelGroup",
    "PanelRecord",
    "group_key",
    "group_keys",
    "panel_score",
    "render_graded",
]

PANEL_KEY = "stakeholder_panel"
"""``Score.metadata`` key of the panel (:class:`PanelRecord`)."""
DEBATE_KEY = "debate"
"""``Score.metadata`` key of the debate: one :class:`GroupDebate` dump per group."""
PARSE_FAILURES_KEY = "parse_failures"
"""Per-sample score key: persona answers that could not be read on every dimension."""
REASON_CHARS = 160


def group_key(dimension: str, key: str) -> str:
    """The score key of one group's mean on one dimension (``overall/group/parents``)."""
    return f"{dimension}/group/{key}"


def group_keys(names: Sequence[str]) -> dict[str, str]:
    """Group name -> its key in score names (``Primary teachers`` -> ``primary_teachers``).

    Args:
        names: The group names, in order.

    Returns:
        A unique key per name (``_2``... appended on a clash).
    """
    keys: dict[str, str] = {}
    for name in names:
        base = re.sub(r"[\W_]+", "_", name.casefold()).strip("_") or "group"
        key, n = base, 1
        while key in keys.values():
            n += 1
            key = f"{base}_{n}"
        keys[name] = key
    return keys


class PanelGroup(BaseModel):
    """A stakeholder group on the panel.

    Attributes:
        name: The group's name.
        key: Its name in score keys.
        personas: Its personas.

    """

    name: str
    key: str
    personas: list[Persona] = Field(default_factory=list)


class PanelRecord(BaseModel):
    """The panel behind a sample's score (``Score.metadata["stakeholder_panel"]``).

    Attributes:
        origin: ``file``, ``documents`` or ``profiles``.
        dimensions: The dimensions scored, with their scales.
        groups: The groups and their personas.
        rounds: Debate rounds allowed (0: independent scoring only).
        closing_call: Whether personas still active after the debate were asked again.
        use_target: Whether the personas were shown the sample's target.
        alpha_level: The level of measurement of the agreement metric.
        metrics: ``headline`` or ``full`` (per-group metric breakdowns always).
        creation_calls: Persona-creation calls this sample made (0 unless it made them).
        notes: What was worked around while building the panel.

    """

    origin: str
    dimensions: list[RatingDimension]
    groups: list[PanelGroup]
    rounds: int = 0
    closing_call: bool = False
    use_target: bool = False
    alpha_level: str = "interval"
    metrics: str = "headline"
    creation_calls: int = 0
    notes: list[str] = Field(default_factory=list)


def _message_text(message: ChatMessage) -> str:
    return message.text.strip() or "(no text)"


def _input_text(state: TaskState) -> str:
    if isinstance(state.input, str):
        return state.input.strip() or "(empty)"
    messages: list[ChatMessage] = [m for m in state.input if m.role != "system"]
    messages = messages or list(state.input)
    if len(messages) == 1:
        return _message_text(messages[0])
    return "\n\n".join(f"**{m.role}**: {_message_text(m)}" for m in messages)


def _output_text(state: TaskState) -> str:
    text = state.output.completion.strip() if state.output else ""
    if not text:
        replies = [m for m in state.messages if m.role == "assistant" and m.text.strip()]
        text = replies[-1].text.strip() if replies else ""
    return text or "(empty)"


def render_graded(state: TaskState, target: Target | None = None) -> str:
    """What the personas grade: the input, the target (when given), the output.

    Args:
        state: The sample's state (its input and output).
        target: The target to show, or None.

    Returns:
        Markdown sections ``## Input``, ``## Reference answer``, ``## Response``.
    """
    parts = [f"## Input\n\n{_input_text(state)}"]
    references = [t.strip() for t in (target.target if target is not None else []) if t.strip()]
    if len(references) == 1:
        parts.append(f"## Reference answer\n\n{references[0]}")
    elif references:
        listed = "\n".join(f"- {t}" for t in references)
        parts.append(f"## Reference answers (any of these)\n\n{listed}")
    parts.append(f"## Response\n\n{_output_text(state)}")
    return "\n\n".join(parts)


def _failures(debate: GroupDebate) -> list[FailureReason | None]:
    return [failure for ok, failure in debate.answer_outcomes() if not ok]


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= REASON_CHARS else line[: REASON_CHARS - 1].rstrip() + "…"


def _reason(debate: GroupDebate, persona: str) -> str:
    """The persona's latest words: its final answer, last debate turn, or first evaluation."""
    final = next((e for e in debate.final if e.persona == persona), None)
    if final is not None and final.feedback.strip():
        return final.feedback
    turns = [t.text for t in debate.turns if t.speaker == persona and t.text.strip()]
    if turns:
        return turns[-1]
    first = next((e for e in debate.initial if e.persona == persona), None)
    return first.feedback if first is not None else ""


def _fmt(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}".rstrip("0").rstrip(".")


def _explanation(
    debates: Sequence[GroupDebate],
    dimensions: Sequence[RatingDimension],
    values: Mapping[str, float],
    keys: Mapping[str, str],
) -> str:
    lines = []
    for d in dimensions:
        groups = ", ".join(
            f"{g.group} {_fmt(values[group_key(d.name, keys[g.group])])}" for g in debates
        )
        lines.append(f"Panel {d.name}: {_fmt(values[d.name])} ({groups})")
    for debate in debates:
        lines.append(f"\n{debate.group}:")
        for e in debate.final:
            scores = ", ".join(f"{k} {v:g}" for k, v in e.scores.items())
            state = scores or f"no usable score ({e.error or 'unreadable answer'})"
            reason = _one_line(_reason(debate, e.persona))
            lines.append(f"- {e.persona}: {state}" + (f" — {reason}" if reason else ""))
    return "\n".join(lines)


def panel_score(
    debates: Sequence[GroupDebate],
    record: PanelRecord,
    creation_calls: int = 0,
    creation_tokens: int = 0,
) -> Score:
    """The score of one sample from its groups' debates.

    Args:
        debates: Each group's debate about the sample's output.
        record: The panel (dimensions, groups with their keys, settings).
        creation_calls: Persona-creation calls this sample made.
        creation_tokens: Their tokens.

    Returns:
        The score (module docstring).
    """
    keys = {g.name: g.key for g in record.groups}
    values: dict[str, float] = {}
    for d in record.dimensions:
        means = {g.group: g.scores[d.name] for g in debates if d.name in g.scores}
        values[d.name] = sum(means.values()) / len(means) if means else math.nan
        for g in debates:
            values[group_key(d.name, keys[g.group])] = means.get(g.group, math.nan)
    values[CALLS_KEY] = float(creation_calls + sum(g.model_calls for g in debates))
    values[TOKENS_KEY] = float(creation_tokens + sum(g.tokens for g in debates))
    failures = [f for g in debates for f in _failures(g)]
    values[PARSE_FAILURES_KEY] = float(len(failures))
    values.update(failure_values(failures))
    explanation = _explanation(debates, record.dimensions, values, keys)
    metadata: dict[str, Any] = {
        PANEL_KEY: record.model_dump(exclude_defaults=False),
        DEBATE_KEY: [g.model_dump() for g in debates],
    }
    # the panel means of the first dimensions are the viewer's columns; a panel usually
    # sits beside the task's own scorer, so it shows one number fewer than the maximum
    shown = [d.name for d in record.dimensions[: MAX_SHOWN - 1]]
    if all(math.isnan(values[d.name]) for d in record.dimensions):
        errors = sorted({e.error for g in debates for e in g.initial if e.error})
        return make_score(
            values,
            shown,
            reason="grader_failed",
            explanation="No persona gave a usable score"
            + (f" ({'; '.join(errors)})" if errors else "")
            + ".\n\n"
            + explanation,
            metadata=metadata,
        )
    return make_score(values, shown, explanation=explanation, metadata=metadata)
