"""No prompt of any method can be answered by copying a placeholder (issue 24).

Every method runs once on its family's demo data (one sample, ``plural/random``); every
prompt it sent (system and user messages, read back from the log's model events) is
checked. A real small model echoed ``{"label": "<one of the labels>"}`` and ``"<1-5>"``
back as its answer; the prompts therefore show the literal allowed values and a filled
example. The check covers the whole prompt, not only its response-format block (which
is stricter): the sample's own data (items, conversations, documents, plots) is set
aside first, and the ``<document>`` tags that delimit a document to read are allowed.

Each case also names text that only its prompt kinds contain, so a case cannot pass by
sending fewer prompts than it should.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from benchmarks.calls import PERSONA_DOCUMENT
from inspect_ai import Task, eval
from inspect_ai.log import read_eval_log

import inspect_plural.tasks as plural_tasks
from inspect_plural.scorers import panel

pytestmark = pytest.mark.e2e

PLACEHOLDER = re.compile(r"<[^<>\n]{1,80}>")
ALLOWED_TAGS = {"<document>", "</document>"}
MODERATOR = "# Who May Speak Next"
"""Only the MAJ-Eval moderator's prompt has this heading."""


@dataclass(frozen=True)
class Case:
    """One method run: the task it runs on, and text each of its prompt kinds contains."""

    task: str
    args: dict[str, Any]
    kinds: tuple[str, ...]
    only: Callable[[str], bool] = field(default=lambda prompt: MODERATOR not in prompt)
    panel: dict[str, Any] | None = None
    """Options of the ``inspect_plural/panel`` scorer to grade the task's outputs with."""


def _marker(template: str) -> str:
    """The longest line of a packaged template without a field: only its prompts hold it."""
    text = (Path(plural_tasks.__file__).parents[1] / "prompts" / template).read_text("utf-8")
    return max((line for line in text.splitlines() if "{" not in line), key=len)


CASES: dict[str, Case] = {
    "annotator judge, label": Case(
        "brexit", {"method": "llm_judge"}, ("You will predict how one particular person",)
    ),
    "annotator judge, distribution": Case(
        "brexit",
        {"method": "llm_judge", "answer_format": "distribution"},
        ("probability that this person chose each label",),
    ),
    "personalized judge": Case("brexit", {"method": "personalized_judge"}, ("# Labels",)),
    "retrieval": Case(
        "brexit", {"method": "retrieval_examples"}, ("# How This Person Labelled Similar",)
    ),
    "trait ensemble": Case(
        "brexit", {"method": "trait_ensemble"}, ("Answer as such a person would.",)
    ),
    "cinemetric select, validate, roleplay": Case(
        "brexit",
        {"method": "cinemetric"},
        ("Pick 5 famous film characters", "Check a film fact.", "Take on the part of"),
    ),
    "cinemetric simulate, distribution": Case(
        "brexit",
        {"method": "cinemetric", "character_names": False, "answer_format": "distribution"},
        ("Do the task below through the eyes of one particular real person",),
    ),
    "stakeholder panel, default trait personas": Case(
        "brexit",
        {"method": "stakeholder_panel", "target": "distribution"},
        (_marker("stakeholder_label.txt"), _marker("panel_persona.txt")),
    ),
    "role identification": Case(
        "personaeval_literary", {}, ("judge how likely it is that each of the",)
    ),
    "role identification, few-shot": Case(
        "personaeval_literary", {"few_shot": 1}, ("## Solved example 1",)
    ),
    "G-Eval": Case("mslr_cochrane", {"method": "geval"}, ("# Evaluation Form (scores ONLY)",)),
    "ChatEval with summarizer": Case(
        "mslr_cochrane",
        {"method": "chateval", "chateval_strategy": "simultaneous_summarizer"},
        ("# Final Round", "Keep a running summary"),
    ),
    "PERSE review": Case("per_mpst", {}, ("[The Critic's Earlier Reviews]",)),
    "PERSE aspect": Case("per_doc", {}, ("[The Reader's Earlier Judgment]",)),
    "PERSE review, scores only": Case(
        "per_mpst", {"review_content": False}, (_marker("perse_review_scores_only.txt"),)
    ),
    "PERSE review, zero-shot": Case("per_mpst", {"k": 0}, (_marker("perse_review_zero_shot.txt"),)),
    "panel scorer, inline personas": Case(
        "mslr_cochrane",
        {"method": "rouge_l"},
        (
            _marker("panel_persona.txt"),
            _marker("panel_score.txt"),
            _marker("panel_agent.txt"),
        ),
        panel={"personas": ["a school nurse", "a parent of two"], "rounds": 0},
    ),
    "MAJ-Eval agent, phase 1, debate, closing, aggregate": Case(
        "mslr_cochrane",
        {"method": "maj_eval", "max_rounds": 1, "closing_call": True},
        (
            "# How The Evaluation Runs",
            "Phase 1. Give your own first evaluation",
            "Phase 2: the discussion",
            "The discussion has ended.",
            "You summarise the evaluations of the stakeholder group",
        ),
    ),
    "MAJ-Eval persona construction": Case(
        "mslr_cochrane",
        {"method": "maj_eval", "persona_docs": ["DOCUMENT"], "max_rounds": 1},
        (
            "Read the document below and find the people",
            "Consolidate them into stakeholder groups",
            "Write personas for a panel of judges",
        ),
    ),
    "MAJ-Eval moderator": Case(
        "mslr_cochrane",
        {"method": "maj_eval", "max_rounds": 1},
        (MODERATOR,),
        only=lambda prompt: MODERATOR in prompt,
    ),
}
XFAIL: dict[str, Any] = {}


def _strings(value: Any) -> Iterator[str]:
    """Every string held by a (nested) metadata value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


@pytest.fixture(scope="module")
def prompts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, list[str]]]]:
    """Per case, every prompt sent, each with the sample data to set aside."""
    folder = tmp_path_factory.mktemp("prompt_formats")
    document = folder / "stakeholders.md"
    document.write_text(PERSONA_DOCUMENT, encoding="utf-8")
    tasks: list[Task] = []
    for case in CASES.values():
        args = {k: [str(document)] if v == ["DOCUMENT"] else v for k, v in case.args.items()}
        task: Task = getattr(plural_tasks, case.task)(demo=True, **args)
        task.dataset = task.dataset[:1]
        if case.panel is not None:
            task.scorer = [panel(**case.panel)]
        tasks.append(task)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("INSPECT_PLURAL_CACHE", str(folder / "cache"))
        logs = eval(
            tasks,
            model="plural/random",
            log_dir=str(folder / "logs"),
            display="none",
            log_realtime=False,
            log_buffer=1000,
            max_tasks=len(tasks),
        )
    found: dict[str, list[tuple[str, list[str]]]] = {}
    for name, log in zip(CASES, logs):
        assert log.status == "success", (name, log.error)
        log = read_eval_log(log.location, resolve_attachments="core")
        sent = found.setdefault(name, [])
        for sample in log.samples or []:
            data = sorted(
                {s for s in _strings(sample.metadata) if len(s) >= 4}, key=len, reverse=True
            )
            for event in sample.events:
                if event.event == "model":
                    sent += [(message.text, data) for message in event.input]
    return found


def _placeholders(prompt: str, data: list[str]) -> list[str]:
    for value in data:
        prompt = prompt.replace(value, " ")
    return [p for p in PLACEHOLDER.findall(prompt) if p not in ALLOWED_TAGS]


@pytest.mark.slow
@pytest.mark.parametrize("name", [pytest.param(name, marks=XFAIL.get(name, ())) for name in CASES])
def test_no_prompt_holds_a_placeholder(
    name: str, prompts: dict[str, list[tuple[str, list[str]]]]
) -> None:
    case = CASES[name]
    sent = [(text, data) for text, data in prompts[name] if case.only(text)]
    for kind in case.kinds:  # every prompt kind of the case was rendered
        assert any(kind in text for text, _ in sent), f"{name}: no prompt with {kind!r}"
    found = {p for text, data in sent for p in _placeholders(text, data)}
    assert not found, f"{name}: placeholders {sorted(found)}"


def test_the_check_finds_the_placeholders_a_model_echoed() -> None:
    """The check is not vacuous: the old skeletons are caught, the data is set aside."""
    old = 'End with:\n```json\n{"label": "<one of the labels>"}\n```'
    assert _placeholders(old, []) == ["<one of the labels>"]
    assert _placeholders('{"overall": "<1-5>"}', []) == ["<1-5>"]
    item = "a post that quotes <b>bold</b> markup"
    assert _placeholders(f"# Content\n\n{item}\n\n<document>\nx\n</document>", [item]) == []


def test_every_packaged_template_is_checked(
    prompts: dict[str, list[tuple[str, list[str]]]],
) -> None:
    """Each packaged template was rendered by some case (a new template needs a case)."""
    folder = Path(plural_tasks.__file__).parents[1] / "prompts"
    sent = [text for case in prompts.values() for text, _ in case]
    missing = []
    for path in sorted(folder.glob("*.txt")):
        if path.name == "chateval_roles.txt":  # role descriptions, not a prompt template
            continue
        fixed = [line for line in path.read_text("utf-8").splitlines() if "{" not in line]
        marker = max(fixed, key=len)
        if not any(marker in text for text in sent):
            missing.append(path.name)
    assert not missing, f"templates no case renders: {missing}"


def test_every_annotator_method_states_the_datasets_task(
    prompts: dict[str, list[tuple[str, list[str]]]],
) -> None:
    """The scale's description reaches the prompt, though samples store it once (issue 32).

    A run's samples store its scale without the description; the views methods read
    restore it from the run's context. Every method on Brexit states it.
    """
    from inspect_plural.sources.brexit import load_brexit

    task = load_brexit(demo=True).scale.description
    assert task
    cases = [name for name, case in CASES.items() if case.task == "brexit"]
    assert len(cases) >= 7
    silent = [name for name in cases if not any(task in text for text, _ in prompts[name])]
    assert not silent, f"prompts without the task {task!r}: {silent}"
