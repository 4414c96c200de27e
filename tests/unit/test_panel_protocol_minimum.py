"""The protocol minimum of MAJ-Eval's debate and the ``panel`` scorer, on worked examples.

Split from ``test_protocol_minimum.py`` (the other methods): the group minimum (phase 1,
each round's turns and moderator picks, the aggregation), checked against the package's
own budget on a grid, persona creation once per run, and the scorer's record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from benchmarks.protocol import (
    attributed_minimum,
    group_minimum,
    run_minimum,
    sample_minimum,
    shared_minimum,
)
from inspect_ai.log import EvalSample
from inspect_ai.scorer import Score

from inspect_plural.solvers.debate._rules import debate_call_budget


def _sample(
    store: dict[str, Any] | None = None, metadata: dict[str, Any] | None = None, **kw: Any
) -> EvalSample:
    return EvalSample(
        id=kw.pop("id", 1),
        epoch=kw.pop("epoch", 1),
        input="demo",
        target="",
        metadata=metadata or {},
        store=store or {},
    )


# --- MAJ-Eval -------------------------------------------------------------------------


def _group(members: int, done: dict[int, int] | None = None) -> dict[str, Any]:
    """A stakeholder group; ``done`` maps a round to how many said they were done."""
    turns = [
        {"round": number, "speaker": f"p{i}", "done": True}
        for number, count in (done or {}).items()
        for i in range(count)
    ]
    return {"name": "g", "personas": [{"name": f"p{i}"} for i in range(members)], "turns": turns}


def test_group_minimum_worked_examples() -> None:
    # a group of one: its evaluation and the aggregation, no debate
    assert group_minimum(_group(1), max_rounds=3, closing_call=False) == 2
    # three members, nobody done: 3 + 3 rounds x (3 turns + 2 picks) + 1
    assert group_minimum(_group(3), max_rounds=3, closing_call=False) == 19
    # one done in round 1, the other two in round 2: 3 + (3 + 2) + (2 + 1) + 1
    assert group_minimum(_group(3, {1: 1, 2: 2}), max_rounds=3, closing_call=False) == 12
    # closing calls for those still active after the last round
    assert group_minimum(_group(3, {1: 1}), max_rounds=2, closing_call=True) == (
        3 + (3 + 2) + (2 + 1) + 1 + 2
    )
    # everyone done: no closing call is owed
    assert group_minimum(_group(2, {1: 2}), max_rounds=2, closing_call=True) == 2 + 3 + 1


@pytest.mark.parametrize("members", [1, 2, 3, 5])
@pytest.mark.parametrize("max_rounds", [1, 2, 3])
def test_group_minimum_equals_the_packages_budget(members: int, max_rounds: int) -> None:
    """Two independent countings of the same protocol agree (closing calls aside)."""
    for done_first in range(members + 1):
        # round 1 starts with everyone; later rounds with those not yet done
        active = [members] + [members - done_first] * (max_rounds - 1)
        active = [a for a in active if a > 0][: 1 if done_first == members else max_rounds]
        expected = debate_call_budget(members, active)
        group = _group(members, {1: done_first})
        assert group_minimum(group, max_rounds, closing_call=False) == expected


def test_maj_eval_sums_its_groups_and_counts_creation_once(tmp_path: Path) -> None:
    groups = [_group(3, {1: 3}), _group(1)]  # 3 + 5 + 1 = 9, and 2
    samples = [
        _sample(
            {"PanelDebate:groups": groups, "StakeholderPanel:groups": ["g1", "g2"], **extra},
            id=i,
        )
        for i, extra in enumerate([{"StakeholderPanel:creation_calls": 4}, {}])
    ]
    assert sample_minimum("maj_eval", samples[0], {"max_rounds": 3}) == 11
    assert run_minimum("maj_eval", samples, {}) == 22
    document = tmp_path / "stakeholders.md"
    document.write_text("Teachers want questions that teach.\n\nParents want fun.\n")
    options = {"persona_docs": [str(document)]}
    # a short document is one chunk: 1 extraction + 1 grouping + 1 per group (2)
    assert shared_minimum("maj_eval", samples, options) == 4
    assert run_minimum("maj_eval", samples, options) == 22 + 4
    assert shared_minimum("maj_eval", samples, {"persona_docs": str(document)}) == 4
    assert attributed_minimum("maj_eval", samples[0], samples, options) == 11 + 4
    assert attributed_minimum("maj_eval", samples[1], samples, options) == 11


# --- the panel scorer -------------------------------------------------------------------


def _panel_sample(groups: list[dict[str, Any]], sample_id: int = 1, **panel: Any) -> EvalSample:
    """A sample of an unrelated task with a ``panel`` score recording ``groups``' debates."""
    record = {"origin": "profiles", "rounds": 0, "closing_call": False, "groups": [], **panel}
    record["groups"] = [{"name": g["name"], "key": g["name"], "personas": []} for g in groups]
    debate = [{"group": g["name"], **g} for g in groups]
    sample = _sample(id=sample_id)
    sample.scores = {
        "match": Score(value="C"),
        "panel": Score(value={}, metadata={"stakeholder_panel": record, "debate": debate}),
    }
    return sample


def _debating(members: int, done: dict[int, int] | None = None) -> dict[str, Any]:
    group = _group(members, done)
    return {**group, "personas": [p["name"] for p in group["personas"]]}


def test_panel_independent_scoring_is_one_call_per_persona() -> None:
    sample = _panel_sample([_debating(2), _debating(1)])
    assert sample_minimum("panel", sample, {}) == 3  # no debate, no aggregator
    assert sample_minimum("panel", _sample(), {}) == 0  # no panel score: no call


def test_panel_debate_is_maj_evals_per_group() -> None:
    # three members, one done in round 1: 3 + (3 + 2) + (2 + 1) + 1 aggregation,
    # + 2 closing calls for those still active; a group of one: 1 + 1
    groups = [_debating(3, {1: 1}), _debating(1)]
    sample = _panel_sample(groups, rounds=2, closing_call=True)
    assert sample_minimum("panel", sample, {}) == (3 + 5 + 3 + 1 + 2) + 2
    # the record says what ran: the options passed do not change it
    assert sample_minimum("panel", sample, {"rounds": 5}) == 16
    no_closing = _panel_sample(groups, rounds=2)
    assert sample_minimum("panel", no_closing, {}) == (3 + 5 + 3 + 1) + 2


def test_panel_persona_creation_counts_once_per_run(tmp_path: Path) -> None:
    profiles = {"personas": "parents: a mother; parents: a father; a teacher"}
    groups = [_debating(2), _debating(1)]
    built = _panel_sample(groups, 1, creation_calls=3)
    other = _panel_sample(groups, 2)
    samples = [built, other]
    assert shared_minimum("panel", samples, profiles) == 3  # one call per profile
    assert run_minimum("panel", samples, profiles) == 3 + 3 + 3
    assert attributed_minimum("panel", built, samples, profiles) == 3 + 3
    assert attributed_minimum("panel", other, samples, profiles) == 3
    # from the disk cache: no creation call owed
    cached = [_panel_sample(groups, 1), _panel_sample(groups, 2)]
    assert shared_minimum("panel", cached, profiles) == 0
    # from documents: 1 extraction per chunk + 1 grouping + 1 per group (2)
    document = tmp_path / "stakeholders.md"
    document.write_text("Parents want stories children enjoy.\n\nTeachers want questions.\n")
    made = [_panel_sample(groups, 1, origin="documents", creation_calls=4), other]
    assert shared_minimum("panel", made, {"persona_docs": [str(document)]}) == 1 + 1 + 2
