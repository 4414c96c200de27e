"""The panel scorer's parts without a model: rubric, profiles, sources, options, prompts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState
from tests.conftest import offline_output

from inspect_plural.errors import OptionError, UserError
from inspect_plural.records import RatingDimension
from inspect_plural.scorers import panel, render_graded
from inspect_plural.scorers.panel._rubric import (
    DEFAULT_DIMENSION,
    parse_dimensions,
    rubric_dimensions,
)
from inspect_plural.solvers._ratings import scores_example
from inspect_plural.solvers.debate._score_format import (
    parse_dimension_scores,
    scale_instruction,
    scale_schema,
)
from inspect_plural.stakeholders import persona_config
from inspect_plural.stakeholders._panel import persona_source
from inspect_plural.stakeholders._profiles import (
    Profile,
    cached_profiles,
    parse_profiles,
    profiles_cache_key,
)

MODEL = "plural/random"
HELP = RatingDimension(name="helpfulness", title="Helpfulness", description="d", low=1, high=5)
SAFE = RatingDimension(name="safety", title="Safety", description="d", low=0, high=3)

# --- rubric ---------------------------------------------------------------------------


def test_dimensions_from_the_option_in_every_form() -> None:
    expected = [("helpfulness", 1, 5), ("safety", 0, 3)]

    def shape(dims: list[RatingDimension]) -> list[tuple[str, float, float]]:
        return [(d.name, d.low, d.high) for d in dims]

    assert shape(parse_dimensions("helpfulness:1-5,safety:0-3")) == expected
    # inspect's -S splits a plain string at commas
    assert shape(parse_dimensions(["helpfulness:1-5", "safety: 0 - 3"])) == expected
    # -S dimensions="{helpfulness: 1-5, safety: 0-3}" arrives as a mapping
    assert shape(parse_dimensions({"helpfulness": "1-5", "safety": [0, 3]})) == expected
    # a bare name is on 1-5, and gets a title and a description
    [plain] = parse_dimensions("Story Fit")
    assert (plain.name, plain.title, plain.low, plain.high) == ("story_fit", "Story fit", 1, 5)
    assert plain.description
    assert rubric_dimensions(None, None) == [DEFAULT_DIMENSION]


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("helpfulness:5-1", "below the high end"),
        ("helpfulness:1-x", "not LOW-HIGH"),
        ("helpfulness:1.5-4", "not LOW-HIGH"),
        ("1st:1-5", "must start with a letter"),
        ("a:1-5,a:1-3", "given twice"),
        ("", "no dimension"),
    ],
)
def test_a_bad_dimension_names_the_option(value: str, problem: str) -> None:
    with pytest.raises(OptionError, match=f"option dimensions: .*{problem}"):
        parse_dimensions(value)


def test_rubric_files_yaml_and_json(tmp_path: Path) -> None:
    yaml_file = tmp_path / "rubric.yaml"
    yaml_file.write_text(
        "dimensions:\n"
        "  - name: helpfulness\n    description: Helps a parent.\n    scale: 1-5\n"
        "  - name: safety\n    description: Nothing frightening.\n    low: 0\n    high: 3\n",
        encoding="utf-8",
    )
    dims = rubric_dimensions(None, str(yaml_file))
    assert [(d.name, d.description, d.low, d.high) for d in dims] == [
        ("helpfulness", "Helps a parent.", 1, 5),
        ("safety", "Nothing frightening.", 0, 3),
    ]
    json_file = tmp_path / "rubric.json"
    json_file.write_text(json.dumps({"clarity": {"scale": "1-7", "title": "Clear?"}}))
    [clarity] = rubric_dimensions(None, str(json_file))
    assert (clarity.title, clarity.high) == ("Clear?", 7)
    bad = tmp_path / "bad.yaml"
    bad.write_text("- name: x\n  colour: red\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad\.yaml: unknown field\(s\) \['colour'\]"):
        rubric_dimensions(None, str(bad))
    with pytest.raises(UserError, match="rubric file not found"):
        rubric_dimensions(None, str(tmp_path / "absent.yaml"))
    with pytest.raises(OptionError, match="not both"):
        rubric_dimensions("a", str(yaml_file))


# --- personas -------------------------------------------------------------------------


def test_profiles_with_and_without_groups() -> None:
    assert parse_profiles("a nurse; a patient with diabetes;\n a hospital lawyer") == [
        Profile(text="a nurse"),
        Profile(text="a patient with diabetes"),
        Profile(text="a hospital lawyer"),
    ]
    assert parse_profiles("parents: a father of two; a teacher: she reads aloud every day") == [
        Profile(text="a father of two", group="parents"),
        # "a teacher" is a short name before a colon: a group (the docs say so)
        Profile(text="she reads aloud every day", group="a teacher"),
    ]
    long_head = "the person who reviews all of the answers: carefully"
    assert parse_profiles(long_head) == [Profile(text=long_head)]
    assert parse_profiles({"parents": ["a mother", "a father"], "teachers": "a teacher"}) == [
        Profile(text="a mother", group="parents"),
        Profile(text="a father", group="parents"),
        Profile(text="a teacher", group="teachers"),
    ]
    # inspect's -S split "a nurse, retired; a patient" at its comma: rejoined
    assert parse_profiles(["a nurse", " retired; a patient"]) == [
        Profile(text="a nurse, retired"),
        Profile(text="a patient"),
    ]
    # a Python list is one profile per item
    assert len(parse_profiles(["a nurse, retired", "a patient"])) == 2
    with pytest.raises(OptionError, match="no profile"):
        parse_profiles(" ; ")


def test_persona_source_decides_file_documents_or_profiles(tmp_path: Path) -> None:
    assert persona_source("a nurse; a patient", []).kind == "profiles"
    shipped = persona_source("storysparkqa", [])
    assert shipped.kind == "file" and shipped.persona_set is not None
    document = tmp_path / "doc.md"
    document.write_text("Parents read stories.", encoding="utf-8")
    assert persona_source(None, [str(document)]).documents == [str(document)]
    with pytest.raises(OptionError, match="persona file not found"):
        persona_source("panel/personas.json", [])
    with pytest.raises(OptionError, match="document not found"):
        persona_source(None, [str(tmp_path / "absent.md")])
    with pytest.raises(OptionError, match="needs personas"):
        persona_source(None, [])
    with pytest.raises(OptionError, match="not both"):
        persona_source("a nurse", [str(document)])
    broken = tmp_path / "broken.json"
    broken.write_text("{}", encoding="utf-8")
    with pytest.raises(OptionError, match="broken.json: not a valid persona file"):
        persona_source(str(broken), [])


def test_scorer_options_fail_in_a_few_lines_that_name_the_option() -> None:
    with pytest.raises(UserError) as caught:
        panel(personas="a nurse", dimension="overall:1-5")
    message = str(caught.value)
    assert message.startswith("inspect_plural/panel: option dimension: not an option of the")
    assert "did you mean dimensions" in message
    # not a ValueError: Inspect's scorer loader would report "scorer not found" for one
    assert not isinstance(caught.value, ValueError)
    with pytest.raises(UserError, match="option rounds: must be at most 10"):
        panel(personas="a nurse", rounds=11)
    with pytest.raises(UserError, match="option cache: must be true, false or an expiry"):
        panel(personas="a nurse", cache="forever")
    with pytest.raises(UserError, match="option groups: unknown stakeholder group"):
        panel(personas="storysparkqa", groups="Astronauts")


# --- what the personas see ------------------------------------------------------------


def _state(input: str | list[Any], output: str, target: str | list[str] = "") -> TaskState:
    state = TaskState(
        model="plural/random",  # type: ignore[arg-type]
        sample_id="s1",
        epoch=1,
        input=input,
        messages=[],
        target=Target(target),
    )
    state.output = ModelOutput.from_content("m", output)
    return state


def test_render_graded_shows_input_target_and_output() -> None:
    state = _state("Where did the fox hide the moon?", "In a teapot.", "in a teapot")
    text = render_graded(state, Target("in a teapot"))
    assert text == (
        "## Input\n\nWhere did the fox hide the moon?\n\n"
        "## Reference answer\n\nin a teapot\n\n## Response\n\nIn a teapot."
    )
    assert "Reference" not in render_graded(state)
    chat = [ChatMessageSystem(content="Be kind."), ChatMessageUser(content="Hi")]
    assert render_graded(_state(chat, "")) == "## Input\n\nHi\n\n## Response\n\n(empty)"
    several = render_graded(state, Target(["a teapot", "the teapot"]))
    assert "## Reference answers (any of these)\n\n- a teapot\n- the teapot" in several


# --- scores on each dimension's scale --------------------------------------------------


def test_other_scales_are_asked_and_checked_per_dimension() -> None:
    dims = [HELP, SAFE]
    schema = scale_schema(dims, {"feedback": {"type": "string"}})
    assert schema["properties"]["safety"] == {"type": "integer", "minimum": 0, "maximum": 3}
    instruction = scale_instruction(dims)
    assert '"safety" from 0 (worst) to 3 (best)' in instruction
    example = json.dumps(scores_example(dims, ""))
    assert f"```json\n{example}\n```" in instruction and "<" not in instruction
    assert 0 <= json.loads(example)["safety"] <= 3
    ok = parse_dimension_scores('{"feedback": "fine", "helpfulness": 5, "safety": 0}', dims)
    assert ok.ok and ok.scores == {"helpfulness": 5.0, "safety": 0.0}
    assert ok.fields == {"feedback": "fine"}
    # safety 4 is outside 0-3 although inside helpfulness' 1-5
    bad = parse_dimension_scores('{"helpfulness": 2, "safety": 4}', dims)
    assert not bad.ok and bad.scores == {"helpfulness": 2.0}
    assert bad.error == "safety=4 outside 0-3"


# --- inline profiles: expanded once, cached by what changes the answers -----------------


def _unreadable(n: int) -> list[ModelOutput]:
    return [offline_output("I would rather not invent anyone.", input_tokens=5) for _ in range(n)]


def test_profiles_are_expanded_once_and_cached_by_what_changes_the_answers(
    tmp_path: Path,
) -> None:
    profiles = parse_profiles("parents: a mother of two; a kindergarten teacher")
    model = get_model("plural/random", memoize=False)
    config = persona_config(42)
    task = "Answer questions about a story."
    first, hit = asyncio.run(cached_profiles(profiles, task, model, config))
    assert not hit and first.usage.calls == 2
    assert [(g.name, len(g.personas)) for g in first.groups] == [("parents", 1), ("Panel", 1)]
    assert all(p.name and p.perspective and p.specialty for p in first.personas)
    again, hit = asyncio.run(cached_profiles(profiles, task, model, config))
    assert hit and again.groups == first.groups

    key = profiles_cache_key(profiles, task, model, config)
    other_prompts = tmp_path / "prompts"
    other_prompts.mkdir()
    (other_prompts / "panel_persona.txt").write_text("Persona for: {profile}", encoding="utf-8")
    assert (
        len(
            {
                key,
                profiles_cache_key(profiles[:1], task, model, config),
                profiles_cache_key(profiles, "Another task.", model, config),
                profiles_cache_key(profiles, task, get_model(MODEL, seed=1, memoize=False), config),
                profiles_cache_key(profiles, task, model, persona_config(43)),
                profiles_cache_key(profiles, task, model, config, str(other_prompts)),
            }
        )
        == 6
    )

    bad = get_model("mockllm/model", custom_outputs=_unreadable(4), memoize=False)
    kept, hit = asyncio.run(cached_profiles(profiles, task, bad, config))
    assert not hit and [p.name for p in kept.personas] == ["Panelist 1", "Panelist 2"]
    assert kept.personas[0].perspective == "a mother of two"  # the profile, not a default
    assert any("answer unreadable" in note for note in kept.notes)
    _, hit = asyncio.run(cached_profiles(profiles, task, bad, config))
    assert not hit  # a panel with an unreadable answer is never cached
