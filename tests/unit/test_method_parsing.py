"""Parsing of the answers the annotator-level methods ask for, and their answer formats.

Covers ``parse_label``/``match_label``/``parse_verdict``/``parse_characters``/
``character_key``/``extract_field`` on realistic (and messy) model outputs, the round
trip from every declared answer format's chance-level answer back through its parser,
and the answer helpers of the annotator-level solvers (``response_format``,
``parse_answer``, ``combine``).
"""

from __future__ import annotations

import json
import random
import string
import unicodedata
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspect_plural.answer_format import CharacterListFormat, DistributionFormat, LabelFormat
from inspect_plural.parsing import (
    CharacterParse,
    LabelParse,
    character_key,
    extract_field,
    match_label,
    parse_characters,
    parse_distribution,
    parse_label,
    parse_verdict,
)
from inspect_plural.prediction import ModelAnswer
from inspect_plural.prompts import example_choice, example_distribution
from inspect_plural.solvers._answers import (
    combine,
    parse_answer,
    response_format,
)

ORDINAL = ["0", "1", "2", "3", "4"]
OPINION = ["Strongly agree", "Somewhat agree", "Somewhat disagree", "Strongly disagree"]
VERDICT_LABELS = ["VALID", "INVALID"]


# --------------------------------------------------------------------------- parse_label


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # fenced JSON after reasoning
        (
            "The comment insults the group directly, but it is short.\n\n"
            '```json\n{"label": "3"}\n```',
            "3",
        ),
        # JSON number instead of a string, under another accepted key
        ('I would rate it {"rating": 4}.', "4"),
        # a wrapper object holding the label
        ('{"reasoning": "mild sarcasm", "result": {"label": "1"}}', "1"),
        # JSON with a trailing comma, prose afterwards
        ('```json\n{"prediction": "2",}\n```\nLet me know if you need more.', "2"),
        # markdown bold and a bracketed value
        ("Reasoning: the reply is dismissive.\n**Answer:** [3]", "3"),
        # score line with a parenthesised gloss
        ("Toxicity score: 2 (moderate)", "2"),
        # the value after an explanation dash
        ("Answer: 2 - moderately toxic, it mocks the author", "2"),
        # a final answer on the line after the bare "Answer:"
        ("Let me weigh it.\nFinal answer:\n\n4", "4"),
        # quoted, with a full stop
        ('answer: "0".', "0"),
        # a bare final line
        ("It is hard to tell, but the insult is explicit.\n\n**3**", "3"),
        # the last answer line wins
        ("Answer: 1\nOn reflection the slur is severe.\nAnswer: 3", "3"),
    ],
)
def test_parse_label_ordinal_outputs(text: str, expected: str) -> None:
    parsed = parse_label(text, ORDINAL)
    read_as = "json" if "{" in text else "text"
    assert parsed == LabelParse(ok=True, label=expected, error=None, read_as=read_as)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('```json\n{"answer": "Strongly  Agree."}\n```', "Strongly agree"),
        ('{"choice": "somewhat disagree"}', "Somewhat disagree"),
        ("Label = somewhat agree", "Somewhat agree"),
        ("Answer: Somewhat agree, since she values tradition above all.", "Somewhat agree"),
        ("> **Final Answer**: Strongly disagree", "Strongly disagree"),
        ("My final answer: STRONGLY AGREE", "Strongly agree"),
        ('The answer: "Strongly disagree".', "Strongly disagree"),
        ("Final answer:\nSomewhat agree", "Somewhat agree"),
        ("As a retired farmer from Iowa, I would say\n\nstrongly disagree", "Strongly disagree"),
        ("Answer: Somewhat-agree", "Somewhat agree"),
    ],
)
def test_parse_label_opinion_outputs(text: str, expected: str) -> None:
    parsed = parse_label(text, OPINION)
    assert parsed.ok, parsed.error
    assert parsed.label == expected
    assert parsed.error is None


def test_json_takes_precedence_over_a_later_answer_line() -> None:
    text = '```json\n{"label": "3"}\n```\nAnswer: 1'
    assert parse_label(text, ORDINAL).label == "3"


def test_last_json_object_with_a_label_decides() -> None:
    text = (
        'Draft: {"label": "1"}\n'
        'Revised:\n```json\n{"label": "4"}\n```\n'
        'Note: {"confidence": 0.8}'  # no label key: does not count
    )
    assert parse_label(text, ORDINAL) == LabelParse(ok=True, label="4", read_as="json")


def test_json_without_label_key_falls_back_to_answer_line() -> None:
    text = '```json\n{"reasoning": "the set {a, b} is rude"}\n```\nAnswer: 2'
    assert parse_label(text, ORDINAL) == LabelParse(ok=True, label="2", read_as="text")


def test_braces_in_reasoning_do_not_hide_the_answer_line() -> None:
    text = "Consider the set {insult, threat}.\nScore = 4"
    assert parse_label(text, ORDINAL) == LabelParse(ok=True, label="4", read_as="text")


@pytest.mark.parametrize(
    ("text", "labels", "error_part"),
    [
        ("Answer: 7", ORDINAL, "'7' is not one of"),
        ("Answer: 10", ORDINAL, "'10' is not one of"),
        ('```json\n{"label": "5"}\n```', ORDINAL, "'5' is not one of"),
        ('{"label": ["1", "2"]}', ORDINAL, "holds several labels"),
        ('{"label": null}', ORDINAL, "is not a single label"),
        ("Answer: N/A", ORDINAL, "'N/A' is not one of"),
        # a JSON label decides even when invalid, although a valid line follows
        ('{"label": "9"}\nAnswer: 2', ORDINAL, "'9' is not one of"),
        ("Answer: Agree", OPINION, "'Agree' is not one of"),
        # ambiguous: two labels start with "Somewhat"
        ("Answer: Somewhat", OPINION, "'Somewhat' is not one of"),
        ("Somewhat", OPINION, "no label found"),
        ("I really cannot decide on this one.", OPINION, "no label found"),
        ("", ORDINAL, "no label found"),
        ("My answer is clear: 2", ORDINAL, "no label found"),
    ],
)
def test_parse_label_failures(text: str, labels: list[str], error_part: str) -> None:
    parsed = parse_label(text, labels)
    assert parsed.ok is False
    assert parsed.label is None
    assert parsed.error is not None
    assert error_part in parsed.error


@pytest.mark.parametrize(
    "text",
    [
        "Answer: -1",
        '```json\n{"rating": -1}\n```',
        "Answer: 2.5",
        '{"rating": 3.5}',
    ],
)
def test_out_of_scale_numbers_are_not_mapped_to_a_label(text: str) -> None:
    parsed = parse_label(text, ORDINAL)
    assert parsed.ok is False
    assert parsed.label is None
    assert parsed.error is not None


# --------------------------------------------------------------------------- match_label


@pytest.mark.parametrize(
    ("value", "labels", "expected"),
    [
        ("2 - moderately toxic", ORDINAL, "2"),
        ("0 (not toxic at all)", ORDINAL, "0"),
        ("Somewhat agree, since she is cautious", OPINION, "Somewhat agree"),
        ("strongly DISAGREE!", OPINION, "Strongly disagree"),
        ("Somewhat", OPINION, None),
        ("Agree", OPINION, None),
        ("", OPINION, None),
        ("12", ORDINAL, None),
        # the longest label whose words open the value wins
        (
            "Strongly agree with the premise",
            ["Strongly", "Strongly agree", "Agree"],
            "Strongly agree",
        ),
        ("agree strongly", ["Agree", "Disagree"], "Agree"),
    ],
)
def test_match_label(value: str, labels: list[str], expected: str | None) -> None:
    assert match_label(value, labels) == expected


# --------------------------------------------------------------------------- parse_verdict


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("VALID", "VALID"),
        ("invalid", "INVALID"),
        ("Answer: INVALID", "INVALID"),
        ('```json\n{"label": "VALID"}\n```', "VALID"),
        ("This character is not valid for the persona.", "INVALID"),
        ("Answer: not valid", "INVALID"),
        ("At first it looks valid, but the movie is wrong, so it is invalid.", "INVALID"),
        ("Invalid at first glance... actually, on checking the cast list, valid.", "VALID"),
        ("Is it VALID? No, NOT VALID.", "INVALID"),
        ("The character is **Valid**.", "VALID"),
    ],
)
def test_parse_verdict(text: str, expected: str) -> None:
    parsed = parse_verdict(text)
    assert parsed.ok, parsed.error
    assert parsed.label == expected


@pytest.mark.parametrize("text", ["", "I need more information.", "validation pending"])
def test_parse_verdict_without_verdict(text: str) -> None:
    parsed = parse_verdict(text)
    assert parsed == LabelParse(
        ok=False, label=None, error="no VALID/INVALID verdict in the answer"
    )


# ------------------------------------------------------------------------ parse_characters


def _pairs(characters: list[CharacterParse]) -> list[tuple[str, str]]:
    return [(c.name, c.movie) for c in characters]


def test_numbered_multiline_blocks_with_bold_and_brackets() -> None:
    text = (
        "Here are three characters who share this annotator's outlook:\n\n"
        "1. Character Name: Mulan\n"
        "Movie Title: Mulan (1998)\n"
        "Reasoning: She defies tradition to protect her family.\n\n"
        "2. **Character Name:** [Elsa]\n"
        "**Movie Title:** [Frozen]\n"
        "**Reasoning:** Struggles with hiding who she is\n"
        "and with her duty as queen.\n\n"
        "3) Character: Simba\n"
        "   Film: The Lion King\n"
        "   Why: grows into responsibility"
    )
    assert parse_characters(text) == [
        CharacterParse("Mulan", "Mulan (1998)", "She defies tradition to protect her family."),
        CharacterParse(
            "Elsa", "Frozen", "Struggles with hiding who she is and with her duty as queen."
        ),
        CharacterParse("Simba", "The Lion King", "grows into responsibility"),
    ]


def test_single_line_blocks() -> None:
    text = (
        "1. Character Name: Mulan Movie Title: Mulan Reasoning: brave and dutiful.\n"
        "2. Character Name: Elsa Movie Title: Frozen Reasoning: isolated.\n"
        "3. Character Name: Woody Movie Title: Toy Story"
    )
    assert parse_characters(text) == [
        CharacterParse("Mulan", "Mulan", "brave and dutiful."),
        CharacterParse("Elsa", "Frozen", "isolated."),
        CharacterParse("Woody", "Toy Story", ""),
    ]


def test_markdown_headed_blocks() -> None:
    text = (
        "### 1. **Character Name**: Moana\n**Movie Title**: Moana\n**Reasoning**: explorer\n\n"
        "### 2. **Character Name**: Merida\n**Movie Title**: Brave\n**Reasoning**: independent"
    )
    assert _pairs(parse_characters(text)) == [("Moana", "Moana"), ("Merida", "Brave")]


def test_json_list_with_every_key_spelling() -> None:
    text = (
        "Sure!\n```json\n[\n"
        '  {"name": "Mulan", "movie": "Mulan", "reasoning": "brave"},\n'
        '  {"character_name": "Elsa", "movie_title": "Frozen", "rationale": "cold"},\n'
        '  {"character": "Woody", "film": "Toy Story", "reason": "loyal"},\n'
        '  {"Character Name": "Nemo", "title": "Finding Nemo"},\n'
        '  {"name": "Nobody"},\n'
        "]\n```"
    )
    assert parse_characters(text) == [
        CharacterParse("Mulan", "Mulan", "brave"),
        CharacterParse("Elsa", "Frozen", "cold"),
        CharacterParse("Woody", "Toy Story", "loyal"),
        CharacterParse("Nemo", "Finding Nemo", ""),
    ]


def test_json_object_wrapping_a_list() -> None:
    text = (
        '{"characters": [{"name": "Mulan", "movie": "Mulan"}, {"name": "Elsa", "movie": "Frozen"}]}'
    )
    assert _pairs(parse_characters(text)) == [("Mulan", "Mulan"), ("Elsa", "Frozen")]


def test_bullets() -> None:
    text = (
        "- Mulan (Mulan, 1998): brave and dutiful\n"
        "- **Elsa** (Frozen): isolation\n"
        "* Woody (Toy Story) - loyal to his friends\n"
        "2. Carl Fredricksen (Up) — grief and adventure"
    )
    assert parse_characters(text) == [
        CharacterParse("Mulan", "Mulan, 1998", "brave and dutiful"),
        CharacterParse("Elsa", "Frozen", "isolation"),
        CharacterParse("Woody", "Toy Story", "loyal to his friends"),
        CharacterParse("Carl Fredricksen", "Up", "grief and adventure"),
    ]


def test_duplicates_dropped_keeping_first_and_order() -> None:
    text = (
        "Character Name: Mulan\nMovie Title: Mulan (1998)\nReasoning: first\n"
        "Character Name: Elsa\nMovie Title: Frozen\nReasoning: second\n"
        "Character Name: MULAN!\nMovie Title: mulan\nReasoning: repeat\n"
        "Character Name: Mulan\nMovie Title: Mulan 2\nReasoning: a different movie\n"
        "Character Name: elsa\nMovie Title: Frozen (2013)\nReasoning: repeat with year"
    )
    assert parse_characters(text) == [
        CharacterParse("Mulan", "Mulan (1998)", "first"),
        CharacterParse("Elsa", "Frozen", "second"),
        CharacterParse("Mulan", "Mulan 2", "a different movie"),
    ]


def test_bullet_duplicates_with_and_without_year() -> None:
    text = "- Elsa (Frozen, 2013): a\n- elsa (FROZEN): b\n- Anna (Frozen): c"
    assert _pairs(parse_characters(text)) == [("Elsa", "Frozen, 2013"), ("Anna", "Frozen")]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "I'm sorry, I cannot list any characters for this annotator.",
        "Character Name: Mulan\nReasoning: the movie title is missing",
        "Movie Title: Frozen\nReasoning: the name is missing",
        "```json\n[]\n```",
        '```json\n[{"name": "Mulan"}, {"movie": "Frozen"}]\n```',
        "- Mulan: no movie given",
    ],
)
def test_no_characters(text: str) -> None:
    assert parse_characters(text) == []


def test_numbers_in_titles_are_not_years() -> None:
    text = (
        "1. Character Name: Rick Deckard\nMovie Title: Blade Runner\nReasoning: a\n"
        "2. Character Name: Rick Deckard\nMovie Title: Blade Runner 2049\nReasoning: b"
    )
    assert _pairs(parse_characters(text)) == [
        ("Rick Deckard", "Blade Runner"),
        ("Rick Deckard", "Blade Runner 2049"),
    ]


def test_italic_movie_title_is_cleaned() -> None:
    text = "**Character Name**: Mulan\n**Movie Title**: *Mulan* (1998)\n**Reasoning**: brave"
    assert parse_characters(text)[0].movie == "Mulan (1998)"


# ---------------------------------------------------------------------------- character_key


def test_character_key() -> None:
    assert character_key("Mulan", "Mulan (1998)") == "mulan|mulan"
    assert character_key("MULAN!", "mulan") == character_key("Mulan", "Mulan (1998)")
    assert character_key("Elsa", "Frozen, 2013") == character_key("elsa", "FROZEN")
    assert character_key("Hermione Granger", "Harry Potter") == "hermionegranger|harrypotter"
    assert character_key("Mulan", "Mulan 2") != character_key("Mulan", "Mulan")
    assert character_key("Anna", "Frozen") != character_key("Elsa", "Frozen")


# ---------------------------------------------------------------------------- extract_field


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            "Reasoning: she is brave\nand loyal.\nCharacter's aspect: Courage under\npressure\n"
            "Answer: 3",
            "Character's aspect",
            "Courage under pressure",
        ),
        (
            "Reasoning: she is brave\nand loyal.\nCharacter's aspect: courage\nAnswer: 3",
            "Reasoning",
            "she is brave and loyal.",
        ),
        ("Reasoning: first\nReasoning: second one\ncontinued", "Reasoning", "second one continued"),
        ("**Character's aspect:** her loyalty\nAnswer: 2", "Character's aspect", "her loyalty"),
        (
            "character’s aspect: curly apostrophe\nAnswer: 2",
            "Character's aspect",
            "curly apostrophe",
        ),
        ("CHARACTER'S ASPECT：full-width colon", "Character's aspect", "full-width colon"),
        ("No fields here at all.", "Reasoning", None),
        ("Reasoning:\nAnswer: 2", "Reasoning", None),
        ("", "Reasoning", None),
    ],
)
def test_extract_field(text: str, name: str, expected: str | None) -> None:
    assert extract_field(text, name) == expected


# --------------------------------------------------------------------------- response_format


def test_response_format_label_json() -> None:
    text, fmt = response_format("label", ORDINAL)
    assert isinstance(fmt, LabelFormat)
    assert fmt.style == "json"
    assert fmt.labels == ORDINAL
    assert fmt.fields == []
    assert text.startswith("First think briefly")
    # the literal allowed values, and a filled example (a label drawn for the key), no
    # placeholder
    assert 'spelled as listed: "0", "1", "2", "3", "4"' in text
    label = example_choice(ORDINAL, "")
    assert text.endswith(
        "For example (the label only illustrates the format), an answer could end with:"
        f'\n\n```json\n{{"label": "{label}"}}\n```'
    )
    assert fmt.example == f'{{"label": "{label}"}}' and not fmt.copy_is_no_answer()
    assert "<" not in text


def test_the_example_label_is_drawn_per_sample_and_favours_none() -> None:
    drawn = Counter(
        json.loads(str(response_format("label", OPINION, example_key=str(i))[1].example))["label"]
        for i in range(2000)
    )
    assert set(drawn) == set(OPINION)
    assert max(drawn.values()) / min(drawn.values()) < 1.3


def test_response_format_label_json_without_reasoning() -> None:
    text, fmt = response_format("label", OPINION, reasoning=False, example_key="k")
    assert isinstance(fmt, LabelFormat)
    assert fmt.style == "json"
    assert text.startswith("Give no analysis.")
    assert f'{{"label": "{example_choice(OPINION, "k")}"}}' in text


def test_response_format_label_lines_with_fields() -> None:
    fields = [
        ("Reasoning", "why", "It fits"),
        ("Character's aspect", "which side of the character"),
    ]
    text, fmt = response_format("label", OPINION, reasoning=False, fields=fields)
    assert isinstance(fmt, LabelFormat)
    assert fmt.style == "lines"
    assert fmt.fields == ["Reasoning", "Character's aspect"]
    assert fmt.labels == OPINION
    assert "- Reasoning: why\n- Character's aspect: which side of the character\n" in text
    assert 'spelled as listed: "Strongly agree", "Somewhat agree"' in text
    label = example_choice(OPINION, "")
    assert text.endswith(
        f"Reasoning: It fits.\nCharacter's aspect: Which side of the character.\nAnswer: {label}"
    )
    assert "[" not in text and "<" not in text
    example = text.split("illustrate the format):\n\n")[1]
    assert fmt.example == example and fmt.copy_is_no_answer()
    parsed = parse_answer(example, OPINION, "label", aspect_field="Character's aspect")
    assert parsed.label == label and parsed.aspect == "Which side of the character."


@pytest.mark.parametrize("fields", [(), (("Reasoning", "why"),)])
@pytest.mark.parametrize("reasoning", [True, False])
def test_response_format_distribution(fields: tuple[tuple[str, str], ...], reasoning: bool) -> None:
    text, fmt = response_format("distribution", ORDINAL, reasoning=reasoning, fields=fields)
    assert isinstance(fmt, DistributionFormat)
    assert fmt.options == ORDINAL
    example = json.dumps(example_distribution(ORDINAL, ""))
    assert fmt.example == example
    assert text.endswith(f"```json\n{example}\n```")
    assert ("Reasoning: Why." in text) == bool(fields)
    assert "<" not in text and "..." not in text
    parsed = parse_answer(text, ORDINAL, "distribution")  # the example parses
    assert parsed.parse_ok and parsed.read_as == "json" and not parsed.renormalised


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 11, 40, 41])
def test_example_distribution_sums_to_one_with_no_round_share_and_favours_none(n: int) -> None:
    names = [f"label {i}" for i in range(n)]
    tops: Counter[str] = Counter()
    for key in range(300):
        example = example_distribution(names, str(key))
        assert list(example) == names
        assert sum(example.values()) == pytest.approx(1.0)
        assert all(v > 0 for v in example.values())
        if n <= 10:  # an honest answer's round shares never equal the example's
            assert all(round(v * 100) % 5 for v in example.values())
        tops[max(example, key=example.__getitem__)] += 1
    if n <= 4:
        assert min(tops[name] for name in names) > 300 / n / 2


# ------------------------------------------------------------------------------ parse_answer


def test_parse_answer_lines_with_persona_and_aspect() -> None:
    text = (
        "Reasoning: Mulan values honour, so a slur against family would offend her.\n"
        "Character's aspect: her loyalty to family\n"
        "Answer: 3"
    )
    answer = parse_answer(
        text, ORDINAL, "label", persona="Mulan", aspect_field="Character's aspect"
    )
    assert answer == ModelAnswer(
        raw=text,
        parse_ok=True,
        error=None,
        label="3",
        persona="Mulan",
        aspect="her loyalty to family",
        read_as="text",
    )


def test_parse_answer_label_failure_is_recorded() -> None:
    answer = parse_answer("Answer: 9", ORDINAL, "label", persona="Elsa")
    assert answer.parse_ok is False
    assert answer.label is None
    assert answer.persona == "Elsa"
    assert answer.aspect is None
    assert answer.error is not None and "'9' is not one of" in answer.error


def test_parse_answer_distribution_top_label_and_ties() -> None:
    text = (
        "Reasoning: torn between the middle options.\n"
        '```json\n{"Strongly agree": 0.1, "Somewhat agree": 0.4, '
        '"Somewhat disagree": 0.4, "Strongly disagree": 0.1}\n```'
    )
    answer = parse_answer(text, OPINION, "distribution")
    assert answer.parse_ok
    assert answer.label == "Somewhat agree"  # tie: the first in scale order
    assert answer.distribution == pytest.approx(
        {
            "Strongly agree": 0.1,
            "Somewhat agree": 0.4,
            "Somewhat disagree": 0.4,
            "Strongly disagree": 0.1,
        }
    )
    assert answer.renormalised is False


def test_parse_answer_distribution_renormalised_and_failure() -> None:
    answer = parse_answer('{"0": 0.2, "1": 0.5, "2": 0.4}', ["0", "1", "2"], "distribution")
    assert answer.parse_ok and answer.renormalised
    assert answer.label == "1"
    assert answer.distribution is not None
    assert sum(answer.distribution.values()) == pytest.approx(1.0)

    failed = parse_answer("I refuse.", ["0", "1", "2"], "distribution")
    assert failed.parse_ok is False
    assert failed.label is None and failed.distribution is None
    assert failed.error == "no JSON object found in the answer"

    # weights that are not probabilities (issue 24): a failure, not a renormalisation
    weights = parse_answer('{"0": 20, "1": 50, "2": 40}', ["0", "1", "2"], "distribution")
    assert not weights.parse_ok and weights.distribution is None
    assert weights.error == "20 for '0' is not a probability (above 1)"


# ----------------------------------------------------------------------------------- combine


def _ans(label: str | None, ok: bool = True, dist: dict[str, float] | None = None) -> ModelAnswer:
    return ModelAnswer(raw="", parse_ok=ok, label=label, distribution=dist)


def test_combine_majority() -> None:
    answers = [_ans("1"), _ans("3"), _ans("3")]
    assert combine(answers, ORDINAL) == ("3", None)


def test_combine_three_different_answers_first_wins() -> None:
    answers = [_ans("Somewhat disagree"), _ans("Strongly agree"), _ans("Somewhat agree")]
    assert combine(answers, OPINION) == ("Somewhat disagree", None)


def test_combine_tie_goes_to_earliest_answer_among_tied() -> None:
    # "0" is listed first but loses; "4" and "2" tie and "4" was answered earlier
    answers = [_ans("0"), _ans("4"), _ans("2"), _ans("2"), _ans("4")]
    assert combine(answers, ORDINAL) == ("4", None)


def test_combine_unparsed_answers_do_not_vote() -> None:
    answers = [_ans(None, ok=False), _ans("2", ok=False), _ans("1"), _ans("9")]
    assert combine(answers, ORDINAL) == ("1", None)


def test_combine_all_unparsed() -> None:
    answers = [_ans(None, ok=False), _ans(None, ok=False)]
    assert combine(answers, ORDINAL) == (None, None)
    assert combine([], ORDINAL) == (None, None)


def test_combine_mean_distribution() -> None:
    labels = ["0", "1", "2"]
    answers = [
        _ans("0", dist={"0": 0.6, "1": 0.4, "2": 0.0}),
        _ans("2", dist={"0": 0.0, "1": 0.2, "2": 0.8}),
        _ans(None, ok=False, dist={"0": 1.0, "1": 0.0, "2": 0.0}),  # unparsed: ignored
        _ans("1"),  # no distribution: votes, but is not averaged
    ]
    label, mean = combine(answers, labels)
    assert label == "0"
    assert mean == pytest.approx({"0": 0.3, "1": 0.3, "2": 0.4})


# ------------------------------------------------------------------------- property tests

FRAGMENTS = [
    "Answer:",
    "Final answer:",
    "**Answer:**",
    "Label =",
    "Toxicity score:",
    "{",
    "}",
    "[",
    "]",
    '"',
    ":",
    ",",
    "```json",
    "```",
    "\n",
    " ",
    "Character Name:",
    "Movie Title:",
    "Reasoning:",
    "Character's aspect:",
    "1.",
    "- ",
    "(",
    ")",
    '{"label": ',
    '"name": ',
    '"movie": ',
    "valid",
    "not",
    "INVALID",
    "2013",
    "-1",
    "2.5",
    *ORDINAL,
    *OPINION,
]

fragment_text = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=8)), max_size=40
).map("".join)
any_text = st.one_of(st.text(max_size=400), fragment_text)
label_sets = st.sampled_from([ORDINAL, OPINION, VERDICT_LABELS, ["1", "2", "3", "4", "5"]])


def _check_label_parse(parsed: LabelParse, labels: list[str]) -> None:
    assert isinstance(parsed, LabelParse)
    if parsed.ok:
        assert parsed.label in labels
        assert parsed.error is None
    else:
        assert parsed.label is None
        assert isinstance(parsed.error, str) and parsed.error


@settings(max_examples=200, deadline=None)
@given(text=any_text, labels=label_sets)
def test_label_parsers_never_raise(text: str, labels: list[str]) -> None:
    _check_label_parse(parse_label(text, labels), labels)
    _check_label_parse(parse_verdict(text), VERDICT_LABELS)
    found = match_label(text, labels)
    assert found is None or found in labels
    answer = parse_answer(text, labels, "label", aspect_field="Character's aspect")
    assert answer.parse_ok == parse_label(text, labels).ok


@settings(max_examples=200, deadline=None)
@given(text=any_text)
def test_character_and_field_parsers_never_raise(text: str) -> None:
    characters = parse_characters(text)
    keys = [character_key(c.name, c.movie) for c in characters]
    assert len(keys) == len(set(keys))
    assert all(c.name and c.movie for c in characters)
    for name in ("Reasoning", "Character's aspect", "Answer"):
        value = extract_field(text, name)
        assert value is None or (isinstance(value, str) and value == value.strip())


@settings(max_examples=200, deadline=None)
@given(text=any_text, labels=label_sets)
def test_distribution_parser_never_raises(text: str, labels: list[str]) -> None:
    parsed = parse_distribution(text, labels)
    assert parsed.ok == (parsed.distribution is not None)
    if parsed.distribution is not None:
        assert list(parsed.distribution) == labels
        assert sum(parsed.distribution.values()) == pytest.approx(1.0)
    answer = parse_answer(text, labels, "distribution")
    assert answer.parse_ok == parsed.ok
    assert (answer.label in labels) == parsed.ok


def _norm(label: str) -> str:
    return "".join(unicodedata.normalize("NFKC", label).casefold().split())


_word = st.text(alphabet=string.ascii_letters + string.digits + "éøÄß波特", min_size=1, max_size=8)
_label = st.lists(_word, min_size=1, max_size=3).map(" ".join)
random_labels = st.one_of(
    label_sets,
    st.lists(_label, min_size=2, max_size=7, unique_by=_norm),
)
seeds = st.integers(min_value=0, max_value=2**32 - 1)
field_names = st.lists(
    st.sampled_from(["Reasoning", "Character's aspect", "Persona", "Analysis"]),
    max_size=3,
    unique=True,
)


@settings(max_examples=200, deadline=None)
@given(
    labels=random_labels,
    style=st.sampled_from(["json", "lines", "bare"]),
    fields=field_names,
    seed=seeds,
)
def test_label_format_round_trip(
    labels: list[str], style: str, fields: list[str], seed: int
) -> None:
    fmt = LabelFormat(labels=labels, style=style, fields=fields)  # type: ignore[arg-type]
    answer = fmt.random_answer(random.Random(seed))
    expected = random.Random(seed).choice(labels)
    parsed = parse_label(answer, labels)
    read_as = "json" if style == "json" else "text"
    assert parsed == LabelParse(ok=True, label=expected, read_as=read_as), answer


@settings(max_examples=200, deadline=None)
@given(style=st.sampled_from(["json", "lines", "bare"]), seed=seeds)
def test_verdict_format_round_trip(style: str, seed: int) -> None:
    fmt = LabelFormat(labels=VERDICT_LABELS, style=style)  # type: ignore[arg-type]
    answer = fmt.random_answer(random.Random(seed))
    parsed = parse_verdict(answer)
    assert parsed.ok
    assert parsed.label == random.Random(seed).choice(VERDICT_LABELS)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(min_value=1, max_value=25), seed=seeds)
def test_character_list_format_round_trip(count: int, seed: int) -> None:
    answer = CharacterListFormat(count=count).random_answer(random.Random(seed))
    characters = parse_characters(answer)
    assert len(characters) == count
    assert len({character_key(c.name, c.movie) for c in characters}) == count
    assert all(c.name.startswith("Demo Character ") for c in characters)
    assert all(c.movie.startswith("Demo Movie ") for c in characters)
    assert all(c.rationale for c in characters)


@settings(max_examples=200, deadline=None)
@given(labels=random_labels, seed=seeds)
def test_distribution_format_round_trip(labels: list[str], seed: int) -> None:
    answer = DistributionFormat(options=labels).random_answer(random.Random(seed))
    parsed = parse_distribution(answer, labels)
    assert parsed.ok, (parsed.error, answer)
    assert parsed.distribution is not None
    assert list(parsed.distribution) == labels
    assert sum(parsed.distribution.values()) == pytest.approx(1.0)
    assert parsed.missing == []


@pytest.mark.parametrize(
    ("options", "seed"),
    [(ORDINAL, 675100), ([f"Candidate {i}" for i in range(20)], 160219)],
)
def test_distribution_format_round_trip_known_negative_seed(options: list[str], seed: int) -> None:
    # these seeds once gave a last probability of -1e-06 (rounding each value, then 1 - rest)
    answer = DistributionFormat(options=options).random_answer(random.Random(seed))
    assert '": -' not in answer
    parsed = parse_distribution(answer, options)
    assert parsed.ok, parsed.error
    assert parsed.distribution is not None and not parsed.renormalised
    assert sum(parsed.distribution.values()) == pytest.approx(1.0, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(
    labels=random_labels,
    mode=st.sampled_from(["label", "distribution"]),
    with_fields=st.booleans(),
    reasoning=st.booleans(),
    seed=seeds,
)
def test_response_format_round_trip_through_parse_answer(
    labels: list[str], mode: str, with_fields: bool, reasoning: bool, seed: int
) -> None:
    fields = [("Reasoning", "why"), ("Character's aspect", "aspect")] if with_fields else []
    _, fmt = response_format(mode, labels, reasoning, fields)  # type: ignore[arg-type]
    text = fmt.random_answer(random.Random(seed))
    answer = parse_answer(text, labels, mode, persona="Mulan", aspect_field="Character's aspect")  # type: ignore[arg-type]
    assert answer.parse_ok, (answer.error, text)
    assert answer.label in labels
    assert answer.persona == "Mulan"
    if mode == "label" and with_fields:
        assert answer.aspect == "chance-level answer (plural/random)"
    else:
        assert answer.aspect is None


@settings(max_examples=200, deadline=None)
@given(
    votes=st.lists(
        st.one_of(st.none(), st.sampled_from(ORDINAL)),
        max_size=9,
    )
)
def test_combine_matches_reference_vote(votes: list[str | None]) -> None:
    answers = [_ans(v, ok=v is not None) for v in votes]
    label, mean = combine(answers, ORDINAL)
    assert mean is None
    cast = [v for v in votes if v is not None]
    if not cast:
        assert label is None
        return
    best = max(cast.count(v) for v in cast)
    expected = next(v for v in cast if cast.count(v) == best)
    assert label == expected


def test_several_characters_on_one_line() -> None:
    text = (
        "Character Name: Mulan Movie Title: Mulan Reasoning: brave. "
        "2. Character Name: Helen Parr Movie Title: The Incredibles Reasoning: a parent"
    )
    parsed = parse_characters(text)
    assert _pairs(parsed) == [("Mulan", "Mulan"), ("Helen Parr", "The Incredibles")]
    assert [c.rationale for c in parsed] == ["brave.", "a parent"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reasoning: r. Character's aspect: a. Answer: 3", "3"),
        ("Answer - 2", "2"),
        ("After thinking it over, my answer is: 4.", "4"),
    ],
)
def test_answers_written_on_one_line_or_with_a_dash(text: str, expected: str) -> None:
    assert parse_label(text, ORDINAL).label == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("VALID - Atticus Finch is the lead, not an invalid pick.", "VALID"),
        ("INVALID. There is a valid character of that name in another film.", "INVALID"),
    ],
)
def test_a_leading_verdict_wins_over_words_in_its_explanation(text: str, expected: str) -> None:
    assert parse_verdict(text).label == expected
