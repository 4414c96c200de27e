"""The benchmarks' protocol minimum (``benchmarks.protocol``) on worked examples.

The ``calls`` benchmark reports a method's calls minus this minimum, which must be 0;
a minimum that counted too much would hide extra calls. Each case here is worked by
hand from the method's protocol (see the module's docstring). MAJ-Eval's debate and the
``panel`` scorer are in ``test_panel_protocol_minimum.py``.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest
from benchmarks.protocol import (
    CHATEVAL_MAX_RETRY,
    attributed_minimum,
    panel_minimum,
    run_minimum,
    sample_minimum,
    shared_minimum,
)
from inspect_ai.log import EvalSample

from inspect_plural.solvers.chateval import chateval

FLUENCY = {"name": "fluency", "title": "Fluency", "description": "Reads well.", "low": 1, "high": 5}
RELEVANCE = {**FLUENCY, "name": "relevance", "title": "Relevance", "description": "On topic."}


def _sample(
    store: dict[str, Any] | None = None, metadata: dict[str, Any] | None = None, **kw: Any
) -> EvalSample:
    return EvalSample(
        id=kw.pop("id", 1),
        epoch=kw.pop("epoch", 1),
        input="demo",
        target="",
        metadata=metadata or {},
        store=store or {},
    )


def _candidates(*rounds: list[str]) -> list[dict[str, Any]]:
    """Candidates per selection round, each given by its verdict."""
    return [
        {"name": f"c{number}-{i}", "round": number, "verdict": verdict}
        for number, verdicts in enumerate(rounds, start=1)
        for i, verdict in enumerate(verdicts)
    ]


# --- one-call, no-call and K-call methods -----------------------------------------------


@pytest.mark.parametrize(
    ("method", "options", "expected"),
    [
        ("llm_judge", {}, 1),
        ("personalized_judge", {}, 1),
        ("retrieval_examples", {}, 1),
        ("perse_review", {}, 1),
        ("annotator_majority", {}, 0),
        ("item_majority", {}, 0),
        ("rouge_l", {}, 0),
        ("prior_average", {}, 0),
        ("matrix_factorization", {}, 0),
        ("perse_aspect", {}, 1),
        ("perse_aspect", {"both_orders": True}, 2),
        ("perse_aspect", {"both_orders": "true"}, 2),  # as -T passes it
        ("perse_aspect", {"both_orders": "false"}, 1),
        ("role_identification", {}, 1),
        ("role_identification", {"self_consistency": 5}, 5),
    ],
)
def test_fixed_minimum(method: str, options: dict[str, Any], expected: int) -> None:
    assert sample_minimum(method, _sample(), options) == expected


def test_unknown_method_has_no_minimum() -> None:
    with pytest.raises(ValueError, match="no protocol minimum"):
        sample_minimum("no_such_method", _sample(), {})


# --- trait ensemble -------------------------------------------------------------------


def test_trait_ensemble_asks_each_known_trait() -> None:
    traits = {"gender": "woman", "age": "30-39", "education": "UNK", "religion": ""}
    assert sample_minimum("trait_ensemble", _sample(metadata={"traits": traits}), {}) == 2
    # an annotator with no known trait is still asked once
    assert sample_minimum("trait_ensemble", _sample(metadata={"traits": {"age": ""}}), {}) == 1


def test_trait_scope_all_counts_each_item_and_trait_value_once() -> None:
    samples = [
        _sample(metadata={"item_id": "i1"}, id="i1-a"),
        _sample(metadata={"item_id": "i1"}, id="i1-b"),  # same item, another annotator
        _sample(metadata={"item_id": "i2"}, id="i2-a"),
        _sample(metadata={"item_id": "i1"}, id="i1-a", epoch=2),  # a new epoch asks again
    ]
    options = {"trait_scope": "all"}
    assert all(sample_minimum("trait_ensemble", s, options) == 0 for s in samples)
    # (i1, 1), (i2, 1), (i1, 2): 3 item-epochs x 4 trait values
    assert shared_minimum("trait_ensemble", samples, options, trait_values=4) == 12
    assert run_minimum("trait_ensemble", samples, options, trait_values=4) == 12


# --- CINEMETRIC -----------------------------------------------------------------------


def test_panel_stops_after_the_round_that_reaches_n_personas() -> None:
    # round 1: 1 selection + 5 validations, 3 VALID -> no second round
    first = _candidates(["VALID", "VALID", "VALID", "INVALID", "INVALID"])
    assert panel_minimum(first, n_personas=3, rounds=2) == 6
    # round 1 finds 2, round 2 one more: both rounds
    two = _candidates(["VALID", "VALID", "INVALID"], ["VALID", "INVALID"])
    assert panel_minimum(two, n_personas=3, rounds=2) == (1 + 3) + (1 + 2)
    # never enough: every allowed round, and no more
    short = _candidates(["INVALID"] * 5, ["VALID"] * 2, ["INVALID"] * 5)
    assert panel_minimum(short, n_personas=3, rounds=2) == (1 + 5) + (1 + 2)
    assert panel_minimum(short, n_personas=3, rounds=3) == (1 + 5) + (1 + 2) + (1 + 5)


def test_cinemetric_role_play_calls_per_sample() -> None:
    five = _sample({"CharacterPanel:candidates": _candidates(["VALID"] * 5)})
    assert sample_minimum("cinemetric", five, {}) == 3  # n_personas defaults to 3
    assert sample_minimum("cinemetric", five, {"n_personas": "5"}) == 5
    two = _sample({"CharacterPanel:candidates": _candidates(["VALID", "VALID"])})
    assert sample_minimum("cinemetric", two, {}) == 2  # fewer characters than asked for
    assert sample_minimum("cinemetric", _sample(), {}) == 0  # no panel: no call


def test_cinemetric_panels_count_once_per_annotator_and_not_from_disk() -> None:
    panel = _candidates(["VALID", "VALID", "INVALID"], ["VALID"])  # 4 + 2 = 6 calls

    def annotator(name: str, sample_id: int, **store: Any) -> EvalSample:
        return _sample(
            {"CharacterPanel:candidates": panel, **store},
            {"dataset": "dices", "annotator_id": name},
            id=sample_id,
        )

    samples = [
        annotator("a1", 1, **{"CharacterPanel:built_here": True}),
        annotator("a1", 2),
        annotator("a2", 3, **{"CharacterPanel:built_here": True}),
        annotator("a3", 4, **{"CharacterPanel:from_cache": True}),
    ]
    assert shared_minimum("cinemetric", samples, {}) == 6 + 6  # a1 and a2; a3 from disk
    assert run_minimum("cinemetric", samples, {}) == 4 * 3 + 12
    # the sample that built a panel carries it; the others only their role play
    assert attributed_minimum("cinemetric", samples[0], samples, {}) == 3 + 6
    assert attributed_minimum("cinemetric", samples[1], samples, {}) == 3
    assert attributed_minimum("cinemetric", samples[3], samples, {}) == 3


def test_cinemetric_paper_protocol_counts_a_panel_per_annotator_and_run() -> None:
    panel = _candidates(["VALID", "VALID", "VALID", "VALID", "VALID"])  # 1 + 5 = 6 calls
    samples = [
        _sample(
            {"CharacterPanel:candidates": panel},
            {"dataset": "brexit", "annotator_id": name},
            id=number,
            epoch=epoch,
        )
        for epoch in range(1, 6)
        for number, name in ((1, "a1"), (2, "a1"), (3, "a2"))
    ]
    # by default one panel per annotator, shared by the runs
    assert shared_minimum("cinemetric", samples, {}) == 2 * 6
    # the paper's protocol: a panel per annotator and run, 2 annotators x 5 runs
    assert shared_minimum("cinemetric", samples, {"protocol": "paper"}) == 10 * 6
    assert run_minimum("cinemetric", samples, {"protocol": "paper"}) == 15 * 3 + 60


# --- the distribution target ----------------------------------------------------------


def _item(
    annotators: dict[str, dict[str, str]],
    runs: dict[str, dict[str, Any]] | None = None,
    groups: tuple[str, ...] = (),
    item_id: str = "i1",
) -> EvalSample:
    """An item sample: its annotators (id -> visible traits), their runs' records, groups."""
    metadata = {
        "target": "distribution",
        "dataset": "toy",
        "item_id": item_id,
        "annotators": [
            {"annotator_id": a, "label": "x", "traits": t} for a, t in annotators.items()
        ],
        "groups": {g: {} for g in groups},
    }
    store = {
        "AnnotatorPredictions:runs": [
            {"annotator_id": a, "records": records} for a, records in (runs or {}).items()
        ]
    }
    return _sample(store, metadata, id=item_id)


def test_distribution_judge_asks_once_plus_once_per_steered_group() -> None:
    item = _item({"a": {}, "b": {}}, groups=("group=target", "group=control", "Gender=Woman"))
    assert sample_minimum("distribution_judge", item, {}) == 1
    assert sample_minimum("distribution_judge", item, {"steer": ["group"]}) == 1 + 2
    assert sample_minimum("distribution_judge", item, {"steer": "group,Gender"}) == 1 + 3  # -T
    assert sample_minimum("distribution_judge", item, {"steer": ["Age"]}) == 1  # no such group


@pytest.mark.parametrize(
    "method", ["uniform", "label_prior", "item_majority", "annotator_majority"]
)
def test_no_call_methods_on_items(method: str) -> None:
    assert sample_minimum(method, _item({"a": {}, "b": {}, "c": {}}), {}) == 0


def test_a_pooled_method_needs_each_annotators_calls_and_no_more() -> None:
    item = _item({"a": {"g": "x"}, "b": {"g": "UNK", "h": "y"}, "c": {}, "d": {}})
    assert sample_minimum("llm_judge", item, {}) == 4  # one per annotator
    # own traits: a 1, b 1 (UNK skipped), c and d asked once without a trait
    assert sample_minimum("trait_ensemble", item, {}) == 1 + 1 + 1 + 1
    # every trait value of the dataset, once per item and epoch, however many annotators
    items = [item, _item({"a": {}}, item_id="i2")]
    options = {"trait_scope": "all"}
    assert run_minimum("trait_ensemble", items, options, trait_values=5) == 2 * 5


def test_pooled_cinemetric_builds_each_annotators_panel_once_across_items() -> None:
    panel = _candidates(["VALID", "VALID", "INVALID"], ["VALID"])  # 4 + 2 = 6 calls
    built = {"CharacterPanel:candidates": panel, "CharacterPanel:built_here": True}
    reused = {"CharacterPanel:candidates": panel}
    cached = {"CharacterPanel:candidates": panel, "CharacterPanel:from_cache": True}
    first = _item({"a1": {}, "a2": {}}, {"a1": built, "a2": built}, item_id="i1")
    second = _item({"a1": {}, "a3": {}}, {"a1": reused, "a3": cached}, item_id="i2")
    items = [first, second]
    assert sample_minimum("cinemetric", first, {}) == 3 + 3  # role play of each annotator
    assert shared_minimum("cinemetric", items, {}) == 6 + 6  # a1 and a2 once; a3 from disk
    assert run_minimum("cinemetric", items, {}) == 4 * 3 + 12
    # the item whose runs built the panels carries them
    assert attributed_minimum("cinemetric", first, items, {}) == 2 * 3 + 2 * 6
    assert attributed_minimum("cinemetric", second, items, {}) == 2 * 3
    # an annotator the method left without a run (no panel) is owed no call
    assert sample_minimum("cinemetric", _item({"a9": {}}), {}) == 0


def _panel_item(
    personas: int,
    item_id: str = "i1",
    origin: str = "traits",
    creation_calls: int = 0,
    created_groups: int = 0,
) -> EvalSample:
    """A ``stakeholder_panel`` item: its record lists the panel and what building it cost."""
    store = {
        "StakeholderVotes:origin": origin,
        "StakeholderVotes:personas": [
            {"name": f"p{i}", "group": "g", "trait": f"g=v{i}"} for i in range(personas)
        ],
        "StakeholderVotes:creation_calls": creation_calls,
        "StakeholderVotes:created_groups": created_groups,
        # its per-annotator labels are no runs of a method: nothing to expand
        "AnnotatorPredictions:runs": [{"annotator_id": "a", "label": "x", "records": {}}],
    }
    metadata = {"target": "distribution", "item_id": item_id, "annotators": [{"annotator_id": "a"}]}
    return _sample(store, metadata, id=item_id)


def test_stakeholder_panel_votes_once_per_persona_and_builds_the_panel_once() -> None:
    # the default panel of a dataset with 2 + 3 trait values: 5 personas, 5 profiles
    built = _panel_item(5, "i1", creation_calls=5)
    others = [_panel_item(5, "i2"), _panel_item(5, "i3")]
    items = [built, *others]
    assert sample_minimum("stakeholder_panel", built, {}) == 5  # one vote per persona
    assert shared_minimum("stakeholder_panel", items, {}) == 5  # one call per profile, once
    assert run_minimum("stakeholder_panel", items, {}) == 3 * 5 + 5
    assert attributed_minimum("stakeholder_panel", built, items, {}) == 5 + 5
    assert attributed_minimum("stakeholder_panel", others[0], items, {}) == 5
    # inline profiles: the same, one per profile kept (3 here)
    inline = [_panel_item(3, "i1", "profiles", creation_calls=3), _panel_item(3, "i2", "profiles")]
    assert run_minimum("stakeholder_panel", inline, {}) == 2 * 3 + 3
    # a persona file, or a panel read from the disk cache: no creation call owed
    assert shared_minimum("stakeholder_panel", [_panel_item(4, origin="file")], {}) == 0
    assert run_minimum("stakeholder_panel", [_panel_item(5), _panel_item(5, "i2")], {}) == 10


def test_stakeholder_panel_from_documents_counts_maj_evals_creation(tmp_path: Path) -> None:
    document = tmp_path / "stakeholders.md"
    document.write_text("Parents want stories children enjoy.\n\nTeachers want questions.\n")
    options = {"persona_docs": [str(document)]}
    # 1 chunk + 1 grouping + 1 persona call per group created (3, before panel_groups
    # kept 2 of them); the panel's 4 personas vote on each of the 2 items
    built = _panel_item(4, "i1", "documents", creation_calls=5, created_groups=3)
    items = [built, _panel_item(4, "i2", "documents")]
    assert shared_minimum("stakeholder_panel", items, options) == 1 + 1 + 3
    assert run_minimum("stakeholder_panel", items, options) == 2 * 4 + 5
    assert attributed_minimum("stakeholder_panel", built, items, options) == 4 + 5


# --- G-Eval and ChatEval ----------------------------------------------------------------


def test_geval_one_call_per_dimension_plus_switches() -> None:
    metadata = {"dimensions": [FLUENCY, RELEVANCE]}
    assert sample_minimum("geval", _sample(metadata=metadata), {}) == 2
    store = {"GEvalRecord:dimensions": [{"name": "fluency", "switched": True}, {"name": "x"}]}
    assert sample_minimum("geval", _sample(store, metadata), {}) == 3


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, 2 * 2),
        ({"chateval_rounds": 3}, 3 * 2),
        ({"chateval_roles": "five"}, 2 * 5),
        ({"chateval_strategy": "simultaneous"}, 2 * 2),
        ({"chateval_strategy": "simultaneous_summarizer", "chateval_rounds": 3}, 3 * 2 + 2),
    ],
)
def test_chateval_rounds_referees_and_summaries(options: dict[str, Any], expected: int) -> None:
    sample = _sample(metadata={"dimensions": [FLUENCY]})
    assert sample_minimum("chateval", sample, options) == expected


def test_chateval_counts_the_retries_its_rule_asks_for() -> None:
    turns = [
        {"final": False, "attempts": ["no score here"]},  # not a final answer: no retry
        {"final": True, "attempts": ["Fluency: 4"]},  # parsed first time
        {"final": True, "attempts": ["I cannot say", "Fluency score: 3"]},  # 1 retry
        {"final": True, "attempts": ["?", "??", "???", "still nothing"]},  # max_retry
    ]
    metadata = {"dimensions": [FLUENCY]}
    for max_retry, owed in [(3, 1 + 3), (2, 1 + 2), (0, 0)]:
        store = {"ChatEvalRecord:turns": turns, "ChatEvalRecord:max_retry": max_retry}
        assert sample_minimum("chateval", _sample(store, metadata), {}) == 4 + owed
    # a record that does not say: the solver's default
    sample = _sample({"ChatEvalRecord:turns": turns}, metadata)
    assert sample_minimum("chateval", sample, {}) == 4 + 1 + CHATEVAL_MAX_RETRY


def test_chateval_fallback_is_the_solvers_default() -> None:
    default = inspect.signature(chateval).parameters["max_retry"].default
    assert default == CHATEVAL_MAX_RETRY
