"""Persona writing refuses a copy of the prompt's filled example and flattens nested values.

SmolLM2-135M, asked for a persona per profile (``stakeholder_panel``'s default panel),
answered twice with the example's pharmacist under the example's name, once with its
demographics as an object; the prompt showed that object's repr. These answers are
modelled on those.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from inspect_ai.model import Model, get_model
from tests.conftest import scripted_model

from inspect_plural._disk_cache import cache_dir
from inspect_plural.stakeholders import (
    Document,
    cached_personas,
    create_personas,
    persona_cache_key,
    persona_config,
)
from inspect_plural.stakeholders._cache import KIND as DOCUMENT_KIND
from inspect_plural.stakeholders._profiles import (
    CACHE_KIND,
    cached_profiles,
    parse_profiles,
    profiles_cache_key,
)
from inspect_plural.stakeholders._writing import EXAMPLE_PERSONA_NAME as MAJ_EXAMPLE_NAME
from inspect_plural.stakeholders._writing import PANEL_EXAMPLE_PERSONA_NAME as EXAMPLE_PERSONA_NAME

TASK = "Label tweets as hate speech or not."


def _scripted(*answers: str) -> Model:
    return scripted_model(list(answers), input_tokens=100, output_tokens=20)


def _fenced(value: Any) -> str:
    return "```json\n" + json.dumps(value) + "\n```"


def _rename_first_stored_persona(kind: str, key: str, name: str) -> None:
    """Edit a stored set as an older version would have stored it (label unchanged)."""
    path = cache_dir(kind) / f"{key}.json"
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["content"]["groups"][0]["personas"][0]["name"] = name
    path.write_text(json.dumps(entry), encoding="utf-8")


def test_a_profile_answered_with_the_example_keeps_the_profile_and_is_not_cached() -> None:
    profiles = parse_profiles("group: a person in the control group; a person in the target group")
    copied = _fenced(
        {
            "name": EXAMPLE_PERSONA_NAME.upper(),  # case does not hide a copy
            "demographics": {"age": 41, "education": "A community pharmacist."},
            "perspective": "She judges health advice.",
        }
    )
    written = _fenced(
        {
            "name": "Tom Reyes",
            "demographics": {"age": 29, "work": "bus driver", "hobbies": ["football", "chess"]},
            "perspective": "He reads insults aimed at a group as hate speech.",
        }
    )
    model = _scripted(copied, written, copied, written)
    config = persona_config(42)
    personas, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit
    first, second = personas.personas
    assert first.name == "Panelist 1" and first.perspective == "a person in the control group"
    assert any("copies the prompt's example" in note for note in personas.notes)
    assert second.name == "Tom Reyes"
    assert second.demographics == "age: 29; work: bus driver; hobbies: football … chess"
    _, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit  # a set holding a copied example is asked again next run


def test_maj_eval_writing_skips_a_persona_copied_from_the_example() -> None:
    extraction = _fenced({"Parents": {"perspectives": ["Age fit.", "Grammar."]}})
    grouping = _fenced({"groups": [{"name": "Parents", "perspectives": ["Age fit.", "Grammar."]}]})
    personas = _fenced(
        {
            "personas": [
                {"name": MAJ_EXAMPLE_NAME, "perspective": "She judges audio guides."},
                {"name": "Bo Kim", "perspective": "Grammar."},
            ]
        }
    )
    model = _scripted(extraction, grouping, personas)
    created = asyncio.run(create_personas([Document(name="a.txt", text="x")], TASK, model=model))
    assert [p.name for p in created.personas] == ["Bo Kim"]
    assert any("persona 1 skipped (it copies the prompt's example)" in n for n in created.notes)


def test_a_cached_profile_set_holding_a_copy_is_made_again() -> None:
    profiles = parse_profiles("a person in the control group")
    model = get_model("plural/random", memoize=False)
    config = persona_config(42)
    made, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit
    _, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert hit
    # a set stored by an older version, which took the example for an answer
    key = profiles_cache_key(profiles, TASK, model, config)
    _rename_first_stored_persona(CACHE_KIND, key, EXAMPLE_PERSONA_NAME)
    again, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit and again.personas[0].name != EXAMPLE_PERSONA_NAME


def test_a_cached_document_set_holding_a_copy_is_made_again() -> None:
    docs = [Document(name="a.txt", text="Parents want age-appropriate questions.")]
    model = get_model("plural/random", memoize=False)
    made, hit = asyncio.run(cached_personas(docs, TASK, model=model))
    assert not hit
    key = persona_cache_key(docs, TASK, "", model)
    assert made.origin.cache_key == key and (cache_dir(DOCUMENT_KIND) / f"{key}.json").is_file()
    _rename_first_stored_persona(DOCUMENT_KIND, key, MAJ_EXAMPLE_NAME)
    again, hit = asyncio.run(cached_personas(docs, TASK, model=model))
    assert not hit and MAJ_EXAMPLE_NAME not in [p.name for p in again.personas]
