"""The text a group debate shows: persona descriptions, scores, evaluations, transcripts.

Also the moderator's response format, which names the candidates literally and shows a
filled example (never a ``<placeholder>`` a model could copy).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from inspect_plural.solvers.debate._records import DebateTurn, Evaluation
from inspect_plural.stakeholders import Persona, StakeholderGroup

__all__ = [
    "format_scores",
    "moderator_instruction",
    "persona_text",
    "render_evaluations",
    "render_transcript",
]


def persona_text(persona: Persona, group: StakeholderGroup, simple_roles: bool) -> str:
    if simple_roles:
        return f"You are {persona.name}, {group.simple_role}."
    return persona.describe()


def format_scores(scores: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in scores.items()) or "(no readable scores)"


def render_evaluations(evaluations: Sequence[Evaluation]) -> str:
    blocks = []
    for e in evaluations:
        feedback = e.feedback.strip() or "(no feedback)"
        blocks.append(f"### {e.persona}\n\nScores: {format_scores(e.scores)}\n\n{feedback}")
    return "\n\n".join(blocks)


def render_transcript(turns: Sequence[DebateTurn]) -> str:
    if not turns:
        return "(nobody has spoken yet)"
    return "\n\n".join(f"[{t.speaker}] (round {t.round}): {t.text.strip()}" for t in turns)


def moderator_instruction(candidates: Sequence[str]) -> str:
    """The moderator's response format: the literal names it may pick and a filled example.

    Args:
        candidates: Who may speak next, in listed order.

    Returns:
        The instruction.
    """
    names = ", ".join(json.dumps(name, ensure_ascii=False) for name in candidates)
    example = json.dumps(
        {
            "next_speaker": candidates[0],
            "reason": "Their scores are the furthest from the rest of the group.",
        },
        ensure_ascii=False,
    )
    return (
        'Answer with a JSON object in a ```json code block: "next_speaker" is exactly one '
        f'of {names}, and "reason" says why in one sentence. For example, to give '
        f"{candidates[0]} the floor:\n\n```json\n{example}\n```"
    )
