"""``stakeholder_panel``: the pooling rule and the per-annotator rule on hand-worked numbers,
the panel's sources and selection, its prompt, and an unreadable vote left out and counted.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from tests.conftest import FAST_LOG, ScriptedModelAPI, log_samples, score_value

from inspect_plural.answer_format import (
    JsonFormat,
    LabelFormat,
    declare_answer_format,
    declared_answer_format,
)
from inspect_plural.errors import OptionError
from inspect_plural.item_records import (
    AnnotatorPredictions,
    ItemAnnotator,
    ItemSampleMetadata,
    item_sample,
)
from inspect_plural.parsing import parse_label
from inspect_plural.prediction import Prediction
from inspect_plural.prompts import PromptTemplateError
from inspect_plural.records import Item, LabelScale
from inspect_plural.solvers.stakeholder_panel import StakeholderVotes, render_vote_prompt
from inspect_plural.solvers.stakeholder_panel._members import plan_panel, trait_profiles
from inspect_plural.solvers.stakeholder_panel._records import PanelMember, PersonaVote
from inspect_plural.solvers.stakeholder_panel._votes import (
    annotator_runs,
    group_shares,
    pool_votes,
    stands_for,
    top_label,
)
from inspect_plural.tasks import brexit

LABELS = ["x", "y"]


def _vote(persona: str, group: str, label: str | None) -> PersonaVote:
    return PersonaVote(persona=persona, group=group, label=label, error=None if label else "bad")


# --- the pooling rule ---------------------------------------------------------------------


def test_groups_weigh_equally_and_personas_equally_within_them() -> None:
    votes = [
        _vote("a1", "A", "x"),
        _vote("a2", "A", "x"),
        _vote("a3", "A", "y"),
        _vote("b1", "B", "y"),
        _vote("c1", "C", "x"),
        _vote("c2", "C", None),  # unreadable: left out, not a default label
    ]
    shares = group_shares(votes, LABELS)
    assert shares == {
        "A": {"x": pytest.approx(2 / 3), "y": pytest.approx(1 / 3)},
        "B": {"x": 0.0, "y": 1.0},
        "C": {"x": 1.0, "y": 0.0},  # C's one readable vote is all of C
    }
    pooled = pool_votes(votes, LABELS)
    assert pooled is not None
    assert pooled["x"] == pytest.approx((2 / 3 + 0 + 1) / 3)  # 5/9
    assert pooled["y"] == pytest.approx((1 / 3 + 1 + 0) / 3)  # 4/9
    assert sum(pooled.values()) == pytest.approx(1.0)
    # counted per persona, x would have 3 of 5 readable votes (0.6), not 5/9
    assert pooled["x"] != pytest.approx(3 / 5)


def test_a_group_without_a_readable_vote_is_left_out() -> None:
    votes = [_vote("a1", "A", "y"), _vote("b1", "B", None), _vote("b2", "B", None)]
    assert pool_votes(votes, LABELS) == {"x": 0.0, "y": 1.0}  # B's weight goes to A
    assert pool_votes([_vote("b1", "B", None)], LABELS) is None  # no vote: a failure
    assert pool_votes([_vote("a1", "A", "z")], LABELS) is None  # off the scale: no vote


def test_top_label_ties_go_to_the_tiebreak_then_scale_order() -> None:
    even = {"x": 0.5, "y": 0.5}
    assert top_label(even, LABELS) == "x"  # scale order
    assert top_label(even, LABELS, {"x": 0.4, "y": 0.6}) == "y"  # the panel's shares first
    assert top_label({"x": 1 / 3 + 1 / 3, "y": 1 - 2 / 3}, LABELS) == "x"


# --- the per-annotator rule ------------------------------------------------------------


PANEL = [
    PanelMember(name="W", group="gender", trait="gender=woman"),
    PanelMember(name="M", group="gender", trait="gender=man"),
    PanelMember(name="Y", group="age", trait="age=young"),
    PanelMember(name="O", group="age", trait="age=old"),
]


def _annotator(name: str, **traits: str) -> ItemAnnotator:
    return ItemAnnotator(annotator_id=name, label="x", traits=traits)


def test_each_annotator_gets_the_vote_of_the_personas_for_their_traits() -> None:
    votes = [_vote("W", "gender", "x"), _vote("M", "gender", "y")]
    votes += [_vote("Y", "age", "y"), _vote("O", "age", "y")]
    panel = pool_votes(votes, LABELS)
    assert panel == {"x": 0.25, "y": 0.75}  # gender (1/2, 1/2), age (0, 1)
    annotators = [
        _annotator("a", gender="woman"),  # W alone: x
        _annotator("b", gender="man", age="old"),  # M and O: y
        _annotator("c", gender="woman", age="young"),  # W x, Y y: a tie, the panel's y
        _annotator("d", gender="UNK"),  # an unknown value: nobody stands for it
        _annotator("e"),  # no traits (unnamed): the panel's majority
    ]
    runs = annotator_runs(annotators, PANEL, votes, LABELS, panel)
    assert [r.label for r in runs] == ["x", "y", "y", "y", "y"]
    assert "gender=woman" in str(runs[0].rationale)
    assert "gender=man, age=old" in str(runs[1].rationale)
    assert all("majority" in str(r.rationale) for r in runs[3:])
    # an annotator whose personas' answers were unreadable falls back to the majority
    unreadable = [_vote("W", "gender", None), *votes[1:]]
    [run] = annotator_runs([annotators[0]], PANEL, unreadable, LABELS, panel)
    assert run.label == "y" and "no persona of their trait groups voted" in str(run.rationale)
    # no readable vote at all: every annotator's label is a failure too
    none = [_vote(m.name, m.group, None) for m in PANEL]
    [failed] = annotator_runs([annotators[0]], PANEL, none, LABELS, None)
    assert failed.label is None and not failed.parse_ok


def test_a_given_persona_stands_for_the_trait_its_group_is_named_after() -> None:
    nurse = PanelMember(name="N", group="Target Group")
    keyed = PanelMember(name="K", group="group=control group")
    assert stands_for(nurse, "group", "target group")  # case and spacing ignored
    assert not stands_for(nurse, "group", "control group")
    assert stands_for(keyed, "group", "control group")
    assert not stands_for(PanelMember(name="P", group="Panel"), "group", "target group")
    assert stands_for(PANEL[0], "gender", "woman") and not stands_for(PANEL[0], "age", "woman")


# --- the panel's sources -----------------------------------------------------------------


def test_the_default_panel_is_one_profile_per_trait_value_grouped_by_dimension() -> None:
    profiles, traits = trait_profiles([["gender", "woman"], ["Country_of_birth", "Demoland"]])
    assert [p.text for p in profiles] == [
        "a person whose gender is woman",
        "a person whose country of birth is Demoland",
    ]
    assert [p.group for p in profiles] == ["gender", "Country_of_birth"]
    assert traits == ["gender=woman", "Country_of_birth=Demoland"]
    values = [["gender", "woman"], ["gender", "man"], ["age", "old"]]
    plan = plan_panel(None, [], values, ["Gender"], 1)
    assert plan.origin == "traits"
    assert [p.text for p in plan.source.profiles] == ["a person whose gender is woman"]
    assert plan.traits == ["gender=woman"]


def test_a_panel_needs_personas_or_trait_values_and_known_groups() -> None:
    with pytest.raises(OptionError, match=r"(?s)option personas: .*-T personas="):
        plan_panel(None, [], None, None, None)
    with pytest.raises(OptionError, match=r"option panel_groups: 'teachers' is not a group"):
        plan_panel("parents: a mother; a nurse", [], None, ["teachers"], None)
    plan = plan_panel("parents: a mother; parents: a father; a nurse", [], None, None, 1)
    assert plan.origin == "profiles"
    assert [(p.group, p.text) for p in plan.source.profiles] == [
        ("parents", "a mother"),
        ("Panel", "a nurse"),
    ]
    shipped = plan_panel("storysparkqa", [], None, None, 1)
    assert shipped.origin == "file" and shipped.source.persona_set is not None
    assert all(len(g.personas) == 1 for g in shipped.source.persona_set.groups)
    with pytest.raises(OptionError, match="persona_docs"):
        plan_panel(None, ["no/such/document.md"], None, None, None)


# --- the prompt -----------------------------------------------------------------------------


SCALE = LabelScale(kind="nominal", labels=["not ironic", "ironic"], description="Is it ironic?")
MEMBER = PanelMember(
    name="Ada Demo",
    group="Gender",
    trait="Gender=Female",
    profile="a person whose gender is Female",
    description="Perspective: notices tone.",
)


def _metadata() -> ItemSampleMetadata:
    return ItemSampleMetadata(
        dataset="mp_demo",
        item_id="test-1",
        scale=SCALE,
        item=Item(id="test-1", parts={"post": "Nice weather.", "reply": "Lovely, more rain."}),
        gold={"not ironic": 0.5, "ironic": 0.5},
        annotators=[ItemAnnotator(annotator_id="Ann1", label="ironic")],
    )


def test_the_prompt_holds_the_item_the_labels_the_profile_and_a_filled_example() -> None:
    text, declared = render_vote_prompt(_metadata(), MEMBER)
    assert text.startswith("Label a piece of content as one member of a panel")
    assert "# Who You Are\n\nYou are Ada Demo.\nStakeholder group: Gender\n" in text
    assert "Profile: a person whose gender is Female" in text
    assert "Perspective: notices tone." in text and "Stakeholder group: Gender" in text
    assert "reply: Lovely, more rain." in text and "Is it ironic?" in text
    assert '"not ironic", "ironic"' in text  # the literal labels
    # a filled example (a label drawn for the item and persona), no placeholder
    assert declared.example is not None and f"```json\n{declared.example}\n```" in text
    assert json.loads(declared.example)["label"] in ("not ironic", "ironic")
    assert "<" not in text and ">" not in text
    assert isinstance(declared, LabelFormat) and declared.labels == SCALE.labels
    assert "Give no analysis" in render_vote_prompt(_metadata(), MEMBER, reasoning=False)[0]
    # a persona whose answer was unreadable keeps its profile as perspective: shown once
    fallback = MEMBER.model_copy(update={"description": f"Perspective: {MEMBER.profile}"})
    text, _ = render_vote_prompt(_metadata(), fallback)
    assert text.count("a person whose gender is Female") == 1


def test_user_templates_replace_the_prompt(tmp_path: Path) -> None:
    (tmp_path / "stakeholder_label.txt").write_text(
        "{name}|{profile}|{item}|{labels}|{response_format}", encoding="utf-8"
    )
    text, _ = render_vote_prompt(_metadata(), MEMBER, prompts=str(tmp_path))
    assert text.startswith("Ada Demo|Stakeholder group: Gender")
    (tmp_path / "stakeholder_label.txt").write_text("{item} {labels}", encoding="utf-8")
    with pytest.raises(PromptTemplateError, match="profile"):
        render_vote_prompt(_metadata(), MEMBER, prompts=str(tmp_path))


def test_the_chance_model_answers_the_prompt_with_a_label_of_the_scale() -> None:
    text, declared = render_vote_prompt(_metadata(), MEMBER)
    message = declare_answer_format(ChatMessageUser(content=text), declared)
    model = get_model("plural/random", memoize=False)
    output = asyncio.run(model.generate([message], config=GenerateConfig(seed=42)))
    parsed = parse_label(output.completion, SCALE.labels)
    assert parsed.ok and parsed.label in SCALE.labels


# --- an unreadable vote, end to end on brexit's demo items -----------------------------------


@modelapi(name="panel_script")
def _panel_script() -> type[ModelAPI]:
    return PanelScriptAPI


class PanelScriptAPI(ScriptedModelAPI):
    """Writes each profile's persona; the control group's persona answers nonsense."""

    connections = 50

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        text = input[-1].text
        if isinstance(declared_answer_format(input), JsonFormat):  # a persona from a profile
            group = re.search(r"# Profile\n\na person whose group is (\w+) group", text)
            assert group is not None
            persona = {
                "name": f"{group.group(1).title()} Person",
                "demographics": "Invented for a test.",
                "perspective": f"Sees things as the {group.group(1)} group does.",
                "specialty": "none",
                "psychological_traits": "calm",
                "social_relationships": "none",
            }
            content = f"```json\n{json.dumps(persona)}\n```"
        elif "You are Control Person." in text:
            content = "I would rather not say."
        else:
            content = '```json\n{"label": "hate speech"}\n```'
        return self.reply(content)


def test_an_unreadable_vote_is_left_out_and_counted(tmp_path: Path) -> None:
    task = brexit(demo=True, target="distribution", method="stakeholder_panel")
    [log] = eval(
        task,
        model="panel_script/main",
        limit=2,
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    for sample in log_samples(log):
        record = sample.store_as(StakeholderVotes)
        assert [v.persona for v in record.votes] == ["Control Person", "Target Person"]
        assert record.unparsed == 1
        assert [v.label for v in record.votes] == [None, "hate speech"]
        prediction = sample.store_as(Prediction)
        # the control group's vote is not defaulted: the one readable vote is all of it
        assert prediction.distribution == {"not hate speech": 0.0, "hate speech": 1.0}
        assert len(prediction.answers) == 2 and not prediction.answers[0].parse_ok
        value = score_value(sample)
        assert value["failed_answers"] == 1.0 and value["n_answers"] == 2.0
        assert value["parse_ok"] == 1.0
        runs = sample.store_as(AnnotatorPredictions).runs
        annotators = item_sample(sample.metadata).annotators
        traits = {a.annotator_id: a.traits["group"] for a in annotators}
        for run in runs:  # the control group's annotators get the panel's majority
            assert run.label == "hate speech"
            expected = "majority" if traits[run.annotator_id] == "control group" else "target"
            assert expected in str(run.rationale)
