"""Data warnings said once per process, however many times the data is read.

A loader's warning (repeated judgments dropped, an encoding detected, an empty split) is
about the file, not about the run, and an ``eval_set`` or ``inspect-plural profile run``
builds the same dataset once per task and model: the same warning printed dozens of
times hides everything else in the terminal. Each loader's logger passes a message the
first time it is logged in the process and drops exact repeats; a different count or
file is a different message and is shown.
"""

from __future__ import annotations

import logging

__all__ = ["data_logger", "forget_data_warnings"]

_said: set[tuple[str, int, str]] = set()


class _FirstTime(logging.Filter):
    """Lets a record through the first time its logger, level and message are seen."""

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, record.getMessage())
        if key in _said:
            return False
        _said.add(key)
        return True


_FILTER = _FirstTime()


def data_logger(name: str) -> logging.Logger:
    """The logger of a data loader module, which says each warning once per process.

    Args:
        name: The module's ``__name__``.

    Returns:
        The logger (the filter is added once).
    """
    logger = logging.getLogger(name)
    if _FILTER not in logger.filters:
        logger.addFilter(_FILTER)
    return logger


def forget_data_warnings() -> None:
    """Say every data warning again (tests that each expect a loader's warning)."""
    _said.clear()
