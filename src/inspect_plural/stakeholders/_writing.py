"""Step 2 of persona creation: one persona per perspective of each stakeholder group.

One call per group, concurrently, each in a span named ``personas: <group name>``; the
answer is parsed tolerantly by :func:`parse_personas`, a persona without a perspective
gets the one it was asked for, a persona that copies the prompt's filled example (under
its name, :data:`EXAMPLE_PERSONA_NAME`) is skipped with a note, and names are made
unique across the set.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.util import span
from pydantic import BaseModel, ValidationError

from inspect_plural._concurrency import gather, named
from inspect_plural.answer_format import JsonFormat
from inspect_plural.stakeholders._answers import flat_text, json_value, keyed, names_one, unwrap
from inspect_plural.stakeholders._calls import Asker
from inspect_plural.stakeholders.records import (
    Persona,
    StakeholderGroup,
    name_key,
    persona_fields,
)

__all__ = [
    "EXAMPLE_PERSONA_NAME",
    "EXAMPLE_PERSONA_NAMES",
    "PANEL_EXAMPLE_PERSONA_NAME",
    "PERSONA_ATTRIBUTES",
    "PERSONA_FORMAT",
    "PersonaAnswer",
    "parse_personas",
    "holds_example_copy",
    "personas_span",
    "read_persona",
    "write_personas",
]

EXAMPLE_PERSONA_NAME = "Helen Okafor"
"""The name of the filled example in ``maj_persona.txt``: a persona under it copied the
example instead of writing one for its group."""
PANEL_EXAMPLE_PERSONA_NAME = "Hannah Okafor"
"""The name of the filled example in ``panel_persona.txt`` (the ``panel`` scorer's and
``stakeholder_panel``'s personas written from profiles)."""
EXAMPLE_PERSONA_NAMES = (EXAMPLE_PERSONA_NAME, PANEL_EXAMPLE_PERSONA_NAME)
"""The names of the filled examples of both persona prompts."""
PERSONA_ATTRIBUTES = (
    "name",
    "demographics",
    "perspective",
    "specialty",
    "psychological_traits",
    "social_relationships",
)
"""The persona fields read from an answer (each flattened to one line of text)."""


class _AnswerPersona(BaseModel):
    name: str
    demographics: str
    perspective: str
    specialty: str
    psychological_traits: str
    social_relationships: str


class PersonaAnswer(BaseModel):
    """Step 2's answer: one persona per perspective of a group."""

    personas: list[_AnswerPersona]


PERSONA_FORMAT = JsonFormat(json_schema=PersonaAnswer.model_json_schema())


def parse_personas(text: str) -> list[dict[str, Any]]:
    """Parse step 2's answer into persona dicts (not yet validated).

    Accepts ``{"personas": [...]}``, the paper's ``{group name: [...]}``, a bare list,
    or a single persona object; keys in either spelling (``Demographic Information``
    or ``demographics``).

    Args:
        text: The model's answer.

    Returns:
        The persona objects found (empty when none).
    """
    value = unwrap(json_value(text), "personas")
    if isinstance(value, dict):
        if names_one(keyed(value), "name", "full_name"):
            value = [value]
        else:
            lists = [v for v in value.values() if isinstance(v, list)]
            value = [item for v in lists for item in v]
    if not isinstance(value, list):
        return []
    return [entry for entry in value if isinstance(entry, dict)]


def _perspectives_block(group: StakeholderGroup) -> str:
    lines = []
    evidence = {p.perspective: p.evidence for p in group.perspective_evidence}
    for i, perspective in enumerate(group.perspectives, start=1):
        lines.append(f"{i}. {perspective}")
        quotes = evidence.get(perspective) or []
        if quotes:
            lines.append(f"   Evidence: {quotes[0]}")
    return "\n".join(lines)


def _unique_name(name: str, group: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while name_key(candidate) in taken:
        n += 1
        candidate = f"{name} ({group})" if n == 2 else f"{name} ({group} {n})"
    taken.add(name_key(candidate))
    return candidate


def read_persona(draft: dict[str, Any], group: str, perspective: str = "") -> Persona | str:
    """A persona from one object of a model's answer, or why it gives none.

    Keys in either spelling; every attribute flattened to one line of text; no perspective
    written takes ``perspective`` (the one the persona was asked for); a persona under a
    prompt example's name (:data:`EXAMPLE_PERSONA_NAMES`) copied the example.

    Args:
        draft: One persona object as parsed (:func:`parse_personas`).
        group: Its stakeholder group.
        perspective: The perspective it was asked to hold.

    Returns:
        The persona, or the reason there is none.
    """
    data = persona_fields(draft)
    fields = {name: flat_text(data.get(name)) for name in PERSONA_ATTRIBUTES}
    if name_key(fields["name"]) in {name_key(n) for n in EXAMPLE_PERSONA_NAMES}:
        return "it copies the prompt's example"
    fields["perspective"] = fields["perspective"] or perspective
    try:
        return Persona.model_validate({**fields, "group": group})
    except ValidationError as ex:
        return str(ex.errors()[0]["msg"])


def _personas_for(
    group: StakeholderGroup, answer: str, taken: set[str], notes: list[str]
) -> list[Persona]:
    personas = []
    drafts = parse_personas(answer)
    for i, draft in enumerate(drafts):
        # no perspective written: the group's perspective this persona was asked for
        asked = group.perspectives[i] if i < len(group.perspectives) else ""
        persona = read_persona(draft, group.name, asked)
        if isinstance(persona, str):
            notes.append(f"group {group.name!r}: persona {i + 1} skipped ({persona})")
            continue
        unique = _unique_name(persona.name, group.name, taken)
        if unique != persona.name:
            notes.append(f"group {group.name!r}: persona {persona.name!r} renamed {unique!r}")
            persona.name = unique
        personas.append(persona)
    if drafts and len(drafts) != len(group.perspectives):
        notes.append(
            f"group {group.name!r}: {len(drafts)} personas written for "
            f"{len(group.perspectives)} perspectives"
        )
    return personas


def personas_span(group: StakeholderGroup) -> str:
    """The name of a group's persona-writing span (what Inspect View shows).

    Args:
        group: The stakeholder group.

    Returns:
        ``personas: <group name>``.
    """
    return f"personas: {group.name}"


async def write_personas(
    groups: list[StakeholderGroup],
    template: str,
    task_description: str,
    asker: Asker,
    notes: list[str],
) -> list[StakeholderGroup]:
    """Ask for each group's personas (one call per group, concurrently) and read them.

    Args:
        groups: The groups, each with at least one perspective.
        template: The persona template (``maj_persona.txt``).
        task_description: The evaluation task, as the model is told it.
        asker: Makes and counts the calls.
        notes: Where skipped, renamed or missing personas are noted.

    Returns:
        The groups with at least one persona (their ``personas`` set), in order.
    """

    async def write(group: StakeholderGroup) -> str:
        prompt = template.format(
            task_description=task_description,
            group=group.name,
            characteristics=group.characteristics or "(no description)",
            perspectives=_perspectives_block(group),
            count=len(group.perspectives),
        )
        return await asker.ask(prompt, PERSONA_FORMAT)

    async with span("write personas"):
        answers = await gather(*(named(personas_span(group), write(group)) for group in groups))
    taken: set[str] = set()
    finished = []
    for group, answer in zip(groups, answers):
        group.personas = _personas_for(group, answer, taken, notes)
        if group.personas:
            finished.append(group)
        else:
            notes.append(f"group {group.name!r}: no persona could be read; group dropped")
    return finished


def holds_example_copy(personas: Sequence[Persona]) -> bool:
    """Whether a persona carries a prompt example's name (a copy, e.g. in an older cache).

    Args:
        personas: The personas of a set.

    Returns:
        True when any of them is named as one of :data:`EXAMPLE_PERSONA_NAMES`.
    """
    examples = {name_key(name) for name in EXAMPLE_PERSONA_NAMES}
    return any(name_key(p.name) in examples for p in personas)
