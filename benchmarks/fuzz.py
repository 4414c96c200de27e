"""Fuzzing of every parser of model answers: seeded generated outputs, no exception escapes.

Five parser families, each fed the same number of generated outputs:

- ``distribution``: a probability distribution over candidate names (PersonaEval's role
  identification and the annotator-level ``distribution`` answers): ``parse_distribution``
  (``parse_answer(..., "distribution")`` adds only the top-1 label; the hypothesis tests
  cover it).
- ``labels``: one label of a scale (annotator-level judges, character validation):
  ``parse_answer(..., "label")`` (``parse_label`` and ``extract_field``) and
  ``parse_verdict``.
- ``ratings``: 1-5 scores per dimension (MAJ-Eval, ChatEval, G-Eval): ``parse_scores``,
  ``parse_score_lines``, ``parse_bare_score`` / ``sample_mean_score`` and
  ``weighted_score`` over the output's tokens.
- ``debate``: a MAJ-Eval persona's turn (scores, ``NO MORE COMMENTS``, feedback), the
  moderator's pick (``parse_moderator_pick``, with the code's fallback speaker), the
  aggregator's synthesis, and a ChatEval referee's score lines.
- ``perse``: PERSE's review-and-score JSON (``parse_review``) and pairwise choice
  (``parse_choice``).
- ``stakeholders``: MAJ-Eval's persona construction (``parse_extraction``,
  ``parse_grouping``, ``parse_personas``), run once per task rather than per sample, so
  fed a fifth of the outputs.

Outputs come from a seeded generator: well-formed answers of each family's format,
the same mutated (spans deleted or repeated, pieces of JSON, unicode and adversarial
numbers inserted), truncated or spliced, hand-built structured-ish objects (repeated
keys, names that are prefixes of each other, huge numbers, NaN/inf, out-of-range
values, wrappers), deep nesting, and random unicode. Every parser's documented failure
mode is a returned failure, never an exception: any exception is counted (must be 0),
and so is any result that breaks the family's invariants (distributions non-negative
summing to 1, labels in the label set, scores in the scale, speakers among the
candidates...).

Usage: ``python -m benchmarks.fuzz [--n N] [--seed S] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from inspect_plural.parsing import (
    PLOT_CHOICES,
    VERDICTS,
    DistributionParse,
    parse_choice,
    parse_distribution,
    parse_verdict,
)
from inspect_plural.rating_parsing import (
    DONE_MARKER,
    ScoresParse,
    parse_bare_score,
    parse_review,
    parse_score_lines,
    parse_scores,
)
from inspect_plural.records import RatingDimension
from inspect_plural.solvers._answers import parse_answer
from inspect_plural.solvers._debate import fallback_speaker, parse_moderator_pick
from inspect_plural.solvers.geval import sample_mean_score, weighted_score
from inspect_plural.stakeholders.create import parse_extraction, parse_grouping, parse_personas

FULL_OUTPUTS = 10_000
QUICK_OUTPUTS = 1_000
SEED = 0
LOW, HIGH = 1.0, 5.0
"""The 1-5 scale every rating method asks for."""
MAX_EXAMPLES = 5
"""Findings (exceptions, invariant violations) kept per parser."""

C = TypeVar("C")


class Violation(Exception):
    """A parser returned a result that breaks its family's invariants."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise Violation(message)


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _storable(text: str | None) -> bool:
    """Whether a parsed string holds no surrogate, so a log can store it (UTF-8).

    An emoji escaped as ``\\ud83d\\ude00`` must come back as the emoji, as
    ``json.loads`` gives it, not as two surrogates; a lone surrogate escape comes back
    as U+FFFD. The generated outputs hold no raw surrogate of their own.
    """
    return _SURROGATE.search(text or "") is None


def _record_storable(record: BaseModel) -> bool:
    """:func:`_storable` for every string of a parsed record."""
    return _storable(json.dumps(record.model_dump(), ensure_ascii=False))


# --------------------------------------------------------------------------------------
# Contexts: what each parser is told (options, labels, dimensions, bounds)
# --------------------------------------------------------------------------------------


def _dimension(name: str, title: str) -> RatingDimension:
    return RatingDimension(name=name, title=title, description="d", low=LOW, high=HIGH)


RATING_DIMENSIONS: tuple[tuple[RatingDimension, ...], ...] = (
    (_dimension("overall", "Overall"),),
    (
        _dimension("fluency", "Fluency"),
        _dimension("pio_consistency", "PIO consistency"),
        _dimension("overall", "Overall"),
    ),
    (_dimension("coherence", "Coherence"), _dimension("coherence_2", "Coherence 2")),
)

CANDIDATE_NAMES: tuple[tuple[str, ...], ...] = (
    ("Ron", "Ron Weasley", "Harry", "Harry Potter"),
    ("李雷", "韩梅梅", "王芳", "张伟"),
    ("Dr. Anselm Pike", "Mrs. Pike", "O'Brien", "Jean-Luc"),
    ("Child", "Teen", "College Student", "Grad Student", "Expert"),
    ("A", "AB", "ABC", "B"),
)

LABEL_SETS: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "4", "5"),
    ("-1", "0", "1"),
    ("0", "1", "2"),
    ("Strongly disagree", "Somewhat disagree", "Neutral", "Somewhat agree", "Strongly agree"),
    ("hateful", "not hateful"),
    ("Yes", "No", "Unsure"),
    ("iro", "not"),
)


@dataclass(frozen=True)
class DebateContext:
    """A MAJ-Eval group: its personas and the dimensions they score."""

    names: tuple[str, ...]
    dimensions: tuple[RatingDimension, ...]


DEBATE_CONTEXTS = (
    DebateContext(("Alex", "Alex Chen", "Dr. Alex Chen", "Sam"), RATING_DIMENSIONS[1]),
    DebateContext(("Clinician", "Patient", "Researcher"), RATING_DIMENSIONS[0]),
    DebateContext(("教师", "学生"), RATING_DIMENSIONS[2]),
)
REVIEW_BOUNDS: tuple[tuple[float, float], ...] = ((1.0, 10.0), (1.0, 5.0), (0.0, 4.0))


# --------------------------------------------------------------------------------------
# The generator
# --------------------------------------------------------------------------------------

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


def _number(rng: random.Random) -> str:
    return rng.choice(HUGE_NUMBERS if rng.random() < HUGE_SHARE else NUMBERS)


PIECES = (
    "{", "}", "[", "]", '"', "'", ",", ":", "：", "，", "```", "```json\n", "\n", "\\", "\\u",
    "\\ud800", "\x00", "\u200b", "\u00a0", "Answer:", "Final answer:", "**Answer:**",
    "Score:", "score", '"label": ', '"score": ', "NO MORE COMMENTS", '"next_speaker": ',
    '"done": true', "{{", "}}", '{"a": {"b": ', "%", " - ", "**", "#", "é", "ß", "İ", "ﬁ",
    "Ⅻ", "🙂", "\u202e", "\r", "\t", "[Score] ", "[Review] ", "Plot A", "Plot B", "N/A",
    "VALID", "not valid", "Character's aspect:", "Reasoning:",
)  # fmt: skip
"""Fragments inserted by mutations."""

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


def _ascii(rng: random.Random) -> bool:
    """Whether to write JSON ASCII-escaped (emoji as ``\\ud83d\\ude00``), as some models do."""
    return rng.random() < 0.3


def _quote(rng: random.Random, text: str) -> str:
    return json.dumps(text, ensure_ascii=_ascii(rng))


def _fence(rng: random.Random, body: str) -> str:
    kind = rng.random()
    if kind < 0.4:
        return f"```json\n{body}\n```"
    if kind < 0.5:
        return f"```{body}```"
    return body


def _prose(rng: random.Random) -> str:
    choices = (
        "",
        "Let me think step by step.",
        "Reasoning: the speaker's tone {suggests} a sailor.",
        "The answer is below.\n",
        "I'd say {roughly} this:",
        random_unicode(rng, rng.randint(1, 30)),
    )
    return rng.choice(choices)


def _name_variant(rng: random.Random, name: str) -> str:
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
            key = _name_variant(rng, key)
        value = _number(rng) if rng.random() < 0.7 else _quote(rng, rng.choice(keys or ["x"]))
        if rng.random() < 0.1:
            value = _object(rng, keys)
        items.append(f"{_quote(rng, key)}: {value}")
    body = "{" + ", ".join(items) + ("," if rng.random() < 0.2 else "") + "}"
    if rng.random() < 0.2:
        wrapper = rng.choice(["probabilities", "scores", "answer", "result", "x"])
        body = f'{{"reasoning": "...", "{wrapper}": {body}}}'
    return body


def _deep(rng: random.Random, keys: Sequence[str]) -> str:
    depth = rng.choice([20, 200, 990, 1100, 3000])
    key = rng.choice([*keys, "a", "score", "label", "scores"])
    return f'{{"{key}": ' * depth + _number(rng) + "}" * depth


def _mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        kind = rng.randrange(7)
        if kind == 0 and text:  # delete a span
            text = text[:at] + text[at + rng.randint(1, 12) :]
        elif kind == 1:  # insert a fragment
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif kind == 2:  # insert an adversarial number
            text = text[:at] + _number(rng) + text[at:]
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
                text = text[:i] + _number(rng) + text[i + 1 :]
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
        return _prose(rng) + "\n" + _fence(rng, _object(rng, keys)) + "\n" + _prose(rng)
    if roll < 0.90:
        return valid(rng) + "\n" + _mutate(rng, valid(rng))
    if roll < 0.91:
        return _deep(rng, keys)
    if roll < 0.95:
        return rng.choice(["", " ", "\n\n", "{}", "[]", "```json\n```", "null", "{", "}"])
    return random_unicode(rng, rng.randint(0, 200))


# --------------------------------------------------------------------------------------
# The families: well-formed answers, and the parsers with their invariants
# --------------------------------------------------------------------------------------


Parser = Callable[[str, C], bool]
"""Runs one parser on an output, checks the invariants, returns whether it parsed."""


@dataclass(frozen=True)
class Family(Generic[C]):
    """One parser family: its contexts, a well-formed answer writer and its parsers.

    ``share`` is the part of the run's outputs it gets (parsers run once per task, not
    per sample, get fewer).
    """

    name: str
    contexts: tuple[C, ...]
    valid: Callable[[random.Random, C], str]
    keys: Callable[[C], list[str]]
    parsers: tuple[tuple[str, Parser[C]], ...]
    share: float = 1.0


def _distribution_answer(rng: random.Random, names: tuple[str, ...]) -> str:
    weights = [rng.random() for _ in names]
    total = sum(weights) or 1.0
    percent = rng.random() < 0.2
    items = []
    for name, weight in zip(names, weights):
        if rng.random() < 0.1:
            continue  # a missing option
        value = f'"{weight / total * 100:.1f}%"' if percent else f"{weight / total:.3f}"
        items.append(f"{_quote(rng, _name_variant(rng, name))}: {value}")
    body = "{" + ", ".join(items) + "}"
    if rng.random() < 0.2:
        body = f'{{"reasoning": "..." , "probabilities": {body}}}'
    return _prose(rng) + "\n" + _fence(rng, body)


def _check_distribution(parsed: DistributionParse, options: Sequence[str]) -> bool:
    if not parsed.ok:
        _require(parsed.distribution is None, "a failure carries a distribution")
        _require(bool(parsed.error), "a failure without a reason")
        return False
    dist = parsed.distribution
    _require(dist is not None and list(dist) == list(options), "keys are not the options")
    assert dist is not None
    _require(all(math.isfinite(v) and v >= 0 for v in dist.values()), "negative or non-finite")
    _require(abs(sum(dist.values()) - 1.0) <= 1e-6, f"sums to {sum(dist.values())!r}")
    _require(set(parsed.missing) <= set(options), "missing names a non-option")
    _require(parsed.error is None, "a success with an error")
    return True


def _distribution(text: str, names: tuple[str, ...]) -> bool:
    return _check_distribution(parse_distribution(text, list(names)), names)


DISTRIBUTION: Family[tuple[str, ...]] = Family(
    name="distribution",
    contexts=CANDIDATE_NAMES,
    valid=_distribution_answer,
    keys=lambda names: [*names, "probabilities", "reasoning"],
    parsers=(("parse_distribution", _distribution),),
)


def _label_answer(rng: random.Random, labels: tuple[str, ...]) -> str:
    label = _name_variant(rng, rng.choice(labels)) if rng.random() < 0.3 else rng.choice(labels)
    style = rng.randrange(6)
    if style == 0:
        return _prose(rng) + "\n" + _fence(rng, json.dumps({"label": label}))
    if style == 1:
        return f"Reasoning: {_prose(rng)}\nCharacter's aspect: a detail\nAnswer: {label}"
    if style == 2:
        return f"{_prose(rng)}\n**Final answer:** [{label}]"
    if style == 3:
        return f"{_prose(rng)}\n{label}"
    if style == 4:
        return f"Answer:\n{label} - because the comment {_prose(rng)}"
    return rng.choice(["VALID", "INVALID", "Not valid.", "VALID - fits."])


def _label(text: str, labels: tuple[str, ...]) -> bool:
    answer = parse_answer(text, labels, "label", persona="p", aspect_field="Character's aspect")
    _require(answer.aspect is None or isinstance(answer.aspect, str), "aspect is not text")
    if not answer.parse_ok:
        _require(answer.label is None and bool(answer.error), "failure with a label or no reason")
        return False
    _require(answer.label in labels and answer.error is None, f"label {answer.label!r}")
    return True


def _verdict(text: str, labels: tuple[str, ...]) -> bool:
    parsed = parse_verdict(text)
    if not parsed.ok:
        _require(parsed.label is None and bool(parsed.error), "failure with a label or no reason")
        return False
    _require(parsed.label in VERDICTS, f"verdict {parsed.label!r}")
    return True


LABELS: Family[tuple[str, ...]] = Family(
    name="labels",
    contexts=LABEL_SETS,
    valid=_label_answer,
    keys=lambda labels: [*labels, "label", "answer", "choice", "rating", "prediction"],
    parsers=(("parse_answer(label)", _label), ("parse_verdict", _verdict)),
)


def _scores_body(rng: random.Random, dimensions: Sequence[RatingDimension]) -> dict[str, Any]:
    scores: dict[str, Any] = {}
    for d in dimensions:
        key = d.name if rng.random() < 0.7 else d.title
        scores[key] = rng.randint(1, 5) if rng.random() < 0.8 else f"{rng.randint(1, 5)}/5"
    return scores


def _score_lines(rng: random.Random, dimensions: Sequence[RatingDimension]) -> str:
    lines = [f"**{d.title} score:** {rng.randint(1, 5)}" for d in dimensions]
    return "Evaluation evidence: " + _prose(rng) + "\n" + "\n".join(lines)


def _rating_answer(rng: random.Random, dimensions: tuple[RatingDimension, ...]) -> str:
    style = rng.randrange(4)
    if style == 0:
        body = _scores_body(rng, dimensions)
        if rng.random() < 0.3:
            body = {"scores": body, "feedback": "fine"}
        return _prose(rng) + "\n" + _fence(rng, json.dumps(body))
    if style == 1:
        return _score_lines(rng, dimensions)
    return rng.choice(["4", " 3.5", "**2**", "5\n\nbecause", "1 - poor"])


def _check_scores(parsed: ScoresParse, dimensions: Sequence[RatingDimension]) -> bool:
    names = {d.name for d in dimensions}
    _require(set(parsed.scores) <= names, "a score for a dimension not asked")
    _require(all(LOW <= v <= HIGH for v in parsed.scores.values()), "a score out of the scale")
    _require(isinstance(parsed.done, bool), "done is not a bool")
    if parsed.ok:
        _require(set(parsed.scores) == names and parsed.error is None, "ok but incomplete")
    else:
        _require(bool(parsed.error), "a failure without a reason")
    return parsed.ok


def _in_scale(value: float | None) -> bool:
    return value is not None and LOW <= value <= HIGH


def _bare(text: str, dimensions: tuple[RatingDimension, ...]) -> bool:
    value = parse_bare_score(text, LOW, HIGH)
    _require(value is None or _in_scale(value), f"bare score {value!r}")
    mean, each = sample_mean_score([text, text])
    _require(mean is None or _in_scale(mean), f"sample mean {mean!r}")
    _require(all(v is None or _in_scale(v) for v in each), "a sample score out of the scale")
    return value is not None


_PROBABILITIES = (0.5, 0.2, 0.1, 0.05, 0.001, 0.0, 1.0, 0.3)


def _weighted(text: str, dimensions: tuple[RatingDimension, ...]) -> bool:
    tokens = [*text.split()[:12], *text[:8]]
    top = [(token, _PROBABILITIES[i % len(_PROBABILITIES)]) for i, token in enumerate(tokens)]
    score, merged = weighted_score(top)
    _require(set(merged) <= set(range(1, 6)), f"merged values {sorted(merged)}")
    _require(score is None or _in_scale(score), f"weighted score {score!r}")
    return score is not None


RATINGS: Family[tuple[RatingDimension, ...]] = Family(
    name="ratings",
    contexts=RATING_DIMENSIONS,
    valid=_rating_answer,
    keys=lambda dims: [*(d.name for d in dims), *(d.title for d in dims), "scores", "score"],
    parsers=(
        ("parse_scores", lambda text, dims: _check_scores(parse_scores(text, dims), dims)),
        (
            "parse_score_lines",
            lambda text, dims: _check_scores(parse_score_lines(text, dims), dims),
        ),
        ("parse_bare_score/sample_mean", _bare),
        ("weighted_score (G-Eval)", _weighted),
    ),
)


def _debate_answer(rng: random.Random, ctx: DebateContext) -> str:
    style = rng.randrange(4)
    if style == 0:  # a persona's turn
        body = {"feedback": _prose(rng), **_scores_body(rng, ctx.dimensions)}
        if rng.random() < 0.3:
            body["done"] = True
        lead = f"{DONE_MARKER}\n\n" if rng.random() < 0.3 else ""
        return lead + _fence(rng, json.dumps(body, ensure_ascii=_ascii(rng)))
    if style == 1:  # the moderator's pick
        name = _name_variant(rng, rng.choice(ctx.names))
        body = {"next_speaker": name, "reason": "largest disagreement"}
        return _fence(rng, json.dumps(body, ensure_ascii=False))
    if style == 2:  # the aggregator
        body = {"synthesis": _prose(rng), **_scores_body(rng, ctx.dimensions)}
        return _fence(rng, json.dumps(body, ensure_ascii=_ascii(rng)))
    return _score_lines(rng, ctx.dimensions)  # a ChatEval referee


def _turn(text: str, ctx: DebateContext) -> bool:
    """A persona's turn or the aggregator's answer: scores and a text field (as maj_eval)."""
    parsed = parse_scores(text, ctx.dimensions, LOW, HIGH)
    for name in ("feedback", "synthesis"):  # what maj_eval records, the answer by default
        recorded = str(parsed.fields.get(name) or text)
        _require(bool(recorded) or not text, f"an empty {name} for a non-empty answer")
        _require(_storable(recorded), f"a surrogate in the {name}: {recorded!r:.80}")
    return _check_scores(parsed, ctx.dimensions)


def _moderator(text: str, ctx: DebateContext) -> bool:
    speaker, reason = parse_moderator_pick(text, ctx.names)
    _require(speaker is None or speaker in ctx.names, f"speaker {speaker!r}")
    _require(_storable(reason), f"a surrogate in the reason: {reason!r:.80}")
    if speaker is None:
        latest = {name: {"overall": float(i)} for i, name in enumerate(ctx.names)}
        names = [d.name for d in ctx.dimensions]
        fallback = fallback_speaker(list(ctx.names), latest, set(), names)
        _require(fallback in ctx.names, f"fallback speaker {fallback!r}")
    return speaker is not None


DEBATE: Family[DebateContext] = Family(
    name="debate",
    contexts=DEBATE_CONTEXTS,
    valid=_debate_answer,
    keys=lambda ctx: [
        *ctx.names,
        *(d.name for d in ctx.dimensions),
        "next_speaker",
        "reason",
        "feedback",
        "synthesis",
        "done",
    ],
    parsers=(
        ("MAJ-Eval turn/aggregator", _turn),
        ("MAJ-Eval moderator pick", _moderator),
        (
            "ChatEval score lines",
            lambda text, ctx: _check_scores(
                parse_score_lines(text, ctx.dimensions), ctx.dimensions
            ),
        ),
    ),
)


def _perse_answer(rng: random.Random, bounds: tuple[float, float]) -> str:
    low, high = bounds
    score = rng.randint(int(low), int(high))
    style = rng.randrange(6)
    if style == 0:
        body = json.dumps({"review": _prose(rng), "score": score}, ensure_ascii=_ascii(rng))
        return _fence(rng, body)
    if style == 1:
        return f'"Review": "{_prose(rng)}", "Score": {score}'
    if style == 2:
        return f"[Review] {_prose(rng)} [Score] {score}"
    if style == 3:
        return f"Review: {_prose(rng)}\nScore: {score}/{int(high)}"
    if style == 4:
        return _fence(rng, json.dumps({"choice": rng.choice(PLOT_CHOICES)}))
    return rng.choice(["A", "(b)", "Story B", "neither", "Answer: Plot A", "N/A"])


def _review(text: str, bounds: tuple[float, float]) -> bool:
    low, high = bounds
    parsed = parse_review(text, low, high)
    review = parsed.review
    _require(review is None or (bool(review) and review == review.strip()), "review not stripped")
    _require(_storable(review), f"a surrogate in the review: {review!r:.80}")
    if not parsed.ok:
        _require(parsed.score is None and bool(parsed.error), "failure with a score or no reason")
        return False
    score = parsed.score
    _require(score is not None and low <= score <= high, f"score {score!r} outside the bounds")
    return True


def _choice(text: str, bounds: tuple[float, float]) -> bool:
    parsed = parse_choice(text)
    if not parsed.ok:
        _require(parsed.label is None and bool(parsed.error), "failure with a label or no reason")
        return False
    _require(parsed.label in PLOT_CHOICES, f"choice {parsed.label!r}")
    return True


PERSE: Family[tuple[float, float]] = Family(
    name="perse",
    contexts=REVIEW_BOUNDS,
    valid=_perse_answer,
    keys=lambda bounds: ["review", "score", "Review", "Score", "choice", "Plot A", "Plot B"],
    parsers=(("parse_review", _review), ("parse_choice", _choice)),
)


def _stakeholder_answer(rng: random.Random, document: str) -> str:
    name = rng.choice(["Patients", "Clinicians", "Policy makers", _prose(rng)])
    perspective = {"perspective": _prose(rng), "evidence": [_prose(rng)]}
    style = rng.randrange(4)
    body: Any
    if style == 0:  # step 1, the paper's shape
        body = {name: {"characteristics": _prose(rng), "perspectives": [perspective]}}
    elif style == 1:  # step 1, a wrapped list
        body = {"stakeholders": [{"name": name, "perspectives": [_prose(rng)]}]}
    elif style == 2:  # step 1b, groups
        group = {"name": name, "members": [name], "perspectives": [perspective]}
        body = {"groups": [group, {**group, "documents": [document]}]}
    else:  # step 2, personas
        persona = {"name": "Alex", "Demographic Information": _prose(rng), "Perspective": "p"}
        body = {name: [persona]} if rng.random() < 0.5 else {"personas": [persona]}
    return _prose(rng) + "\n" + _fence(rng, json.dumps(body, ensure_ascii=_ascii(rng)))


def _extraction(text: str, document: str) -> bool:
    found = parse_extraction(text, document)
    if found is None:
        return False
    for stakeholder in found:
        _require(bool(stakeholder.name.strip()), "a stakeholder without a name")
        _require(stakeholder.document == document, "the document is not recorded")
        _require(_record_storable(stakeholder), f"{stakeholder.name!r:.60}: a surrogate")
    return True


def _grouping(text: str, document: str) -> bool:
    groups = parse_grouping(text)
    if groups is None:
        return False
    _require(len(groups) > 0, "an empty list instead of None")
    _require(all(group.name for group in groups), "a group without a name")
    _require(all(_record_storable(group) for group in groups), "a group with a surrogate")
    return True


def _personas(text: str, document: str) -> bool:
    personas = parse_personas(text)
    _require(all(isinstance(p, dict) for p in personas), "a persona that is not an object")
    return bool(personas)


STAKEHOLDERS: Family[str] = Family(
    name="stakeholders",
    contexts=("doc-1", "Cochrane review"),
    valid=_stakeholder_answer,
    keys=lambda document: [
        "Patients",
        "stakeholders",
        "groups",
        "personas",
        "name",
        "characteristics",
        "perspectives",
        "perspective",
        "evidence",
        "members",
        "Demographic Information",
    ],  # fmt: skip
    parsers=(
        ("parse_extraction", _extraction),
        ("parse_grouping", _grouping),
        ("parse_personas", _personas),
    ),
    share=0.2,  # once per task: a fifth of the outputs keeps the full run under a minute
)

FAMILIES: tuple[Family[Any], ...] = (DISTRIBUTION, LABELS, RATINGS, DEBATE, PERSE, STAKEHOLDERS)


# --------------------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------------------


@dataclass
class Finding:
    """An exception or an invariant violation, with the input that caused it."""

    kind: str
    parser: str
    input: str
    error: str


@dataclass
class ParserResult:
    """Counts of one parser over a family's outputs."""

    family: str
    parser: str
    outputs: int = 0
    parsed: int = 0
    failures: int = 0
    exceptions: int = 0
    violations: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)


def _finding(kind: str, parser: str, text: str, ex: BaseException) -> Finding:
    shown = text if len(text) <= 300 else f"{text[:300]}... ({len(text)} chars)"
    error = "".join(traceback.format_exception(type(ex), ex, ex.__traceback__)[-3:])
    return Finding(kind=kind, parser=parser, input=repr(shown), error=error[-1500:])


def _writer(family: Family[C], ctx: C) -> Callable[[random.Random], str]:
    """The family's well-formed answer writer, bound to one context."""
    return lambda rng: family.valid(rng, ctx)


def fuzz_family(family: Family[Any], n: int, seed: int = SEED) -> list[ParserResult]:
    """Run every parser of a family on ``n`` generated outputs.

    Args:
        family: The family.
        n: Outputs to generate.
        seed: Seed of the generator (the family's name is mixed in).

    Returns:
        One result per parser.
    """
    rng = random.Random(f"{seed}:{family.name}")
    results = [ParserResult(family.name, name) for name, _ in family.parsers]
    for _ in range(n):
        ctx = rng.choice(family.contexts)
        text = generate_output(rng, _writer(family, ctx), family.keys(ctx))
        for result, (name, parser) in zip(results, family.parsers):
            result.outputs += 1
            start = time.perf_counter()
            try:
                ok = parser(text, ctx)
            except Violation as ex:
                result.violations += 1
                if len(result.findings) < MAX_EXAMPLES:
                    result.findings.append(_finding("violation", name, text, ex))
            except Exception as ex:  # the point: nothing may escape a parser
                result.exceptions += 1
                if len(result.findings) < MAX_EXAMPLES:
                    result.findings.append(_finding("exception", name, text, ex))
            else:
                if ok:
                    result.parsed += 1
                else:
                    result.failures += 1
            result.seconds += time.perf_counter() - start
    return results


def _table(results: Sequence[ParserResult]) -> str:
    header = (
        f"{'family':<13}{'parser':<30}{'outputs':>8}{'parsed':>8}{'failures':>9}"
        f"{'exceptions':>11}{'violations':>11}{'s':>7}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        lines.append(
            f"{r.family:<13}{r.parser:<30}{r.outputs:>8}{r.parsed:>8}{r.failures:>9}"
            f"{r.exceptions:>11}{r.violations:>11}{r.seconds:>7.2f}"
        )
    return "\n".join(lines)


def run(quick: bool = False, n: int | None = None, seed: int = SEED) -> dict[str, Any]:
    """Fuzz every parser family, print the table, return the counts.

    Args:
        quick: 1,000 outputs per family instead of 10,000.
        n: Outputs per family (overrides ``quick``).
        seed: Seed of the generator.

    Returns:
        Per parser: outputs, parsed, documented failures, exceptions, invariant
        violations, seconds and up to five findings; and the totals.
    """
    count = n if n is not None else (QUICK_OUTPUTS if quick else FULL_OUTPUTS)
    shares = ", ".join(f"{f.name} x {round(count * f.share)}" for f in FAMILIES if f.share != 1)
    print(
        f"== Fuzzing: {len(FAMILIES)} parser families x {count} generated outputs "
        f"({shares}; seed {seed})"
    )
    start, cpu_start = time.perf_counter(), time.process_time()
    results = [
        r for family in FAMILIES for r in fuzz_family(family, round(count * family.share), seed)
    ]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(_table(results))
    for finding in (f for r in results for f in r.findings):
        print(f"\n{finding.kind} in {finding.parser} on {finding.input}:\n{finding.error}")
    exceptions = sum(r.exceptions for r in results)
    violations = sum(r.violations for r in results)
    print(
        f"total: {exceptions} exceptions, {violations} invariant violations, "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU (generation included)"
    )
    return {
        "families": len(FAMILIES),
        "parsers": len(results),
        "outputs_per_family": count,
        "seed": seed,
        "exceptions": exceptions,
        "violations": violations,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "results": [{**asdict(r), "seconds": round(r.seconds, 3)} for r in results],
    }


def summary(result: dict[str, Any]) -> list[str]:
    """One-line results for the suite's summary table.

    Args:
        result: What :func:`run` returned.

    Returns:
        The lines.
    """
    return [
        f"fuzz: {result['families']} parser families ({result['parsers']} parsers) x "
        f"{result['outputs_per_family']} outputs, {result['exceptions']} exceptions",
        f"fuzz invariant violations: {result['violations']}",
        f"fuzz wall s: {result['wall_s']} (CPU {result['cpu_s']})",
    ]


def main() -> None:
    """Command line: ``python -m benchmarks.fuzz [--n N] [--seed S] [--json PATH]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz")
    parser.add_argument("--n", type=int, default=FULL_OUTPUTS, help="outputs per family")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args()
    result = run(n=args.n, seed=args.seed)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
