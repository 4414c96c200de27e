"""Text from data, options and models made inert in every output format the package writes.

Sample ids, labels, trait names and values, persona and stakeholder group names, task
arguments and model text are untrusted: each output escapes them with one function of
this module, so no format has its own copy of the rules.

- :func:`markdown`: inline Markdown text (a paragraph, list item, heading or table
  cell). HTML is written as entities (``<`` as ``&lt;``), so a renderer with HTML on
  shows it as text; Markdown's own syntax (emphasis, code, links, table pipes, a line
  that would start a heading or list) is backslash-escaped; line breaks become spaces.
- :func:`csv_cell`: one CSV cell. A number stays a number; a text that a spreadsheet
  would run as a formula (first character ``=``, ``+``, ``-``, ``@``, tab or carriage
  return, after any spaces) gets a leading ``'``, as OWASP recommends; ``<`` and ``>``
  are written as ``&lt;`` and ``&gt;`` so no tag reaches a tool that renders cells as
  HTML.
- :func:`latex`: text in a LaTeX table: the ten special characters as commands, the
  symbols the report uses (``†``, ``ρ``, ``τ``, arrows) as math, other characters
  beyond Latin-1 as ``?`` (pdflatex has no glyph for them).
- :func:`html`: text in HTML, attributes included (``html.escape`` with quotes).
"""

from __future__ import annotations

import html as _html
import re
from numbers import Number

__all__ = ["FORMULA_START", "csv_cell", "html", "latex", "markdown"]

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""First characters with which a spreadsheet reads a cell as a formula (OWASP)."""

_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", re.IGNORECASE)
"""A plain number, as :func:`repr` writes floats (``-0.25``, ``1e-05``, ``-inf``)."""

_LINE_BREAKS = re.compile(r"\r\n|[\r\n\u2028\u2029\x0b\x0c\x85]")

_MD_ALWAYS = re.compile(r"([\\`*\[\]|~])")
"""Markdown characters escaped wherever they are."""
_MD_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""An underscore that could open or close emphasis (one inside a word cannot)."""
_MD_LINE_START = re.compile(
    r"^(\s*)(?:(#{1,6}|[-+*])(?=\s|$)|(\d{1,9})([.)])(?=\s|$)|([=-])(?=[=-]*\s*$))"
)
"""Text that would start a heading, a list or a setext underline at a line's start."""


def markdown(text: object) -> str:
    """Text as inert inline Markdown (HTML as entities, Markdown syntax escaped).

    Args:
        text: Any value (shown as ``str(text)``).

    Returns:
        One line of Markdown that renders as the text itself.
    """
    value = _LINE_BREAKS.sub(" ", str(text))
    value = _html.escape(value, quote=False)
    value = _MD_ALWAYS.sub(r"\\\1", value)
    value = _MD_UNDERSCORE.sub(r"\\_", value)
    return _MD_LINE_START.sub(_line_start, value)


def _line_start(match: re.Match[str]) -> str:
    space, mark, digits, dot, rule = match.groups()
    if digits is not None:  # "1. x" would start a list: escape its dot
        return f"{space}{digits}\\{dot}"
    return f"{space}\\{mark if mark is not None else rule}"


def html(text: object) -> str:
    """Text for HTML content or a quoted attribute (``&``, ``<``, ``>``, quotes escaped)."""
    return _html.escape(str(text), quote=True)


def _numeric(value: object) -> bool:
    return isinstance(value, Number) and not isinstance(value, bool)


def csv_cell(value: object) -> object:
    """One CSV cell: numbers as they are, text neutralised for spreadsheets and HTML.

    Args:
        value: The cell (None: empty).

    Returns:
        The value to hand to :mod:`csv` (a number, or a text that no spreadsheet runs
        as a formula and that holds no ``<`` or ``>``).
    """
    if value is None:
        return ""
    if _numeric(value):
        return value
    text = str(value)
    if _NUMBER.fullmatch(text):
        return text
    text = text.replace("<", "&lt;").replace(">", "&gt;")
    if text.lstrip(" ").startswith(FORMULA_START):
        return "'" + text
    return text


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    "†": r"\textsuperscript{\dag}",
    "ρ": r"$\rho$",
    "τ": r"$\tau$",
    "α": r"$\alpha$",
    "↓": r"$\downarrow$",
    "↑": r"$\uparrow$",
    "·": r"$\cdot$",
    "×": r"$\times$",
    "–": "--",
    "—": "---",
    "…": r"\ldots{}",
    "‘": "`",
    "’": "'",
    "“": "``",
    "”": "''",
}


def latex(text: object) -> str:
    """Text for a LaTeX document compiled with pdflatex.

    Args:
        text: Any value (shown as ``str(text)``).

    Returns:
        The text with LaTeX's special characters as commands, the report's symbols
        as math, line breaks as spaces, and characters pdflatex cannot set as ``?``.
    """
    out: list[str] = []
    for char in _LINE_BREAKS.sub(" ", str(text)):
        if char in _LATEX:
            out.append(_LATEX[char])
        elif ord(char) < 32 or 127 <= ord(char) < 160:
            out.append(" ")
        elif ord(char) > 255:
            out.append("?")
        else:
            out.append(char)
    return "".join(out)
