"""Inline profiles for the ``panel`` scorer, expanded into full personas once per run.

``personas="a nurse; a patient with diabetes; hospital lawyers: a hospital lawyer"``:
short profiles (``;``-separated, or a list), each optionally ``group: profile``, are
expanded into full personas (a name and MAJ-Eval's five attributes) by **one call per
profile**, all concurrently. The set is cached on disk
(``$INSPECT_PLURAL_CACHE/panel_personas``) under a key of everything that changes the
answers: the model and its arguments, the prompt template's text, the generation config,
the task description and the profiles with their groups. A profile whose answer cannot
be read, or that copies the prompt's filled example (a small model's habit; the
example's name is the tell: ``stakeholders._writing.read_persona``), still sits on the
panel (the profile itself is its perspective), and the set is then not cached, so the
next run asks again. Attributes written as objects or lists are flattened to text.
Profiles without a group form one group, ``Panel``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model
from inspect_ai.util import span
from pydantic import BaseModel, ConfigDict, Field

from inspect_plural._concurrency import gather
from inspect_plural._disk_cache import cache_key
from inspect_plural._replies import generate_reply
from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.errors import OptionError
from inspect_plural.prompts import load_template
from inspect_plural.stakeholders import (
    Persona,
    PersonaOrigin,
    PersonaSet,
    PersonaUsage,
    StakeholderGroup,
)
from inspect_plural.stakeholders._cache import read_cached, set_label, write_cached
from inspect_plural.stakeholders._writing import (
    PERSONA_ATTRIBUTES,
    holds_example_copy,
    read_persona,
)
from inspect_plural.stakeholders.create import parse_personas

__all__ = [
    "DEFAULT_GROUP",
    "PANEL_TASK",
    "PROFILE_TEMPLATE",
    "Profile",
    "ProfilesValue",
    "cached_profiles",
    "expand_profiles",
    "parse_profiles",
    "profiles_cache_key",
]

DEFAULT_GROUP = "Panel"
"""The group of profiles given without one."""
PROFILE_TEMPLATE = "panel_persona.txt"
PROFILE_FIELDS = {"task_description", "profile", "group"}
CACHE_KIND = "panel_personas"
PANEL_TASK = "panel"
"""The task name persona sets created for the scorer are recorded (and cached) under."""
PROFILE_FORMAT = JsonFormat(
    name="persona",
    json_schema={
        "type": "object",
        "properties": {name: {"type": "string"} for name in PERSONA_ATTRIBUTES},
        "required": list(PERSONA_ATTRIBUTES),
    },
)
_GROUP_WORDS = 5


class Profile(BaseModel):
    """One inline profile: who the persona is, and its group.

    Attributes:
        text: The profile (``a nurse on a children's ward``).
        group: Its stakeholder group (``Panel`` when none was given).

    """

    model_config = ConfigDict(frozen=True)

    text: str = Field(min_length=1)
    group: str = DEFAULT_GROUP


ProfilesValue = str | Sequence[str] | Mapping[str, str | Sequence[str]]
"""Inline profiles as given: a string, a list, or a mapping group -> profile(s)."""


def _items(value: str | Sequence[str]) -> list[str]:
    if isinstance(value, str):
        return re.split(r"[;\n]", value)
    items = [str(v) for v in value]
    if any(";" in item for item in items):
        # Inspect's -S splits a plain string at its commas: "a nurse, retired; a
        # patient" arrives as two items; rejoined, the profiles are split at ";" only
        return re.split(r"[;\n]", ",".join(items))
    return items


def _grouped(item: str) -> Profile:
    head, colon, tail = item.partition(":")
    if colon and head.strip() and tail.strip() and len(head.split()) <= _GROUP_WORDS:
        return Profile(text=tail.strip(), group=head.strip())
    return Profile(text=item)


def parse_profiles(value: ProfilesValue) -> list[Profile]:
    """Profiles from ``"a nurse; parents: a mother of two"``, a list, or a mapping.

    In a string or list, a profile is ``group: profile`` when the text before its first
    colon is a short name (at most five words); otherwise the whole text is the profile,
    in the ``Panel`` group. A mapping gives group -> profile or list of profiles (the
    YAML form of ``-S personas="{parents: [a mother, a father], teachers: a teacher}"``).

    Args:
        value: ``;``- or newline-separated profiles, a list, or a mapping.

    Returns:
        The profiles, in order.

    Raises:
        OptionError: No profile is given.
    """
    profiles = []
    if isinstance(value, Mapping):
        for group, given in value.items():
            texts = [given] if isinstance(given, str) else list(given or [])
            profiles += [
                Profile(text=str(t).strip(), group=str(group).strip())
                for t in texts
                if str(t).strip()
            ]
    else:
        profiles = [_grouped(item.strip()) for item in _items(value) if item.strip()]
    if not profiles:
        raise OptionError("personas", "no profile given", 'e.g. -S personas="a nurse; a patient"')
    return profiles


def _template(prompts: str | None) -> str:
    return load_template(PROFILE_TEMPLATE, PROFILE_FIELDS, {"profile"}, prompts)


def profiles_cache_key(
    profiles: Sequence[Profile],
    task_description: str,
    model: Model,
    config: GenerateConfig,
    prompts: str | None = None,
) -> str:
    """The disk-cache key of an expanded panel: everything that changes the answers."""
    return cache_key(
        {
            "version": 1,
            "profiles": [[p.group, p.text] for p in profiles],
            "task_description": task_description,
            "model": str(model),
            "model_args": model.model_args,
            "prompt": _template(prompts),
            "config": config.model_dump(exclude_none=True),
        }
    )


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate.casefold() in taken:
        n += 1
        candidate = f"{name} ({n})"
    taken.add(candidate.casefold())
    return candidate


def _persona(answer: str, profile: Profile) -> Persona | str:
    """The persona written for a profile, or why the answer gives none."""
    drafts = parse_personas(answer)
    if not drafts:
        return "answer unreadable"
    persona = read_persona(drafts[0], profile.group, profile.text)
    return persona if isinstance(persona, Persona) else f"persona skipped ({persona})"


async def expand_profiles(
    profiles: Sequence[Profile],
    task_description: str,
    model: Model,
    config: GenerateConfig,
    prompts: str | None = None,
) -> tuple[PersonaSet, bool]:
    """Expand each profile into a full persona: one call per profile, all concurrently.

    Args:
        profiles: The profiles.
        task_description: The task the panel grades outputs of.
        model: The model that writes the personas.
        config: The generation config of the calls.
        prompts: Folder of replacement templates (``panel_persona.txt``).

    Returns:
        The persona set (groups in order of first appearance) with its cost in
        ``usage``, and whether every answer could be read.
    """
    template = _template(prompts)
    usage = PersonaUsage(calls=len(profiles))

    async def ask(index: int, profile: Profile) -> str:
        prompt = template.format(
            task_description=task_description, profile=profile.text, group=profile.group
        )
        message = declare_answer_format(ChatMessageUser(content=prompt), PROFILE_FORMAT)
        async with span(f"persona for profile {index}"):
            output = await generate_reply(model, [message], config)
        if output.usage is not None:
            usage.input_tokens += output.usage.input_tokens
            usage.output_tokens += output.usage.output_tokens
        return output.completion

    answers = await gather(*(ask(i, p) for i, p in enumerate(profiles, start=1)))
    groups: dict[str, StakeholderGroup] = {}
    notes: list[str] = []
    taken: set[str] = set()
    for index, (profile, answer) in enumerate(zip(profiles, answers), start=1):
        persona = _persona(answer, profile)
        if isinstance(persona, str):
            notes.append(
                f"profile {index} ({profile.text!r}): {persona}; the profile itself is the persona"
            )
            persona = Persona(
                name=f"Panelist {index}", perspective=profile.text, group=profile.group
            )
        persona.name = _unique(persona.name, taken)
        # one group per name, however it is spelled ("Parents", "parents")
        key = re.sub(r"[\W_]+", "", profile.group.casefold())
        group = groups.setdefault(key, StakeholderGroup(name=profile.group))
        persona.group = group.name
        group.personas.append(persona)
        group.perspectives.append(persona.perspective)
    persona_set = PersonaSet(
        task=PANEL_TASK,
        task_description=task_description,
        groups=list(groups.values()),
        origin=PersonaOrigin(
            kind="file",
            model=str(model),
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            config=config.model_dump(exclude_none=True),
        ),
        usage=usage,
        notes=[f"expanded from {len(profiles)} inline profile(s), one call each", *notes],
    )
    return persona_set, not notes


async def cached_profiles(
    profiles: Sequence[Profile],
    task_description: str,
    model: Model,
    config: GenerateConfig,
    prompts: str | None = None,
) -> tuple[PersonaSet, bool]:
    """:func:`expand_profiles` through the disk cache.

    A set with an unreadable answer is used but not stored, so the next run asks again.
    A stored set that does not fit (another model, seed or prompt, fewer personas than
    profiles, a label its content contradicts) is made again, with a note saying why.

    Returns:
        The set, and whether it came from the cache.
    """
    key = profiles_cache_key(profiles, task_description, model, config, prompts)
    made_for = f"the {PANEL_TASK} scorer's {len(profiles)} profile(s)"
    label = set_label(
        key, made_for, str(model), [_template(prompts)], config.seed, CACHE_KIND, len(profiles)
    )
    cached, note = read_cached(label)
    # a set stored before copies of the prompt's example were refused is made again
    if cached is not None and not holds_example_copy(cached.personas):
        return cached, True
    persona_set, complete = await expand_profiles(
        profiles, task_description, model, config, prompts
    )
    if complete:
        persona_set.origin.cache_key = key
        write_cached(label, persona_set)
    if note is not None:  # for this run's samples, not stored with the set
        persona_set.notes.append(note)
    return persona_set, False
