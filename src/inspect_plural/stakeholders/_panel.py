"""Who sits on a ``panel`` scorer's panel: a persona file, documents, or inline profiles.

- ``personas=FILE`` (or a shipped set's name): the persona-set format that
  ``inspect-plural personas`` writes, read when the scorer is created.
- ``persona_docs=DOC,...``: MAJ-Eval's persona creation from documents
  (:func:`~inspect_plural.stakeholders.personas_for_task`), once per run, cached on disk.
- ``personas="a nurse; a patient with diabetes"``: inline profiles, expanded by
  :mod:`inspect_plural.stakeholders._profiles` once per run, cached on disk.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from inspect_ai.model import GenerateConfig, Model
from pydantic import BaseModel, Field

from inspect_plural.errors import OptionError
from inspect_plural.stakeholders import (
    DEFAULT_PERSONA_SETS,
    PersonaSet,
    load_personas,
    personas_for_task,
)
from inspect_plural.stakeholders._profiles import (
    PANEL_TASK,
    PROFILE_FORMAT,
    Profile,
    ProfilesValue,
    cached_profiles,
    parse_profiles,
)
from inspect_plural.structured import Structured, constrain

__all__ = ["PanelPersonas", "PersonaSource", "build_panel", "persona_source"]


class PersonaSource(BaseModel):
    """Where the panel comes from, as decided when the scorer is created.

    Attributes:
        kind: ``file``, ``documents`` or ``profiles``.
        persona_set: The set read from a file (``file`` only).
        documents: The documents to create it from (``documents`` only).
        profiles: The profiles to expand (``profiles`` only).

    """

    kind: Literal["file", "documents", "profiles"]
    persona_set: PersonaSet | None = None
    documents: list[str] = Field(default_factory=list)
    profiles: list[Profile] = Field(default_factory=list)


def _looks_like_path(text: str) -> bool:
    return bool(re.search(r"\.(json|ya?ml)$", text.strip(), re.IGNORECASE)) or (
        "/" in text and " " not in text.strip()
    )


def persona_source(personas: ProfilesValue | None, persona_docs: Sequence[str]) -> PersonaSource:
    """Decide where the panel comes from, reading a persona file at once.

    Args:
        personas: A persona file, a shipped set's name, or inline profiles.
        persona_docs: Documents to create personas from.

    Returns:
        The source.

    Raises:
        OptionError: Neither or both given, a missing file or document, an invalid file.
    """
    if personas is not None and persona_docs:
        raise OptionError("persona_docs", "give personas=... or persona_docs=..., not both")
    if persona_docs:
        for doc in persona_docs:
            if not Path(doc).is_file():
                raise OptionError("persona_docs", f"{doc}: document not found")
        return PersonaSource(kind="documents", documents=list(persona_docs))
    if personas is None:
        raise OptionError(
            "personas",
            "the panel needs personas",
            'give -S personas=FILE (written by `inspect-plural personas`), -S personas="a '
            'nurse; a patient with diabetes", or -S persona_docs=DOCUMENT',
        )
    if isinstance(personas, str):
        text = personas.strip()
        if Path(text).is_file() or text in DEFAULT_PERSONA_SETS:
            try:
                return PersonaSource(kind="file", persona_set=load_personas(text))
            except ValueError as ex:  # PersonaFileError names the file
                raise OptionError("personas", str(ex)) from None
        if _looks_like_path(text):
            raise OptionError("personas", f"{text}: persona file not found")
    return PersonaSource(kind="profiles", profiles=parse_profiles(personas))


class PanelPersonas(BaseModel):
    """The panel one run grades with, and what building it cost now.

    Attributes:
        origin: ``file``, ``documents`` or ``profiles``.
        persona_set: The stakeholder groups and their personas.
        calls: Model calls made to build it in this run (0 from a file or the cache).
        tokens: Their tokens.

    """

    origin: Literal["file", "documents", "profiles"]
    persona_set: PersonaSet
    calls: int = 0
    tokens: int = 0


async def build_panel(
    source: PersonaSource,
    task_description: str,
    model: Model,
    config: GenerateConfig,
    prompts: str | None = None,
    structured: Structured = False,
) -> PanelPersonas:
    """The panel of one run, from its source (creation calls only on a cache miss).

    Args:
        source: Where the panel comes from.
        task_description: The task the panel grades outputs of.
        model: The model that creates personas (documents, profiles).
        config: The generation config of creation calls.
        prompts: Folder of replacement templates.
        structured: Constrain each profile's persona to its JSON schema (creation from
            documents is not constrained).

    Returns:
        The panel and the calls and tokens its creation cost now.
    """
    if source.kind == "file":
        assert source.persona_set is not None
        return PanelPersonas(origin="file", persona_set=source.persona_set)
    if source.kind == "documents":
        created, calls = await personas_for_task(
            PANEL_TASK,
            task_description,
            documents=source.documents,
            model=model,
            prompts=prompts,
            config=config,
        )
        tokens = created.usage.total_tokens if calls else 0
        return PanelPersonas(origin="documents", persona_set=created, calls=calls, tokens=tokens)
    # the schema is part of the config, so of the disk cache's key
    config, _ = constrain(config, PROFILE_FORMAT, structured, model)
    expanded, hit = await cached_profiles(source.profiles, task_description, model, config, prompts)
    calls = 0 if hit else expanded.usage.calls
    tokens = 0 if hit else expanded.usage.total_tokens
    return PanelPersonas(origin="profiles", persona_set=expanded, calls=calls, tokens=tokens)
