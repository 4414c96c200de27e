"""Property tests of every parser family of model answers (issue 8: fuzzing).

The six families: role distributions, labels, ratings, debate turns, PERSE answers and
MAJ-Eval's persona construction.
Each parser's documented failure mode is a returned failure (``ok=False`` with a reason,
or ``None``), never an exception. On arbitrary text and on adversarial structured-ish
text (broken JSON, nested braces, huge numbers, NaN/inf, unicode, empty answers,
repeated keys, names that are prefixes of each other, out-of-range numbers) every
parser must return, and what it returns must hold its family's invariants.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any

import pytest
from benchmarks import fuzz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspect_plural.parsing import (
    PLOT_CHOICES,
    VERDICTS,
    match_label,
    parse_choice,
    parse_distribution,
    parse_label,
    parse_verdict,
)
from inspect_plural.rating_parsing import (
    ScoresParse,
    parse_bare_score,
    parse_review,
    parse_score_lines,
    parse_scores,
    says_done,
)
from inspect_plural.records import RatingDimension
from inspect_plural.solvers._answers import parse_answer
from inspect_plural.solvers.debate._rules import parse_moderator_pick
from inspect_plural.solvers.geval import sample_mean_score, weighted_score
from inspect_plural.stakeholders.create import parse_extraction, parse_grouping, parse_personas

FUZZ = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""The property of each family (the whole file runs in well under 20 s)."""
FUZZ_MORE = settings(FUZZ, max_examples=100)
"""The targeted properties that back a family's main one."""

# --------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------

NUMBERS = [
    "0", "1", "5", "-1", "0.5", "-0", "1e400", "-1e400", "1e-400", "5e-324",
    "1.7976931348623157e308", "NaN", "Infinity", "-Infinity", "nan", "inf",
    "1" + "0" * 400, "-" + "9" * 400, "50%", "101", "4/5", "7 out of 10", "٣", "４",
    "½", "1,5", ".5", "+2", "−1", "true", "null", '"3"', '"abc"', "[1, 2]", '{"score": 4}',
]  # fmt: skip
"""Adversarial numbers: huge, beyond a float, NaN, inf, unicode digits, fractions, strings."""

PIECES = [
    "{", "}", "{{", "}}", "[", "]", '"', "'", ":", ",", "：", "，", "```", "```json\n",
    "\n", " ", "\\", "\\ud800", "\\ud83d\\ude00", "\\\\ud83d", "\x00", "\u200b", "\u202e",
    "**", "#", "%", " - ",
    "Answer:", "Final answer:", "Score:", "[Score] ", "[Review] ", "Review:",
    "Character's aspect:", "NO MORE COMMENTS", "VALID", "not valid", "Plot A", "N/A",
]  # fmt: skip
"""Fragments of the formats the parsers read."""

DIMENSIONS = [
    RatingDimension(name="fluency", title="Fluency", description="d", low=1, high=5),
    RatingDimension(
        name="pio_consistency", title="PIO consistency", description="d", low=1, high=5
    ),
    RatingDimension(name="overall", title="Overall", description="d", low=1, high=5),
]
NAME_SETS = [
    ["Ron", "Ron Weasley", "Harry", "Harry Potter"],
    ["A", "AB", "ABC", "B"],
    ["李雷", "韩梅梅", "王芳", "张伟"],
    ["Child", "Teen", "College Student", "Grad Student", "Expert"],
]
LABEL_SETS = [
    ["1", "2", "3", "4", "5"],
    ["-1", "0", "1"],
    ["hateful", "not hateful"],
    ["Strongly disagree", "Somewhat disagree", "Neutral", "Somewhat agree", "Strongly agree"],
]
KEYS = [
    "label", "answer", "choice", "rating", "score", "scores", "review", "Review", "Score",
    "probabilities", "reasoning", "next_speaker", "reason", "feedback", "synthesis", "done",
    "fluency", "Fluency", "PIO consistency", "overall", "OVERALL", "Plot A",
    *(name for names in NAME_SETS for name in names),
    *(label for labels in LABEL_SETS for label in labels),
]  # fmt: skip


def _quoted(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _joined(text: str | None) -> bool:
    """Whether the text holds no surrogate (a split escaped emoji, or a lone escape).

    Surrogates are not UTF-8, so no log can store them; the fuzzed text has none of its
    own (hypothesis leaves them out), so any surrogate came from a parser's escapes.
    """
    return re.search(r"[\ud800-\udfff]", text or "") is None


keys = st.sampled_from(KEYS) | st.text(max_size=6)
values = st.sampled_from(NUMBERS) | keys.map(_quoted) | st.integers().map(str)


@st.composite
def json_objects(draw: st.DrawFn) -> str:
    """A hand-written object: repeated keys, adversarial values, slips, wrappers, prose."""
    items = draw(st.lists(st.tuples(keys, values), max_size=6))
    body = "{" + ", ".join(f"{_quoted(k)}: {v}" for k, v in items)
    body += draw(st.sampled_from(["}", ",}", "", "}}", "}\n}"]))
    if draw(st.booleans()):
        body = f'{{"{draw(st.sampled_from(["scores", "probabilities", "x"]))}": {body}}}'
    if draw(st.booleans()):
        body = f"```json\n{body}\n```"
    return draw(st.text(max_size=20)) + body + draw(st.text(max_size=20))


fragments = st.lists(st.sampled_from(PIECES + NUMBERS) | keys.map(_quoted), max_size=30).map(
    "".join
)
nested = st.builds(
    lambda key, depth, leaf: f"{{{_quoted(key)}: " * depth + leaf + "}" * depth,
    st.sampled_from(["a", "score", "label", "scores", "Ron"]),
    st.sampled_from([1, 2, 50, 990, 1100, 3000]),
    st.sampled_from(NUMBERS),
)


@st.composite
def mutated(draw: st.DrawFn, base: st.SearchStrategy[str]) -> str:
    """A text with a fragment inserted, a span cut out and a random truncation."""
    text = draw(base)
    at = draw(st.integers(0, len(text)))
    text = text[:at] + draw(st.sampled_from(PIECES + NUMBERS)) + text[at:]
    cut = draw(st.integers(0, len(text)))
    text = text[:cut] + text[cut + draw(st.integers(0, 10)) :]
    return text[: draw(st.integers(0, len(text)))] if draw(st.booleans()) else text


structured = json_objects() | fragments | nested
any_text = st.text(max_size=300) | structured | mutated(structured)


# --------------------------------------------------------------------------------------
# 1. Role distributions (PersonaEval, annotator-level distribution answers)
# --------------------------------------------------------------------------------------


def _assert_distribution(distribution: dict[str, float], options: Sequence[str]) -> None:
    assert list(distribution) == list(options)
    assert all(math.isfinite(p) and p >= 0 for p in distribution.values())
    assert sum(distribution.values()) == pytest.approx(1.0, abs=1e-6)


@FUZZ
@given(text=any_text, names=st.sampled_from(NAME_SETS))
def test_distribution_is_a_distribution_or_a_reported_failure(text: str, names: list[str]) -> None:
    parsed = parse_distribution(text, names)
    if parsed.ok:
        assert parsed.distribution is not None and parsed.error is None
        _assert_distribution(parsed.distribution, names)
        assert set(parsed.missing) <= set(names)
        assert parsed.raw_sum is not None and parsed.raw_sum > 0
    else:
        assert parsed.distribution is None and parsed.error
    answer = parse_answer(text, names, "distribution")
    assert answer.parse_ok == parsed.ok
    if answer.parse_ok:
        assert answer.distribution is not None and answer.label in names
        assert answer.distribution[answer.label] == max(answer.distribution.values())
    else:
        assert answer.label is None and answer.error


@FUZZ_MORE
@given(
    weights=st.lists(st.sampled_from(NUMBERS), min_size=4, max_size=4),
    names=st.sampled_from(NAME_SETS),
    repeat=st.booleans(),
)
def test_distribution_with_adversarial_values_and_repeated_names(
    weights: list[str], names: list[str], repeat: bool
) -> None:
    items = [f"{_quoted(name)}: {w}" for name, w in zip(names, weights)]
    if repeat:
        items.append(f"{_quoted(names[0] + ' ')}: {weights[0]}")  # another spelling
    parsed = parse_distribution("{" + ", ".join(items) + "}", names)
    if parsed.ok:
        assert parsed.distribution is not None
        _assert_distribution(parsed.distribution, names)
    else:
        assert parsed.error
    if repeat:  # a name given twice is never silently merged
        assert not parsed.ok


# --------------------------------------------------------------------------------------
# 2. Labels (annotator-level judges, character validation)
# --------------------------------------------------------------------------------------


@FUZZ
@given(text=any_text, labels=st.sampled_from(LABEL_SETS))
def test_label_is_in_the_label_set_or_a_reported_failure(text: str, labels: list[str]) -> None:
    parsed = parse_label(text, labels)
    assert (parsed.label in labels) if parsed.ok else (parsed.label is None and parsed.error)
    answer = parse_answer(text, labels, "label", aspect_field="Character's aspect")
    assert (answer.parse_ok, answer.label) == (parsed.ok, parsed.label)
    assert answer.aspect is None or isinstance(answer.aspect, str)
    verdict = parse_verdict(text)
    assert verdict.label in VERDICTS if verdict.ok else verdict.error


@FUZZ_MORE
@given(value=any_text, labels=st.sampled_from(LABEL_SETS))
def test_match_label_gives_a_label_or_none(value: str, labels: list[str]) -> None:
    assert match_label(value, labels) in [*labels, None]


# --------------------------------------------------------------------------------------
# 3. Ratings (MAJ-Eval, ChatEval, G-Eval)
# --------------------------------------------------------------------------------------


def _assert_scores(parsed: ScoresParse) -> None:
    names = {d.name for d in DIMENSIONS}
    assert set(parsed.scores) <= names
    assert all(1 <= v <= 5 for v in parsed.scores.values())
    if parsed.ok:
        assert set(parsed.scores) == names and parsed.error is None
    else:
        assert parsed.error


@FUZZ
@given(text=any_text)
def test_scores_are_in_the_scale_or_a_reported_failure(text: str) -> None:
    _assert_scores(parse_scores(text, DIMENSIONS))
    _assert_scores(parse_score_lines(text, DIMENSIONS))
    bare = parse_bare_score(text)
    assert bare is None or 1 <= bare <= 5
    mean, each = sample_mean_score([text, "3", text])
    assert mean is not None and 1 <= mean <= 5
    assert all(v is None or 1 <= v <= 5 for v in each)


@FUZZ_MORE
@given(
    top=st.lists(
        st.tuples(
            st.sampled_from(["1", " 2", "3 ", "4", "5", "٣", "６", "0", "6", "-1", "9" * 5000])
            | st.text(max_size=4),
            st.floats(min_value=0.0, max_value=1.0),
        ),
        max_size=20,
    )
)
def test_geval_weighted_score_is_in_the_scale(top: list[tuple[str, float]]) -> None:
    score, merged = weighted_score(top)
    assert set(merged) <= {1, 2, 3, 4, 5}
    assert score is None or 1 <= score <= 5


# --------------------------------------------------------------------------------------
# 4. Debate turns (MAJ-Eval personas, moderator, aggregator; ChatEval referees)
# --------------------------------------------------------------------------------------


@FUZZ
@given(text=any_text, names=st.sampled_from(NAME_SETS))
def test_debate_turns_parse_or_fail_and_the_moderator_names_a_candidate(
    text: str, names: list[str]
) -> None:
    turn = parse_scores(text, DIMENSIONS)
    _assert_scores(turn)
    assert isinstance(turn.done, bool)
    assert turn.done or not says_done(text)  # the marker in the text always counts
    for name in ("feedback", "synthesis"):  # what maj_eval records, the answer by default
        recorded = str(turn.fields.get(name) or text)
        assert (recorded or not text) and _joined(recorded)
    speaker, reason = parse_moderator_pick(text, names)
    assert speaker in [*names, None]
    assert isinstance(reason, str)


@FUZZ_MORE
@given(
    scores=st.dictionaries(
        st.sampled_from(["fluency", "Fluency", "FLUENCY", "pio_consistency", "overall", "x"]),
        st.sampled_from(NUMBERS),
        max_size=5,
    ),
    done=st.sampled_from(["true", "false", '"yes"', "null", None]),
    marker=st.sampled_from(["", "NO MORE COMMENTS\n\n", "no more comment. ", "NO MORE"]),
    feedback=st.text(max_size=20),
)
def test_persona_turn_scores_and_done(
    scores: dict[str, str], done: str | None, marker: str, feedback: str
) -> None:
    items = [f"{_quoted(k)}: {v}" for k, v in scores.items()]
    items.append(f'"feedback": {_quoted(feedback)}')
    if done is not None:
        items.append(f'"done": {done}')
    text = marker + "```json\n{" + ", ".join(items) + "}\n```"
    turn = parse_scores(text, DIMENSIONS)
    _assert_scores(turn)
    assert turn.done == (done == "true" or marker.lower().startswith("no more comment"))


@FUZZ_MORE
@given(
    named=st.sampled_from([*NAME_SETS[0], *NAME_SETS[1], "ron weasley ", "R", "Harry P", ""])
    | st.text(max_size=8),
    names=st.sampled_from(NAME_SETS[:2]),
)
def test_moderator_pick_with_prefix_names(named: str, names: list[str]) -> None:
    body = json.dumps({"next_speaker": named, "reason": "r"}, ensure_ascii=False)
    speaker, _ = parse_moderator_pick(f"```json\n{body}\n```", names)
    assert speaker in [*names, None]
    if named in names:  # an exact name is never taken for another candidate
        assert speaker == named


# --------------------------------------------------------------------------------------
# 5. PERSE (review and score, pairwise choice)
# --------------------------------------------------------------------------------------


@FUZZ
@given(text=any_text, bounds=st.sampled_from([(1.0, 10.0), (1.0, 5.0), (0.0, 4.0)]))
def test_perse_answers_are_in_range_or_a_reported_failure(
    text: str, bounds: tuple[float, float]
) -> None:
    low, high = bounds
    review = parse_review(text, low, high)
    if review.ok:
        assert review.score is not None and low <= review.score <= high
    else:
        assert review.score is None and review.error
    assert _joined(review.review)
    choice = parse_choice(text)
    assert choice.label in PLOT_CHOICES if choice.ok else choice.error


# --------------------------------------------------------------------------------------
# MAJ-Eval persona construction (stakeholders, groups, personas)
# --------------------------------------------------------------------------------------


@FUZZ_MORE
@given(text=any_text)
def test_persona_construction_parsers_return_records_or_none(text: str) -> None:
    stakeholders = parse_extraction(text, "doc")
    for stakeholder in stakeholders or []:
        assert stakeholder.name and stakeholder.document == "doc"
        stakeholder.model_dump_json()  # it can be logged
    groups = parse_grouping(text)
    assert groups is None or (groups and all(group.name for group in groups))
    for group in groups or []:
        group.model_dump_json()
    assert all(isinstance(persona, dict) for persona in parse_personas(text))


# --------------------------------------------------------------------------------------
# Regressions found by the fuzzer, and the benchmark's generator itself
# --------------------------------------------------------------------------------------

HUGE = "1" + "0" * 400  # an integer JSON reads exactly, but beyond any float


@pytest.mark.parametrize(
    "text",
    [
        f'{{"Ron": {HUGE}, "Harry": 1}}',
        f'{{"Ron": -{HUGE}, "Harry": 1}}',
        f'{{"reasoning": {HUGE}, "Ron": 1}}',
    ],
)
def test_distribution_with_an_integer_beyond_a_float_is_a_failure(text: str) -> None:
    parsed = parse_distribution(text, NAME_SETS[0])
    assert not parsed.ok and parsed.error


def test_scores_and_review_with_an_integer_beyond_a_float_are_failures() -> None:
    scores = parse_scores(f'{{"fluency": {HUGE}, "overall": 3}}', DIMENSIONS)
    assert not scores.ok and "fluency" not in scores.scores and scores.error
    review = parse_review(f'{{"review": "r", "score": {HUGE}}}')
    assert not review.ok and review.score is None and review.error


def test_weighted_score_of_a_huge_token_and_of_rounding_stays_in_the_scale() -> None:
    assert weighted_score([("9" * 5000, 0.9), ("4", 0.1)])[0] == pytest.approx(4.0)
    score, _ = weighted_score([("5", 0.5), ("5", 0.001), (" 5", 0.3)])
    assert score == 5.0


BROKEN = ",}"  # a trailing comma: the object goes to json_repair


@pytest.mark.parametrize("slip", ["}", BROKEN])
def test_escaped_emoji_read_as_json_loads_reads_them(slip: str) -> None:
    """Repaired or not, a pair comes back as its character, a lone escape as U+FFFD."""
    review = parse_review('{"review": "Loved it \\ud83d\\ude00, \\ud83d", "score": 7' + slip)
    assert review.review == "Loved it \U0001f600, \ufffd"
    turn = parse_scores('{"overall": 4, "feedback": "\\ud83d\\ude00"' + slip, DIMENSIONS[2:])
    assert turn.fields["feedback"] == "\U0001f600"
    groups = parse_grouping('{"groups": [{"name": "\\ud83d\\ude00 fans", "members": ["a"]}]' + slip)
    assert groups is not None and groups[0].name == "\U0001f600 fans"
    groups[0].model_dump_json()
    stakeholders = parse_extraction('{"\\ud83d": {"characteristics": "c"}' + slip, "doc")
    assert stakeholders is not None and stakeholders[0].name == "\ufffd"
    stakeholders[0].model_dump_json()
    lone = parse_grouping('{"groups": [{"name": "\\udc00"}, {"name": "B"}]' + slip)
    assert lone is not None and [group.name for group in lone] == ["\ufffd", "B"]
    # found by the fuzzer in CI: a repaired object whose value ends in a lone escape
    bare = parse_grouping("{0:A\\uD800}")
    assert bare is not None and bare[0].perspectives == ["A\ufffd"]
    bare[0].model_dump_json()
    assert parse_review('{"review": "a \\\\ud83d", "score": 7}').review == "a \\ud83d"


@pytest.mark.parametrize("depth", [1100, 3000])  # beyond json.loads' recursion limit
@pytest.mark.parametrize("parser", [parse_grouping, parse_personas])
def test_persona_construction_of_deeply_nested_json_does_not_raise(parser: Any, depth: int) -> None:
    assert not parser('{"groups": ' * depth + "1" + "}" * depth)


@pytest.mark.parametrize("family", fuzz.FAMILIES, ids=lambda f: f.name)
def test_benchmark_generator_finds_no_exception(family: fuzz.Family[object]) -> None:
    results = fuzz.fuzz_family(family, 150, seed=1)
    for result in results:
        assert result.outputs == 150
        assert (result.exceptions, result.violations) == (0, 0), result.findings
        assert result.parsed > 0 and result.failures > 0  # both kinds are generated
