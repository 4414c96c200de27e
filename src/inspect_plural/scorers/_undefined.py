"""Warnings about undefined metric values: once per key per run, none for interim results.

While a task runs, Inspect recomputes every metric on the samples finished so far, about
once a second, to show them in the progress display. Early on most correlations are
undefined (no pairs yet), so a metric that warned on every computation printed dozens of
warnings in a run whose final metrics were all defined. :class:`UndefinedWarnings`
therefore:

- says nothing during an interim recomputation (:func:`interim_recomputation`: the call
  comes from the progress display's metric update in ``inspect_ai._eval.task.run``);
- warns at most once per key for the metric instance that owns it. Each task builds its
  own metric instances, so this is once per key per run.

The value itself is unchanged: NaN, with a ``{key}_undefined = 1`` flag where the metric
logs flags.
"""

from __future__ import annotations

import logging
import sys
from types import FrameType

from inspect_plural._inspect_private import PROGRESS_METRICS_MODULE as _RUN_MODULE

__all__ = ["UndefinedWarnings", "interim_recomputation"]

_DISPLAY_CALLBACK = "compute"
"""Its name: the closure ``update_metrics_display_fn.<locals>.compute``."""

_QUALNAME = "update_metrics_display_fn"
"""The function whose closure it is (checked where Python records it, 3.11+)."""

_MAX_DEPTH = 40
"""Frames searched: the callback is a few frames above the metric."""


def interim_recomputation(frame: FrameType | None = None) -> bool:
    """Whether the current metric computation is Inspect's interim progress update.

    Inspect computes the final metrics from ``task_run`` and the interim ones from the
    progress display's callback; the callback is recognised on the call stack by its
    module and name. If a future Inspect renames it, this returns False and warnings
    are simply deduplicated as usual.

    Args:
        frame: Where to start looking (default: the caller's frame).

    Returns:
        True inside the interim recomputation.
    """
    current: FrameType | None = frame if frame is not None else sys._getframe(1)
    for _ in range(_MAX_DEPTH):
        if current is None:
            return False
        code = current.f_code
        if (
            code.co_name == _DISPLAY_CALLBACK
            and current.f_globals.get("__name__") == _RUN_MODULE
            and _QUALNAME in getattr(code, "co_qualname", _QUALNAME)
        ):
            return True
        current = current.f_back
    return False


class UndefinedWarnings:
    """Warn about each undefined metric key once, and never for interim recomputations.

    Args:
        logger: The logger to warn on.
    """

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._warned: set[str] = set()

    def warn(self, key: str, reason: str, detail: str) -> None:
        """Warn that ``key`` is undefined, unless it was already or this is interim.

        Args:
            key: The metric key (``overall/spearman``).
            reason: Why it is undefined (``too_few_pairs``).
            detail: The counts behind it (``n=0``).
        """
        if key in self._warned or interim_recomputation(sys._getframe(1)):
            return
        self._warned.add(key)
        self._logger.warning("%s is undefined: %s (%s)", key, reason, detail, stacklevel=2)
