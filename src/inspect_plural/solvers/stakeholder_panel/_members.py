"""Who sits on a ``stakeholder_panel``: decided when the solver is built, made once per run.

The sources are the ``panel`` scorer's (:mod:`inspect_plural.stakeholders._panel`):
a persona file or shipped set, documents (MAJ-Eval's creation), or inline profiles
expanded into personas (one call per profile, cached on disk). Without any, the default
panel is one profile per known trait value of the dataset, ``a person whose gender is
woman``, grouped by trait dimension, expanded the same way. ``panel_groups`` keeps some
groups (the default panel's groups are trait dimensions) and ``personas_per_group`` the
first personas of each; for profiles both apply before expansion, so only the profiles
kept cost a call.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import GenerateConfig, Model
from pydantic import BaseModel, Field

from inspect_plural.errors import OptionError, UserError
from inspect_plural.item_records import group_key
from inspect_plural.solvers.stakeholder_panel._records import PanelMember, PanelOrigin
from inspect_plural.stakeholders import PersonaSet
from inspect_plural.stakeholders._panel import PersonaSource, build_panel, persona_source
from inspect_plural.stakeholders._profiles import Profile
from inspect_plural.stakeholders.records import name_key
from inspect_plural.structured import Structured

__all__ = ["BuiltPanel", "PanelPlan", "build_members", "plan_panel", "trait_profiles"]


class PanelPlan(BaseModel):
    """Where the panel comes from and what is kept of it, checked before any call.

    Attributes:
        origin: ``traits`` (the default), ``profiles``, ``file`` or ``documents``.
        source: The persona source (profiles already selected).
        traits: Per profile, the trait group it stands for (``traits`` only).
        groups: Groups to keep after creation from documents (None: all).
        per_group: Personas kept per group after creation from documents (None: all).

    """

    origin: PanelOrigin
    source: PersonaSource
    traits: list[str | None] = Field(default_factory=list)
    groups: list[str] | None = None
    per_group: int | None = None


class BuiltPanel(BaseModel):
    """The panel of one run and what building it cost now.

    Attributes:
        origin: Where it comes from.
        members: The personas, in panel order.
        calls: Creation calls made now (0 from a file or the disk cache).
        created_groups: Groups created from documents before selection (else 0).
        notes: What went wrong or was worked around.

    """

    origin: PanelOrigin
    members: list[PanelMember]
    calls: int = 0
    created_groups: int = 0
    notes: list[str] = Field(default_factory=list)


def trait_profiles(trait_values: Sequence[Sequence[str]]) -> tuple[list[Profile], list[str]]:
    """The default panel: a profile per trait value, grouped by its dimension.

    Args:
        trait_values: ``[dimension, value]`` pairs (the dataset's known trait values).

    Returns:
        The profiles (``a person whose gender is woman``, group ``gender``) and the trait
        group (``gender=woman``) each stands for.
    """
    profiles, traits = [], []
    for dimension, value in trait_values:
        spoken = dimension.replace("_", " ").lower()
        profiles.append(Profile(text=f"a person whose {spoken} is {value}", group=dimension))
        traits.append(group_key(dimension, value))
    return profiles, traits


def _select(
    profiles: list[Profile],
    traits: list[str | None],
    groups: Sequence[str] | None,
    per_group: int | None,
) -> tuple[list[Profile], list[str | None]]:
    """Keep the profiles of some groups, at most ``per_group`` of each, in order."""
    known = {name_key(p.group): p.group for p in profiles}
    wanted = None
    if groups:
        wanted = {name_key(g) for g in groups}
        for name in groups:
            if name_key(name) not in known:
                raise OptionError(
                    "panel_groups",
                    f"{name!r} is not a group of the panel (its groups: "
                    f"{', '.join(dict.fromkeys(known.values()))})",
                )
    kept: Counter[str] = Counter()
    chosen_profiles, chosen_traits = [], []
    for profile, trait in zip(profiles, traits, strict=True):
        key = name_key(profile.group)
        if (wanted is None or key in wanted) and (per_group is None or kept[key] < per_group):
            kept[key] += 1
            chosen_profiles.append(profile)
            chosen_traits.append(trait)
    return chosen_profiles, chosen_traits


def _given(personas: Any) -> Any:
    """A one-item list (``-T personas=FILE`` read as a list) as its string."""
    if isinstance(personas, list | tuple) and len(personas) == 1:
        return str(personas[0])
    return personas


def plan_panel(
    personas: Any,
    persona_docs: Sequence[str],
    trait_values: Sequence[Sequence[str]] | None,
    groups: Sequence[str] | None,
    per_group: int | None,
) -> PanelPlan:
    """Decide the panel's source and selection (reads a persona file at once).

    Args:
        personas: A persona file, a shipped set, or inline profiles (None: the default).
        persona_docs: Documents to create the personas from.
        trait_values: The dataset's known ``[dimension, value]`` pairs (the default panel).
        groups: Only these stakeholder groups.
        per_group: At most this many personas per group.

    Returns:
        The plan.

    Raises:
        OptionError: No personas and no trait to build the default from; a missing file
            or document; an unknown group.
    """
    if personas is None and not persona_docs:
        if not trait_values:
            raise OptionError(
                "personas",
                "no personas given, and no trait values to build the default panel from "
                "(one persona per trait value of the dataset)",
                'pass -T personas="a nurse; parents: a parent" (inline profiles), a persona '
                "file written by `inspect-plural personas`, or -T persona_docs=DOCUMENT",
            )
        profiles, keys = trait_profiles(trait_values)
        chosen, traits = _select(profiles, list(keys), groups, per_group)
        return PanelPlan(
            origin="traits", source=PersonaSource(kind="profiles", profiles=chosen), traits=traits
        )
    source = persona_source(_given(personas), list(persona_docs))
    if source.kind == "profiles":
        chosen, traits = _select(source.profiles, [None] * len(source.profiles), groups, per_group)
        return PanelPlan(
            origin="profiles",
            source=source.model_copy(update={"profiles": chosen}),
            traits=traits,
        )
    if source.kind == "file":
        assert source.persona_set is not None
        try:
            selected = source.persona_set.select(groups=groups or None, n_personas=per_group)
        except ValueError as ex:
            raise OptionError("panel_groups", str(ex)) from None
        return PanelPlan(origin="file", source=source.model_copy(update={"persona_set": selected}))
    return PanelPlan(
        origin="documents",
        source=source,
        groups=list(groups) if groups else None,
        per_group=per_group,
    )


def _members(persona_set: PersonaSet) -> list[PanelMember]:
    return [
        PanelMember(name=p.name, group=group.name, description=p.describe())
        for group in persona_set.groups
        for p in group.personas
    ]


def _profile_members(
    persona_set: PersonaSet, profiles: Sequence[Profile], traits: Sequence[str | None]
) -> list[PanelMember]:
    """The expanded personas in profile order, each with its profile and trait group.

    Expansion keeps each group's personas in the order of its profiles, and merges groups
    whose names differ only in case, spacing and punctuation.
    """
    by_key = {name_key(group.name): group for group in persona_set.groups}
    used: Counter[str] = Counter()
    members = []
    for profile, trait in zip(profiles, traits, strict=True):
        key = name_key(profile.group)
        group = by_key[key]
        persona = group.personas[used[key]]
        used[key] += 1
        members.append(
            PanelMember(
                name=persona.name,
                group=group.name,
                trait=trait,
                profile=profile.text,
                description=persona.describe(),
            )
        )
    return members


async def build_members(
    plan: PanelPlan,
    task_description: str,
    model: Model,
    config: GenerateConfig,
    prompts: str | None = None,
    structured: Structured = False,
) -> BuiltPanel:
    """Build the run's panel from its plan (creation calls only on a disk-cache miss).

    Args:
        plan: The plan.
        task_description: The labelling task, as persona creation is told it.
        model: The model that creates personas (``persona_builder``).
        config: The generation config of creation calls.
        prompts: Folder of replacement templates.
        structured: Constrain each profile's persona to its JSON schema.

    Returns:
        The panel.

    Raises:
        UserError: ``panel_groups`` names a group the documents did not give.
    """
    made = await build_panel(plan.source, task_description, model, config, prompts, structured)
    notes = list(made.persona_set.notes)
    if plan.origin == "traits":  # the default panel's profiles are not the user's
        notes = [n.replace("inline profile", "trait-value profile") for n in notes]
    if plan.origin in ("traits", "profiles"):
        members = _profile_members(made.persona_set, plan.source.profiles, plan.traits)
        return BuiltPanel(origin=plan.origin, members=members, calls=made.calls, notes=notes)
    persona_set = made.persona_set
    created = len(persona_set.groups) if plan.origin == "documents" else 0
    if plan.origin == "documents" and (plan.groups or plan.per_group):
        try:
            persona_set = persona_set.select(groups=plan.groups, n_personas=plan.per_group)
        except ValueError as ex:
            raise UserError(f"stakeholder_panel: option panel_groups: {ex}") from None
    return BuiltPanel(
        origin=plan.origin,
        members=_members(persona_set),
        calls=made.calls,
        created_groups=created,
        notes=notes,
    )
