"""The fuzz benchmark's score families: ratings per dimension, and the debates.

:data:`RATINGS` writes 1-5 scores per dimension (JSON, score lines, bare numbers,
echoed templates and ranges that must never be scores) and checks ``parse_scores``,
``parse_score_lines``, ``parse_bare_score`` / ``sample_mean_score`` and G-Eval's
``weighted_score``. :data:`DEBATE` writes MAJ-Eval turns (with the termination phrase
ending, opening or questioned), moderator picks and aggregator syntheses, and ChatEval
score lines, and checks the turn reading, the moderator pick with its fallback speaker
and the score lines. Scores must be in the scale and only for the dimensions asked.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from typing import Any

from benchmarks._generator import ascii_escaped, fence, name_variant, prose
from benchmarks.families._base import HIGH, LOW, Family, require, storable
from benchmarks.families._contexts import DEBATE_CONTEXTS, RATING_DIMENSIONS, DebateContext
from inspect_plural.rating_parsing import (
    DONE_MARKER,
    ScoresParse,
    parse_bare_score,
    parse_score_lines,
    parse_scores,
)
from inspect_plural.records import RatingDimension
from inspect_plural.solvers.debate._rules import fallback_speaker, parse_moderator_pick
from inspect_plural.solvers.geval import sample_mean_score, weighted_score

__all__ = ["DEBATE", "RATINGS"]


def _scores_body(rng: random.Random, dimensions: Sequence[RatingDimension]) -> dict[str, Any]:
    scores: dict[str, Any] = {}
    for d in dimensions:
        key = d.name if rng.random() < 0.7 else d.title
        scores[key] = rng.randint(1, 5) if rng.random() < 0.8 else f"{rng.randint(1, 5)}/5"
    return scores


def _score_lines(rng: random.Random, dimensions: Sequence[RatingDimension]) -> str:
    lines = [f"**{d.title} score:** {rng.randint(1, 5)}" for d in dimensions]
    return "Evaluation evidence: " + prose(rng) + "\n" + "\n".join(lines)


def _rating_answer(rng: random.Random, dimensions: tuple[RatingDimension, ...]) -> str:
    style = rng.randrange(4)
    if style == 0:
        body = _scores_body(rng, dimensions)
        if rng.random() < 0.3:
            body = {"scores": body, "feedback": "fine"}
        return prose(rng) + "\n" + fence(rng, json.dumps(body))
    if style == 1:
        return _score_lines(rng, dimensions)
    if style == 2:  # an echoed template or a range: never a score
        value = rng.choice(["<1-5>", "between 2 and 3", "3-4", "an integer from 1 to 5", "[3]"])
        return fence(rng, json.dumps({d.name: value for d in dimensions}))
    return rng.choice(["4", " 3.5", "**2**", "5\n\nbecause", "1 - poor", "1-5", "<1-5>"])


def _check_scores(parsed: ScoresParse, dimensions: Sequence[RatingDimension]) -> bool:
    names = {d.name for d in dimensions}
    require(set(parsed.scores) <= names, "a score for a dimension not asked")
    require(all(LOW <= v <= HIGH for v in parsed.scores.values()), "a score out of the scale")
    require(isinstance(parsed.done, bool), "done is not a bool")
    if parsed.ok:
        require(set(parsed.scores) == names and parsed.error is None, "ok but incomplete")
        require(parsed.read_as in ("json", "text"), f"read_as {parsed.read_as!r}")
    else:
        require(bool(parsed.error), "a failure without a reason")
    require(parsed.read_as is not None or not parsed.scores, "scores not read from anything")
    return parsed.ok


def _in_scale(value: float | None) -> bool:
    return value is not None and LOW <= value <= HIGH


def _bare(text: str, dimensions: tuple[RatingDimension, ...]) -> bool:
    value = parse_bare_score(text, LOW, HIGH)
    require(value is None or _in_scale(value), f"bare score {value!r}")
    mean, each = sample_mean_score([text, text])
    require(mean is None or _in_scale(mean), f"sample mean {mean!r}")
    require(all(v is None or _in_scale(v) for v in each), "a sample score out of the scale")
    return value is not None


_PROBABILITIES = (0.5, 0.2, 0.1, 0.05, 0.001, 0.0, 1.0, 0.3)


def _weighted(text: str, dimensions: tuple[RatingDimension, ...]) -> bool:
    tokens = [*text.split()[:12], *text[:8]]
    top = [(token, _PROBABILITIES[i % len(_PROBABILITIES)]) for i, token in enumerate(tokens)]
    score, merged = weighted_score(top)
    require(set(merged) <= set(range(1, 6)), f"merged values {sorted(merged)}")
    require(score is None or _in_scale(score), f"weighted score {score!r}")
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
        body = {"feedback": prose(rng), **_scores_body(rng, ctx.dimensions)}
        if rng.random() < 0.3:
            body["done"] = True
        turn = fence(rng, json.dumps(body, ensure_ascii=ascii_escaped(rng)))
        roll = rng.random()
        if roll < 0.3:  # the termination phrase ends the turn: done
            return f"{prose(rng)}\n{turn}\n{DONE_MARKER}"
        if roll < 0.45:  # the phrase opens a turn that goes on: not done by the phrase
            return f"{DONE_MARKER}. But {prose(rng)}\n{turn}"
        if roll < 0.55:  # a question, then a negation
            return f"I have no more comments? No - {prose(rng)}\n{turn}"
        return turn
    if style == 1:  # the moderator's pick
        name = name_variant(rng, rng.choice(ctx.names))
        body = {"next_speaker": name, "reason": "largest disagreement"}
        return fence(rng, json.dumps(body, ensure_ascii=False))
    if style == 2:  # the aggregator
        body = {"synthesis": prose(rng), **_scores_body(rng, ctx.dimensions)}
        return fence(rng, json.dumps(body, ensure_ascii=ascii_escaped(rng)))
    return _score_lines(rng, ctx.dimensions)  # a ChatEval referee


_PHRASE = re.compile(r"no\s+more\s+comments?", re.IGNORECASE)


def _turn(text: str, ctx: DebateContext) -> bool:
    """A persona's turn or the aggregator's answer: scores and a text field (as maj_eval)."""
    parsed = parse_scores(text, ctx.dimensions, LOW, HIGH)
    if parsed.done:  # done needs the phrase or a "done" flag in the answer
        require(bool(_PHRASE.search(text)) or "done" in text, "done without any signal")
    if re.search(rf"\n{DONE_MARKER}\s*$", text):  # the turn ends with the phrase
        require(parsed.done, "a turn ending with the termination phrase is not done")
    for name in ("feedback", "synthesis"):  # what maj_eval records, the answer by default
        recorded = str(parsed.fields.get(name) or text)
        require(bool(recorded) or not text, f"an empty {name} for a non-empty answer")
        require(storable(recorded), f"a surrogate in the {name}: {recorded!r:.80}")
    return _check_scores(parsed, ctx.dimensions)


def _moderator(text: str, ctx: DebateContext) -> bool:
    speaker, reason = parse_moderator_pick(text, ctx.names)
    require(speaker is None or speaker in ctx.names, f"speaker {speaker!r}")
    require(storable(reason), f"a surrogate in the reason: {reason!r:.80}")
    if speaker is None:
        latest = {name: {"overall": float(i)} for i, name in enumerate(ctx.names)}
        names = [d.name for d in ctx.dimensions]
        fallback = fallback_speaker(list(ctx.names), latest, set(), names)
        require(fallback in ctx.names, f"fallback speaker {fallback!r}")
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
