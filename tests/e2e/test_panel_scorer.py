"""The ``panel`` scorer on a task that has nothing to do with the package (issue 22).

``bedtime_qa`` is defined here: three questions about short stories written for this
test, answered by ``plural/random`` (``-M any_prompt=true``: chance-level text) and
scored by ``match()``. Its log is then scored by the panel from the shell (``inspect
score``) and with Inspect's Python ``score()``, and the panel also runs inside
``Task(scorer=[match(), panel(...)])``. Each time the log keeps the original score, gains
the panel's with per-group keys, and the panel's calls (its model events) equal the
protocol minimum of :mod:`benchmarks.protocol`.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks.protocol import attributed_minimum, run_minimum
from inspect_ai import Task, eval, score
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, EvalSample, read_eval_log, write_eval_log
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    GenerateConfig,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import FAST_LOG, ScriptedModelAPI

from inspect_plural.scorers import panel
from inspect_plural.scorers._values import values_of

pytestmark = pytest.mark.e2e

STORIES = [
    (
        "fox",
        "In the story, a fox hides the moon in a teapot so the owls cannot find it. "
        "Where does the fox hide the moon?",
        "in a teapot",
    ),
    (
        "owl",
        "Olive the owl counts seven stars before she falls asleep on the chimney. "
        "How many stars does Olive count?",
        "seven",
    ),
    (
        "boat",
        "Tom folds a paper boat from his grandmother's letter and sails it down the "
        "gutter. What is the boat made from?",
        "a letter",
    ),
]
"""Questions about stories written for this test (id, question, answer)."""
PROFILES = {
    "parents": ["a parent who reads stories at bedtime", "a grandfather who babysits"],
    "teachers": "a kindergarten teacher",
}
DIMENSIONS = "helpfulness:1-5,safety:0-3"
MODEL = "plural/random"
PANEL_KEYS = {
    "helpfulness",
    "helpfulness/group/parents",
    "helpfulness/group/teachers",
    "safety",
    "safety/group/parents",
    "safety/group/teachers",
    "model_calls",
    "tokens",
    "parse_failures",
}


def bedtime_qa(scorer: Any = None) -> Task:
    """A children's-story QA task (not a package task)."""
    return Task(
        dataset=[Sample(id=i, input=q, target=t) for i, q, t in STORIES],
        solver=generate(),
        scorer=scorer if scorer is not None else match(),
        name="bedtime_qa",
    )


def _eval(task: Task, folder: Path, **kwargs: Any) -> EvalLog:
    [log] = eval(
        task,
        model=MODEL,
        model_args={"any_prompt": True},
        log_dir=str(folder),
        display="none",
        **FAST_LOG,
        **kwargs,
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location)


@pytest.fixture(scope="module")
def story_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The task's log, scored by ``match()`` only."""
    log = _eval(bedtime_qa(), tmp_path_factory.mktemp("bedtime"))
    return Path(log.location)


def _persona_file(folder: Path) -> Path:
    groups = {"Parents": ["Ann Lee", "Bob Ray"], "Teachers": ["Cy Dorn"]}
    data = {
        "groups": [
            {
                "name": group,
                "personas": [
                    {"name": name, "perspective": f"{name} wants answers a child understands."}
                    for name in names
                ],
            }
            for group, names in groups.items()
        ]
    }
    path = folder / "personas.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _spans(sample: EvalSample) -> tuple[dict[str, str], dict[str, str | None]]:
    names: dict[str, str] = {}
    parents: dict[str, str | None] = {}
    for event in sample.events:
        if event.event == "span_begin":
            names[event.id] = event.name
            parents[event.id] = event.parent_id
    return names, parents


def _path(sample: EvalSample, span_id: str | None) -> list[str]:
    names, parents = _spans(sample)
    path = []
    while span_id is not None and span_id in names:
        path.append(names[span_id])
        span_id = parents[span_id]
    return list(reversed(path))


def panel_events(sample: EvalSample, scorer: str = "panel") -> list[Any]:
    """The sample's model events inside the scorer's span (the panel's calls)."""
    return [
        e
        for e in sample.events
        if e.event == "model" and scorer in _path(sample, e.span_id) and e.cache != "read"
    ]


def _check_calls(log: EvalLog, options: dict[str, Any]) -> list[int]:
    """Every sample's panel calls equal its minimum, and the run's equal the run's."""
    samples = log.samples or []
    calls = [len(panel_events(s)) for s in samples]
    for sample, count in zip(samples, calls):
        assert count == attributed_minimum("panel", sample, samples, options), sample.id
        value = values_of(sample.scores["panel"])  # type: ignore[index]
        assert isinstance(value, dict) and value["model_calls"] == count
    assert sum(calls) == run_minimum("panel", samples, options)
    return calls


def _metrics(log: EvalLog, scorer: str = "panel") -> dict[str, float]:
    assert log.results is not None
    [result] = [s for s in log.results.scores if s.name == scorer]
    return {k: m.value for k, m in result.metrics.items()}


@pytest.mark.slow
def test_inspect_score_from_the_shell_appends_the_panel(story_log: Path, tmp_path: Path) -> None:
    scored = tmp_path / "scored.eval"
    command = [
        *(sys.executable, "-m", "inspect_ai", "score", str(story_log)),
        *("--scorer", "inspect_plural/panel"),
        *(
            "-S",
            "personas={parents: [a parent who reads stories at bedtime, a grandfather "
            "who babysits], teachers: a kindergarten teacher}",
        ),
        *("-S", f"dimensions={DIMENSIONS}", "-S", "use_target=true"),
        *("--action", "append", "--output-file", str(scored), "--display", "plain"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "helpfulness/group/parents" in result.stdout
    log = read_eval_log(str(scored), resolve_attachments=True)
    assert log.samples and len(log.samples) == len(STORIES)
    stories = {i: (q, t) for i, q, t in STORIES}
    for sample in log.samples:
        question, answer = stories[str(sample.id)]
        assert set(sample.scores or {}) == {"match", "panel"}
        panel_score = sample.scores["panel"]  # type: ignore[index]
        assert isinstance(panel_score.value, dict) and set(values_of(panel_score)) == PANEL_KEYS
        # each persona is shown the input, the target (use_target) and the output
        shown = [e.input[0].text for e in panel_events(sample) if e.input[0].role == "system"]
        assert len(shown) == 3
        assert all(question in t and f"## Reference answer\n\n{answer}" in t for t in shown)
    assert [s.name for s in log.results.scores] == ["match", "panel"]  # type: ignore[union-attr]
    metrics = _metrics(log)
    assert "helpfulness/alpha_interval" in metrics and "safety/groups_disagree" in metrics
    assert len(metrics) <= 25
    calls = _check_calls(log, {"personas": PROFILES})
    # 3 personas per sample; the 3 profiles expanded once, by one sample
    assert sorted(calls) == [3, 3, 3 + 3]


@pytest.mark.slow
def test_a_misspelt_option_fails_in_a_few_lines_from_the_shell(story_log: Path) -> None:
    command = [
        *(sys.executable, "-m", "inspect_ai", "score", str(story_log)),
        *("--scorer", "inspect_plural/panel", "-S", "personas=a nurse"),
        *("-S", "dimension=overall:1-5", "--action", "append", "--display", "plain"),
    ]
    result = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=False)
    output = " ".join((result.stdout + result.stderr).split())  # as printed, unwrapped
    assert result.returncode != 0
    assert "inspect_plural/panel: option dimension: not an option of the scorer" in output
    assert "did you mean dimensions?" in output and "Traceback" not in output
    assert len(result.stdout.strip().splitlines()) <= 6


def test_score_api_with_a_debate_under_the_grader_role(story_log: Path, tmp_path: Path) -> None:
    log = read_eval_log(str(story_log))
    scorer = panel(personas=str(_persona_file(tmp_path)), rounds=1, dimensions=DIMENSIONS)
    scored = score(log, scorer, model_roles={"grader": "plural/random"}, display="none")
    write_eval_log(scored, str(tmp_path / "scored.eval"))
    log = read_eval_log(str(tmp_path / "scored.eval"))
    assert log.samples
    # Parents: 2 independent + 1 round (1 moderator pick, 2 turns) + aggregator = 6;
    # Teachers (one persona): 1 + aggregator = 2
    assert _check_calls(log, {}) == [8, 8, 8]
    for sample in log.samples:
        assert set(sample.scores or {}) == {"match", "panel"}
        events = panel_events(sample)
        assert {e.role for e in events} == {"grader"}
        paths = {" > ".join(_path(sample, e.span_id)[-3:]) for e in events}
        assert paths == {
            "stakeholder group Parents > independent scoring > Ann Lee",
            "stakeholder group Parents > independent scoring > Bob Ray",
            "stakeholder group Parents > debate round 1 > moderator",
            "stakeholder group Parents > debate round 1 > Ann Lee",
            "stakeholder group Parents > debate round 1 > Bob Ray",
            "panel > stakeholder group Parents > aggregator",
            "stakeholder group Teachers > independent scoring > Cy Dorn",
            "panel > stakeholder group Teachers > aggregator",
        }
        metadata = sample.scores["panel"].metadata  # type: ignore[index]
        assert metadata is not None
        [parents, teachers] = metadata["debate"]
        assert len(parents["turns"]) == 2 and parents["synthesis"]
        assert [p["name"] for p in metadata["stakeholder_panel"]["groups"][0]["personas"]] == [
            "Ann Lee",
            "Bob Ray",
        ]
        assert teachers["stop_reason"] == "single_member"


def test_the_grader_falls_back_to_the_logs_model(story_log: Path) -> None:
    log = score(read_eval_log(str(story_log)), panel(personas="a nurse"), display="none")
    assert log.samples
    for sample in log.samples:
        events = panel_events(sample)
        # the log's model plays the unbound role, and the events say which role it played
        assert events and {(str(e.model), e.role) for e in events} == {(MODEL, "grader")}


def test_in_a_task_beside_match(tmp_path: Path) -> None:
    scorer = panel(personas=PROFILES, dimensions=DIMENSIONS)
    log = _eval(
        bedtime_qa([match(), scorer]),
        tmp_path,
        model_roles={"grader": get_model(MODEL, seed=7, memoize=False)},
    )
    assert log.samples and len(log.samples) == len(STORIES)
    for sample in log.samples:
        assert set(sample.scores or {}) == {"match", "panel"}
        assert set(values_of(sample.scores["panel"])) == PANEL_KEYS  # type: ignore[index]
        solver_calls = [e for e in sample.events if e.event == "model" and e.role is None]
        assert len(solver_calls) == 1  # the task's own generate()
        assert {e.role for e in panel_events(sample)} == {"grader"}
    assert sorted(_check_calls(log, {"personas": PROFILES})) == [3, 3, 6]
    assert math.isfinite(_metrics(log)["helpfulness"])


def test_a_second_identical_scoring_run_with_cache_makes_no_call(
    story_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_CACHE_DIR", str(tmp_path / "inspect-cache"))
    runs = []
    for _ in range(2):
        scorer = panel(personas=PROFILES, rounds=1, cache=True)  # a new scorer each run
        runs.append(score(read_eval_log(str(story_log)), scorer, display="none"))
    first, second = (run.samples or [] for run in runs)
    assert sum(len(panel_events(s)) for s in first) > 0
    for before, after in zip(first, second):
        assert panel_events(after) == []  # every call of the second run read the cache
        reads = [e for e in after.events if e.event == "model" and e.cache == "read"]
        assert reads
        value = values_of(after.scores["panel"])  # type: ignore[index]
        again = values_of(before.scores["panel"])  # type: ignore[index]
        for key in ("model_calls", "tokens"):  # persona creation came from the disk cache
            assert value.pop(key) <= again.pop(key)
        assert value == again


PANEL_SCRIPT: dict[str, str] = {"mode": "only_ann"}


@modelapi(name="panelscript")
def _panelscript() -> type[ScriptedModelAPI]:
    return PanelScriptAPI


class PanelScriptAPI(ScriptedModelAPI):
    """Scores for Ann Lee only (``only_ann``), or nothing readable at all (``none``)."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        system = next((m.text for m in input if isinstance(m, ChatMessageSystem)), "")
        if PANEL_SCRIPT["mode"] == "only_ann" and system.startswith("You are Ann Lee."):
            text = '```json\n{"feedback": "Clear.", "helpfulness": 4, "safety": 2}\n```'
        else:
            text = "I would rather not put a number on it."
        return self.reply(text)


@pytest.mark.parametrize("mode", ["only_ann", "none"])
def test_unreadable_answers_are_counted_and_samples_kept(
    story_log: Path, tmp_path: Path, mode: str
) -> None:
    PANEL_SCRIPT["mode"] = mode
    scorer = panel(personas=str(_persona_file(tmp_path)), dimensions=DIMENSIONS)
    log = score(
        read_eval_log(str(story_log)),
        scorer,
        model_roles={"grader": "panelscript/x"},
        display="none",
    )
    assert log.samples and len(log.samples) == len(STORIES)
    for sample in log.samples:
        result = sample.scores["panel"]  # type: ignore[index]
        assert isinstance(result.value, dict)
        assert math.isnan(values_of(result)["helpfulness/group/teachers"])
        value = values_of(result)
        if mode == "only_ann":
            assert value["parse_failures"] == 2
            assert value["helpfulness/group/parents"] == 4.0  # Bob left out
            assert value["helpfulness"] == 4.0 and result.reason is None
        else:
            assert value["parse_failures"] == 3 and math.isnan(value["safety"])
            assert result.reason == "grader_failed"
            assert str(result.explanation).startswith("No persona gave a usable score")
    metrics = _metrics(log)
    assert metrics["parse_failures"] == 3 * (2 if mode == "only_ann" else 3)
    assert metrics["unscored"] == (0 if mode == "only_ann" else 3)


def test_the_docs_example_runs_as_pasted(tmp_path: Path) -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "panel.md"
    [code, *_] = re.findall(r"```python\n(.*?)```", docs.read_text(encoding="utf-8"), re.S)
    namespace: dict[str, Any] = {}
    exec(compile(code, str(docs), "exec"), namespace)
    log = _eval(namespace["bedtime_qa"](), tmp_path)
    assert log.samples
    for sample in log.samples:
        assert set(sample.scores or {}) == {"match", "panel"}
        value = values_of(sample.scores["panel"])  # type: ignore[index]
        assert isinstance(value, dict) and "safety/group/children" in value
