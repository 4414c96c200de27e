"""PERSE answer parsers: reviews with a 1-10 score (Per-MPST) and plot choices (Per-DOC)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspect_plural.parsing import PLOT_CHOICES, parse_choice
from inspect_plural.rating_parsing import parse_review

PERSE_DATA = Path("/work/shared/data/perse")
PER_MPST_FILE = PERSE_DATA / "PerMPST.k3.sample.jsonl"
PER_DOC_FILE = PERSE_DATA / "PerDOC.I.sample.jsonl"


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


# --------------------------------------------------------------------------------------
# parse_review: the real Per-MPST completions
# --------------------------------------------------------------------------------------


def test_every_real_per_mpst_completion_parses_to_its_gold_score() -> None:
    """The released targets are '```json{ "Review": ..., "Score": n}```' (no newline)."""
    rows = _rows(PER_MPST_FILE)
    assert len(rows) == 10
    for row in rows:
        parsed = parse_review(row["completion"])
        assert parsed.ok, (row["idx"], parsed.error)
        assert parsed.score == row["examples"][-1]["score"]
        assert parsed.error is None
        # The review is the target's, starting with its headline before " ||| ".
        assert parsed.review is not None
        assert parsed.review.split(" ||| ")[0] in row["completion"]
        assert "Score" not in parsed.review[-20:]


def test_real_per_mpst_completion_review_is_the_json_value() -> None:
    row = _rows(PER_MPST_FILE)[0]
    body = row["completion"].removeprefix("```json").removesuffix("```")
    assert parse_review(row["completion"]).review == json.loads(body)["Review"].strip()


# --------------------------------------------------------------------------------------
# parse_review: formats
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "score", "review"),
    [
        ('```json\n{"Review": "Gripping.", "Score": 7}\n```', 7.0, "Gripping."),
        ('```json\n{"review": "Gripping.", "score": 7}\n```', 7.0, "Gripping."),
        ('```json\n{"REVIEW": "Gripping.", "SCORE": 7}\n```', 7.0, "Gripping."),
        ('```JSON\n{"ReViEw": "Gripping.", "sCoRe": 3}\n```', 3.0, "Gripping."),
        ('```json{"Review": "No newline after the fence.", "Score": 9}```', 9.0, None),
        ('```json\n{\n  "Review": "Trailing comma.",\n  "Score": 4,\n}\n```', 4.0, None),
        ('{"Review": "Bare object", "Score": 2}', 2.0, "Bare object"),
        ('Here it is: {"Review": "Prose around", "Score": 5} Hope it helps.', 5.0, None),
        ('{"Review": "The hero\'s \'best\' film", "Score": 8}', 8.0, "The hero's 'best' film"),
        ("{'Review': 'single-quoted keys', 'Score': 6}", 6.0, "single-quoted keys"),
        ('"Review": "Braces missing", "Score": 7', 7.0, "Braces missing"),
        ('"Review": "Braces missing, trailing comma", "Score": 7,', 7.0, None),
        ("'Review': 'Single quotes, no braces', 'Score': 3", 3.0, None),
        ('{"answer": {"Review": "Nested one level", "Score": 6}}', 6.0, "Nested one level"),
        ('{"reasoning": "x", "result": {"review": "Nested", "score": "6"}}', 6.0, "Nested"),
        ('{"Review": "x", "Score": {"value": 4}}', 4.0, "x"),
        ("[Review] A fine film. [Score] 6", 6.0, "A fine film."),
        ("[Review]: Slow start.\nStrong end.\n[Score]: 8", 8.0, "Slow start.\nStrong end."),
        ("[review] lower case [score] = 2", 2.0, "lower case"),
        ("Review: Too long by half.\nScore: 4", 4.0, "Too long by half."),
        ("**Review:** Bold labels\n**Score:** 5", 5.0, "Bold labels"),
        ("## Score = 9", 9.0, None),
        ('{"Review": "x", "Score": "7/10"}', 7.0, "x"),
        ('{"Review": "x", "Score": "7 out of 10"}', 7.0, "x"),
        ('{"Review": "x", "Score": "7"}', 7.0, "x"),
        ('{"Review": "x", "Score": 7.5}', 7.5, "x"),
        ('{"Review": "x", "Score": "Score: 8"}', 8.0, "x"),
        ("Score: 7/10", 7.0, None),
        ("Score: 7.5", 7.5, None),
        ('{"Review": "x", "Score": 1}', 1.0, "x"),
        ('{"Review": "x", "Score": 10}', 10.0, "x"),
        ('{"review_text": "other key", "score": 3}', 3.0, "other key"),
        ('{"Review": "x", "Score": [7]}', 7.0, "x"),  # a one-element list (issue 24)
        ('{"Review": "x", "Score": "7 - a strong ending"}', 7.0, "x"),
    ],
)
def test_review_formats(text: str, score: float, review: str | None) -> None:
    parsed = parse_review(text)
    assert parsed.ok, parsed.error
    assert parsed.score == score
    assert parsed.error is None
    if review is not None:
        assert parsed.review == review


def test_review_text_is_stripped_and_blank_review_is_none() -> None:
    assert parse_review('{"Review": "  padded  ", "Score": 5}').review == "padded"
    assert parse_review('{"Review": "   ", "Score": 5}').review is None
    assert parse_review('{"Review": 5, "Score": 5}').review is None  # not text
    assert parse_review("Score: 5").review is None


def test_last_json_object_wins() -> None:
    text = 'Draft: {"Review": "first", "Score": 3}\nFinal: {"Review": "second", "Score": 9}'
    parsed = parse_review(text)
    assert (parsed.score, parsed.review) == (9.0, "second")


def test_fenced_object_is_preferred_over_later_bare_one() -> None:
    text = '```json\n{"Review": "fenced", "Score": 4}\n```\nNot this: {"Score": 9}'
    assert parse_review(text).score == 4.0


def test_json_beats_score_lines_and_brackets() -> None:
    text = 'Score: 2\n[Score] 3\n{"Review": "json", "Score": 8}'
    assert parse_review(text).score == 8.0


def test_last_bracket_and_last_line_win() -> None:
    assert parse_review("[Review] a [Score] 3\n[Review] b [Score] 5").score == 5.0
    parsed = parse_review("Review: draft\nScore: 2\nReview: final\nScore: 6")
    assert (parsed.score, parsed.review) == (6.0, "final")


def test_custom_range() -> None:
    assert parse_review('{"Score": 4}', low=1, high=5).score == 4.0
    assert not parse_review('{"Score": 6}', low=1, high=5).ok
    assert parse_review("Score: 0", low=0, high=4).score == 0.0


# --------------------------------------------------------------------------------------
# parse_review: failures
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"Review": "x", "Score": 0}', "outside 1-10"),
        ('{"Review": "x", "Score": 11}', "outside 1-10"),
        ('{"Review": "x", "Score": -3}', "outside 1-10"),
        ('{"Review": "x", "Score": "11/10"}', "outside 1-10"),
        ("[Review] x [Score] 0", "outside 1-10"),
        ("Score: 11", "outside 1-10"),
        ('{"Review": "x", "Score": "great"}', "not a number"),
        ('{"Review": "x", "Score": "seven"}', "not a number"),
        ('{"Review": "x", "Score": null}', "not a number"),
        ('{"Review": "x", "Score": true}', "not a number"),
        ('{"Review": "x", "Score": [7, 8]}', "a list of 2 values"),
        ('{"Review": "x", "Score": "between 6 and 8"}', "not a number"),
        ('{"Review": "x", "Score": "6-8"}', "a range"),
        ("Score: 6 to 8", "a range"),
        ('{"Review": "x", "Score": NaN}', "outside"),
        ('{"Review": "no score key"}', "no score found"),
        ("I liked it a lot, maybe a seven.", "no score found"),
        ("", "no score found"),
        ("   \n  ", "no score found"),
    ],
)
def test_review_failures_have_a_reason(text: str, reason: str) -> None:
    parsed = parse_review(text)
    assert not parsed.ok
    assert parsed.score is None
    assert parsed.error is not None and reason in parsed.error


def test_review_failure_keeps_the_review_text() -> None:
    parsed = parse_review('{"Review": "Loved it", "Score": 12}')
    assert not parsed.ok and parsed.review == "Loved it"


@pytest.mark.parametrize("text", [None, ""])
def test_review_none_like_input(text: Any) -> None:
    parsed = parse_review(text)
    assert not parsed.ok and parsed.score is None and parsed.review is None
    assert parsed.error == "no score found in the answer"


# --------------------------------------------------------------------------------------
# parse_choice
# --------------------------------------------------------------------------------------


def test_every_real_per_doc_completion_parses_to_its_choice() -> None:
    """The released targets are fenced '{"Choice": "Plot B",}' (a trailing comma)."""
    rows = _rows(PER_DOC_FILE)
    assert len(rows) == 10
    seen = set()
    for row in rows:
        completion = row["completion"]
        assert completion.rstrip("`\n ").endswith(",\n}")  # really not valid JSON
        expected = completion.split('"Choice": "')[1].split('"')[0]
        parsed = parse_choice(completion)
        assert parsed.ok, parsed.error
        assert parsed.label == expected
        seen.add(expected)
    assert seen == {"Plot A", "Plot B"}


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Plot A", "Plot A"),
        ("plot b", "Plot B"),
        ("PLOT B", "Plot B"),
        ("B", "Plot B"),
        ("a", "Plot A"),
        ("(a)", "Plot A"),
        ("[B]", "Plot B"),
        ("**B**", "Plot B"),
        ("Plot A.", "Plot A"),
        ("Story B", "Plot B"),
        ("Option a.", "Plot A"),
        ("Answer: Plot B", "Plot B"),
        ("Answer: (b)", "Plot B"),
        ("After some thought.\nFinal answer: Plot A", "Plot A"),
        ('{"choice": "Plot A"}', "Plot A"),
        ('{"Choice": "B"}', "Plot B"),
        ('```json\n{"Choice": "Plot A",}\n```', "Plot A"),
        ('```json{"Choice": "Plot B"}```', "Plot B"),
        ("N/A", "N/A"),
        ("n/a", "N/A"),
        ("NA", "N/A"),
        ("neither", "N/A"),
        ("None", "N/A"),
        ("No preference", "N/A"),
        ('{"Choice": "N/A"}', "N/A"),
        ("Answer: neither", "N/A"),
    ],
)
def test_choice_formats(text: str, label: str) -> None:
    parsed = parse_choice(text)
    assert parsed.ok, parsed.error
    assert parsed.label == label


@pytest.mark.parametrize(
    "text",
    [
        "Both",
        "Answer: Both",
        '{"Choice": "Both"}',
        '{"Choice": "Plot C"}',
        "Plot A and Plot B are equally good.",
        "I like Plot A, but Plot B is better written.",
        "A or B",
        "",
        "   ",
    ],
)
def test_choice_failures(text: str) -> None:
    parsed = parse_choice(text)
    assert not parsed.ok
    assert parsed.label is None
    assert parsed.error


def test_choice_none_input() -> None:
    parsed = parse_choice(None)  # type: ignore[arg-type]
    assert not parsed.ok and parsed.label is None


def test_choice_last_object_wins() -> None:
    text = 'First {"Choice": "Plot A"} then I changed my mind: {"Choice": "Plot B"}'
    assert parse_choice(text).label == "Plot B"


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        "```",
        "```json",
        "```json\n",
        '"',
        "'",
        ":",
        ",",
        "\n",
        " ",
        '"score"',
        '"Score": ',
        "'score': ",
        '"Review": ',
        "review",
        "[Score]",
        "[Review]",
        "Score:",
        "Review:",
        "Answer:",
        '"Choice": ',
        "choice",
        "Plot A",
        "Plot B",
        "plot",
        "N/A",
        "neither",
        "Both",
        "(a)",
        "B",
        "0",
        "1",
        "7",
        "10",
        "11",
        "-1",
        "7.5",
        "/10",
        " out of ",
        "1e3",
        "NaN",
        "Infinity",
        "null",
        "true",
        "\\",
    ]
)
json_ish = st.lists(_PIECES | st.text(max_size=4), max_size=25).map("".join)
any_text = st.text(max_size=200) | json_ish


@settings(max_examples=300, deadline=None)
@given(text=any_text, bounds=st.sampled_from([(1, 10), (1, 5), (0, 4), (2.5, 3.5)]))
def test_parse_review_never_raises_and_ok_scores_are_in_range(
    text: str, bounds: tuple[float, float]
) -> None:
    low, high = bounds
    parsed = parse_review(text, low=low, high=high)
    if parsed.ok:
        assert parsed.score is not None
        assert math.isfinite(parsed.score)
        assert low <= parsed.score <= high
        assert parsed.error is None
    else:
        assert parsed.score is None
        assert parsed.error
    assert parsed.review is None or (parsed.review and parsed.review == parsed.review.strip())


@settings(max_examples=300, deadline=None)
@given(text=any_text)
def test_parse_choice_never_raises_and_labels_are_plot_choices(text: str) -> None:
    parsed = parse_choice(text)
    if parsed.ok:
        assert parsed.label in PLOT_CHOICES
    else:
        assert parsed.label is None
        assert parsed.error


review_texts = st.text(alphabet=st.characters(blacklist_characters="`", codec="utf-8"), max_size=80)
"""Review text a model can send: UTF-8, so no lone surrogate (a lone surrogate escape
reads as U+FFFD, see test_parser_fuzz)."""


@settings(max_examples=200, deadline=None)
@given(score=st.integers(min_value=1, max_value=10), review=review_texts)
def test_review_round_trip(score: int, review: str) -> None:
    """A fenced json.dumps of {review, score} gives both back (review stripped; blank: None)."""
    text = f"```json\n{json.dumps({'review': review, 'score': score})}\n```"
    parsed = parse_review(text)
    assert parsed.ok, parsed.error
    assert parsed.score == score
    assert parsed.review == (review.strip() or None)


@settings(max_examples=200, deadline=None)
@given(score=st.integers(min_value=1, max_value=10), review=review_texts)
def test_review_round_trip_capitalised_keys_without_newline(score: int, review: str) -> None:
    """The official layout: '```json{' with "Review" and "Score" keys."""
    text = "```json" + json.dumps({"Review": review, "Score": score}) + "```"
    parsed = parse_review(text)
    assert parsed.score == score
    assert parsed.review == (review.strip() or None)


@pytest.mark.parametrize("choice", PLOT_CHOICES)
@pytest.mark.parametrize("fence", [True, False])
@pytest.mark.parametrize("comma", [True, False])
def test_choice_round_trip(choice: str, fence: bool, comma: bool) -> None:
    trailing = "," if comma else ""
    body = f'{{\n  "Choice": "{choice}"{trailing}\n}}'
    text = f"```json\n{body}\n```" if fence else body
    assert parse_choice(text).label == choice


# --------------------------------------------------------------------------------------
# Deeply nested JSON
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("parser", [parse_review, parse_choice])
def test_deeply_nested_json_does_not_raise(parser: Any) -> None:
    depth = 3000
    text = '{"a": ' * depth + "1" + "}" * depth
    assert not parser(text).ok


# --------------------------------------------------------------------------------------
# clean_review (how prior reviews are shortened in the prompt)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("review", "max_words", "expected"),
    [
        (
            'He said "great" and it\'s fine',
            150,
            "He said great and its fine.",
        ),  # quotes out, "." added
        ("One. Two three. Four five six", 4, "One. Two three."),  # cut at the last full stop
        ("One two three four five", 3, "One two three"),  # no full stop within the budget
        ("Short one.", 150, "Short one."),
        ("   ", 150, ""),
    ],
)
def test_clean_review_worked_examples(review: str, max_words: int, expected: str) -> None:
    from inspect_plural.sources.perse import clean_review

    assert clean_review(review, max_words) == expected


@pytest.mark.parametrize(
    ("text", "read_as", "review"),
    [
        ('```json\n{"review": "Tense.", "score": 7}\n```', "json", "Tense."),
        ('"Review": "No braces", "Score": 7', "json", "No braces"),
        ("Review: 🐴 gallops along\nScore: 7/10", "text", "🐴 gallops along"),
        ("[Review] Slow. [Score] 7", "text", "Slow."),
        ("7", "text", None),
    ],
)
def test_review_records_how_it_was_read(text: str, read_as: str, review: str | None) -> None:
    parsed = parse_review(text)
    assert parsed.ok and parsed.score == 7.0
    assert parsed.read_as == read_as and parsed.review == review


def test_a_review_copying_the_prompts_example_is_a_failure() -> None:
    from inspect_plural.rating_parsing import EXAMPLE_REVIEW
    from inspect_plural.records import ReviewSampleMetadata
    from inspect_plural.solvers.perse import render_review_prompt
    from inspect_plural.tasks.perse import per_mpst

    metadata = ReviewSampleMetadata.model_validate(per_mpst(demo=True).dataset[0].metadata)
    # the example the parser recognises is the prompt's
    assert EXAMPLE_REVIEW in render_review_prompt(metadata)
    copied = parse_review(f'{{"review": "{EXAMPLE_REVIEW}", "score": 1}}')
    assert not copied.ok and copied.error == "the answer copies the prompt's example"
    assert copied.failure == "copied_example"
    assert parse_review(f'{{"review": "{EXAMPLE_REVIEW} Yet the end works.", "score": 4}}').ok
