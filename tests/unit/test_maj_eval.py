"""MAJ-Eval's debate with a scripted, counting model, run through ``inspect_ai.eval``.

The scripted model answers by call kind (phase-1 scores, debate turns with or without
NO MORE COMMENTS, closing evaluations, moderator picks, the aggregator's synthesis with
deliberately wrong averages) and records every call. Each test builds a tiny rating task
with :func:`~inspect_plural.tasks.rating._task.rating_task` from a persona file written to
``tmp_path`` (group ``Alpha`` of three personas, group ``Solo`` of one) and checks the
stored debate (:class:`PanelDebate`) against the protocol: calls per group equal
:func:`debate_call_budget` and the model events in the log, who speaks when, how the
debate stops, where final scores come from, and how scores are averaged.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import ScriptedModelAPI

from inspect_plural.answer_format import JsonFormat, declared_answer_format
from inspect_plural.prediction import Prediction
from inspect_plural.rating_parsing import DONE_MARKER
from inspect_plural.records import RatedOutput, RatingDimension
from inspect_plural.scorers._values import values_of
from inspect_plural.solvers.debate._rules import debate_call_budget
from inspect_plural.solvers.maj_eval import GroupDebate, PanelDebate, StakeholderPanel
from inspect_plural.tasks.rating._task import rating_task

DIMENSIONS = [
    RatingDimension(name="overall", title="Overall", description="Overall quality.", low=0, high=1),
    RatingDimension(name="fluency", title="Fluency", description="Reads well.", low=0, high=2),
    RatingDimension(name="pio", title="PIO Consistency", description="Same PIO.", low=0, high=2),
]
NAMES = [d.name for d in DIMENSIONS]
GROUPS = {"Alpha": ["Ana", "Ben", "Cy"], "Solo": ["Dee"]}
GROUP_OF = {p: g for g, members in GROUPS.items() for p in members}
INITIAL = {
    "Ana": {"overall": 2, "fluency": 2, "pio": 3},
    "Ben": {"overall": 3, "fluency": 3, "pio": 3},
    "Cy": {"overall": 5, "fluency": 4, "pio": 3},
    "Dee": {"overall": 4, "fluency": 4, "pio": 4},
}
"""Phase-1 scores. On ``overall`` the mean is 10/3: Cy is farthest, then Ana."""
WRONG = {"overall": 1, "fluency": 1, "pio": 1}
"""What the aggregator claims the averages are (always wrong here)."""
CLOSING = {"overall": 1, "fluency": 5, "pio": 2}
"""What a persona answers to the closing call."""
FAST_LOG: dict[str, Any] = {"log_realtime": False, "log_buffer": 1000}


# --------------------------------------------------------------------------- scripted model


@dataclass
class Call:
    """One call the scripted model received."""

    kind: str  # phase1, debate, closing, moderator, aggregator
    group: str
    persona: str | None
    content: str
    system: str
    prompt: str
    turn: int = 0  # debate: the speaker's turn number (1 = its first turn)


def _json(obj: dict[str, Any]) -> str:
    return f"```json\n{json.dumps(obj)}\n```"


def _debate_turn(scores: dict[str, int], done: bool) -> str:
    body = _json({"feedback": f"my view, done={done}", "done": done, **scores})
    return f"{DONE_MARKER}\n\n{body}" if done else f"Still thinking.\n\n{body}"


def _turned(scores: dict[str, int], delta: int) -> dict[str, int]:
    return {k: max(1, min(5, v + delta)) for k, v in scores.items()}


def _always_done(persona: str, turn: int) -> str:
    """Everyone says NO MORE COMMENTS at once, with overall moved one point toward 3."""
    scores = dict(INITIAL[persona])
    scores["overall"] += (scores["overall"] < 3) - (scores["overall"] > 3)
    return _debate_turn(scores, done=True)


def _never_done(persona: str, turn: int) -> str:
    """Nobody stops; each turn lowers every score by ``turn`` (so the last turn shows)."""
    return _debate_turn(_turned(INITIAL[persona], -turn), done=False)


def _closing_scores(persona: str) -> str:
    return _json({"feedback": f"{persona} closing", **CLOSING})


def _last_candidate(candidates: list[str]) -> str:
    return _json({"next_speaker": candidates[-1], "reason": "last listed"})


def _garbage(candidates: list[str]) -> str:
    return "I would rather not choose anybody today."


@dataclass
class Script:
    """What the scripted model answers; every call is recorded."""

    debate: Callable[[str, int], str] = _always_done
    moderator: Callable[[list[str]], str] = _last_candidate
    closing: Callable[[str], str] = _closing_scores
    sleep: float = 0.0
    calls: list[Call] = field(default_factory=list)
    in_flight: Counter[str] = field(default_factory=Counter)
    overlap: set[frozenset[str]] = field(default_factory=set)
    phase1_in_flight: int = 0
    max_phase1: int = 0


SCRIPT = Script()


@modelapi(name="majscript")
def _majscript() -> type[ModelAPI]:
    return MajScriptAPI


def _candidates(prompt: str) -> list[str]:
    section = prompt.split("# Who May Speak Next", 1)[1].split("# Where They Disagree", 1)[0]
    return re.findall(r"^- ([^:\n]+):", section, flags=re.MULTILINE)


def _classify(input: list[ChatMessage]) -> Call:
    prompt = input[-1].text
    system = next((m.text for m in input if isinstance(m, ChatMessageSystem)), "")
    declared = declared_answer_format(input)
    assert isinstance(declared, JsonFormat), "every MAJ-Eval call declares a JSON answer"
    properties = declared.json_schema["properties"]
    if "next_speaker" in properties:
        group = re.search(r'stakeholder group "([^"]+)"', prompt)
        assert group is not None and not system
        return Call("moderator", group.group(1), None, "", system, prompt)
    if "synthesis" in properties:
        group = re.search(r'stakeholder group "([^"]+)"', prompt)
        assert group is not None and not system
        return Call("aggregator", group.group(1), None, "", system, prompt)
    who = re.match(r"You are (\w+)\. You will judge", system)
    assert who is not None, system[:200]
    persona = who.group(1)
    content = system.split("## Generated summary", 1)[1].split("#", 1)[0].strip()
    if prompt.startswith("Phase 1."):
        assert "done" not in properties and not declared.prefix_choices
        return Call("phase1", GROUP_OF[persona], persona, content, system, prompt)
    if prompt.startswith("Phase 2"):
        assert "done" in properties and declared.prefix_choices == [DONE_MARKER]
        turn = prompt.count(f"[{persona}] (round ") + 1
        return Call("debate", GROUP_OF[persona], persona, content, system, prompt, turn)
    assert prompt.startswith("The discussion has ended."), prompt[:100]
    return Call("closing", GROUP_OF[persona], persona, content, system, prompt)


class MajScriptAPI(ScriptedModelAPI):
    connections = 100

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        call = _classify(input)
        SCRIPT.calls.append(call)
        SCRIPT.in_flight[call.group] += 1
        if call.kind == "phase1":
            SCRIPT.phase1_in_flight += 1
            SCRIPT.max_phase1 = max(SCRIPT.max_phase1, SCRIPT.phase1_in_flight)
        SCRIPT.overlap.add(frozenset(g for g, n in SCRIPT.in_flight.items() if n))
        try:
            if SCRIPT.sleep:
                await anyio.sleep(SCRIPT.sleep)
            text = self._answer(call)
        finally:
            SCRIPT.in_flight[call.group] -= 1
            SCRIPT.phase1_in_flight -= call.kind == "phase1"
        return self.reply(text)

    @staticmethod
    def _answer(call: Call) -> str:
        if call.kind == "moderator":
            return SCRIPT.moderator(_candidates(call.prompt))
        if call.kind == "aggregator":
            return "Summary of the group.\n\n" + _json({"synthesis": "they agree", **WRONG})
        assert call.persona is not None
        if call.kind == "phase1":
            return _json({"feedback": f"{call.persona} first", **INITIAL[call.persona]})
        if call.kind == "closing":
            return SCRIPT.closing(call.persona)
        return SCRIPT.debate(call.persona, call.turn)


@pytest.fixture(autouse=True)
def _reset() -> None:
    global SCRIPT
    SCRIPT = Script()


# --------------------------------------------------------------------------- fixtures


def _persona_file(folder: Path) -> Path:
    groups = []
    for group, members in GROUPS.items():
        groups.append(
            {
                "name": group,
                "characteristics": f"The {group} people.",
                "simple_role": f"a plain {group} reviewer",
                "personas": [
                    {
                        "name": name,
                        "demographics": f"DEMOGRAPHICS-OF-{name}",
                        "perspective": f"{name} looks at things from angle {name}.",
                        "specialty": f"SPECIALTY-OF-{name}",
                        "psychological_traits": "calm",
                        "social_relationships": "knows the others",
                    }
                    for name in members
                ],
            }
        )
    path = folder / "personas.json"
    path.write_text(json.dumps({"task": "fixture", "groups": groups}), encoding="utf-8")
    return path


def _outputs(n: int) -> list[RatedOutput]:
    return [
        RatedOutput(
            id=f"sys/{i}",
            content=f"summary number {i}",
            context="the target summary",
            references=["the target summary"],
            ratings={"overall": {"a": 0.2 * i}, "fluency": {"a": 1.0}, "pio": {"a": i % 2}},
            group=f"review{i}",
        )
        for i in range(n)
    ]


def _run(tmp_path: Path, n_samples: int = 1, **options: Any) -> EvalLog:
    model_roles = options.pop("model_roles", None)
    max_samples = options.pop("max_samples", None)
    task = rating_task(
        _outputs(n_samples),
        dataset="fixture",
        dimensions=DIMENSIONS,
        task_description="Summarise the findings of a medical review.",
        content_label="generated summary",
        context_label="target summary",
        version="0-A",  # a fixture dataset, in no eval.yaml
        method="maj_eval",
        personas=str(_persona_file(tmp_path)),
        **options,
    )
    [log] = eval(
        task,
        model="majscript/m",
        model_roles=model_roles,
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=max_samples,
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == n_samples
    return log


def _debate(sample: EvalSample) -> dict[str, GroupDebate]:
    panel = sample.store_as(PanelDebate)
    return {g.group: g for g in panel.groups}


def _model_events_by_group(sample: EvalSample) -> Counter[str]:
    """Model events per stakeholder group, from the span each event sits in."""
    parent: dict[str, str | None] = {}
    name: dict[str, str] = {}
    for event in sample.events:
        if event.event == "span_begin":
            parent[event.id] = event.parent_id
            name[event.id] = event.name
    counts: Counter[str] = Counter()
    for event in sample.events:
        if event.event != "model":
            continue
        span = event.span_id
        group = "(none)"
        while span is not None:
            if name.get(span, "").startswith("stakeholder group "):
                group = name[span].removeprefix("stakeholder group ")
                break
            span = parent.get(span)
        counts[group] += 1
    return counts


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _check_calls(sample: EvalSample, closing: int = 0) -> dict[str, GroupDebate]:
    """Calls per group == the budget (+ closing calls) == model events in the log."""
    groups = _debate(sample)
    events = _model_events_by_group(sample)
    assert set(events) == set(groups)
    for name, group in groups.items():
        budget = debate_call_budget(len(group.personas), group.active_per_round)
        extra = closing if name == "Alpha" else 0
        assert group.model_calls == budget + extra == events[name], name
        assert group.tokens == 15 * group.model_calls
        assert len(group.active_per_round) == group.rounds
    prediction = sample.store_as(Prediction)
    assert prediction.model_calls == sum(g.model_calls for g in groups.values())
    assert prediction.model_calls == sum(1 for e in sample.events if e.event == "model")
    assert prediction.tokens == sum(g.tokens for g in groups.values())
    return groups


# --------------------------------------------------------------------------- tests


def test_everyone_done_in_round_one_costs_3n(tmp_path: Path) -> None:
    log = _run(tmp_path, n_samples=2)
    assert log.samples is not None
    for sample in log.samples:
        groups = _check_calls(sample)
        alpha, solo = groups["Alpha"], groups["Solo"]
        assert alpha.model_calls == 3 * 3 == 9
        assert alpha.stop_reason == "all_done" and alpha.rounds == 1
        assert alpha.active_per_round == [3]
        # the moderator honours its pick (the last listed), the last candidate is forced
        assert [t.speaker for t in alpha.turns] == ["Cy", "Ben", "Ana"]
        assert [t.forced for t in alpha.turns] == [False, False, True]
        assert alpha.turns[-1].moderator_raw == "" and not any(t.fallback for t in alpha.turns)
        assert all(t.done and t.parse_ok for t in alpha.turns)
        assert [e.source for e in alpha.final] == ["done", "done", "done"]
        final = {e.persona: e.scores for e in alpha.final}
        assert final["Ana"]["overall"] == 3 and final["Cy"]["overall"] == 4
        assert final["Ben"] == INITIAL["Ben"]
        # a group of one: no debate, phase-1 is final
        assert solo.stop_reason == "single_member" and solo.turns == [] and solo.rounds == 0
        assert solo.model_calls == 2
        assert [(e.persona, e.source, e.scores) for e in solo.final] == [
            ("Dee", "initial", INITIAL["Dee"])
        ]
        # phase 1 and synthesis recorded
        assert [e.persona for e in alpha.initial] == ["Ana", "Ben", "Cy"]
        assert all(e.parse_ok and e.source == "phase1" for e in alpha.initial)
        assert {e.persona: e.scores for e in alpha.initial} == {
            p: {k: float(v) for k, v in INITIAL[p].items()} for p in GROUPS["Alpha"]
        }
        assert alpha.synthesis == "they agree" and solo.synthesis == "they agree"


def test_nobody_done_runs_max_rounds(tmp_path: Path) -> None:
    SCRIPT.debate = _never_done
    log = _run(tmp_path, max_rounds=2)
    assert log.samples is not None
    [sample] = log.samples
    alpha = _check_calls(sample)["Alpha"]
    n, rounds = 3, 2
    assert alpha.model_calls == n + rounds * (2 * n - 1) + 1 == 14
    assert alpha.stop_reason == "max_rounds" and alpha.rounds == 2
    assert alpha.active_per_round == [3, 3]
    assert [(t.round, t.speaker, t.forced) for t in alpha.turns] == [
        (1, "Cy", False),
        (1, "Ben", False),
        (1, "Ana", True),
        (2, "Cy", False),
        (2, "Ben", False),
        (2, "Ana", True),
    ]
    moderator_calls = [c for c in SCRIPT.calls if c.kind == "moderator" and c.group == "Alpha"]
    assert len(moderator_calls) == 4  # two per round: the last speaker is forced
    assert [_candidates(c.prompt) for c in moderator_calls] == [
        ["Ana", "Ben", "Cy"],
        ["Ana", "Ben"],
        ["Ana", "Ben", "Cy"],
        ["Ana", "Ben"],
    ]
    assert not any(t.done for t in alpha.turns)
    # final = the last turn's scores (turn 2: every score lowered by 2)
    assert [e.source for e in alpha.final] == ["last_turn"] * 3
    for e in alpha.final:
        assert e.scores == {k: float(v) for k, v in _turned(INITIAL[e.persona], -2).items()}


def test_mixed_stopping_matches_the_budget(tmp_path: Path) -> None:
    def ana_stops(persona: str, turn: int) -> str:
        if persona == "Ana":
            return _debate_turn(INITIAL["Ana"], done=True)
        return _never_done(persona, turn)

    SCRIPT.debate = ana_stops
    log = _run(tmp_path, max_rounds=3)
    assert log.samples is not None
    alpha = _check_calls(log.samples[0])["Alpha"]
    assert alpha.active_per_round == [3, 2, 2]
    assert alpha.model_calls == 3 + 5 + 3 + 3 + 1
    assert alpha.stop_reason == "max_rounds"
    assert [t.speaker for t in alpha.turns].count("Ana") == 1
    assert {e.persona: e.source for e in alpha.final} == {
        "Ana": "done",
        "Ben": "last_turn",
        "Cy": "last_turn",
    }
    # rounds 2 and 3 have two candidates: one moderator call, one forced turn each
    for r in (2, 3):
        turns = [t for t in alpha.turns if t.round == r]
        assert [t.forced for t in turns] == [False, True]


def test_closing_call_asks_each_still_active_persona_once(tmp_path: Path) -> None:
    def ana_stops(persona: str, turn: int) -> str:
        if persona == "Ana":
            return _debate_turn(INITIAL["Ana"], done=True)
        return _never_done(persona, turn)

    SCRIPT.debate = ana_stops
    log = _run(tmp_path, max_rounds=1, closing_call=True)
    assert log.samples is not None
    alpha = _check_calls(log.samples[0], closing=2)["Alpha"]
    assert alpha.model_calls == debate_call_budget(3, [3]) + 2
    closings = [c for c in SCRIPT.calls if c.kind == "closing"]
    assert sorted(str(c.persona) for c in closings) == ["Ben", "Cy"]
    final = {e.persona: e for e in alpha.final}
    assert final["Ana"].source == "done"
    assert final["Ben"].source == final["Cy"].source == "closing_call"
    assert final["Ben"].scores == {k: float(v) for k, v in CLOSING.items()}
    # the group of one makes no closing call
    assert _debate(log.samples[0])["Solo"].model_calls == 2


def test_an_unparsed_closing_answer_keeps_the_last_scores(tmp_path: Path) -> None:
    SCRIPT.debate = _never_done
    SCRIPT.closing = lambda persona: (
        _json({"feedback": "only overall", "overall": 5}) if persona == "Ben" else "no numbers"
    )
    log = _run(tmp_path, max_rounds=1, closing_call=True)
    assert log.samples is not None
    alpha = _check_calls(log.samples[0], closing=3)["Alpha"]
    final = {e.persona: e for e in alpha.final}
    assert all(e.source == "closing_call" and not e.parse_ok for e in alpha.final)
    last = {p: {k: float(v) for k, v in _turned(INITIAL[p], -1).items()} for p in final}
    assert final["Ana"].scores == last["Ana"] and final["Ana"].error == "no scores found"
    assert final["Ben"].scores == {**last["Ben"], "overall": 5.0}
    assert alpha.scores == pytest.approx(
        {d: _mean([e.scores[d] for e in alpha.final]) for d in NAMES}
    )


def test_unparseable_moderator_falls_back_to_the_farthest_from_the_mean(tmp_path: Path) -> None:
    SCRIPT.moderator = _garbage
    log = _run(tmp_path, max_rounds=1)
    assert log.samples is not None
    alpha = _check_calls(log.samples[0])["Alpha"]
    # overall: Ana 2, Ben 3, Cy 5 (mean 3.33): Cy is farthest; after Cy's turn (Cy 4,
    # mean 3) Ana is 1 away and Ben 0, so Ana; Ben, the last candidate, is forced
    assert [(t.speaker, t.fallback, t.forced) for t in alpha.turns] == [
        ("Cy", True, False),
        ("Ana", True, False),
        ("Ben", False, True),
    ]
    assert alpha.turns[0].moderator_raw == "I would rather not choose anybody today."
    assert "named no candidate" in alpha.turns[0].reason
    assert alpha.model_calls == 9  # the fallback costs no extra call


def test_unparseable_turns_keep_the_initial_scores(tmp_path: Path) -> None:
    def ben_babbles(persona: str, turn: int) -> str:
        if persona == "Ben":
            return "I have thoughts but no numbers."
        return _never_done(persona, turn)

    SCRIPT.debate = ben_babbles
    log = _run(tmp_path, max_rounds=2)
    assert log.samples is not None
    alpha = _check_calls(log.samples[0])["Alpha"]
    ben_turns = [t for t in alpha.turns if t.speaker == "Ben"]
    assert len(ben_turns) == 2 and not any(t.parse_ok or t.scores for t in ben_turns)
    final = {e.persona: e for e in alpha.final}
    assert final["Ben"].source == "initial"
    assert final["Ben"].scores == {k: float(v) for k, v in INITIAL["Ben"].items()}
    assert final["Cy"].source == "last_turn"


def test_scores_are_means_computed_in_code_not_the_aggregators(tmp_path: Path) -> None:
    log = _run(tmp_path, n_samples=2)
    assert log.samples is not None
    for sample in log.samples:
        groups = _debate(sample)
        alpha, solo = groups["Alpha"], groups["Solo"]
        for group in (alpha, solo):
            expected = {
                d: _mean([e.scores[d] for e in group.final]) for d in NAMES
            }  # mean of final scores
            assert group.scores == pytest.approx(expected)
            assert group.initial_scores == pytest.approx(
                {d: _mean([e.scores[d] for e in group.initial]) for d in NAMES}
            )
            assert group.aggregator_scores == {k: float(v) for k, v in WRONG.items()}
            assert group.aggregator_mismatch is True
        # Alpha finals: overall 3, 3, 4 -> 10/3; initial: 2, 3, 5 -> 10/3
        assert alpha.scores["overall"] == pytest.approx(10 / 3)
        prediction = sample.store_as(Prediction)
        assert prediction.method == "maj_eval" and prediction.parse_ok
        assert prediction.aggregate == "mean_of_groups"
        assert prediction.scores == pytest.approx(
            {d: (alpha.scores[d] + solo.scores[d]) / 2 for d in NAMES}
        )
        assert prediction.score == pytest.approx(prediction.scores["overall"])
        assert prediction.initial_scores == pytest.approx(
            {
                d: (_mean([INITIAL[p][d] for p in GROUPS["Alpha"]]) + INITIAL["Dee"][d]) / 2
                for d in NAMES
            }
        )
        assert prediction.panels["Alpha"].scores == alpha.scores
        assert prediction.panels["Alpha"].model_calls == 9
        assert "Alpha: they agree" in str(prediction.rationale)
        # the aggregator was shown the computed means, not asked to compute them
        aggregator = [c for c in SCRIPT.calls if c.kind == "aggregator" and c.group == "Alpha"]
        assert aggregator and "overall 3.33" in aggregator[0].prompt
        # the scorer reads the prediction, not the aggregator's numbers
        assert sample.scores is not None
        [score] = sample.scores.values()
        assert isinstance(score.value, dict)
        assert values_of(score)["pred/overall"] == pytest.approx(prediction.scores["overall"])
        assert values_of(score)["group/Alpha/overall"] == pytest.approx(10 / 3)


def test_store_records_the_panel_and_model_roles(tmp_path: Path) -> None:
    roles = {
        "persona": "majscript/per",
        "moderator": "majscript/mod",
        "aggregator": "majscript/agg",
    }
    log = _run(tmp_path, model_roles=roles)
    assert log.samples is not None
    [sample] = log.samples
    panel = sample.store_as(StakeholderPanel)
    assert panel.origin == "file" and panel.creation_calls == 0
    assert [(g.name, [p.name for p in g.personas]) for g in panel.groups] == list(GROUPS.items())
    debate = sample.store_as(PanelDebate)
    assert debate.max_rounds == 3 and debate.simple_roles is False
    kinds: Counter[tuple[str | None, str]] = Counter()
    for event in sample.events:
        if event.event == "model":
            kinds[(event.role, str(event.model))] += 1
    # the evaluated model (majscript/m) makes no call when every role is bound
    assert kinds == Counter(
        {
            ("persona", "majscript/per"): 3 + 3 + 1,
            ("moderator", "majscript/mod"): 2,
            ("aggregator", "majscript/agg"): 2,
        }
    )


def test_roles_default_to_the_evaluated_model(tmp_path: Path) -> None:
    log = _run(tmp_path)
    assert log.samples is not None
    models = {str(e.model) for e in log.samples[0].events if e.event == "model"}
    assert models == {"majscript/m"}


def test_full_personas_are_the_default_and_simple_roles_replace_them(tmp_path: Path) -> None:
    _run(tmp_path)
    systems = {c.persona: c.system for c in SCRIPT.calls if c.kind == "phase1"}
    assert "DEMOGRAPHICS-OF-Ana" in systems["Ana"] and "SPECIALTY-OF-Ana" in systems["Ana"]
    assert "a plain Alpha reviewer" not in systems["Ana"]

    SCRIPT.calls = []
    log = _run(tmp_path, simple_roles=True)
    assert log.samples is not None
    sample = log.samples[0]
    assert sample.store_as(PanelDebate).simple_roles is True
    assert sample.store_as(Prediction).method == "maj_eval/simple_roles"
    persona_calls = [c for c in SCRIPT.calls if c.persona is not None]
    assert persona_calls
    for call in persona_calls:
        role = f"a plain {GROUP_OF[str(call.persona)]} reviewer"
        assert f"You are {call.persona}, {role}." in call.system
        assert "DEMOGRAPHICS-OF" not in call.system and "SPECIALTY-OF" not in call.system
        assert "angle" not in call.system  # not even the perspective
    # names and counts stay, so does the protocol
    _check_calls(sample)


def test_groups_option_and_n_personas(tmp_path: Path) -> None:
    log = _run(tmp_path, groups="Alpha", n_personas=2)
    assert log.samples is not None
    sample = log.samples[0]
    groups = _check_calls(sample)
    assert list(groups) == ["Alpha"] and groups["Alpha"].personas == ["Ana", "Ben"]
    assert groups["Alpha"].model_calls == debate_call_budget(2, [2]) == 6
    assert [g.name for g in sample.store_as(StakeholderPanel).groups] == ["Alpha"]
    assert {c.persona for c in SCRIPT.calls if c.persona} == {"Ana", "Ben"}


def test_groups_and_personas_run_concurrently(tmp_path: Path) -> None:
    SCRIPT.sleep = 0.05
    log = _run(tmp_path, max_samples=1)
    assert log.samples is not None
    _check_calls(log.samples[0])
    assert frozenset({"Alpha", "Solo"}) in SCRIPT.overlap  # both groups in flight at once
    assert SCRIPT.max_phase1 == 4  # every persona's phase-1 call at once
