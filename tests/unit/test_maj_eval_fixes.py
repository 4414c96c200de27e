"""Three MAJ-Eval fixes, on the scripted debate of ``test_maj_eval``.

- issue 24 item 3: a final evaluation kept from a persona's last parsed scores is a
  failure (``parse_ok`` False, the missing dimensions named) while any dimension is
  missing;
- issue 20: spans are named for what they are (the group, the phase, the persona, the
  moderator, the aggregator), not ``task-1`` ...;
- issue 24 item 1: the moderator's response format names the candidates literally and
  shows a filled example, never a ``<placeholder>``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# the module as pytest imports it (tests/unit is on sys.path): the scripted model API is
# registered by, and reads its script from, that module object
import test_maj_eval as scripted  # type: ignore[import-not-found]
from inspect_ai.log import EvalSample

from inspect_plural.parsing import extract_json_object
from inspect_plural.solvers.debate._group import moderator_instruction


@pytest.fixture(autouse=True)
def _fresh_script() -> Iterator[None]:
    scripted.SCRIPT = scripted.Script()
    yield


def _babbling(name: str) -> Callable[[str, int], str]:
    def debate(persona: str, turn: int) -> str:
        if persona == name:
            return "I have thoughts but no numbers."
        return scripted._never_done(persona, turn)

    return debate


def test_a_final_evaluation_missing_a_dimension_is_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ben's first answer scores overall only; his debate turns hold no scores at all
    monkeypatch.setitem(scripted.INITIAL, "Ben", {"overall": 3})
    scripted.SCRIPT.debate = _babbling("Ben")
    log = scripted._run(tmp_path, max_rounds=1)
    assert log.samples is not None
    alpha = scripted._debate(log.samples[0])["Alpha"]
    final = {e.persona: e for e in alpha.final}
    assert final["Ben"].source == "initial" and final["Ben"].scores == {"overall": 3.0}
    assert final["Ben"].parse_ok is False
    assert final["Ben"].error == "no score for fluency, pio"
    # complete last scores stay a success
    assert final["Cy"].source == "last_turn" and final["Cy"].parse_ok
    assert final["Cy"].error is None


def _span_tree(sample: EvalSample) -> tuple[dict[str, str], dict[str, str | None]]:
    names: dict[str, str] = {}
    parents: dict[str, str | None] = {}
    for event in sample.events:
        if event.event == "span_begin":
            names[event.id] = event.name
            parents[event.id] = event.parent_id
    return names, parents


def _path(span_id: str | None, names: dict[str, str], parents: dict[str, str | None]) -> str:
    parts = []
    while span_id is not None and span_id in names:
        parts.append(names[span_id])
        span_id = parents[span_id]
    return " > ".join(reversed(parts))


def test_spans_are_named_for_the_group_phase_persona_moderator_and_aggregator(
    tmp_path: Path,
) -> None:
    scripted.SCRIPT.debate = scripted._never_done
    log = scripted._run(tmp_path, max_rounds=1, closing_call=True)
    assert log.samples is not None
    sample = log.samples[0]
    names, parents = _span_tree(sample)
    assert not [n for n in names.values() if re.fullmatch(r"task-\d+", n)]
    paths = [
        _path(e.span_id, names, parents).split("inspect_plural/maj_eval > ", 1)[1]
        for e in sample.events
        if e.event == "model"
    ]
    alpha = "stakeholder group Alpha"
    expected = {
        *(f"{alpha} > independent scoring > {p}" for p in ("Ana", "Ben", "Cy")),
        *(f"{alpha} > debate round 1 > {p}" for p in ("Ana", "Ben", "Cy")),
        f"{alpha} > debate round 1 > moderator",
        *(f"{alpha} > closing > {p}" for p in ("Ana", "Ben", "Cy")),
        f"{alpha} > aggregator",
        "stakeholder group Solo > independent scoring > Dee",
        "stakeholder group Solo > aggregator",
    }
    assert set(paths) == expected
    assert paths.count(f"{alpha} > debate round 1 > moderator") == 2


def test_the_moderator_is_shown_the_literal_names_and_a_filled_example(tmp_path: Path) -> None:
    scripted.SCRIPT.debate = scripted._never_done
    scripted._run(tmp_path, max_rounds=1)
    prompts = [c.prompt for c in scripted.SCRIPT.calls if c.kind == "moderator"]
    assert prompts
    for prompt in prompts:
        candidates = scripted._candidates(prompt)
        decision = prompt.split("# Your Decision", 1)[1]
        assert not re.search(r"<[^<>\n]+>", decision), decision
        for name in candidates:
            assert json.dumps(name) in decision
        example = extract_json_object(decision)
        assert example is not None and example["next_speaker"] in candidates
        assert example["reason"]


def test_moderator_instruction_quotes_awkward_names() -> None:
    text = moderator_instruction(['Dr. "Ada" Ng', "Bo"])
    assert '"Dr. \\"Ada\\" Ng", "Bo"' in text
    assert extract_json_object(text) == {
        "next_speaker": 'Dr. "Ada" Ng',
        "reason": "Their scores are the furthest from the rest of the group.",
    }
