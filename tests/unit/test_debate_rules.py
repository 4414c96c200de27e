"""MAJ-Eval's moderation fallback, disagreement summary and call budget (no model)."""

from __future__ import annotations

import pytest

from inspect_plural.solvers.debate._rules import (
    debate_call_budget,
    disagreement_summary,
    fallback_speaker,
    most_disagreeing,
    parse_moderator_pick,
)

LATEST = {
    "Ana": {"overall": 2.0, "fluency": 4.0},
    "Ben": {"overall": 4.0, "fluency": 4.0},
    "Cy": {"overall": 5.0, "fluency": 4.0},
}


def test_most_disagreeing_is_farthest_from_mean() -> None:
    # mean 11/3 = 3.67: Ana 1.67, Ben 0.33, Cy 1.33
    assert most_disagreeing(["Ana", "Ben", "Cy"], LATEST, heard=set()) == "Ana"
    assert most_disagreeing(["Ben", "Cy"], LATEST, heard=set()) == "Cy"


def test_ties_go_to_unheard_then_listed_order() -> None:
    latest = {"A": {"overall": 1.0}, "B": {"overall": 5.0}, "C": {"overall": 3.0}}
    assert most_disagreeing(["A", "B"], latest, heard={"A"}) == "B"
    assert most_disagreeing(["A", "B"], latest, heard=set()) == "A"
    assert most_disagreeing(["B", "A"], latest, heard=set()) == "B"


def test_fallback_uses_first_dimension_without_overall() -> None:
    latest = {"A": {"fluency": 3.0}, "B": {"fluency": 1.0}, "C": {"fluency": 3.0}}
    assert fallback_speaker(["A", "B"], latest, set(), ["fluency"]) == "B"


def test_disagreement_summary_orders_by_spread() -> None:
    text = disagreement_summary(LATEST, ["fluency", "overall"])
    lines = text.splitlines()
    assert lines[0].startswith("- overall: spread 3")
    assert "Cy 5" in lines[0] and "Ana 2" in lines[0]
    assert lines[1] == "- fluency: everyone gives 4"


def test_call_budget() -> None:
    # everyone stops in round 1: 3 + (3 + 2) + 1 = 9 = 3n
    assert debate_call_budget(3, [3]) == 9
    # nobody stops over 3 rounds: n + R(2n-1) + 1 = 3 + 15 + 1
    assert debate_call_budget(3, [3, 3, 3]) == 19
    # a mix: 3 active, then 1 active
    assert debate_call_budget(3, [3, 1]) == 3 + 5 + 1 + 1
    # a group of one has no debate
    assert debate_call_budget(1, []) == 2


NAMES = ["Dr. Ana Ruiz", "Ben Okafor", "Ben Okonkwo"]


@pytest.mark.parametrize(
    ("raw", "speaker", "reason"),
    [
        # the JSON object the prompt asks for, fenced or not, names matched loosely
        (
            '```json\n{"next_speaker": "Dr. Ana Ruiz", "reason": "widest gap"}\n```',
            NAMES[0],
            "widest gap",
        ),
        ('Sure. {"next_speaker": "dr ana ruiz", "reason": "r"}', NAMES[0], "r"),
        ('{"next_speaker": "Ben Okafor"}', NAMES[1], ""),
        # field lines when there is no JSON
        (
            "**Next speaker:** Ben Okonkwo\nReason: has not spoken yet",
            NAMES[2],
            "has not spoken yet",
        ),
        ("next_speaker: Dr. Ana Ruiz", NAMES[0], ""),
        # no candidate named: the debate's rule picks instead
        ('{"next_speaker": "Ben", "reason": "ambiguous"}', None, "ambiguous"),
        ('{"next_speaker": "Someone Else", "reason": "x"}', None, "x"),
        ("I think the group should hear from the clinician.", None, ""),
        ("", None, ""),
    ],
)
def test_moderator_pick(raw: str, speaker: str | None, reason: str) -> None:
    assert parse_moderator_pick(raw, NAMES) == (speaker, reason)
