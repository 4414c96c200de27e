"""CINEMETRIC with a scripted, counting model: calls per annotator and per sample, the
validation and regeneration rules, the vote, the lock, and the persona_builder role."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import ScriptedModelAPI

from inspect_plural.answer_format import (
    CharacterListFormat,
    DistributionFormat,
    LabelFormat,
    declared_answer_format,
)
from inspect_plural.prompts import PromptTemplateError
from inspect_plural.records import AnnotatorSampleMetadata, Item, LabeledExample, LabelScale
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.perspective import annotator_scorer
from inspect_plural.solvers.cinemetric import cinemetric

LABELS = ["0", "1", "2", "3", "4"]
SCALE = LabelScale(kind="ordinal", labels=LABELS, description="Rate the toxicity of the comment.")

ROUND_1 = ["Ada", "Bo", "Cy", "Di", "Ed"]
ROUND_2 = ["Fay", "Gus", "Hal", "Ivy", "Jo"]


class Script:
    """What the scripted model answers; every call is counted by kind."""

    valid: set[str] = set()
    votes: dict[str, str] = {}
    calls: Counter[str] = Counter()
    prompts: list[str] = []
    roleplay_seeds: list[int | None] = []
    selection: str | None = None  # a fixed selection answer instead of the rounds' names
    verdict: str | None = None  # a fixed validation answer instead of VALID/INVALID


@modelapi(name="scripted")
def _scripted() -> type[ModelAPI]:
    return ScriptedAPI


class ScriptedAPI(ScriptedModelAPI):
    """Answers by the declared format: characters, verdicts from ``Script.valid``, votes."""

    connections = 50

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        text = input[-1].text
        Script.prompts.append(text)
        declared = declared_answer_format(input)
        if isinstance(declared, CharacterListFormat):
            Script.calls[f"{self.model_name}:select"] += 1
            names = ROUND_2 if "already considered" in text else ROUND_1
            content = Script.selection or "\n\n".join(
                f"Character Name: {n}\nMovie Title: Film of {n}\nReasoning: because {n}"
                for n in names[: declared.count]
            )
        elif isinstance(declared, LabelFormat) and declared.style == "bare":
            Script.calls[f"{self.model_name}:validate"] += 1
            name = re.search(r'"([^"]+)" is a character', text)
            assert name is not None
            content = Script.verdict or ("VALID" if name.group(1) in Script.valid else "INVALID")
        elif isinstance(declared, DistributionFormat):
            Script.calls[f"{self.model_name}:roleplay"] += 1
            who = re.search(r"You are (\w+) from", text)
            label = Script.votes.get(who.group(1) if who else "", "0")
            probs = {lab: (0.6 if lab == label else 0.1) for lab in declared.options}
            content = "Reasoning: r\nCharacter's aspect: a\n" + str(probs).replace("'", '"')
        else:
            assert isinstance(declared, LabelFormat)
            Script.calls[f"{self.model_name}:roleplay"] += 1
            Script.roleplay_seeds.append(config.seed)
            who = re.search(r"You are (\w+) from", text)
            label = Script.votes.get(who.group(1) if who else "", "0")
            content = f"Reasoning: r\nCharacter's aspect: aspect of {who and who.group(1)}\n"
            content += f"Answer: {label}"
        return self.reply(content, output_tokens=10)


@pytest.fixture(autouse=True)
def _reset() -> None:
    Script.valid = set(ROUND_1)
    Script.votes = {}
    Script.calls = Counter()
    Script.prompts = []
    Script.roleplay_seeds = []
    Script.selection = None
    Script.verdict = None


def _samples(annotators: int, per_annotator: int) -> list[Sample]:
    samples = []
    for a in range(annotators):
        training = [
            LabeledExample(item=Item(id=f"train-{a}-{i}", text=f"example {i}"), label=str(i % 5))
            for i in range(3)
        ]
        for i in range(per_annotator):
            item = Item(id=f"item-{i}", text=f"comment {i}")
            metadata = AnnotatorSampleMetadata(
                dataset="scripted",
                annotator_id=f"A{a}",
                item_id=item.id,
                traits={"gender": "woman"},
                metric_traits={"gender": "woman"},
                scale=SCALE,
                item=item,
                training=training,
                named=True,
            )
            samples.append(
                Sample(
                    id=f"A{a}:{item.id}",
                    input=item.text or "",
                    target="2",
                    metadata=metadata.model_dump(),
                )
            )
    return samples


def _run(samples: list[Sample], **solver_args: Any) -> EvalLog:
    model_roles = solver_args.pop("model_roles", None)
    task = Task(
        dataset=MemoryDataset(samples),
        solver=cinemetric(**solver_args),
        scorer=annotator_scorer(distribution=solver_args.get("answer_format") == "distribution"),
    )
    [log] = eval(
        task,
        model=get_model("scripted/main"),
        model_roles=model_roles,
        display="none",
        log_dir=None,
        max_connections=50,
    )
    assert log.status == "success", log.error
    return log


def _store(sample: EvalSample, key: str) -> Any:
    return sample.store[key]


def _calls(sample: EvalSample) -> int:
    return sum(1 for event in sample.events if event.event == "model")


def test_panel_is_built_once_per_annotator_and_each_sample_makes_three_calls() -> None:
    log = _run(_samples(annotators=3, per_annotator=8))
    assert log.samples is not None and len(log.samples) == 24
    # per annotator: 1 selection + 5 validations; per sample: 3 role-plays
    assert Script.calls == Counter({"main:select": 3, "main:validate": 15, "main:roleplay": 72})
    built = [s for s in log.samples if _store(s, "CharacterPanel:built_here")]
    assert sorted(str(s.id).split(":")[0] for s in built) == ["A0", "A1", "A2"]
    for sample in log.samples:
        here = _store(sample, "CharacterPanel:built_here")
        assert _calls(sample) == (9 if here else 3)
        assert _store(sample, "Prediction:model_calls") == (9 if here else 3)
        names = [c["name"] for c in _store(sample, "CharacterPanel:characters")]
        assert names == ["Ada", "Bo", "Cy"]  # the first three valid, in listed order


def test_invalid_candidates_are_dropped_in_listed_order() -> None:
    Script.valid = {"Bo", "Di", "Ed", "Ada"}
    log = _run(_samples(1, 2))
    assert log.samples is not None
    panel = _store(log.samples[0], "CharacterPanel:characters")
    assert [c["name"] for c in panel] == ["Ada", "Bo", "Di"]
    verdicts = {
        c["name"]: c["verdict"] for c in _store(log.samples[0], "CharacterPanel:candidates")
    }
    assert verdicts["Cy"] == "INVALID" and verdicts["Ed"] == "VALID"
    assert Script.calls["main:select"] == 1  # no regeneration when three are valid


def test_regeneration_only_when_fewer_than_three_are_valid() -> None:
    Script.valid = {"Bo", "Gus", "Jo"}
    log = _run(_samples(1, 2))
    assert log.samples is not None
    assert Script.calls["main:select"] == 2 and Script.calls["main:validate"] == 10
    first = (
        log.samples[0] if _store(log.samples[0], "CharacterPanel:built_here") else log.samples[1]
    )
    assert [c["name"] for c in _store(first, "CharacterPanel:characters")] == ["Bo", "Gus", "Jo"]
    assert _store(first, "CharacterPanel:rounds") == 2
    assert _store(first, "CharacterPanel:model_calls") == 12
    # the second round is told which characters were already considered
    second_round = [p for p in Script.prompts if "already considered" in p]
    assert len(second_round) == 1 and all(name in second_round[0] for name in ROUND_1)


def test_short_panel_is_completed_with_unvalidated_characters_and_recorded() -> None:
    Script.valid = {"Cy"}
    log = _run(_samples(1, 1), max_selection_rounds=2)
    assert log.samples is not None
    sample = log.samples[0]
    characters = _store(sample, "CharacterPanel:characters")
    # the validated character first (it leads the tie rule), then fillers in listed order
    assert [c["name"] for c in characters] == ["Cy", "Ada", "Bo"]
    assert [c["validated"] for c in characters] == [True, False, False]
    assert "completed with 2 unvalidated" in _store(sample, "CharacterPanel:status")
    assert _calls(sample) == 12 + 3  # two full rounds, then the three role-plays


def test_the_prompts_example_character_is_refused_and_no_panel_fails_the_samples() -> None:
    # SmolLM2 on HS-Brexit (issue 34): it listed the prompt's example character, the
    # validator answered a sentence, and the panel of that one unvalidated character
    # role-played every sample ("completed with 1 unvalidated")
    Script.selection = (
        "Character Name: Marge Gunderson\nMovie Title: Fargo (1996)\n"
        "Reasoning: The character's aspect: Their sense of fairness."
    )
    Script.verdict = "The character is a police chief who is known for her fairness."
    log = _run(_samples(1, 2), max_selection_rounds=2)
    assert log.samples is not None
    assert Script.calls == Counter({"main:select": 2})  # nothing validated, nothing role-played
    for sample in log.samples:
        assert _store(sample, "CharacterPanel:characters") == []
        [score] = (sample.scores or {}).values()
        assert (score.metadata or {}).get("failure") == "no_panel"
        assert values_of(score)["parse_ok"] == 0.0
    status = _store(log.samples[0], "CharacterPanel:status")
    assert "listed the prompt's example character (refused)" in status
    assert "no character could be read" in status


def test_single_selection_round_when_max_rounds_is_one() -> None:
    Script.valid = {"Cy"}
    log = _run(_samples(1, 1), max_selection_rounds=1)
    assert Script.calls["main:select"] == 1 and Script.calls["main:validate"] == 5
    assert log.samples is not None and _calls(log.samples[0]) == 6 + 3


@pytest.mark.parametrize(
    ("votes", "expected"),
    [
        ({"Ada": "1", "Bo": "3", "Cy": "3"}, "3"),  # majority
        ({"Ada": "4", "Bo": "0", "Cy": "2"}, "4"),  # all differ: the first-listed persona
        ({"Ada": "2", "Bo": "2", "Cy": "2"}, "2"),
    ],
)
def test_vote(votes: dict[str, str], expected: str) -> None:
    Script.votes = votes
    log = _run(_samples(1, 1))
    assert log.samples is not None
    sample = log.samples[0]
    assert _store(sample, "Prediction:label") == expected
    answers = _store(sample, "Prediction:answers")
    assert [a["persona"] for a in answers] == [
        "Ada (Film of Ada)",
        "Bo (Film of Bo)",
        "Cy (Film of Cy)",
    ]
    assert [a["label"] for a in answers] == [votes["Ada"], votes["Bo"], votes["Cy"]]
    assert answers[0]["aspect"] == "aspect of Ada"
    score = next(iter(sample.scores.values())) if sample.scores else None
    assert score is not None and isinstance(score.value, dict)
    assert values_of(score)["pred"] == float(LABELS.index(expected))


def test_distribution_answers_vote_on_top_labels_and_average() -> None:
    Script.votes = {"Ada": "1", "Bo": "3", "Cy": "3"}
    log = _run(_samples(1, 1), answer_format="distribution")
    assert log.samples is not None
    sample = log.samples[0]
    assert _store(sample, "Prediction:label") == "3"
    dist = _store(sample, "Prediction:distribution")
    assert dist["3"] == pytest.approx((0.1 + 0.6 + 0.6) / 3)
    assert dist["1"] == pytest.approx((0.6 + 0.1 + 0.1) / 3)
    assert sum(dist.values()) == pytest.approx(1.0)
    assert sample.scores is not None
    value = values_of(next(iter(sample.scores.values())))
    assert isinstance(value, dict) and value["p_3"] == pytest.approx(dist["3"])


def test_persona_builder_role_takes_selection_and_validation() -> None:
    builder = get_model("scripted/builder")
    log = _run(_samples(2, 3), model_roles={"persona_builder": builder})
    assert log.samples is not None
    assert Script.calls == Counter(
        {"builder:select": 2, "builder:validate": 10, "main:roleplay": 18}
    )


def test_without_character_names_the_annotator_is_simulated_from_rationales() -> None:
    log = _run(_samples(1, 1), character_names=False)
    assert log.samples is not None
    roleplays = [p for p in Script.prompts if "User's aspect" in p]
    assert len(roleplays) == 3
    used = []
    for prompt in roleplays:
        rationales = [n for n in ROUND_1 if f"because {n}" in prompt]
        assert len(rationales) == 1  # one character's rationale per simulation
        used += rationales
        assert "Film of" not in prompt and "You are" not in prompt  # no character to play
        # traits and one rationale only (the paper's B.2.3 prompt): no examples
        assert "gender: woman" in prompt and "example 0" not in prompt
    assert sorted(used) == ["Ada", "Bo", "Cy"]
    assert _store(log.samples[0], "Prediction:method") == "cinemetric/no_character_names"


def test_without_training_examples_selection_sees_traits_only() -> None:
    _run(_samples(1, 1), training_examples=False)
    selection = [p for p in Script.prompts if "Movie Title" in p and "Suggest" in p]
    assert selection and all("example 0" not in p for p in selection)
    assert all("gender: woman" in p for p in selection)
    _reset_prompts()
    _run(_samples(1, 1))
    selection = [p for p in Script.prompts if "Movie Title" in p and "Suggest" in p]
    assert selection and all("example 0" in p and "Their label: 0" in p for p in selection)


def _reset_prompts() -> None:
    Script.prompts = []


def test_without_selection_rationale_the_roleplay_omits_it() -> None:
    _run(_samples(1, 1), selection_rationale=False)
    roleplays = [p for p in Script.prompts if "You are" in p and "from the movie" in p]
    assert len(roleplays) == 3 and all("because" not in p for p in roleplays)


def test_bad_configuration_is_refused() -> None:
    with pytest.raises(ValueError, match="n_personas"):
        cinemetric(n_personas=4, n_candidates=3)
    with pytest.raises(ValueError, match="answer_format"):
        cinemetric(answer_format="score")


def test_templates_can_be_replaced_from_a_folder(tmp_path: Path) -> None:
    (tmp_path / "cinemetric_roleplay.txt").write_text(
        "CUSTOM You are {character} from the movie {movie}.{rationale}\n{item}\n{labels}\n"
        "{response_format}",
        encoding="utf-8",
    )
    (tmp_path / "cinemetric_roleplay_unused.txt").write_text("ignored", encoding="utf-8")
    _run(_samples(1, 1), prompts=str(tmp_path))
    roleplays = [p for p in Script.prompts if "from the movie" in p]
    assert len(roleplays) == 3 and all(p.startswith("CUSTOM You are") for p in roleplays)
    # the other steps keep the packaged templates
    assert any(p.startswith("# Goal\n\nYou match people") for p in Script.prompts)


def test_one_solver_shared_by_two_tasks_builds_a_panel_for_each() -> None:
    """The cache key covers the examples: a second task's annotator of the same id and
    dataset but other examples gets a panel of its own."""
    shared = cinemetric()
    first = _samples(1, 2)
    second = _samples(1, 2)
    for sample in second:  # same dataset and annotator id, other training examples
        assert sample.metadata is not None
        for example in sample.metadata["training"]:
            example["label"] = "4"
    tasks = [
        Task(dataset=MemoryDataset(s), solver=shared, scorer=annotator_scorer())
        for s in (first, second)
    ]
    logs = eval(tasks, model=get_model("scripted/main"), display="none", log_dir=None)
    assert all(log.status == "success" for log in logs)
    assert Script.calls["main:select"] == 2 and Script.calls["main:validate"] == 10


def test_simulation_without_rationale_is_refused() -> None:
    with pytest.raises(ValueError, match="selection_rationale"):
        cinemetric(character_names=False, selection_rationale=False)


def test_templates_are_checked_when_the_solver_is_built(tmp_path: Path) -> None:
    (tmp_path / "cinemetric_select.txt").write_text(
        "Suggest {count} for {profile}. {exclude}", encoding="utf-8"
    )
    with pytest.raises(PromptTemplateError, match="examples"):
        cinemetric(prompts=str(tmp_path))  # before any model call
    assert not Script.calls


def test_distribution_task_counts_a_missing_distribution_as_a_failure() -> None:
    task = Task(
        dataset=MemoryDataset(_samples(1, 2)),
        solver=cinemetric(answer_format="label"),
        scorer=annotator_scorer(distribution=True),
    )
    [log] = eval(task, model=get_model("scripted/main"), display="none", log_dir=None)
    assert log.samples is not None
    for sample in log.samples:
        assert sample.scores is not None
        score = next(iter(sample.scores.values()))
        assert isinstance(score.value, dict)
        assert values_of(score)["parse_ok"] == 0.0 and values_of(score)["p_0"] == pytest.approx(0.2)
        assert score.explanation is not None and "distribution" in score.explanation


def test_epochs_resample_the_roleplay_but_share_the_panel() -> None:
    samples = _samples(1, 1)
    task = Task(dataset=MemoryDataset(samples), solver=cinemetric(), scorer=annotator_scorer())
    [log] = eval(task, model=get_model("scripted/main"), display="none", log_dir=None, epochs=2)
    assert log.samples is not None and len(log.samples) == 2
    assert Script.calls["main:select"] == 1  # one panel for both epochs
    assert sorted(Script.roleplay_seeds) == [42, 42, 42, 43, 43, 43]  # seed + epoch - 1
