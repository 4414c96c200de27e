"""Role-identification records (PersonaEval): the candidates, an item and a solved example."""

from __future__ import annotations

from pydantic import model_validator

from inspect_plural.records._base import _Record

__all__ = ["RoleCandidate", "RoleExample", "RoleItem"]


class RoleCandidate(_Record):
    """A candidate speaker in a role-identification item.

    Attributes:
        name: The candidate's name, exactly as the answer must use it.
        profile: The candidate's description.

    """

    name: str
    profile: str


class RoleItem(_Record):
    """A PersonaEval-style role-identification item.

    Attributes:
        id: Stable identifier (track and row number).
        track: The track (``literary``, ``drama`` or ``expertise``).
        conversation: The dialogue, ending with the turn whose speaker is asked for.
        source_prompt: The dataset's own full prompt, when it ships one.
        candidates: The candidate roles in the file's order.
        true_role: Name of the correct candidate.

    """

    id: str
    track: str
    conversation: str
    source_prompt: str | None = None
    candidates: list[RoleCandidate]
    true_role: str

    @model_validator(mode="after")
    def _check(self) -> RoleItem:
        names = [c.name for c in self.candidates]
        if len(names) < 2:
            raise ValueError("a role item needs at least two candidates")
        if len(set(names)) != len(names):
            raise ValueError(f"candidate names are not distinct: {names}")
        if self.true_role not in names:
            raise ValueError(f"true role {self.true_role!r} is not among the candidates {names}")
        return self


class RoleExample(_Record):
    """A solved role-identification item shown as a few-shot example.

    Attributes:
        conversation: The example's dialogue.
        candidates: The example's candidates, in presentation order.
        true_role: The example's correct candidate.

    """

    conversation: str
    candidates: list[RoleCandidate]
    true_role: str
