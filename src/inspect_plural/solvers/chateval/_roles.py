"""ChatEval's referees: the roles file and the role sets.

``chateval_roles.txt`` (packaged, or a replacement in a ``prompts`` folder) has one
``Name: description`` line per role; :func:`load_referees` reads it and keeps the first
two or five roles (:data:`CHATEVAL_ROLE_SETS`) as :class:`Referee` records, in speaking
order.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from pydantic import BaseModel

from inspect_plural.prompts import PromptTemplateError

__all__ = ["CHATEVAL_ROLE_SETS", "ROLES", "Referee", "load_referees"]

ROLES = "chateval_roles.txt"
CHATEVAL_ROLE_SETS: dict[str, int] = {"two": 2, "five": 5}
"""Values of the ``roles`` option: how many of the roles file's referees take part."""


class Referee(BaseModel):
    """A ChatEval referee role.

    Attributes:
        name: The role's name (``Critic``).
        description: What the role cares about, shown to the model.

    """

    name: str
    description: str


def load_referees(roles: str = "two", prompts: str | Path | None = None) -> list[Referee]:
    """The referees of a role set, from ``chateval_roles.txt``.

    The file has one ``Name: description`` line per role; blank lines and lines starting
    with ``#`` are ignored. A ``prompts`` folder holding a file of that name replaces the
    packaged one. ``roles="two"`` takes the first two roles, ``five`` the first five.

    Args:
        roles: ``two`` or ``five``.
        prompts: Folder of replacement prompt files.

    Returns:
        The referees, in speaking order.

    Raises:
        ValueError: An unknown role set.
        PromptTemplateError: The file is malformed or has too few roles.
    """
    if roles not in CHATEVAL_ROLE_SETS:
        raise ValueError(f"chateval roles must be one of {list(CHATEVAL_ROLE_SETS)}, not {roles!r}")
    if prompts is not None and (Path(prompts) / ROLES).is_file():
        source = str(Path(prompts) / ROLES)
        text = (Path(prompts) / ROLES).read_text(encoding="utf-8")
    else:
        if prompts is not None and not Path(prompts).is_dir():
            raise PromptTemplateError(f"prompts folder not found: {prompts}")
        source = f"inspect_plural/prompts/{ROLES}"
        text = resources.files("inspect_plural.prompts").joinpath(ROLES).read_text("utf-8")
    referees: list[Referee] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, description = line.partition(":")
        if not sep or not name.strip() or not description.strip():
            raise PromptTemplateError(f"{source}:{number}: expected 'Name: description'")
        referees.append(Referee(name=name.strip(), description=description.strip()))
    names = [r.name for r in referees]
    if len(set(names)) != len(names):
        raise PromptTemplateError(f"{source}: role names are not distinct: {names}")
    count = CHATEVAL_ROLE_SETS[roles]
    if len(referees) < count:
        raise PromptTemplateError(
            f"{source}: roles={roles!r} needs {count} roles, the file has {len(referees)}"
        )
    return referees[:count]
