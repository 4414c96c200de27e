"""Where a persona set comes from and what creating it cost, and the extraction kept for audit.

A :class:`~inspect_plural.stakeholders.records.PersonaSet` records its origin (documents or a
packaged default), the calls and tokens it took, and the stakeholders MAJ-Eval's first step
extracted from each document.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

__all__ = [
    "DocumentInfo",
    "ExtractedPerspective",
    "ExtractedStakeholder",
    "PersonaOrigin",
    "PersonaUsage",
]


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
