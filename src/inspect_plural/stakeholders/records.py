"""Stakeholder groups and personas (MAJ-Eval §3.1): the persona file's record model.

A :class:`PersonaSet` is what persona creation produces once per task and what the
debate reads: stakeholder groups, each with its characteristics, a one-line
``simple_role`` (the "simple roles" ablation), its perspectives and one persona per
perspective. It is saved as JSON (``PersonaSet.save``) and read back with
:func:`load_personas`, which also accepts the packaged defaults by name and the
paper's spelling of the persona attributes.

The model is in :mod:`._personas`, its provenance records (origin, usage, the
extraction) in :mod:`._provenance`, reading files in :mod:`._persona_files`; this module
gathers them.
"""

from inspect_plural.stakeholders._persona_files import (
    default_personas,
    load_personas,
    parse_persona_set,
)
from inspect_plural.stakeholders._personas import (
    ATTRIBUTES,
    DEFAULT_PERSONA_SETS,
    GroupPerspective,
    Persona,
    PersonaFileError,
    PersonaSet,
    StakeholderGroup,
    name_key,
    normalise_key,
    persona_fields,
    select_personas,
)
from inspect_plural.stakeholders._provenance import (
    DocumentInfo,
    ExtractedPerspective,
    ExtractedStakeholder,
    PersonaOrigin,
    PersonaUsage,
)

__all__ = [
    "ATTRIBUTES",
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
    "name_key",
    "normalise_key",
    "parse_persona_set",
    "persona_fields",
    "select_personas",
]
