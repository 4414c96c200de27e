"""The profile's tables as plain rows of text, shared by the Markdown and HTML pages.

Every string that comes from data, options or models is returned raw here and escaped
by the renderer (:mod:`inspect_plural._escape`). Numbers read ``0.512 [0.431,
0.590]``, with ``n=`` and the chance level beside them where they have one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_plural._escape import markdown
from inspect_plural.profile._cells import MODES, Mode
from inspect_plural.profile._logs import NONE_MODEL
from inspect_plural.profile._results import Profile, Value

__all__ = [
    "DEMO_BANNER",
    "MODE_TITLES",
    "Link",
    "Numbers",
    "TextCell",
    "TextTable",
    "log_links",
    "md_escape",
    "model_label",
    "number",
    "summary_table",
    "value_text",
]

DEMO_BANNER = (
    "DEMO: computed on the demo rows written for this package, not on real data; these "
    "numbers say nothing about any model's pluralism."
)
MODE_TITLES: dict[Mode, str] = {
    "steerable": "Steerable: the gain from telling the model whose judgment it predicts",
    "distributional": "Distributional: the model's label distributions against the people's",
    "jury": "Jury: a persona panel as a judge of how people label",
    "role": "Role: can the model tell who is speaking (PersonaEval)",
}
SHORT: dict[Mode, str] = {
    "steerable": "steerable",
    "distributional": "distributional",
    "jury": "jury",
    "role": "role",
}


class Numbers(str):
    """Text this package wrote from numbers alone (no data, option or model string in it)."""

    __slots__ = ()


def md_escape(text: object) -> str:
    """Text safe in a Markdown table cell (:func:`inspect_plural._escape.markdown`).

    :class:`Numbers` (``0.5 [0.4, 0.6] n=20``), written by this package from numbers
    alone, is kept as written so the Markdown source stays readable.
    """
    if isinstance(text, Numbers):
        return str(text)
    return markdown(text)


def number(value: float | None, digits: int = 3) -> str:
    """A number rounded for reading (``n/a`` when undefined)."""
    if value is None or not math.isfinite(value):
        return "inf" if value is not None and value == math.inf else "n/a"
    text = f"{value:.{digits}f}"
    # a value that rounds to zero reads 0.000, not -0.000
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def value_text(value: Value | dict[str, Any] | None, chance: float | None = None) -> str:
    """``0.512 [0.431, 0.590] n=40`` (``chance 0.25`` after it when given)."""
    if value is None:
        return Numbers("")
    v = value if isinstance(value, Value) else Value.model_validate(value)
    if v.estimate is None:
        return "n/a" + (f" ({v.note})" if v.note else "")  # the note may name data
    elif v.has_interval:
        text = f"{number(v.estimate)} [{number(v.low)}, {number(v.high)}] n={v.n}"
    else:
        text = f"{number(v.estimate)} (no interval) n={v.n}"
    return Numbers(text + (f"; chance {number(chance)}" if chance is not None else ""))


@dataclass(frozen=True)
class Link:
    """A cell that links to a file: text shown, target path (relative to the page)."""

    text: str
    target: str


TextCell = str | Link | list[Link]


@dataclass
class TextTable:
    """A table of text cells (links allowed), with a title and notes under it."""

    title: str
    header: list[str]
    rows: list[list[TextCell]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def log_links(paths: Sequence[str], out: Path) -> list[Link]:
    """Links to log files, relative to the folder the page is written to."""
    links = []
    for path in paths:
        try:
            target = os.path.relpath(path, out)
        except ValueError:  # another drive
            target = path
        links.append(Link(Path(path).name, target))
    return links


def summary_table(profile: Profile) -> TextTable:
    """One row per model, one column per mode: headline, interval, chance."""
    header = ["model"]
    for mode in MODES:
        metrics = {r.metric for r in profile.summary.get(mode, {}).values()}
        header.append(f"{SHORT[mode]}: {', '.join(sorted(metrics)) or 'not measured'}")
    rows: list[list[TextCell]] = []
    for model in profile.models:
        row: list[TextCell] = [model]
        for mode in MODES:
            result = profile.summary.get(mode, {}).get(model)
            row.append(value_text(result, result.chance) if result else "not measured")
        rows.append(row)
    return TextTable("Summary", header, rows)


def model_label(model: str) -> str:
    """How a table names a model (the no-call baselines' ``none`` model by what it is)."""
    return "baseline (no model call)" if model == NONE_MODEL else model
