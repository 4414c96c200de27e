"""Shared helpers of the rating tasks' end-to-end tests: a run read back from its log,
and checks of a MAJ-Eval sample's debate against the protocol's call budget."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from tests.conftest import FAST_LOG, SHARED_DATA
from tests.conftest import model_events as _model_events

from inspect_plural.prediction import Prediction
from inspect_plural.solvers.debate._rules import debate_call_budget
from inspect_plural.solvers.maj_eval import PanelDebate, StakeholderPanel
from inspect_plural.sources.mslr import MSLR_DIMENSIONS
from inspect_plural.sources.storysparkqa import STORYSPARKQA_DIMENSIONS

MSLR = SHARED_DATA / "mslr_cochrane"
TASK_ARGS: dict[str, dict[str, Any]] = {
    "mslr_cochrane": {"data_dir": str(MSLR)},
    "storysparkqa": {"demo": True},
}
DIMENSIONS = {
    "mslr_cochrane": [d.name for d in MSLR_DIMENSIONS],
    "storysparkqa": [d.name for d in STORYSPARKQA_DIMENSIONS],
}
COEFFICIENTS = ("spearman", "kendall", "pearson")
PAPER_ROUGE_OVERALL = {"pearson": 0.242, "spearman": 0.183, "kendall": 0.123}
"""Our ROUGE-L row on the 600 real summaries (3 decimals), pinned as a regression check."""
GROUP_SPAN = "stakeholder group "
PERSONA_SPAN = "stakeholder personas"


def run_rating(
    task: str,
    log_dir: Path,
    limit: int | None = 3,
    model: str = "plural/random",
    **task_args: Any,
) -> EvalLog:
    """A registered task by name; the log as read back from disk."""
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={**TASK_ARGS[task], **task_args},
        model=model,
        limit=limit,
        log_dir=str(log_dir),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    # prompts are stored as attachments; resolved, the model events hold the raw text
    return read_eval_log(log.location, resolve_attachments="core")


def calls_by_span(sample: EvalSample) -> Counter[str]:
    """Model events per enclosing MAJ-Eval span: a group's name, ``personas`` or ``other``."""
    parent: dict[str, str | None] = {}
    name: dict[str, str] = {}
    for event in sample.events:
        if event.event == "span_begin":
            parent[event.id] = event.parent_id
            name[event.id] = event.name
    counts: Counter[str] = Counter()
    for event in _model_events(sample):
        span, where = event.span_id, "other"
        while span is not None:
            if name.get(span, "").startswith(GROUP_SPAN):
                where = name[span].removeprefix(GROUP_SPAN)
                break
            if name.get(span) == PERSONA_SPAN:
                where = "personas"
                break
            span = parent.get(span)
        counts[where] += 1
    return counts


def check_debate(sample: EvalSample, groups: list[str], n_personas: list[int]) -> int:
    """Every group's debate is complete and its calls match the budget and the log.

    Returns:
        The persona-creation calls this sample made.
    """
    panel = sample.store_as(StakeholderPanel)
    assert [g.name for g in panel.groups] == groups
    assert [len(g.personas) for g in panel.groups] == n_personas
    debate = sample.store_as(PanelDebate)
    assert [g.group for g in debate.groups] == groups
    by_span = calls_by_span(sample)
    assert by_span["other"] == 0
    assert by_span["personas"] == panel.creation_calls
    for group, members in zip(debate.groups, panel.groups):
        names = [p.name for p in members.personas]
        assert group.personas == names
        assert [e.persona for e in group.initial] == names
        assert all(e.source == "phase1" for e in group.initial)
        assert [e.persona for e in group.final] == names
        assert group.synthesis.strip()
        if len(names) == 1:
            assert group.stop_reason == "single_member" and not group.turns
            assert [e.source for e in group.final] == ["initial"]
        else:
            assert group.stop_reason in ("all_done", "max_rounds")
            assert 1 <= group.rounds <= debate.max_rounds
            assert group.active_per_round[0] == len(names)
            assert len(group.turns) == sum(group.active_per_round)
            for r, active in enumerate(group.active_per_round, start=1):
                turns = [t for t in group.turns if t.round == r]
                assert len({t.speaker for t in turns}) == len(turns) == active
                assert [t.forced for t in turns] == [False] * (active - 1) + [True]
            assert {e.source for e in group.final} <= {"done", "last_turn", "initial"}
            if group.stop_reason == "all_done":
                assert {e.source for e in group.final} == {"done"}
        budget = debate_call_budget(len(names), group.active_per_round)
        assert group.model_calls == budget == by_span[group.group], group.group
    prediction = sample.store_as(Prediction)
    total = sum(g.model_calls for g in debate.groups)
    assert prediction.model_calls == total + panel.creation_calls
    assert len(_model_events(sample)) == prediction.model_calls
    assert set(prediction.panels) == set(groups)
    return panel.creation_calls


def persona_file(path: Path) -> Path:
    """A small hand-written persona file: a group of two and a group of one."""
    data = {
        "task": "mslr_cochrane",
        "groups": [
            {
                "name": "Pharmacists",
                "simple_role": "a hospital pharmacist",
                "personas": [
                    {
                        "name": "Rosa Lind",
                        "demographics": "A 44-year-old hospital pharmacist (MARKER-DEMOGRAPHICS).",
                        "perspective": "Whether dosing and drug names match the review.",
                        "specialty": "Clinical pharmacology.",
                        "psychological_traits": "Precise.",
                        "social_relationships": "Advises the ward doctors.",
                    },
                    {
                        "name": "Tom Heller",
                        "perspective": "Whether the conclusion overstates the evidence.",
                    },
                ],
            },
            {
                "name": "Patients",
                "simple_role": "a patient who reads medical summaries",
                "personas": [
                    {"name": "Ines Voss", "perspective": "Whether a lay reader can follow it."}
                ],
            },
        ],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def documents(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    first = folder / "interviews.txt"
    first.write_text(
        "Clinicians told us they read review conclusions between patients and need the "
        "direction of the effect stated plainly.\n\nPatients said summaries full of "
        "jargon left them unsure whether a treatment helped.",
        encoding="utf-8",
    )
    second = folder / "guideline.txt"
    second.write_text(
        "Guideline authors grade the certainty of evidence and expect summaries to say "
        "how strong it is.\n\nLibrarians check that population, intervention and outcome "
        "terms match the review question.",
        encoding="utf-8",
    )
    return [first, second]
