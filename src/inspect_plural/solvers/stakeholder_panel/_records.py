"""Records of the ``stakeholder_panel`` method: who sits on the panel, and how each voted.

The panel (:class:`PanelMember`, one per persona) is built once per run and copied into
every item's store with the item's votes as :class:`StakeholderVotes`, so Inspect View
shows who voted what (the raw answers are the item's ``Prediction.answers``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.prediction import StoredRecord

__all__ = ["PanelMember", "PanelOrigin", "PersonaVote", "StakeholderVotes"]

PanelOrigin = Literal["traits", "profiles", "file", "documents"]
"""Where a panel comes from: one profile per trait value of the dataset (the default),
inline profiles (``-T personas="a nurse; a parent"``), a persona file or shipped set, or
documents (``-T persona_docs=``)."""


class PanelMember(BaseModel):
    """One persona of the panel.

    Attributes:
        name: The persona's name (unique on the panel).
        group: Its stakeholder group (the trait dimension, for the default panel).
        trait: The trait group it stands for, ``<dimension>=<value>`` (default panel
            only; a given persona stands for a trait when its group is named after one).
        profile: The short profile it was expanded from (profiles and the default panel).
        description: Its attributes, as the prompt shows them.

    """

    model_config = ConfigDict(frozen=True)

    name: str
    group: str
    trait: str | None = None
    profile: str | None = None
    description: str = ""

    @property
    def label(self) -> str:
        """``name (trait or group)``: how spans and summaries name the persona."""
        return f"{self.name} ({self.trait or self.group})"


class PersonaVote(BaseModel):
    """One persona's vote on an item.

    Attributes:
        persona: The persona's name.
        group: Its stakeholder group.
        label: The label it chose (None when its answer could not be read).
        error: Why not.

    """

    persona: str
    group: str
    label: str | None = None
    error: str | None = None


class StakeholderVotes(StoredRecord):
    """The panel and its votes on one item (``stakeholder_panel``).

    Attributes:
        origin: Where the panel comes from (:data:`PanelOrigin`).
        personas: The panel, one member per persona.
        votes: One vote per persona, in panel order.
        group_shares: Each group's vote shares over the labels (groups with a vote).
        unparsed: Personas whose answer could not be read (left out of the shares).
        creation_calls: Calls this item made to build the panel (0 unless it built it
            now: from a file, from the disk cache, or built by another item, 0).
        created_groups: Groups persona creation produced before any ``panel_groups``
            selection (documents only; for the protocol minimum).
        notes: What went wrong or was worked around while building the panel.

    """

    origin: str = Field(default="traits")
    personas: list[PanelMember] = Field(default_factory=list)
    votes: list[PersonaVote] = Field(default_factory=list)
    group_shares: dict[str, dict[str, float]] = Field(default_factory=dict)
    unparsed: int = Field(default=0)
    creation_calls: int = Field(default=0)
    created_groups: int = Field(default=0)
    notes: list[str] = Field(default_factory=list)
