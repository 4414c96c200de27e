"""Errors caused by the user's input, printed by Inspect without a traceback.

Inspect's command line prints a :class:`~inspect_plural._inspect_private.PrerequisiteError` as its
message alone (no traceback) and exits non-zero; every error that a user's input causes
(an option, a file, a data folder, a method that does not fit the task) is therefore a
:class:`UserError`, a subclass of it. A bug in the package is any other exception and
keeps its traceback.

The message is printed as plain text (Inspect renders the message of a prerequisite
error with Rich, which would read ``[...]`` in a file name or a list as markup), and is
kept short: what is wrong, where (option name; file, row and field), and what to do.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from rich.text import Text

from inspect_plural._inspect_private import PrerequisiteError

__all__ = ["OptionError", "UserError", "closest"]


class UserError(PrerequisiteError):
    """An error in the user's input, printed as its message without a traceback.

    Args:
        message: What is wrong, where, and what to do (plain text, a few lines).
    """

    def __init__(self, message: str) -> None:
        super().__init__(Text(message))
        self.args = (message,)

    def __str__(self) -> str:
        """The plain message."""
        return str(self.args[0]) if self.args else ""


class OptionError(UserError, ValueError):
    """A task, solver or scorer option that is unknown, mistyped or out of range.

    Also a ``ValueError``, so code that validated options before this class existed keeps
    catching it.

    Args:
        option: The option's name as the user gives it (``few_shot``).
        problem: What is wrong with it.
        hint: What to do instead (optional).
    """

    def __init__(self, option: str, problem: str, hint: str = "") -> None:
        self.option = option
        message = f"option {option}: {problem}"
        if hint:
            message += f"\n{hint}"
        super().__init__(message)


def closest(name: str, valid: Iterable[str], n: int = 3) -> list[str]:
    """The valid names closest to a misspelled one, best first.

    Args:
        name: The name the user gave.
        valid: The names that exist.
        n: At most this many suggestions.

    Returns:
        Up to ``n`` names (empty when nothing is close).
    """
    choices = sorted(set(valid))
    found = difflib.get_close_matches(name, choices, n=n, cutoff=0.6)
    # a prefix or an underscore-insensitive match is a likely intent too
    squashed = name.replace("_", "").lower()
    for choice in choices:
        if len(found) >= n:
            break
        key = choice.replace("_", "").lower()
        if choice not in found and (key.startswith(squashed) or squashed.startswith(key)):
            found.append(choice)
    return found
