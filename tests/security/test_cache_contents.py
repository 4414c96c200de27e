"""Cache files are not trusted: an entry that does not fit the run is rebuilt (issue 29 item 4).

Each entry records what it was made for (kind, key, task or annotator, model, prompt
version, seed) and its sizes; on read the label must fit the run and the content must
agree with the label. Before, a swapped, cut-short or empty entry was used silently.
Here: persona sets created from documents (MAJ-Eval) and the panel scorer's expanded
profiles; CINEMETRIC's panels are in ``test_cinemetric_cache_contents.py``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from inspect_ai.model import get_model

from inspect_plural._disk_cache import cache_dir
from inspect_plural.stakeholders import Document, cached_personas, persona_cache_key, persona_config
from inspect_plural.stakeholders._cache import KIND as DOCUMENT_KIND
from inspect_plural.stakeholders._profiles import (
    CACHE_KIND,
    cached_profiles,
    parse_profiles,
    profiles_cache_key,
)

TASK = "Rate how well a summary serves its readers."
PARENTS = [Document(name="a.txt", text="Parents want age-appropriate questions.")]
TEACHERS = [Document(name="b.txt", text="Teachers want questions that test understanding.")]


def _file(kind: str, key: str) -> Path:
    return cache_dir(kind) / f"{key}.json"


def _edit(kind: str, key: str, change: str) -> None:
    path = _file(kind, key)
    entry = json.loads(path.read_text(encoding="utf-8"))
    content = entry["content"]
    if change == "label disagrees":  # the content was cut short, or the label forged
        entry["label"]["sizes"]["personas"] += 2
    elif change == "drop personas and relabel":  # cut short, label made to agree
        content["groups"] = content["groups"][:1]
        content["groups"][0]["personas"] = content["groups"][0]["personas"][:1]
        entry["label"]["sizes"] = {"groups": 1, "personas": 1}
    elif change == "empty":
        content["groups"] = []
    elif change == "unlabelled":
        entry = content
    path.write_text(json.dumps(entry), encoding="utf-8")


def test_a_set_copied_under_another_tasks_key_is_rebuilt_with_a_note() -> None:
    model = get_model("plural/random", memoize=False)
    parents, _ = asyncio.run(cached_personas(PARENTS, TASK, "storysparkqa", model=model))
    asyncio.run(cached_personas(TEACHERS, TASK, "mslr_cochrane", model=model))
    source = _file(DOCUMENT_KIND, persona_cache_key(PARENTS, TASK, "storysparkqa", model))
    target = persona_cache_key(TEACHERS, TASK, "mslr_cochrane", model)
    _file(DOCUMENT_KIND, target).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    again, hit = asyncio.run(cached_personas(TEACHERS, TASK, "mslr_cochrane", model=model))
    assert not hit
    [note] = [n for n in again.notes if "cache entry" in n]
    assert "made for task storysparkqa" in note and "differs in key, made_for" in note
    assert target in note  # names the file
    # the rebuilt set is stored without the note, so the next run reads it back
    third, hit = asyncio.run(cached_personas(TEACHERS, TASK, "mslr_cochrane", model=model))
    assert hit and not any("cache entry" in n for n in third.notes)


def test_cut_short_empty_and_unlabelled_sets_are_rebuilt() -> None:
    model = get_model("plural/random", memoize=False)
    made, _ = asyncio.run(cached_personas(PARENTS, TASK, "storysparkqa", model=model))
    key = persona_cache_key(PARENTS, TASK, "storysparkqa", model)
    expected = {
        "label disagrees": "its content has",
        "empty": "unreadable",
        "unlabelled": "older layout",
    }
    for change, why in expected.items():
        _edit(DOCUMENT_KIND, key, change)
        again, hit = asyncio.run(cached_personas(PARENTS, TASK, "storysparkqa", model=model))
        assert not hit, change
        assert any(why in n for n in again.notes), (change, again.notes)
        assert len(again.personas) == len(made.personas)


def test_a_panel_with_fewer_personas_than_profiles_is_rebuilt() -> None:
    profiles = parse_profiles("a nurse; a patient; a hospital lawyer")
    model = get_model("plural/random", memoize=False)
    config = persona_config(42)
    made, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit and len(made.personas) == 3
    _edit(
        CACHE_KIND, profiles_cache_key(profiles, TASK, model, config), "drop personas and relabel"
    )
    again, hit = asyncio.run(cached_profiles(profiles, TASK, model, config))
    assert not hit and len(again.personas) == 3
    assert any("this run needs {'personas': 3}" in n for n in again.notes), again.notes


def test_a_set_made_with_another_seed_is_not_used() -> None:
    profiles = parse_profiles("a nurse; a patient")
    model = get_model("plural/random", memoize=False)
    asyncio.run(cached_profiles(profiles, TASK, model, persona_config(1)))
    first = _file(CACHE_KIND, profiles_cache_key(profiles, TASK, model, persona_config(1)))
    second_key = profiles_cache_key(profiles, TASK, model, persona_config(2))
    _file(CACHE_KIND, second_key).write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    again, hit = asyncio.run(cached_profiles(profiles, TASK, model, persona_config(2)))
    assert not hit
    assert any("differs in key, seed" in n for n in again.notes), again.notes
