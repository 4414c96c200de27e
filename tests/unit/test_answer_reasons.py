"""Answers real small models wrote (issue 34) and hedges (issue 29, item 6).

Each quoted answer is read as a reader would read it, or fails with the reason a report
counts (:data:`inspect_plural.parsing.FailureReason`): ``hedge`` for two labels, a
range or "a mix of both", ``other_scale`` for a score on another scale (never
rescaled), ``truncated`` for an answer cut off before its label.
"""

from __future__ import annotations

import pytest

from inspect_plural.parsing import (
    PLOT_CHOICES,
    find_mentions,
    parse_choice,
    parse_distribution,
    parse_label,
)
from inspect_plural.rating_parsing import parse_bare_score, parse_review, parse_scores
from inspect_plural.records import RatingDimension

HS = ["not hate speech", "hate speech"]
HATEFUL = ["not hateful", "hateful"]
FIVE = ["1", "2", "3", "4", "5"]
DIMS = [RatingDimension(name="overall", title="Overall", description="d", low=1, high=5)]

# --- negation: a negated label reads as its complement on the scale -------------------


@pytest.mark.parametrize(
    "text",
    [
        # SmolLM2 on HS-Brexit, failed before as "names 'hate speech' only negated"
        "The tweet is a factual report about a Syrian refugee, not a hate speech message.",
        "…a factual report about a Syrian refugee, not a hate speech message.",
        "This person would not see it as hate speech.",
        "I don't think this counts as hate speech.",
    ],
)
def test_a_negated_label_reads_as_its_complement(text: str) -> None:
    parsed = parse_label(text, HS)
    assert (parsed.ok, parsed.label, parsed.read_as) == (True, "not hate speech", "text")
    dist = parse_distribution(text, HS)
    assert dist.ok and dist.distribution == {"not hate speech": 1.0, "hate speech": 0.0}


def test_a_negated_label_without_a_complement_stays_no_answer() -> None:
    parsed = parse_label("This is not hate speech.", ["hate speech", "offensive", "normal"])
    assert not parsed.ok and parsed.failure == "no_answer"


# --- hedges ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        # SmolLM2's looping answers on HS-Brexit (six of them read as "hate speech" before)
        "a mix of both hate speech and a mix of hate speech and a mix of both hate speech "
        "and a mix of hate speech and a mix of both hate speech and a mix of",
        "The tweet is a mix of hate speech and a mix of hate speech and a mix of hate speech",
        "It is partly hate speech.",
        "It could be hate speech or not hate speech.",  # names both labels
    ],
)
def test_a_hedge_is_no_label(text: str) -> None:
    parsed = parse_label(text, HS)
    assert (parsed.ok, parsed.label, parsed.failure) == (False, None, "hedge")
    assert parse_distribution(text, HS).failure == "hedge"


@pytest.mark.parametrize(
    ("text", "labels"),
    [
        ("Answer: 1 or 2", FIVE),
        ("Answer: 3-4", FIVE),
        ('{"label": "3/4"}', FIVE),
        ('{"label": ["3", "4"]}', FIVE),
        ("Answer: hateful or not hateful", HATEFUL),
        ("Answer: not hateful / hateful", HATEFUL),
        ('{"label": "hate speech or not hate speech"}', HS),
        ("Final answer: between 2 and 3", FIVE),
    ],
)
def test_issue29_two_labels_or_a_range_are_a_hedge(text: str, labels: list[str]) -> None:
    parsed = parse_label(text, labels)
    assert (parsed.ok, parsed.label, parsed.failure) == (False, None, "hedge")
    assert parsed.error


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Answer: 2 - moderately toxic", "2"),  # a label and its description
        ('{"label": "4/5"}', "4"),  # out of the scale's own top
        ("Answer: 4 out of 5", "4"),
        ("Answer: not hateful", "not hateful"),
        ("Answer: hateful, as the slur shows", "hateful"),
    ],
)
def test_one_label_with_words_after_it_is_still_read(text: str, label: str) -> None:
    labels = HATEFUL if label.isalpha() or " " in label else FIVE
    parsed = parse_label(text, labels)
    assert (parsed.ok, parsed.label) == (True, label)


# --- another scale: a failure, never rescaled -----------------------------------------


@pytest.mark.parametrize("value", ["4/10", "4 out of 10", "3 on a 1-10 scale", "4 (out of 10)"])
def test_issue29_a_score_on_another_scale_fails(value: str) -> None:
    parsed = parse_scores(f'{{"overall": "{value}"}}', DIMS)
    assert (parsed.ok, parsed.scores, parsed.failure) == (False, {}, "other_scale")
    lines = parse_scores(f"Overall score: {value}", DIMS)
    assert (lines.ok, lines.failure) == (False, "other_scale")
    assert parse_bare_score(value) is None


@pytest.mark.parametrize("value", ["4/10", "4 out of 10"])
def test_issue29_a_label_on_another_scale_fails(value: str) -> None:
    parsed = parse_label(f"Answer: {value}", FIVE)
    assert (parsed.ok, parsed.failure) == (False, "other_scale")


def test_a_score_on_the_asked_scale_is_still_read() -> None:
    for value in ("4/5", "4 out of 5", "4 on a 1-5 scale", "4 - clear"):
        parsed = parse_scores(f'{{"overall": "{value}"}}', DIMS)
        assert parsed.ok and parsed.scores == {"overall": 4.0}, value
    review = parse_review('{"review": "Fine.", "score": "7/20"}', 1, 10)
    assert (review.ok, review.failure) == (False, "other_scale")
    assert parse_review('{"review": "Fine.", "score": "7/10"}', 1, 10).score == 7.0


def test_a_range_score_is_a_hedge() -> None:
    parsed = parse_scores('{"overall": "3-4"}', DIMS)
    assert (parsed.ok, parsed.failure) == (False, "hedge")


# --- an answer cut at the token cap ----------------------------------------------------


def test_a_json_answer_cut_after_its_choice_is_read() -> None:
    # SmolLM2 on Per-DOC: cut by the token cap after the complete choice field
    text = '{"choice": "Plot A", "reasoning": "The first plot keeps the tension of the premise'
    parsed = parse_choice(text)
    assert (parsed.ok, parsed.label, parsed.read_as) == (True, "Plot A", "json")
    label = parse_label('```json\n{"label": "hate speech", "reasoning": "The tweet', HS)
    assert (label.ok, label.label) == (True, "hate speech")


@pytest.mark.parametrize(
    "text",
    [
        '{"reasoning": "The first plot keeps the tension", "choice": "Plot',
        '{"reasoning": "The first plot keeps the tension',
    ],
)
def test_a_json_answer_cut_before_its_choice_is_truncated(text: str) -> None:
    parsed = parse_label(text, list(PLOT_CHOICES))
    assert (parsed.ok, parsed.failure) == (False, "truncated")
    assert not parse_choice(text).ok


def test_a_cut_distribution_or_score_is_truncated() -> None:
    dist = parse_distribution('{"hate speech": 0.7, "not hate', HS)
    assert (dist.ok, dist.failure) == (False, "truncated")
    scores = parse_scores('{"feedback": "The summary omits', DIMS)
    assert (scores.ok, scores.failure) == (False, "truncated")


# --- every failure has a reason ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no_answer"),
        ("I cannot say.", "no_answer"),
        ('{"label": "offensive"}', "invalid"),
        ("Is it hate speech? Hard to say.", "no_answer"),
    ],
)
def test_every_label_failure_has_a_reason(text: str, reason: str) -> None:
    assert parse_label(text, HS).failure == reason


def test_mentions_report_hedges() -> None:
    mentions = find_mentions("a mix of both hate speech and", HS)
    assert mentions.hedge and mentions.answer is None and mentions.hedged == ["hate speech"]
