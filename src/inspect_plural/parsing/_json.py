"""Finding and loading the JSON object in a model's answer (fenced or bare, repaired)."""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import json_repair

__all__ = [
    "MAX_ANSWER_CHARS",
    "MAX_CANDIDATES",
    "answer_text",
    "complete_fields",
    "extract_json_object",
    "join_surrogate_escapes",
    "json_candidates",
    "load_object",
    "unterminated_object",
    "whole_object",
    "without_json",
]

MAX_ANSWER_CHARS = 50_000
"""How much of an answer the parsers read: its last 50,000 characters.

Every answer format puts the answer last, and the largest token cap of the package
(2,048) writes about 10,000 characters; the cap keeps an adversarial or looping answer
from costing more than a bounded, linear amount of time."""
MAX_CANDIDATES = 64
"""How many JSON objects a parser tries, from the last one back."""


def answer_text(text: str | None) -> str:
    """An answer as the parsers read it: NFKC-normalised, its last :data:`MAX_ANSWER_CHARS`.

    Args:
        text: The model output.

    Returns:
        The text to parse.
    """
    text = text or ""
    if len(text) > MAX_ANSWER_CHARS:
        text = text[-MAX_ANSWER_CHARS:]
    return unicodedata.normalize("NFKC", text)


FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
"""A fenced code block: its language tag and its body."""


def _bare_spans(text: str) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every balanced top-level ``{...}`` span, in order."""
    spans = []
    depth, start = 0, -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0 and start >= 0:
                spans.append((start, i + 1))
    return spans


def whole_object(text: str) -> str | None:
    """The answer when all of it is one valid JSON object (as structured output writes it).

    Its strings may hold anything, fences and braces included (a small model's
    ``"reasoning"`` echoing the prompt's example block), which the piecewise search of
    :func:`json_candidates` would cut apart.

    Args:
        text: The model output.

    Returns:
        The stripped text, or None when it is not exactly one JSON object.
    """
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:  # strict=False: a line break written raw inside a string is still its string
        value = json.loads(join_surrogate_escapes(stripped), strict=False)
    except (ValueError, RecursionError):
        return None
    return stripped if isinstance(value, dict) else None


def json_candidates(text: str) -> list[str]:
    """Pieces of text that may hold the answer object, in order of increasing priority.

    Bare ``{...}`` spans come first and fenced blocks last, so that trying them from the
    end prefers the last fenced block; an answer that is one valid JSON object as a
    whole (:func:`whole_object`) is the only candidate. An unterminated object (a
    truncated answer) is not a candidate. At most the last :data:`MAX_CANDIDATES`.

    Args:
        text: The model output.

    Returns:
        The candidate pieces.
    """
    whole = whole_object(text)
    if whole is not None:
        return [whole]
    bare = [text[start:end] for start, end in _bare_spans(text)]
    return (bare + [body for _, body in FENCE.findall(text)])[-MAX_CANDIDATES:]


def without_json(text: str) -> str:
    """The text with its fenced blocks and bare ``{...}`` objects removed (the prose).

    Each removed piece leaves a line break, so the prose around it stays on its lines.

    Args:
        text: The model output.

    Returns:
        The prose.
    """
    if whole_object(text) is not None:
        return ""
    text = FENCE.sub("\n", text)
    pieces, kept = [], 0
    for start, end in _bare_spans(text):  # joined once: linear in the text's length
        pieces.append(text[kept:start])
        kept = end
    pieces.append(text[kept:])
    return "\n".join(pieces)


_OBJECT_OPENING = re.compile(r"\{\s*[\"'“‘]")


def unterminated_object(text: str) -> bool:
    """Whether the text's prose opens a JSON object it never closes (a truncated answer).

    Args:
        text: The model output.

    Returns:
        True when, fenced blocks and complete objects set aside, ``{"`` remains.
    """
    return _OBJECT_OPENING.search(without_json(text)) is not None


_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_COMPLETE_FIELD = re.compile(
    _STRING + r"\s*:\s*(?:" + _STRING + r"|([-+]?\d+(?:\.\d+)?))\s*(?=[,}]|$)"
)


def complete_fields(text: str) -> dict[str, str]:
    """The complete ``"key": value`` fields of the answer's unterminated JSON object.

    An answer cut at the token cap (``{"choice": "Plot A", "reasoning": "The first``)
    still holds the fields written before the cut. A field counts when its value is a
    whole string (its closing quote written) or a number, followed by ``,``, ``}`` or
    the end of the text. Later fields win.

    Args:
        text: The model output.

    Returns:
        Key -> value (as written, unescaped), empty when the text opens no object it
        leaves unterminated.
    """
    prose = without_json(text)
    opening = None
    for match in _OBJECT_OPENING.finditer(prose):
        opening = match.start()
    if opening is None:
        return {}
    fields: dict[str, str] = {}
    for match in _COMPLETE_FIELD.finditer(prose, opening):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        try:
            key, value = json.loads(f'"{match.group(1)}"'), json.loads(f'"{value}"')
        except ValueError:
            continue
        fields[str(key)] = str(value)
    return fields


_SURROGATE_ESCAPE = re.compile(
    r"\\\\|\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})|\\u(d[89a-f][0-9a-f]{2})", re.IGNORECASE
)


def join_surrogate_escapes(text: str) -> str:
    r"""JSON text whose surrogate escapes all read as characters a log can store.

    ``json.loads`` joins an escaped pair such as ``\ud83d\ude00`` (an emoji escaped by
    an ASCII-only JSON writer), ``json_repair`` does not: it returns two surrogates,
    which are not UTF-8 and so cannot be logged. A lone surrogate escape (``\ud800``)
    gives a lone surrogate under either loader. Each pair is written as its character
    and each lone surrogate escape as U+FFFD (the replacement character), so a
    repaired answer reads as ``json.loads`` reads a valid one and nothing parsed from
    it fails to serialise. An escaped backslash is left alone.

    Args:
        text: JSON text (or text holding some).

    Returns:
        The text.
    """
    if "\\u" not in text and "\\U" not in text:
        return text

    def one(match: re.Match[str]) -> str:
        if match.group(1) is not None:
            high, low = int(match.group(1), 16), int(match.group(2), 16)
            return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        if match.group(3) is not None:
            return "\ufffd"  # a lone surrogate escape
        return match.group(0)  # an escaped backslash

    return _SURROGATE_ESCAPE.sub(one, text)


_JSON_LITERAL = re.compile(
    r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|true|false|null|NaN|-?Infinity"
)
_VALUE_END = ",}]\n\r"


def quote_bare_values(text: str) -> str:
    """JSON-ish text whose unquoted values that are not JSON literals are quoted.

    ``json_repair`` reads ``{"score": 6 to 8}`` as ``{"score": 6}`` and ``{"Ron": 0.5
    (likely)}`` as 0.5, dropping what follows the number. Quoting such a value first
    (``"6 to 8"``) keeps it whole, so that the caller decides what it means (a range is
    not a score). Values that are JSON numbers, ``true``, ``false`` or ``null``, and
    quoted strings, objects and lists, are left alone.

    Args:
        text: The candidate text (not valid JSON).

    Returns:
        The text, bare values quoted.
    """
    out: list[str] = []
    quote: str | None = None
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote is not None:
            if ch == "\\" and i + 1 < n:
                out.append(text[i : i + 2])
                i += 2
                continue
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == ":":
            start = i + 1
            while start < n and text[start] in " \t":
                start += 1
            if start < n and text[start] not in "\"'[{" + _VALUE_END:
                end = start  # a bare value: read once, never rescanned
                while end < n and text[end] not in _VALUE_END:
                    end += 1
                value = text[start:end].rstrip()
                bare = (
                    value
                    if _JSON_LITERAL.fullmatch(value)
                    else json.dumps(value, ensure_ascii=False)
                )
                out.append(text[i:start] + bare)
                i = start + len(value)
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def load_object(candidate: str) -> dict[str, Any] | None:
    """A non-empty JSON object from a candidate piece (``json``, else ``json_repair``).

    Before ``json_repair``, unquoted values that are not JSON literals are quoted
    (:func:`quote_bare_values`), so a repair never cuts ``6 to 8`` down to ``6``.

    Args:
        candidate: A piece of text from :func:`json_candidates`.

    Returns:
        The object, or None when the piece is not a non-empty object.
    """
    candidate = join_surrogate_escapes(candidate)
    try:
        value = json.loads(candidate, strict=False)
    except (ValueError, RecursionError):  # RecursionError: an object nested ~1000 deep
        try:
            value = json_repair.loads(quote_bare_values(candidate))
        except Exception:  # json_repair can raise on pathological input
            return None
    return value if isinstance(value, dict) and value else None


def extract_json_object(text: str) -> dict[str, Any] | None:
    """The last JSON object in a model's text (fenced preferred), repaired if needed.

    Args:
        text: The model output.

    Returns:
        The object, or None when the text holds none.
    """
    text = answer_text(text)
    for candidate in reversed(json_candidates(text)):
        value = load_object(candidate)
        if value is not None:
            return value
    return None
