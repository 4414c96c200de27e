"""Stakeholder groups and personas (MAJ-Eval §3.1): the persona file's record model.

A :class:`PersonaSet` is what persona creation produces once per task and what the
debate reads: stakeholder groups, each with its characteristics, a one-line
``simple_role`` (the "simple roles" ablation), its perspectives and one persona per
perspective. It is saved as JSON (``PersonaSet.save``) and read back with
:func:`load_personas`, which also accepts the packaged defaults by name and the
paper's spelling of the persona attributes (``Name``, ``Demographic Information``,
``Perspective``, ``Specialty``, ``Psychological Traits``, ``Social Relationships``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator

__all__ = [
    "DEFAULT_PERSONA_SETS",
    "DocumentInfo",
    "ExtractedPerspective",
    "ExtractedStakeholder",
    "GroupPerspective",
    "Persona",
    "PersonaFileError",
    "PersonaOrigin",
    "PersonaSet",
    "PersonaUsage",
    "StakeholderGroup",
    "default_personas",
    "load_personas",
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


class DocumentInfo(BaseModel):
    """A document personas were created from (its text is not kept).

    Attributes:
        name: The file name.
        sha256: SHA-256 of the text as read.
        chars: Characters of text.
        chunks: Extraction calls it took (0 for an empty document).
        stakeholders: Stakeholders extracted from it.

    """

    name: str
    sha256: str
    chars: int
    chunks: int = 1
    stakeholders: int = 0


class PersonaOrigin(BaseModel):
    """Where a persona set comes from.

    Attributes:
        kind: ``default`` (shipped with the package), ``documents`` (created by
            :func:`~inspect_plural.stakeholders.create_personas`) or ``file`` (written
            by hand or by another tool).
        documents: The documents, for ``documents``.
        model: The model that created the personas.
        prompts_hash: SHA-256 of the three prompt templates used.
        created: When it was created (ISO 8601, UTC).
        cache_key: The disk-cache key it was stored under.
        config: The generation config of the creation calls (non-default fields).

    """

    kind: Literal["default", "documents", "file"] = "file"
    documents: list[DocumentInfo] = Field(default_factory=list)
    model: str | None = None
    prompts_hash: str | None = None
    created: str | None = None
    cache_key: str | None = None
    config: dict[str, Any] = Field(default_factory=dict)


class PersonaUsage(BaseModel):
    """What creating the set cost (zero for a default or hand-written file).

    Attributes:
        calls: Model calls made (extraction chunks + 1 grouping + 1 per group).
        input_tokens: Input tokens summed over the calls.
        output_tokens: Output tokens summed over the calls.

    """

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


class ExtractedPerspective(BaseModel):
    """A perspective found in a document, with its evidence.

    Attributes:
        perspective: The perspective, one sentence.
        evidence: The supporting passage.

    """

    perspective: str
    evidence: str = ""


class ExtractedStakeholder(BaseModel):
    """A stakeholder as extracted from one document (step 1).

    Attributes:
        name: The stakeholder as the document names it.
        characteristics: Who they are.
        perspectives: Their perspectives with evidence.
        document: The document (or part) it was found in.

    """

    name: str
    characteristics: str = ""
    perspectives: list[ExtractedPerspective] = Field(default_factory=list)
    document: str = ""


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


def _paper_layout(data: dict[str, Any]) -> dict[str, Any] | None:
    """The paper's persona answer ``{group: [persona, ...]}`` as a persona-set dict."""
    if not data or not all(
        isinstance(v, list) and v and all(isinstance(p, dict) for p in v) for v in data.values()
    ):
        return None
    return {"groups": [{"name": str(name), "personas": list(v)} for name, v in data.items()]}


def _coerce(data: Any) -> Any:
    if isinstance(data, dict) and "groups" not in data:
        paper = _paper_layout(data)
        if paper is not None:
            return paper
    return data


def _validation_message(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:5]:
        where = ".".join(str(part) for part in item["loc"]) or "(top level)"
        problems.append(f"{where}: {item['msg']}")
    more = error.error_count() - len(problems)
    return "; ".join(problems) + (f"; and {more} more" if more > 0 else "")


def parse_persona_set(data: Any, source: str) -> PersonaSet:
    """Validate a persona set from decoded JSON.

    Args:
        data: The decoded JSON (the persona-set format, or the paper's
            ``{group: [persona, ...]}`` answer).
        source: What to name in an error (a file path).

    Returns:
        The persona set.

    Raises:
        PersonaFileError: The data does not follow the format.
    """
    try:
        return PersonaSet.model_validate(_coerce(data))
    except ValidationError as ex:
        raise PersonaFileError(
            f"{source}: not a valid persona file: {_validation_message(ex)}"
        ) from ex


def default_personas(task: str) -> PersonaSet:
    """The persona set shipped for a task (written by us from the groups the paper reports).

    Args:
        task: ``mslr_cochrane`` or ``storysparkqa``.

    Returns:
        The persona set (``origin.kind == "default"``).

    Raises:
        PersonaFileError: No default set exists for that task.
    """
    if task not in DEFAULT_PERSONA_SETS:
        raise PersonaFileError(
            f"no default persona set for task {task!r}; defaults: {list(DEFAULT_PERSONA_SETS)}"
        )
    source = f"inspect_plural/stakeholders/defaults/{task}.json"
    text = (
        resources.files("inspect_plural.stakeholders")
        .joinpath("defaults")
        .joinpath(f"{task}.json")
        .read_text(encoding="utf-8")
    )
    return parse_persona_set(json.loads(text), source)


def load_personas(path_or_name: str | Path) -> PersonaSet:
    """Read a persona file, or a packaged default by task name.

    Args:
        path_or_name: A JSON file (the persona-set format, or the paper's
            ``{group: [persona, ...]}`` answer), or ``mslr_cochrane`` /
            ``storysparkqa`` for the shipped defaults.

    Returns:
        The persona set.

    Raises:
        PersonaFileError: The file is missing, not JSON or not a persona set (the
            message names the file).
    """
    path = Path(path_or_name)
    if str(path_or_name) in DEFAULT_PERSONA_SETS and not path.is_file():
        return default_personas(str(path_or_name))
    if not path.is_file():
        raise PersonaFileError(
            f"{path}: persona file not found (give a JSON file written by `inspect-plural "
            f"personas`, or one of the defaults {list(DEFAULT_PERSONA_SETS)})"
        )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as ex:
        raise PersonaFileError(f"{path}: cannot read a JSON persona file: {ex}") from ex
    return parse_persona_set(data, str(path))


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
