"""Lists of movie characters (CINEMETRIC's selection) and ``Name: value`` fields."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import json_repair

from inspect_plural.parsing._json import answer_text, join_surrogate_escapes, json_candidates
from inspect_plural.parsing._labels import WRAPPING
from inspect_plural.parsing._names import tokens

__all__ = ["CharacterParse", "character_key", "extract_field", "parse_characters"]


@dataclass
class CharacterParse:
    """One movie character as listed by a model.

    Attributes:
        name: The character's name.
        movie: The movie title (a year in brackets is kept as written).
        rationale: Why the character was chosen (may be empty).

    """

    name: str
    movie: str
    rationale: str = ""


_FIELD_START = re.compile(
    r"(?im)(?:^[\s>*#_`~-]*(?:\d+[.)]\s*)?[*_`]*(?:character(?:\s+name)?|name)"
    r"|(?<=\s)[*_`]*character\s+name)[*_`\s]*[:：]"
)
_MOVIE = re.compile(r"(?i)[*_`]*(?:movie(?:\s+title)?|film|title)[*_`\s]*[:：]")
_REASON = re.compile(r"(?i)[*_`]*(?:reasoning|rationale|reason|why)[*_`\s]*[:：]")
_BULLET = re.compile(
    r"^\s*(?:[-•*]|\d+[.)])\s*[*_]*(?P<name>[^()\n:]+?)[*_]*\s*"
    r"\((?P<movie>[^()\n]+?)\)\s*[:：—–-]\s*(?P<reason>.+)$",
    re.MULTILINE,
)


def _clean(value: str) -> str:
    value = re.sub(r"\*+|`+", "", value)  # markdown emphasis anywhere (*Mulan* (1998))
    return " ".join(value.split()).strip(WRAPPING.replace(".", "").replace("()", "")).strip()


def character_key(name: str, movie: str) -> str:
    """A key under which two spellings of one character in one movie are equal."""
    movie = re.sub(r"\s*\((?:19|20)\d{2}\)|,\s*(?:19|20)\d{2}\s*$", "", movie)
    return "".join(tokens(name)) + "|" + "".join(tokens(movie))


def parse_characters(text: str) -> list[CharacterParse]:
    """Parse a list of movie characters with their movies and rationales.

    Accepts ``Character Name: ... Movie Title: ... Reasoning: ...`` blocks (on one line
    or several, numbered, in bold), a JSON list of objects with ``name``/``character``,
    ``movie``/``movie_title`` and ``reasoning``/``rationale`` keys, and bullets of the
    form ``- Name (Movie, 1998): rationale``. Repeats (same name and movie, ignoring
    case, punctuation and a year) are dropped, keeping the first.

    Args:
        text: The model output.

    Returns:
        The characters in listed order (empty when none could be read).
    """
    text = answer_text(text)
    found: list[CharacterParse] = []
    starts = [m.start() for m in _FIELD_START.finditer(text)]
    for i, start in enumerate(starts):
        block = text[start : starts[i + 1] if i + 1 < len(starts) else len(text)]
        block = _FIELD_START.sub("", block, count=1)
        movie_match = _MOVIE.search(block)
        if movie_match is None:
            continue
        name = block[: movie_match.start()]
        rest = block[movie_match.end() :]
        reason_match = _REASON.search(rest)
        movie = rest[: reason_match.start()] if reason_match else rest.split("\n", 1)[0]
        rationale = rest[reason_match.end() :] if reason_match else ""
        rationale = re.sub(r"\s+\d+[.)]\s*$", "", rationale)  # the next entry's number
        found.append(CharacterParse(_clean(name), _clean(movie), _clean(rationale)))
    if not found:
        found = _characters_from_json(text)
    if not found:
        found = [
            CharacterParse(_clean(m["name"]), _clean(m["movie"]), _clean(m["reason"]))
            for m in _BULLET.finditer(text)
        ]
    unique: dict[str, CharacterParse] = {}
    for character in found:
        if character.name and character.movie:
            unique.setdefault(character_key(character.name, character.movie), character)
    return list(unique.values())


def _characters_from_json(text: str) -> list[CharacterParse]:
    entries: list[Any] = []
    for candidate in reversed(json_candidates(text) + re.findall(r"\[[\s\S]*\]", text)):
        try:
            value = json_repair.loads(join_surrogate_escapes(candidate))
        except Exception:  # json_repair can raise on pathological input
            continue
        if isinstance(value, dict):
            lists = [v for v in value.values() if isinstance(v, list)]
            value = lists[0] if len(lists) == 1 else []
        if isinstance(value, list) and value:
            entries = value
            break
    result = []
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        keys = {str(k).strip().casefold().replace(" ", "_"): v for k, v in entry.items()}
        name = keys.get("character_name", keys.get("name", keys.get("character")))
        movie = keys.get("movie_title", keys.get("movie", keys.get("title", keys.get("film"))))
        reason = keys.get("reasoning", keys.get("rationale", keys.get("reason", "")))
        if isinstance(name, str) and isinstance(movie, str):
            result.append(CharacterParse(_clean(name), _clean(movie), _clean(str(reason or ""))))
    return result


def extract_field(text: str, name: str) -> str | None:
    """The value of a ``Name: value`` field (the last one), running on to the next field.

    The name's words may be joined by spaces, punctuation or underscores
    (``next speaker``, ``Next-Speaker``, ``next_speaker``). Without such a line, the
    string a JSON object gives under the name (``"characters_aspect": "..."``, as a
    structured answer writes it) is the value.

    Args:
        text: The model output.
        name: The field name, e.g. ``Reasoning`` or ``Character's aspect``.

    Returns:
        The value, whitespace-collapsed, or None when the field is absent.
    """
    pattern = re.compile(
        r"^[\s>*#_`~-]*" + r"[\W_]*".join(map(re.escape, tokens(name))) + r"[\s*_`]*[:：](.*)$",
        re.IGNORECASE,
    )
    lines = answer_text(text).splitlines()
    value: str | None = None
    for i, line in enumerate(lines):
        match = pattern.match(line)
        if match is None:
            continue
        parts = [match.group(1)]
        for rest in lines[i + 1 :]:
            if re.match(r"^[\s>*#_`~-]*[\w' ’]{1,40}[*_`]*[:：]", rest):
                break
            parts.append(rest)
        value = " ".join(" ".join(parts).split()).strip(" *_`")
    return value or _json_field(text, name)


def _json_field(text: str, name: str) -> str | None:
    """The string a JSON object of the answer gives under the field's name (any spelling)."""
    wanted = "".join(tokens(name))
    for candidate in reversed(json_candidates(answer_text(text))):
        try:
            value = json_repair.loads(join_surrogate_escapes(candidate))
        except Exception:  # json_repair can raise on pathological input
            continue
        if not isinstance(value, dict):
            continue
        for key, field in value.items():
            if "".join(tokens(str(key))) == wanted and isinstance(field, str) and field.strip():
                return " ".join(field.split())
    return None
