"""CINEMETRIC wastes no call on a failure (issue 24, bugs 5 and 6).

A small real model answered the selection prompt with no readable character: the empty
panel was stored in the disk cache, so every later run read the failure back (0 calls,
every sample failed again), and the second selection round re-sent a byte-identical
prompt with the same seed at temperature 0. Now a short panel is never stored, the cache
key holds what changes the answer (the server too), and a round after an unreadable one
reminds the model of the format and has its own seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
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

from inspect_plural._disk_cache import cache_dir
from inspect_plural.answer_format import CharacterListFormat, declared_answer_format
from inspect_plural.records import AnnotatorSampleMetadata, Item, LabeledExample, LabelScale
from inspect_plural.scorers.perspective import annotator_scorer
from inspect_plural.solvers.cinemetric import cinemetric
from inspect_plural.solvers.cinemetric._cache import PANEL_CACHE, panel_disk_key

SCALE = LabelScale(kind="nominal", labels=["no", "yes"], description="Is it rude?")


class Garbled:
    """The selection answers the model gives, in order (then the last one again)."""

    answers: list[str] = []
    selections: list[tuple[str, int | None]] = []


GOOD = "\n\n".join(
    f"Character Name: {n}\nMovie Title: Film of {n}\nReasoning: because" for n in "ABCDE"
)


@modelapi(name="garbled")
def _garbled() -> type[ModelAPI]:
    return GarbledAPI


class GarbledAPI(ScriptedModelAPI):
    """Selections from ``Garbled.answers``; every other call a valid short answer."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        text = input[-1].text
        if isinstance(declared_answer_format(input), CharacterListFormat):
            index = min(len(Garbled.selections), len(Garbled.answers) - 1)
            Garbled.selections.append((text, config.seed))
            content = Garbled.answers[index]
        elif "Check a film fact" in text:
            content = "VALID"
        else:
            content = 'Reasoning: r\nCharacter\'s aspect: a\n```json\n{"label": "no"}\n```'
        return self.reply(content, input_tokens=5)


@pytest.fixture(autouse=True)
def _reset() -> None:
    Garbled.answers = ["I like films a lot."]
    Garbled.selections = []


def _sample() -> Sample:
    training = [LabeledExample(item=Item(id="t1", text="an example"), label="yes")]
    metadata = AnnotatorSampleMetadata(
        dataset="garbled",
        annotator_id="A1",
        item_id="i1",
        traits={"age": "30-39"},
        metric_traits={"age": "30-39"},
        scale=SCALE,
        item=Item(id="i1", text="a comment"),
        training=training,
        named=True,
    )
    return Sample(id="A1:i1", input="a comment", target="no", metadata=metadata.model_dump())


def _run() -> None:
    task = Task(
        dataset=MemoryDataset([_sample()]),
        solver=cinemetric(max_selection_rounds=2),
        scorer=annotator_scorer(),
    )
    [log] = eval(task, model=get_model("garbled/m"), display="none", log_dir=None)
    assert log.status == "success", log.error


def _cached_panels() -> list[Path]:
    folder = cache_dir(PANEL_CACHE)
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def test_a_panel_without_characters_is_never_stored_and_a_rerun_tries_again() -> None:
    _run()
    assert len(Garbled.selections) == 2  # both rounds ran, neither read a character
    assert _cached_panels() == []
    _run()  # the rerun calls the model again instead of replaying the failure
    assert len(Garbled.selections) == 4


def test_a_complete_panel_is_stored_and_read_back_without_calls() -> None:
    Garbled.answers = [GOOD]
    _run()
    assert len(_cached_panels()) == 1 and len(Garbled.selections) == 1
    _run()
    assert len(Garbled.selections) == 1  # read from disk


def test_a_round_after_an_unreadable_one_is_not_the_same_call() -> None:
    Garbled.answers = ["nothing useful", GOOD]
    _run()
    (first, first_seed), (second, second_seed) = Garbled.selections
    assert first != second and "follow it exactly" in second
    assert first_seed != second_seed


def test_the_cache_key_holds_the_server_and_the_generate_config() -> None:
    metadata = AnnotatorSampleMetadata.model_validate(_sample().metadata)
    a = get_model("garbled/m", base_url="http://127.0.0.1:1/v1")
    b = get_model("garbled/m", base_url="http://127.0.0.1:2/v1")
    options = (5, 3, 2, True, None)
    greedy = GenerateConfig(temperature=0.0, seed=42)
    assert panel_disk_key(metadata, a, greedy, *options) != panel_disk_key(
        metadata, b, greedy, *options
    )
    hot = GenerateConfig(temperature=1.0, seed=42)
    assert panel_disk_key(metadata, a, greedy, *options) != panel_disk_key(
        metadata, a, hot, *options
    )
    assert panel_disk_key(metadata, a, greedy, *options) != panel_disk_key(
        metadata, a, greedy, *options, run=2
    )
