"""CINEMETRIC's stored panels are not trusted (issue 29 item 4).

Each panel entry records whose it is (annotator and dataset), its key, the model, the
templates' version, the seed and its character count; on read the label must fit the
run and the content its label. Before, annotator A's panel copied under B's key, a
1-character panel (the run needs 3) or an empty one were used silently (accuracy moved
from 0.000 to 0.250 in the audit). Now each is a miss: rebuilt, with a note in the
sample's panel record and transcript.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import EvalSample
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import ScriptedModelAPI, log_samples

from inspect_plural._disk_cache import cache_dir
from inspect_plural.answer_format import CharacterListFormat, declared_answer_format
from inspect_plural.records import AnnotatorSampleMetadata, Item, LabeledExample, LabelScale
from inspect_plural.scorers.perspective import annotator_scorer
from inspect_plural.solvers.cinemetric import CharacterPanel, cinemetric
from inspect_plural.solvers.cinemetric._cache import PANEL_CACHE

SCALE = LabelScale(kind="nominal", labels=["no", "yes"], description="Is it rude?")
SELECTIONS: list[str] = []


@modelapi(name="panel_maker")
def _panel_maker() -> type[ModelAPI]:
    return PanelMakerAPI


class PanelMakerAPI(ScriptedModelAPI):
    """Five characters named after the annotator asked about; every verdict VALID."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        text = input[-1].text
        if isinstance(declared_answer_format(input), CharacterListFormat):
            SELECTIONS.append(text)
            who = "Alma" if "teacher" in text else "Bert"
            content = "\n\n".join(
                f"Character Name: {who} {n}\nMovie Title: Film {n}\nReasoning: because"
                for n in "ABCDE"
            )
        elif "Check a film fact" in text:
            content = "VALID"
        else:
            content = 'Reasoning: r\nCharacter\'s aspect: a\n```json\n{"label": "no"}\n```'
        return self.reply(content, input_tokens=5)


@pytest.fixture(autouse=True)
def _reset() -> None:
    SELECTIONS.clear()


def _sample(annotator: str, job: str) -> Sample:
    metadata = AnnotatorSampleMetadata(
        dataset="cache_contents",
        annotator_id=annotator,
        item_id="i1",
        traits={"job": job},
        metric_traits={"job": job},
        scale=SCALE,
        item=Item(id="i1", text="a comment"),
        training=[LabeledExample(item=Item(id="t1", text="an example"), label="yes")],
        named=True,
    )
    return Sample(
        id=f"{annotator}:i1", input="a comment", target="no", metadata=metadata.model_dump()
    )


def _run(tmp_path: Path) -> dict[str, EvalSample]:
    task = Task(
        dataset=MemoryDataset([_sample("A", "teacher"), _sample("B", "baker")]),
        solver=cinemetric(),
        scorer=annotator_scorer(),
    )
    [log] = eval(
        task, model=get_model("panel_maker/m"), display="none", log_dir=str(tmp_path / "logs")
    )
    assert log.status == "success", log.error
    return {str(s.id).split(":")[0]: s for s in log_samples(log)}


def _entries() -> dict[str, Path]:
    """Each stored panel file by the annotator its label names."""
    found = {}
    for path in cache_dir(PANEL_CACHE).glob("*.json"):
        label = json.loads(path.read_text(encoding="utf-8"))["label"]
        found[label["made_for"].split()[1]] = path
    return found


def _panel(sample: EvalSample) -> CharacterPanel:
    return CharacterPanel.read(sample.store)


def test_annotator_a_panel_copied_under_b_key_is_rebuilt_with_a_note(tmp_path: Path) -> None:
    _run(tmp_path)
    entries = _entries()
    assert set(entries) == {"A", "B"} and len(SELECTIONS) == 2
    entries["B"].write_text(entries["A"].read_text(encoding="utf-8"), encoding="utf-8")
    samples = _run(tmp_path)
    assert len(SELECTIONS) == 3  # A's panel read from disk, B's built again
    a, b = _panel(samples["A"]), _panel(samples["B"])
    assert a.from_cache and not a.notes
    assert not b.from_cache and b.built_here
    assert all(c.name.startswith("Bert") for c in b.characters)  # not A's characters
    [note] = b.notes
    assert str(entries["B"]) in note and "made for annotator A" in note and "key" in note
    # in the transcript too (Inspect View)
    assert [e.source for e in samples["B"].events if e.event == "info"].count("panel cache") == 1
    # the rebuilt panel replaced the copy: a third run reads both without a call
    _run(tmp_path)
    assert len(SELECTIONS) == 3


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ("one character, relabelled", "this run needs {'characters': 3}"),
        ("one character", "its label says {'characters': 3}"),
        ("no character, relabelled", "it holds no characters"),
        ("old layout", "older layout"),
    ],
)
def test_short_empty_and_unlabelled_panels_are_rebuilt(
    tmp_path: Path, change: str, why: str
) -> None:
    _run(tmp_path)
    path = _entries()["A"]
    entry = json.loads(path.read_text(encoding="utf-8"))
    keep = 0 if change.startswith("no character") else 1
    entry["content"]["characters"] = entry["content"]["characters"][:keep]
    if change.endswith("relabelled"):
        entry["label"]["sizes"] = {"characters": keep}
    path.write_text(
        json.dumps(entry["content"] if change == "old layout" else entry), encoding="utf-8"
    )
    samples = _run(tmp_path)
    assert len(SELECTIONS) == 3  # only A's panel built again
    panel = _panel(samples["A"])
    assert len(panel.characters) == 3 and not panel.from_cache
    [note] = panel.notes
    assert why in note and str(path) in note
