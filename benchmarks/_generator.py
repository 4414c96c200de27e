"""Generated model outputs for the fuzz benchmark and the parser property tests.

A seeded generator of what a model might answer: well-formed answers of a family's
format (written by the family), the same mutated, truncated or spliced, hand-built
JSON-ish objects with adversarial keys and values, deep nesting, and random unicode.
The helpers the families' answer writers share (fences, prose, name variants, quoting)
are public.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence

__all__ = [
    "ALPHABETS",
    "HUGE_NUMBERS",
    "NUMBERS",
    "PIECES",
    "REAL_ANSWERS",
    "ascii_escaped",
    "fence",
    "generate_output",
    "name_variant",
    "number",
    "prose",
    "quote",
    "random_unicode",
]


NUMBERS = (
    "0", "1", "2", "3", "4", "5", "7", "10", "-1", "0.5", "2.5", "0.25", "-0", "1e400",
    "-1e400", "1e-400", "5e-324", "1.7976931348623157e308", "NaN", "Infinity", "-Infinity",
    "50%", "40 %", "100", "101", "4/5", "7/10", "7 out of 10", "٣", "４", "1_000", "0x10",
    "½", "²", "1,5", "3.", ".5", "+2", "−1", "true", "null", '"3"', '"abc"', "[1, 2]",
    '{"score": 4}', '"~0.3 (likely)"', '"1e999%"',
)  # fmt: skip
"""Numbers and near-numbers: NaN, inf, out of range, unicode digits, fractions, strings."""
HUGE_NUMBERS = ("1" + "0" * 400, "-" + "9" * 1000, "9" * 5000, "0." + "0" * 400 + "1")
"""Numbers beyond a float (or beyond Python's 4,300-digit int conversion); rarer, as
the slowest to parse."""
HUGE_SHARE = 0.02


def number(rng: random.Random) -> str:
    return rng.choice(HUGE_NUMBERS if rng.random() < HUGE_SHARE else NUMBERS)


PIECES = (
    "{", "}", "[", "]", '"', "'", ",", ":", "：", "，", "```", "```json\n", "\n", "\\", "\\u",
    "\\ud800", "\x00", "\u200b", "\u00a0", "Answer:", "Final answer:", "**Answer:**",
    "Score:", "score", '"label": ', '"score": ', "NO MORE COMMENTS", '"next_speaker": ',
    '"done": true', "{{", "}}", '{"a": {"b": ', "%", " - ", "**", "#", "é", "ß", "İ", "ﬁ",
    "Ⅻ", "🙂", "\u202e", "\r", "\t", "[Score] ", "[Review] ", "Plot A", "Plot B", "N/A",
    "VALID", "not valid", "Character's aspect:", "Reasoning:", " or ", "3-4", "3/4", "4/10",
    " out of 10", " on a 1-10 scale", "a mix of both ", "not a ", "hateful or not hateful",
)  # fmt: skip
"""Fragments inserted by mutations."""

REAL_ANSWERS = (
    # issue 34: SmolLM2-135M and Gemma 3 270M on a local llama.cpp server
    "The tweet is a factual report about a Syrian refugee, not a hate speech message.",
    "a mix of both hate speech and a mix of hate speech and a mix of both hate speech and a "
    "mix of hate speech and a mix of both hate speech and a mix of",
    '{"choice": "Plot A", "reasoning": "The first plot keeps the tension of the premise and',
    '```json\n{"not offensive": 0.67, "offensive": 0.33}\n```',
    "For example, an answer choosing the first label ends with:\n\n```json\n"
    '{"label": "not hate speech"}\n```',
    # issue 29, item 6: hedges and other scales
    "Answer: 1 or 2",
    "Answer: 3-4",
    '{"label": "3/4"}',
    "Answer: hateful or not hateful",
    '{"overall": "4/10", "fluency": "4 out of 10"}',
    "Overall score: 3 on a 1-10 scale\nFluency score: 4/10",
    '{"review": "Fine.", "score": "7/20"}',
)
"""Answers real models wrote that a parser once misread (issues 29 and 34)."""

ALPHABETS = (
    (0x20, 0x7E),
    (0xA0, 0x2FF),
    (0x300, 0x36F),  # combining marks
    (0x370, 0x52F),
    (0x2000, 0x206F),  # punctuation, invisible and bidi controls
    (0x3000, 0x30FF),
    (0x4E00, 0x4FFF),
    (0xFF00, 0xFFEF),  # full-width forms
    (0x1F300, 0x1F64F),
    (0x0, 0x1F),
)


def random_unicode(rng: random.Random, size: int) -> str:
    """Text from a few mixed alphabets (controls and combining marks included), in runs."""
    chars: list[str] = []
    while len(chars) < size:
        low, high = rng.choice(ALPHABETS)
        chars += [chr(rng.randint(low, high)) for _ in range(rng.randint(1, 8))]
    return "".join(chars[:size])


def ascii_escaped(rng: random.Random) -> bool:
    """Whether to write JSON ASCII-escaped (emoji as ``\\ud83d\\ude00``), as some models do."""
    return rng.random() < 0.3


def quote(rng: random.Random, text: str) -> str:
    return json.dumps(text, ensure_ascii=ascii_escaped(rng))


def fence(rng: random.Random, body: str) -> str:
    kind = rng.random()
    if kind < 0.4:
        return f"```json\n{body}\n```"
    if kind < 0.5:
        return f"```{body}```"
    return body


def prose(rng: random.Random) -> str:
    choices = (
        "",
        "Let me think step by step.",
        "Reasoning: the speaker's tone {suggests} a sailor.",
        "The answer is below.\n",
        "I'd say {roughly} this:",
        random_unicode(rng, rng.randint(1, 30)),
    )
    return rng.choice(choices)


def name_variant(rng: random.Random, name: str) -> str:
    """A name as a model may write it: exact, cased, spaced, a prefix, extended."""
    kind = rng.randrange(7)
    words = name.split()
    if kind == 0:
        return name.upper()
    if kind == 1:
        return f"  {name.lower()} "
    if kind == 2 and len(words) > 1:
        return words[0]
    if kind == 3:
        return f"{name} (the narrator)"
    if kind == 4:
        return name[: max(1, len(name) // 2)]
    return name


def _object(rng: random.Random, keys: Sequence[str]) -> str:
    """A hand-written JSON-ish object: repeated keys, adversarial values, slips."""
    items = []
    for _ in range(rng.randint(0, 6)):
        key = rng.choice(keys) if keys and rng.random() < 0.85 else random_unicode(rng, 4)
        if rng.random() < 0.3:
            key = name_variant(rng, key)
        value = number(rng) if rng.random() < 0.7 else quote(rng, rng.choice(keys or ["x"]))
        if rng.random() < 0.1:
            value = _object(rng, keys)
        items.append(f"{quote(rng, key)}: {value}")
    body = "{" + ", ".join(items) + ("," if rng.random() < 0.2 else "") + "}"
    if rng.random() < 0.2:
        wrapper = rng.choice(["probabilities", "scores", "answer", "result", "x"])
        body = f'{{"reasoning": "...", "{wrapper}": {body}}}'
    return body


def _deep(rng: random.Random, keys: Sequence[str]) -> str:
    depth = rng.choice([20, 200, 990, 1100, 3000])
    key = rng.choice([*keys, "a", "score", "label", "scores"])
    return f'{{"{key}": ' * depth + number(rng) + "}" * depth


def _mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.randrange(7)
        if kind == 0 and text:  # delete a span
            text = text[:at] + text[at + rng.randint(1, 12) :]
        elif kind == 1:  # insert a fragment
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif kind == 2:  # insert an adversarial number
            text = text[:at] + number(rng) + text[at:]
        elif kind == 3 and text:  # repeat a span
            end = min(len(text), at + rng.randint(1, 40))
            text = text[:end] + text[at:end] * rng.randint(1, 3) + text[end:]
        elif kind == 4:  # random unicode
            text = text[:at] + random_unicode(rng, rng.randint(1, 8)) + text[at:]
        elif kind == 5:  # change case
            text = text.upper() if rng.random() < 0.5 else text.lower()
        else:  # replace a digit
            digits = [i for i, ch in enumerate(text) if ch.isdigit()]
            if digits:
                i = rng.choice(digits)
                text = text[:i] + number(rng) + text[i + 1 :]
    return text


def generate_output(
    rng: random.Random, valid: Callable[[random.Random], str], keys: Sequence[str]
) -> str:
    """One generated model output: valid, mutated, truncated, structured-ish or noise.

    Args:
        rng: The seeded generator.
        valid: Writes a well-formed answer of the family's format.
        keys: Keys and names the family's answers use (for hand-built objects).

    Returns:
        The output text.
    """
    roll = rng.random()
    if roll < 0.15:
        return valid(rng)
    if roll < 0.50:
        return _mutate(rng, valid(rng))
    if roll < 0.60:
        text = valid(rng)
        return text[: rng.randint(0, len(text))]
    if roll < 0.85:
        return prose(rng) + "\n" + fence(rng, _object(rng, keys)) + "\n" + prose(rng)
    if roll < 0.90:
        return valid(rng) + "\n" + _mutate(rng, valid(rng))
    if roll < 0.91:
        return _deep(rng, keys)
    if roll < 0.94:
        return rng.choice(["", " ", "\n\n", "{}", "[]", "```json\n```", "null", "{", "}"])
    if roll < 0.96:
        answer = rng.choice(REAL_ANSWERS)
        return answer if rng.random() < 0.5 else _mutate(rng, answer)
    return random_unicode(rng, rng.randint(0, 200))
