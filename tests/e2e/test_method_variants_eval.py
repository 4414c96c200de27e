"""End-to-end runs of the methods' variants: CINEMETRIC's ablations (no training examples,
no character names, no selection rationale), trait_ensemble's every-trait variant, and
CINEMETRIC's reproducibility and one panel per annotator across per-question scales."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.log import EvalLog
from tests.e2e.method_runs import (
    LIMIT,
    N_PERSONAS,
    SKIPPED_TRAIT_VALUES,
    check_cinemetric_budget,
    is_persona_call,
    is_selection,
    meta_of,
    model_calls_of,
    model_events_of,
    panels_of,
    prompt_of,
    run_task,
    samples_of,
    value_of,
)

from inspect_plural.prediction import Prediction
from inspect_plural.solvers.cinemetric import CharacterPanel
from inspect_plural.sources.epic import load_epic

pytestmark = pytest.mark.e2e


# --------------------------------------------------------------------------- variants


def test_cinemetric_without_training_examples(tmp_path: Path) -> None:
    log = run_task(
        "brexit", tmp_path, LIMIT, demo=True, method="cinemetric", training_examples=False
    )
    check_cinemetric_budget(log)
    for sample in samples_of(log):
        assert meta_of(sample).training  # the examples exist, but selection must not see them
        assert sample.store_as(Prediction).method == "cinemetric/no_training_examples"
        assert sample.store_as(CharacterPanel).training_examples is False
        for event in filter(is_selection, model_events_of(sample)):
            prompt = prompt_of(event)
            assert "# How This Person Labelled Other Content" not in prompt
            assert "this person's profile and example judgments" not in prompt
            assert "fit this person's profile" in prompt


def test_cinemetric_without_character_names(tmp_path: Path) -> None:
    log = run_task("brexit", tmp_path, LIMIT, demo=True, method="cinemetric", character_names=False)
    check_cinemetric_budget(log)
    for sample in samples_of(log):
        prediction = sample.store_as(Prediction)
        panel = sample.store_as(CharacterPanel)
        assert prediction.method == "cinemetric/no_character_names"
        # the answers still say which character's rationale guided them
        assert [a.persona for a in prediction.answers] == [c.label for c in panel.characters]
        assert all(a.aspect is not None for a in prediction.answers)  # "User's aspect" line
        persona_calls = [e for e in model_events_of(sample) if is_persona_call(e)]
        assert len(persona_calls) == N_PERSONAS
        for event in persona_calls:
            prompt = prompt_of(event)
            assert "User's aspect" in prompt and "Character's aspect" not in prompt
            for character in panel.characters:
                assert character.name not in prompt and character.movie not in prompt


def test_cinemetric_without_selection_rationale(tmp_path: Path) -> None:
    log = run_task(
        "brexit", tmp_path, LIMIT, demo=True, method="cinemetric", selection_rationale=False
    )
    check_cinemetric_budget(log)
    for sample in samples_of(log):
        panel = sample.store_as(CharacterPanel)
        assert all(c.rationale for c in panel.characters)  # there was one to leave out
        persona_calls = [e for e in model_events_of(sample) if is_persona_call(e)]
        assert len(persona_calls) == N_PERSONAS
        for event in persona_calls:
            prompt = prompt_of(event)
            assert "# Why This Character" not in prompt
            assert all(c.rationale not in prompt for c in panel.characters)
            assert any(f"You are {c.name} from" in prompt for c in panel.characters)


def test_trait_ensemble_all_traits_for_everyone(tmp_path: Path) -> None:
    corpus = load_epic(demo=True)
    pairs = {
        (dim, value)
        for annotator in corpus.annotators.values()
        for dim, value in annotator.traits.items()
        if value not in SKIPPED_TRAIT_VALUES
    }
    order = {dim: i for i, dim in enumerate(corpus.trait_dimensions)}
    expected = [f"{d}={v}" for d, v in sorted(pairs, key=lambda p: (order[p[0]], p))]

    log = run_task("epic", tmp_path, LIMIT, demo=True, method="trait_ensemble", trait_scope="all")
    assert log.eval.metadata is not None
    assert log.eval.metadata["method_options"] == {"trait_scope": "all"}
    by_item: dict[str, set[str | None]] = defaultdict(set)
    calls_by_item: dict[str, int] = defaultdict(int)
    for sample in samples_of(log):
        prediction = sample.store_as(Prediction)
        assert len(prediction.answers) == len(pairs)
        assert model_calls_of(sample) == prediction.model_calls
        calls_by_item[meta_of(sample).item_id] += model_calls_of(sample)
        assert [a.persona for a in prediction.answers] == expected
        by_item[meta_of(sample).item_id].add(prediction.label)
    # the prompts do not depend on the annotator: one prediction per item, and each
    # (item, trait) is asked once, however many annotators judged the item
    assert all(len(labels) == 1 for labels in by_item.values())
    assert all(calls == len(pairs) for calls in calls_by_item.values())


# --------------------------------------------------------------------------- reproducibility


@pytest.mark.slow
def test_cinemetric_runs_are_reproducible(tmp_path: Path) -> None:
    def outcome(log: EvalLog) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        samples = {str(s.id): s for s in samples_of(log)}
        preds = {i: value_of(s)["pred"] for i, s in samples.items()}
        answers = {i: s.store_as(Prediction).answers for i, s in samples.items()}
        panels = {  # all samples of an annotator share it (check_cinemetric_budget)
            annotator: ps[0].model_dump(exclude={"built_here", "from_cache"})
            for annotator, ps in panels_of(log).items()
        }
        return preds, answers, panels

    args: dict[str, Any] = {"demo": True, "method": "cinemetric", "seed": 7}
    first = run_task("epic", tmp_path / "a", LIMIT, **args)
    # persona_cache=false: the panels are built again, not read from the first run's
    second = run_task("epic", tmp_path / "b", LIMIT, **args, persona_cache=False)
    check_cinemetric_budget(first)
    check_cinemetric_budget(second)
    assert len(panels_of(first)) >= 2  # several annotators, so several panels to compare
    assert outcome(first) == outcome(second)
    # the default reads the stored panels: the same outcome, no persona call
    third = run_task("epic", tmp_path / "c", LIMIT, **args)
    assert outcome(third) == outcome(first)
    for sample in samples_of(third):
        panel = sample.store_as(CharacterPanel)
        assert panel.from_cache and not panel.built_here
        assert model_calls_of(sample) == N_PERSONAS == len(model_events_of(sample))


def test_cinemetric_one_panel_per_annotator_across_per_question_scales(tmp_path: Path) -> None:
    """OpinionQA questions each have their own scale; the panel is still per annotator."""
    log = run_task("opinionqa", tmp_path, None, demo=True, method="cinemetric", n_annotators=4)
    samples = samples_of(log)
    annotators = {meta_of(s).annotator_id for s in samples}
    assert len(samples) == 40 and len(annotators) == 4
    assert len({meta_of(s).item_id for s in samples}) > 4  # several questions, several scales
    check_cinemetric_budget(log)
    calls = [model_calls_of(s) for s in samples]
    assert sorted(calls)[len(calls) // 2] == 3
    assert sum(calls) <= 3 * len(samples) + 12 * len(annotators)
