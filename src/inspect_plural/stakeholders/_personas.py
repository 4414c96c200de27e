"""Stakeholder groups and personas (MAJ-Eval §3.1): the persona file's record model.

A :class:`PersonaSet` is what persona creation produces once per task and what the
debate reads: stakeholder groups, each with its characteristics, a one-line
``simple_role`` (the "simple roles" ablation), its perspectives and one persona per
perspective. It is saved as JSON (``PersonaSet.save``) and read back by
:mod:`inspect_plural.stakeholders._persona_files`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator, model_validator

from inspect_plural.stakeholders._provenance import (
    ExtractedStakeholder,
    PersonaOrigin,
    PersonaUsage,
)

__all__ = [
    "ATTRIBUTES",
    "DEFAULT_PERSONA_SETS",
    "GroupPerspective",
    "Persona",
    "PersonaFileError",
    "PersonaSet",
    "StakeholderGroup",
    "name_key",
    "normalise_key",
    "persona_fields",
    "select_personas",
]


DEFAULT_PERSONA_SETS = ("mslr_cochrane", "storysparkqa")
"""The tasks that ship a default persona file (``stakeholders/defaults/<task>.json``)."""


ATTRIBUTES = (
    ("demographics", "Demographic information"),
    ("perspective", "Perspective"),
    ("specialty", "Specialty"),
    ("psychological_traits", "Psychological traits"),
    ("social_relationships", "Social relationships"),
)
"""The five persona attributes, in the paper's order, with their display titles."""


_PERSONA_KEYS = {
    "name": "name",
    "full_name": "name",
    "persona_name": "name",
    "group": "group",
    "stakeholder": "group",
    "stakeholder_group": "group",
    "demographics": "demographics",
    "demographic": "demographics",
    "demographic_information": "demographics",
    "demographic_info": "demographics",
    "perspective": "perspective",
    "evaluative_dimension": "perspective",
    "dimension": "perspective",
    "specialty": "specialty",
    "speciality": "specialty",
    "domain_specialty": "specialty",
    "psychological_traits": "psychological_traits",
    "psychological_trait": "psychological_traits",
    "social_relationships": "social_relationships",
    "social_relationship": "social_relationships",
}


def normalise_key(key: object) -> str:
    """``"Demographic Information"`` → ``"demographic_information"`` (case, spaces, dashes)."""
    return re.sub(r"[^0-9a-z]+", "_", str(key).strip().casefold()).strip("_")


def name_key(name: str) -> str:
    """A key under which two spellings of one name are equal (case, spacing, punctuation)."""
    return re.sub(r"[\W_]+", "", name.casefold())


def persona_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A persona object with its keys in our spelling (the first of two spellings wins).

    ``Name``, ``Demographic Information``, ``Psychological Traits`` and the like (the
    paper's keys, any case or spacing) become ``name``, ``demographics``,
    ``psychological_traits``; unknown keys are kept; strings are stripped.
    """
    result: dict[str, Any] = {}
    for key, value in data.items():
        field = _PERSONA_KEYS.get(normalise_key(key), str(key))
        if field in result:
            continue
        result[field] = value.strip() if isinstance(value, str) else value
    return result


class PersonaFileError(ValueError):
    """A persona file cannot be read or does not follow the persona-set format."""


class Persona(BaseModel):
    """One stakeholder persona: a name and the five attributes of MAJ-Eval §3.1.

    Attributes:
        name: The persona's full name (unique within its group).
        group: The stakeholder group it belongs to.
        demographics: Age, education, career, hobbies (1–2 sentences).
        perspective: The evaluative perspective it embodies, in its own terms.
        specialty: Task-relevant skill or expertise.
        psychological_traits: Personality, emotions, cognitive tendencies.
        social_relationships: Ties to other stakeholders.

    """

    name: str = Field(min_length=1)
    group: str = ""
    demographics: str = ""
    perspective: str = Field(min_length=1)
    specialty: str = ""
    psychological_traits: str = ""
    social_relationships: str = ""

    @model_validator(mode="before")
    @classmethod
    def _paper_keys(cls, data: Any) -> Any:
        """Accept the paper's key spellings (``Demographic Information`` and the like)."""
        return persona_fields(data) if isinstance(data, dict) else data

    def describe(self) -> str:
        """The five attributes as labelled lines (empty attributes left out)."""
        return "\n".join(
            f"{title}: {getattr(self, field)}"
            for field, title in ATTRIBUTES
            if getattr(self, field)
        )

    def one_line(self) -> str:
        """``Name (Group): perspective`` on one line."""
        group = f" ({self.group})" if self.group else ""
        return " ".join(f"{self.name}{group}: {self.perspective}".split())


class GroupPerspective(BaseModel):
    """A consolidated perspective of a group, with its evidence (documents only).

    Attributes:
        perspective: The perspective, one sentence.
        evidence: Supporting passages quoted from the documents.
        documents: The documents they come from.

    """

    perspective: str
    evidence: list[str] = Field(default_factory=list)
    documents: list[str] = Field(default_factory=list)


class StakeholderGroup(BaseModel):
    """A stakeholder group: who they are, what they look for, and its personas.

    Attributes:
        name: The group's name (e.g. ``Clinicians``).
        characteristics: Who belongs to the group, in a sentence or two.
        simple_role: A one-line role used instead of the full personas in the
            "simple roles" ablation: a noun phrase that fits "You are NAME, <role>."
            (a leading article is lower-cased and a final period dropped).
        perspectives: The group's distinct evaluative perspectives, one sentence each.
        perspective_evidence: Evidence per perspective, when created from documents.
        members: The stakeholder names merged into the group (documents only).
        personas: One persona per perspective.

    """

    name: str = Field(min_length=1)
    characteristics: str = ""
    simple_role: str = ""
    perspectives: list[str] = Field(default_factory=list)
    perspective_evidence: list[GroupPerspective] = Field(default_factory=list)
    members: list[str] = Field(default_factory=list)
    personas: list[Persona] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> StakeholderGroup:
        role = " ".join(self.simple_role.split()).rstrip(".").strip()
        role = re.sub(r"^(A|An|The)\b", lambda m: m.group(1).lower(), role)
        self.simple_role = role or f"a member of the {self.name} stakeholder group"
        seen: set[str] = set()
        for persona in self.personas:
            if not persona.group:
                persona.group = self.name
            elif name_key(persona.group) != name_key(self.name):
                raise ValueError(
                    f"persona {persona.name!r} says group {persona.group!r} but is listed "
                    f"under group {self.name!r}"
                )
            key = name_key(persona.name)
            if key in seen:
                raise ValueError(f"group {self.name!r} has two personas named {persona.name!r}")
            seen.add(key)
        if not self.perspectives:
            self.perspectives = [p.perspective for p in self.personas]
        return self


class PersonaSet(BaseModel):
    """The stakeholder groups and personas of one task.

    Attributes:
        format: The file format's name and version.
        task: The task the personas are for (e.g. ``mslr_cochrane``).
        task_description: The evaluation task as the personas were told it.
        groups: The stakeholder groups, in order.
        origin: Where the set comes from.
        usage: What creating it cost.
        stakeholders: The step-1 extraction (documents only), for audit.
        notes: What went wrong or was worked around during creation.

    """

    format: str = "inspect_plural/personas@1"
    task: str = ""
    task_description: str = ""
    groups: list[StakeholderGroup] = Field(min_length=1)
    origin: PersonaOrigin = Field(default_factory=PersonaOrigin)
    usage: PersonaUsage = Field(default_factory=PersonaUsage)
    stakeholders: list[ExtractedStakeholder] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    @field_validator("groups")
    @classmethod
    def _unique_groups(cls, groups: list[StakeholderGroup]) -> list[StakeholderGroup]:
        seen: set[str] = set()
        for group in groups:
            key = name_key(group.name)
            if key in seen:
                raise ValueError(f"two groups are named {group.name!r}")
            seen.add(key)
        return groups

    @property
    def personas(self) -> list[Persona]:
        """Every persona, group by group."""
        return [persona for group in self.groups for persona in group.personas]

    def group(self, name: str) -> StakeholderGroup:
        """The group of that name (case, spacing and punctuation ignored).

        Raises:
            KeyError: No group has that name.
        """
        for group in self.groups:
            if name_key(group.name) == name_key(name):
                return group
        raise KeyError(f"no stakeholder group {name!r}; groups: {self.group_names()}")

    def group_names(self) -> list[str]:
        """The group names, in order."""
        return [group.name for group in self.groups]

    def select(
        self, groups: str | Iterable[str] | None = None, n_personas: int | None = None
    ) -> PersonaSet:
        """Some groups, at most ``n_personas`` personas each (see :func:`select_personas`)."""
        return select_personas(self, groups, n_personas)

    def to_json(self) -> str:
        """The set as indented JSON (the persona-file format)."""
        return self.model_dump_json(indent=2)

    def save(self, path: str | Path) -> Path:
        """Write the set as JSON (parent folders created).

        Args:
            path: The file to write.

        Returns:
            The path written.
        """
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.to_json() + "\n", encoding="utf-8")
        return target

    def summary(self) -> str:
        """Groups and personas as short text lines (for the command line and logs)."""
        lines = []
        for group in self.groups:
            n = len(group.personas)
            lines.append(f"{group.name} ({n} persona{'' if n == 1 else 's'})")
            lines += [f"  - {persona.name}: {persona.perspective}" for persona in group.personas]
        return "\n".join(lines)


def select_personas(
    persona_set: PersonaSet,
    groups: str | Iterable[str] | None = None,
    n_personas: int | None = None,
) -> PersonaSet:
    """Keep some groups and at most ``n_personas`` personas of each (the first ones).

    Args:
        persona_set: The full set.
        groups: Group names to keep, in the set's order (a comma-separated string or a
            list; case and spacing ignored). None keeps all.
        n_personas: Personas kept per group (None keeps all).

    Returns:
        A new persona set (the input is not changed).

    Raises:
        ValueError: An unknown group name, or ``n_personas < 1``.
    """
    if n_personas is not None and n_personas < 1:
        raise ValueError(f"n_personas must be at least 1, not {n_personas}")
    chosen = persona_set.groups
    if groups is not None:
        wanted = [g.strip() for g in groups.split(",")] if isinstance(groups, str) else groups
        wanted = [g for g in wanted if g.strip()]
        if not wanted:
            raise ValueError("no stakeholder group named: give at least one, or None for all")
        keys = {name_key(g) for g in wanted}
        known = {name_key(g.name) for g in persona_set.groups}
        unknown = [g for g in wanted if name_key(g) not in known]
        if unknown:
            raise ValueError(
                f"unknown stakeholder group(s) {unknown}; groups: {persona_set.group_names()}"
            )
        chosen = [g for g in persona_set.groups if name_key(g.name) in keys]
    selected = []
    for group in chosen:
        copy = group.model_copy(deep=True)
        if n_personas is not None:
            copy.personas = copy.personas[:n_personas]
        selected.append(copy)
    return persona_set.model_copy(update={"groups": selected})
