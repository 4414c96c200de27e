"""Tolerant parsers for the answers models actually produce.

They accept fenced or bare JSON, trailing commas and other JSON slips (repaired with
``json_repair``), prose around the JSON, option names that differ in case, spacing,
punctuation or by an unambiguous prefix, and values given as numbers, numeric strings
or percentages. They never raise on model text: a failure comes back as a result with
``ok=False`` and the reason, so the caller can keep it in the ``Prediction``.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import json_repair

__all__ = [
    "VERDICTS",
    "CharacterParse",
    "DistributionParse",
    "LabelParse",
    "character_key",
    "extract_field",
    "extract_json_object",
    "join_surrogate_escapes",
    "match_label",
    "match_option",
    "PLOT_CHOICES",
    "parse_characters",
    "parse_choice",
    "parse_distribution",
    "parse_label",
    "parse_verdict",
]

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_-]*)[ \t]*\n?(.*?)```", re.DOTALL)
SUM_TOLERANCE = 1e-6
"""How far from 1 a sum may be before the distribution is renormalised (and flagged)."""


@dataclass
class DistributionParse:
    """Result of :func:`parse_distribution`.

    Attributes:
        ok: Whether a usable distribution was found.
        distribution: Probability per option, in option order (None on failure).
        error: Why parsing failed.
        renormalised: True when the raw values did not sum to 1 and were rescaled.
        raw_sum: Sum of the values as given (percent values divided by 100).
        missing: Options the answer did not mention (given probability 0).

    """

    ok: bool
    distribution: dict[str, float] | None = None
    error: str | None = None
    renormalised: bool = False
    raw_sum: float | None = None
    missing: list[str] = field(default_factory=list)


def _tokens(name: str) -> list[str]:
    """Name tokens for comparison: NFKC, casefolded, punctuation and symbols removed."""
    text = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(
        " " if unicodedata.category(ch)[0] in "PSZ" or ch.isspace() else ch for ch in text
    )
    return kept.split()


def match_option(key: str, options: list[str]) -> str | None:
    """Match a name written by a model to one of the options.

    In order: an exact match; a match ignoring case, spacing, punctuation and symbols
    (``"哈利波特"`` for ``"哈利·波特"``); an unambiguous match on whole leading words, in
    either direction (``"Ron"`` for ``"Ron Weasley"``, ``"Harry Potter (the boy)"`` for
    ``"Harry Potter"``), never on part of a word or on a single character.

    Args:
        key: The name as the model wrote it.
        options: The allowed option names.

    Returns:
        The matching option, or None when there is none or the match is ambiguous.
    """
    if key in options:
        return key
    key_tokens = _tokens(key)
    if not key_tokens:
        return None
    tokens = {opt: _tokens(opt) for opt in options}
    squashed = "".join(key_tokens)
    exact = [opt for opt, t in tokens.items() if "".join(t) == squashed]
    if len(exact) == 1:
        return exact[0]
    if len(squashed) < 2:
        return None

    def leading(short: list[str], long: list[str]) -> bool:
        return 0 < len(short) < len(long) and long[: len(short)] == short

    prefix = [opt for opt, t in tokens.items() if leading(key_tokens, t) or leading(t, key_tokens)]
    return prefix[0] if len(prefix) == 1 else None


def _json_candidates(text: str) -> list[str]:
    """Pieces of text that may hold the answer object, in order of increasing priority.

    Bare ``{...}`` spans come first and fenced blocks last, so that trying them from the
    end prefers the last fenced block. An unterminated object (a truncated answer) is
    not a candidate.
    """
    bare = []
    depth, start = 0, -1
    for i, ch in enumerate(text):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0 and start >= 0:
                bare.append(text[start : i + 1])
    return bare + [body for _, body in _FENCE.findall(text)]


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


def _load_object(candidate: str) -> dict[str, Any] | None:
    candidate = join_surrogate_escapes(candidate)
    try:
        value = json.loads(candidate)
    except (ValueError, RecursionError):  # RecursionError: an object nested ~1000 deep
        try:
            value = json_repair.loads(candidate)
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
    text = unicodedata.normalize("NFKC", text or "")
    for candidate in reversed(_json_candidates(text)):
        value = _load_object(candidate)
        if value is not None:
            return value
    return None


_LEADING_NUMBER = re.compile(
    r"^[~≈]?\s*(?P<num>[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?)\s*(?P<pct>%)?(\s*\(.*\))?\s*$",
    re.DOTALL,
)


def _to_number(value: Any) -> tuple[float | None, bool]:
    """A probability value as a float, and whether it was written as a percentage."""
    if isinstance(value, bool):
        return None, False
    if isinstance(value, (int, float)):
        try:
            return float(value), False
        except OverflowError:  # an integer beyond any float: not a probability
            return (math.inf if value > 0 else -math.inf), False
    if isinstance(value, str):
        text = unicodedata.normalize("NFKC", value).strip()
        if re.fullmatch(r"[^,]*\d,\d+[^,]*", text) and "." not in text:
            text = text.replace(",", ".")  # decimal comma
        match = _LEADING_NUMBER.match(text)
        if match:
            return float(match.group("num")), bool(match.group("pct"))
    return None, False


def _unwrap(obj: dict[str, Any], options: list[str]) -> dict[str, Any]:
    """Descend into wrappers such as ``{"reasoning": "...", "probabilities": {...}}``."""
    while not any(match_option(str(k), options) for k in obj):
        children = [v for v in obj.values() if isinstance(v, dict) and v]
        if len(children) != 1:
            break
        obj = children[0]
    return obj


def parse_distribution(text: str, options: list[str]) -> DistributionParse:
    """Parse a probability distribution over ``options`` from a model's answer.

    JSON objects in the text are tried from the last (fenced blocks first); the first
    that gives a valid distribution is the answer. When none does, the failure of the
    most likely one is reported.

    Args:
        text: The model output.
        options: The option names the distribution must be over.

    Returns:
        The parse result; never raises on model text.
    """
    text = unicodedata.normalize("NFKC", text or "")
    first_failure: DistributionParse | None = None
    for candidate in reversed(_json_candidates(text)):
        obj = _load_object(candidate)
        if obj is None:
            continue
        parsed = _distribution_from_object(obj, options)
        if parsed.ok:
            return parsed
        first_failure = first_failure or parsed
    return first_failure or DistributionParse(ok=False, error="no JSON object found in the answer")


def _distribution_from_object(obj: dict[str, Any], options: list[str]) -> DistributionParse:
    obj = _unwrap(obj, options)
    values: dict[str, float] = {}
    any_percent = False
    for key, raw in obj.items():
        number, percent = _to_number(raw)
        option = match_option(str(key), options)
        if option is None:
            if number == 0.0:
                continue  # a zero for an unknown name changes nothing
            return DistributionParse(ok=False, error=f"name {key!r} matches no candidate")
        if number is None or not math.isfinite(number):
            return DistributionParse(ok=False, error=f"value for {key!r} is not a number: {raw!r}")
        if number < 0:
            return DistributionParse(ok=False, error=f"negative probability for {key!r}")
        if option in values:
            return DistributionParse(ok=False, error=f"candidate {option!r} is given twice")
        any_percent = any_percent or percent
        values[option] = number / 100.0 if percent else number

    if not values:
        return DistributionParse(ok=False, error="the JSON object names no candidate")
    total = sum(values.values())
    if not any_percent and total > 1.5 and abs(total - 100.0) <= 1.0:  # bare percentages
        values = {k: v / 100.0 for k, v in values.items()}
        total /= 100.0
    if total <= 0.0 or not math.isfinite(total):
        return DistributionParse(ok=False, error="probabilities sum to zero")

    renormalised = abs(total - 1.0) > SUM_TOLERANCE
    distribution = {opt: values.get(opt, 0.0) / total for opt in options}
    return DistributionParse(
        ok=True,
        distribution=distribution,
        renormalised=renormalised,
        raw_sum=total,
        missing=[opt for opt in options if opt not in values],
    )


@dataclass
class LabelParse:
    """Result of :func:`parse_label`.

    Attributes:
        ok: Whether one of the labels was found.
        label: The label, spelled as in the scale (None on failure).
        error: Why parsing failed.

    """

    ok: bool
    label: str | None = None
    error: str | None = None


LABEL_KEYS = ("label", "answer", "choice", "prediction", "rating")
"""JSON keys that may hold the chosen label, in order of preference."""


def _label_from_object(obj: dict[str, Any], labels: list[str]) -> LabelParse | None:
    lowered = {str(k).strip().casefold(): v for k, v in obj.items()}
    for key in LABEL_KEYS:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, (dict, list)) or value is None:
                return LabelParse(ok=False, error=f"{key!r} is not a single label: {value!r}")
            label = match_label(str(value).strip(), labels)
            if label is None:
                return LabelParse(ok=False, error=f"{value!r} is not one of {labels}")
            return LabelParse(ok=True, label=label)
    children = [v for v in obj.values() if isinstance(v, dict) and v]
    return _label_from_object(children[0], labels) if len(children) == 1 else None


_ANSWER_LINE = re.compile(
    r"^[\s>*#_`~-]*(?:(?:[^\W\d_][\w'’]*)\s+){0,3}?"
    r"(?:answer|label|choice|prediction|rating|score|verdict)[\s*_`]*[:：=][\s*_`]*(.*)$",
    re.IGNORECASE,
)
_WRAPPING = " \t*_`\"'“”‘’[](){}<>."


_INLINE_ANSWER = re.compile(
    r"(?i)\b(?:final\s+)?answer\b(?:\s+is)?[\s*_`]*(?:[:：=]|\s[-–—](?=\s))[\s*_`]*([^\n]+)"
)
_DASH_ANSWER = re.compile(r"(?i)^[\s>*#_`~-]*(?:final\s+)?answer[\s*_`]+[-–—][\s*_`]*(.+)$")


def _answer_lines(text: str) -> list[str]:
    """Values of ``Answer: ...``-style lines, in order (a value on the next line counts).

    Without such a line, the last ``answer: ...``, ``answer is: ...`` or ``Answer - ...``
    anywhere in a line (a whole answer written on one line) counts.
    """
    lines = text.splitlines()
    values = []
    for i, line in enumerate(lines):
        match = _ANSWER_LINE.match(line)
        if match is None:
            continue
        value = match.group(1).strip(_WRAPPING)
        if not value:  # "Answer:" with the value on the following line
            following = [rest.strip(_WRAPPING) for rest in lines[i + 1 : i + 3] if rest.strip()]
            value = following[0] if following else ""
        if value:
            values.append(value)
    if not values:
        for line in lines:
            dash = _DASH_ANSWER.match(line)
            if dash:
                values.append(dash.group(1).strip(_WRAPPING))
        inline = [m.group(1).strip(_WRAPPING) for m in _INLINE_ANSWER.finditer(text)]
        if not values and inline:
            values.append(inline[-1])
    return [v for v in values if v]


_NUMBER = re.compile(r"^\s*([-+−]?\d+(?:[.,]\d+)?)(?![\d/])")


def _numeric_label(value: str, labels: list[str]) -> tuple[bool, str | None]:
    """A value that opens with a signed or fractional number matches only that number.

    ``-1`` must not match ``1`` nor ``2.5`` match ``2`` (punctuation is otherwise
    ignored); an integral ``2.0`` matches ``2``.

    Returns:
        Whether the rule applies, and the label it gives (None: no label fits).
    """
    match = _NUMBER.match(value)
    if match is None:
        return False, None
    number = match.group(1).replace("−", "-").replace(",", ".")
    if not (number[0] in "+-" or "." in number):
        return False, None
    exact = [label for label in labels if label.strip() == match.group(1)]
    if exact:
        return True, exact[0]
    as_float = float(number)
    if as_float.is_integer():
        integral = [label for label in labels if label.strip() == str(int(as_float))]
        if integral:
            return True, integral[0]
    return True, None


def match_label(value: str, labels: list[str]) -> str | None:
    """Match an answer value to a label, allowing words after it (``"2 - moderately toxic"``).

    First :func:`match_option`; then the longest label whose words open the value
    (unique at that length), so ``"Somewhat agree, since ..."`` gives ``Somewhat agree``.

    Args:
        value: The value as the model wrote it.
        labels: The allowed labels.

    Returns:
        The label, or None when none or several fit equally.
    """
    applies, numeric = _numeric_label(value, labels)
    if applies:
        return numeric
    found = match_option(value, labels)
    if found is not None:
        return found
    value_tokens = _tokens(value)
    leading = [
        (len(t), label)
        for label in labels
        if (t := _tokens(label)) and len(t) <= len(value_tokens) and value_tokens[: len(t)] == t
    ]
    if not leading:
        return None
    longest = max(n for n, _ in leading)
    best = [label for n, label in leading if n == longest]
    return best[0] if len(best) == 1 else None


def parse_label(text: str, labels: list[str]) -> LabelParse:
    """Parse one label of a scale from a model's answer.

    In order of precedence: the last JSON object with a ``label`` (or ``answer``,
    ``choice``, ``prediction``, ``rating``) key, fenced blocks first; else the last
    ``Answer: ...`` line (also ``Final answer``, ``**Answer:**``, ``Toxicity score:``,
    ``Label =`` and the like, with the value possibly bracketed, quoted or followed by
    an explanation, or on the next line); else a final line that is exactly one label.
    Values are matched to the labels like option names (case, spacing, punctuation,
    unambiguous whole-word prefixes).

    Args:
        text: The model output.
        labels: The allowed labels.

    Returns:
        The parse result; never raises on model text.
    """
    text = unicodedata.normalize("NFKC", text or "")
    for candidate in reversed(_json_candidates(text)):
        obj = _load_object(candidate)
        if obj is None:
            continue
        parsed = _label_from_object(obj, labels)
        if parsed is not None:  # the last object that gives a label decides, valid or not
            return parsed
    answers = _answer_lines(text)
    if answers:
        label = match_label(answers[-1], labels)
        if label is not None:
            return LabelParse(ok=True, label=label)
        return LabelParse(ok=False, error=f"answer {answers[-1][:80]!r} is not one of {labels}")
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if lines:
        last = "".join(_tokens(lines[-1]))
        exact = [label for label in labels if "".join(_tokens(label)) == last]
        if len(exact) == 1:
            return LabelParse(ok=True, label=exact[0])
    return LabelParse(ok=False, error="no label found in the answer")


VERDICTS = ("VALID", "INVALID")
_LEADING_VERDICT = re.compile(r"^[\W_]*(valid|invalid)\b[*_`\s]*(?:[-–—:.,;!(\n]|$)", re.I)
"""The answers of a character validation."""


def parse_verdict(text: str) -> LabelParse:
    """Parse a VALID/INVALID verdict (character validation).

    A structured or ``Answer:`` verdict first (:func:`parse_label`); else the last of the
    words "valid"/"invalid" in the text ("not valid" counts as invalid).

    Args:
        text: The model output.

    Returns:
        The parse result with label ``VALID`` or ``INVALID``.
    """
    parsed = parse_label(text, list(VERDICTS))
    if parsed.ok:
        return parsed
    opening = _LEADING_VERDICT.match(unicodedata.normalize("NFKC", text or ""))
    if opening:  # "VALID - because ...": the verdict, then an explanation
        return LabelParse(ok=True, label=opening.group(1).upper())
    words = _tokens(text or "")
    for i in range(len(words) - 1, -1, -1):
        if words[i] == "invalid" or (words[i] == "valid" and i > 0 and words[i - 1] == "not"):
            return LabelParse(ok=True, label="INVALID")
        if words[i] == "valid":
            return LabelParse(ok=True, label="VALID")
    return LabelParse(ok=False, error="no VALID/INVALID verdict in the answer")


PLOT_CHOICES = ("Plot A", "Plot B", "N/A")
"""The answers of a pairwise plot comparison (PERSE): a plot, or no preference."""

_BARE_CHOICE = re.compile(
    r"^[\s*_`\"'(\[]*(?:plot|story|option)?\s*([ab])[\s*_`\"')\].]*$", re.IGNORECASE
)
_NO_PREFERENCE = re.compile(r"^[\s*_`\"']*(n/?a|none|neither|no preference)[\s*_`\"'.]*$", re.I)


def parse_choice(text: str) -> LabelParse:
    """Parse the preferred plot of a pairwise comparison: ``Plot A``, ``Plot B`` or ``N/A``.

    A structured or ``Answer:`` choice first (:func:`parse_label`, so
    ``{"Choice": "Plot A",}`` with its trailing comma parses); a value or a whole answer
    that is just ``A``, ``(b)`` or ``Story B`` counts as that plot; ``N/A``, ``none``,
    ``neither`` and ``no preference`` give ``N/A``.

    Args:
        text: The model output.

    Returns:
        The parse result with a label of :data:`PLOT_CHOICES`.
    """
    text = unicodedata.normalize("NFKC", text or "")
    parsed = parse_label(text, list(PLOT_CHOICES))
    if parsed.ok:
        return parsed
    candidates = [*_answer_lines(text)[-1:], text]
    obj = extract_json_object(text)
    if obj is not None:
        lowered = {str(k).strip().casefold(): v for k, v in obj.items()}
        candidates = [str(lowered[k]) for k in LABEL_KEYS if k in lowered] or candidates
    for candidate in candidates:
        bare = _BARE_CHOICE.match(candidate)
        if bare:
            return LabelParse(ok=True, label=f"Plot {bare.group(1).upper()}")
        if _NO_PREFERENCE.match(candidate):
            return LabelParse(ok=True, label="N/A")
    return parsed


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
    return " ".join(value.split()).strip(_WRAPPING.replace(".", "").replace("()", "")).strip()


def character_key(name: str, movie: str) -> str:
    """A key under which two spellings of one character in one movie are equal."""
    movie = re.sub(r"\s*\((?:19|20)\d{2}\)|,\s*(?:19|20)\d{2}\s*$", "", movie)
    return "".join(_tokens(name)) + "|" + "".join(_tokens(movie))


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
    text = unicodedata.normalize("NFKC", text or "")
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
    for candidate in reversed(_json_candidates(text) + re.findall(r"\[[\s\S]*\]", text)):
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
    (``next speaker``, ``Next-Speaker``, ``next_speaker``).

    Args:
        text: The model output.
        name: The field name, e.g. ``Reasoning`` or ``Character's aspect``.

    Returns:
        The value, whitespace-collapsed, or None when the field is absent.
    """
    pattern = re.compile(
        r"^[\s>*#_`~-]*" + r"[\W_]*".join(map(re.escape, _tokens(name))) + r"[\s*_`]*[:：](.*)$",
        re.IGNORECASE,
    )
    lines = unicodedata.normalize("NFKC", text or "").splitlines()
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
    return value or None
