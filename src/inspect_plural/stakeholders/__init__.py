"""Stakeholder personas for MAJ-Eval: created from documents once per task, or shipped.

- :func:`create_personas` / :func:`cached_personas` run the paper's persona creation
  (extract stakeholders per document, group them, write one persona per perspective);
  ``inspect-plural personas DOCS... -o personas.json`` does the same from the shell.
- :func:`load_personas` reads a saved file or a packaged default (``mslr_cochrane``,
  ``storysparkqa``), and :func:`select_personas` keeps some groups and caps the
  personas per group.
"""

from inspect_plural.sources.mslr import MSLR_TASK_DESCRIPTION
from inspect_plural.sources.storysparkqa import STORYSPARKQA_TASK_DESCRIPTION
from inspect_plural.stakeholders.create import (
    DEFAULT_MAX_DOC_CHARS,
    PERSONA_SEED,
    Document,
    PersonaCreationError,
    cached_personas,
    create_personas,
    make_personas,
    persona_cache_key,
    persona_config,
    personas_for_task,
    read_document,
    read_documents,
    split_document,
)
from inspect_plural.stakeholders.records import (
    DEFAULT_PERSONA_SETS,
    DocumentInfo,
    ExtractedPerspective,
    ExtractedStakeholder,
    GroupPerspective,
    Persona,
    PersonaFileError,
    PersonaOrigin,
    PersonaSet,
    PersonaUsage,
    StakeholderGroup,
    default_personas,
    load_personas,
    select_personas,
)

__all__ = [
    "DEFAULT_MAX_DOC_CHARS",
    "DEFAULT_PERSONA_SETS",
    "PERSONA_SEED",
    "Document",
    "DocumentInfo",
    "ExtractedPerspective",
    "ExtractedStakeholder",
    "GroupPerspective",
    "PRESET_TASK_DESCRIPTIONS",
    "Persona",
    "PersonaCreationError",
    "PersonaFileError",
    "PersonaOrigin",
    "PersonaSet",
    "PersonaUsage",
    "StakeholderGroup",
    "cached_personas",
    "create_personas",
    "default_personas",
    "load_personas",
    "make_personas",
    "persona_cache_key",
    "persona_config",
    "personas_for_task",
    "read_document",
    "read_documents",
    "select_personas",
    "split_document",
]

PRESET_TASK_DESCRIPTIONS: dict[str, str] = {
    "mslr_cochrane": MSLR_TASK_DESCRIPTION,
    "storysparkqa": STORYSPARKQA_TASK_DESCRIPTION,
}
"""The task description of each task preset (``inspect-plural personas --preset NAME``)."""
