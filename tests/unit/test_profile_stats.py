"""The profile's hand-written formulas on worked examples (each checked by hand or by scipy)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from inspect_ai.dataset import Sample
from scipy.stats import pearsonr

from inspect_plural.profile._build import read_cell_notes, run_notes
from inspect_plural.profile._cells import CELLS
from inspect_plural.profile._independence import (
    effective_judges,
    error_matrix,
    mean_error_correlation,
    vote_error,
)
from inspect_plural.profile._index import LogIndex
from inspect_plural.profile._intervals import (
    single_skill_statistic,
    skill_difference_statistic,
    skill_statistic,
    stratified_mean_statistic,
)
from inspect_plural.profile._logs import CellLog, Row, Vote
from inspect_plural.profile._opinionqa import steerability_cell
from inspect_plural.profile._run import record_cells
from inspect_plural.profile._skill import item_distances, shuffled_reference
from inspect_plural.profile._tasks import (
    CELLS_FILE,
    BuiltCell,
    build_cell,
    choose_samples,
    missing_note,
)
from inspect_plural.report import Bootstrap
from inspect_plural.scorers import manhattan_distance, wasserstein_distance


def test_skill_statistic_worked_example() -> None:
    # stratum 0: own (1, 1), ref (2, 2) -> 1 - 2/4 = 0.5; stratum 1: own 3, ref 2 -> -0.5
    own, ref, codes = np.array([1.0, 1.0, 3.0]), np.array([2.0, 2.0, 2.0]), np.array([0, 0, 1.0])
    assert float(skill_statistic(own, ref, codes)) == pytest.approx(0.0)
    assert float(single_skill_statistic(own[:2], ref[:2])) == pytest.approx(0.5)
    # a batch of resamples along the leading axis: each row its own statistic
    batch = skill_statistic(np.stack([own, own * 0]), np.stack([ref, ref]), np.stack([codes] * 2))
    assert batch.tolist() == pytest.approx([0.0, 1.0])
    # model a minus model b on the same units: 0 - (1 - 0) ... per stratum, then the mean
    diff = skill_difference_statistic(own, ref, own * 0, ref, codes)
    assert float(diff) == pytest.approx(0.0 - 1.0)


def test_stratified_mean_weights_strata_equally() -> None:
    # strata means 1/3 and 1 -> 2/3 (the pooled mean would be 3/5)
    values, codes = np.array([1.0, 0, 0, 1, 1]), np.array([0, 0, 0, 1, 1.0])
    assert float(stratified_mean_statistic(values, codes)) == pytest.approx(2 / 3)


def test_effective_judges_formula() -> None:
    # n / (1 + (n - 1) r): 6 judges at r = 0.5 are worth 6 / 3.5 independent ones
    assert effective_judges(6, 0.5) == pytest.approx(6 / 3.5) == pytest.approx(1.7142857)
    assert effective_judges(6, 0.0) == 6
    assert effective_judges(6, 1.0) == 1
    # anti-correlated errors count as independent: never more judges than the panel has
    assert effective_judges(3, -0.25) == 3
    assert effective_judges(7, -0.609) == 7  # VariErrNLI's demo panel: was inf


def test_mean_error_correlation_against_scipy() -> None:
    a = np.array([0.0, 1, 0, 1, 0.5])
    b = np.array([0.1, 0.9, 0.2, 0.7, 0.4])
    c = np.array([1.0, 0, 1, 0, np.nan])  # no vote on the last item
    expected = np.mean(
        [
            pearsonr(a, b).statistic,
            pearsonr(a[:4], c[:4]).statistic,
            pearsonr(b[:4], c[:4]).statistic,
        ]
    )
    assert float(mean_error_correlation(a, b, c)) == pytest.approx(expected)
    # a pair with fewer than 3 common items, or a constant one, has no r and is left out
    d = np.array([np.nan, np.nan, np.nan, 0.3, 0.4])
    flat = np.full(5, 0.5)
    assert float(mean_error_correlation(a, b, d, flat)) == pytest.approx(pearsonr(a, b).statistic)
    assert math.isnan(float(mean_error_correlation(a, d)))
    # resamples along a leading axis: each row its own mean
    rows = mean_error_correlation(np.stack([a, a]), np.stack([b, -b]))
    assert rows.tolist() == pytest.approx([pearsonr(a, b).statistic, -pearsonr(a, b).statistic])


def _row(gold: dict[str, float], labels: list[str], kind: str = "nominal", **kw: object) -> Row:
    return Row(id="i", values={}, labels=labels, kind=kind, gold=gold, **kw)  # type: ignore[arg-type]


def test_vote_error_is_the_chance_a_random_annotator_disagrees() -> None:
    nominal = _row({"a": 0.75, "b": 0.25}, ["a", "b"])
    assert vote_error(nominal, "a") == 0.25
    assert vote_error(nominal, "b") == 0.75
    assert math.isnan(vote_error(nominal, None))
    # ordinal 1..3, gold (.5, .5, 0): a vote "3" is 2 positions from half the people and
    # 1 from the other half: (0.5 * 2 + 0.5 * 1) / (3 - 1) = 0.75
    ordinal = _row({"1": 0.5, "2": 0.5, "3": 0.0}, ["1", "2", "3"], kind="ordinal")
    assert vote_error(ordinal, "3") == pytest.approx(0.75)
    # label sets: shares e .8, n .5, c 0; the vote {e, n}: |1-.8|, |1-.5|, |0-0| -> mean 0.7/3
    sets = _row(
        {"contradiction": 0.0, "entailment": 0.8, "neutral": 0.5},
        ["contradiction", "entailment", "neutral", "entailment + neutral"],
        base_labels=["contradiction", "entailment", "neutral"],
    )
    assert vote_error(sets, "entailment + neutral") == pytest.approx(0.7 / 3)


def test_error_matrix_follows_the_panel() -> None:
    rows = [
        _row({"a": 1.0, "b": 0.0}, ["a", "b"], votes=[Vote("p1", "g", "a"), Vote("p2", "g", "b")]),
        _row({"a": 0.5, "b": 0.5}, ["a", "b"], votes=[Vote("p1", "g", None), Vote("p2", "g", "a")]),
    ]
    personas, errors = error_matrix(rows)
    assert personas == ["p1", "p2"]
    assert errors[0, 0] == 0.0 and math.isnan(errors[0, 1])
    assert errors[1].tolist() == [1.0, 0.5]


def test_shuffled_reference_is_zero_skill_for_a_constant_prediction() -> None:
    golds = [{"a": 1.0, "b": 0.0}, {"a": 0.2, "b": 0.8}, {"a": 0.5, "b": 0.5}]
    rows = [
        Row(id=f"i{k}", values={}, labels=["a", "b"], gold=g, distribution={"a": 0.6, "b": 0.4})
        for k, g in enumerate(golds)
    ]
    own = item_distances(rows, rows)
    # own Manhattan: |.6-1|+|.4-0| = .8; |.6-.2|+|.4-.8| = .8; .1+.1 = .2
    assert own.tolist() == pytest.approx([0.8, 0.8, 0.2])
    assert own[1] == pytest.approx(manhattan_distance([[0.2, 0.8]], [[0.6, 0.4]]))
    assert shuffled_reference(rows).tolist() == pytest.approx(own.tolist())
    # a prediction that fits its own item: own 0, reference the other items' distance
    exact = [
        Row(id=r.id, values={}, labels=r.labels, gold=r.gold, distribution=r.gold) for r in rows
    ]
    ref = shuffled_reference(exact)
    assert np.all(ref > 0) and np.allclose(item_distances(exact, exact), 0.0)
    # with 3 items each gold meets both other predictions (shifts 1 and 2): item 0's
    # reference is the mean of |1-.2|+|0-.8| = 1.6 and |1-.5|+|0-.5| = 1.0 -> 1.3
    assert ref[0] == pytest.approx(1.3)
    ordinal = [
        Row(
            id="x",
            values={},
            labels=["1", "2", "3"],
            kind="ordinal",
            gold={"1": 1.0},
            distribution={"3": 1.0},
        )
    ]
    assert item_distances(ordinal, ordinal)[0] == pytest.approx(
        wasserstein_distance([[1.0, 0, 0]], [[0, 0, 1.0]])
    )


def test_samples_are_chosen_by_id_nested_and_order_free() -> None:
    samples = [Sample(id=f"s{k}", input="x") for k in range(30)]
    ten = {s.id for s in choose_samples(samples, 10)}
    twenty = {s.id for s in choose_samples(samples, 20)}
    assert len(ten) == 10 and ten < twenty
    assert {s.id for s in choose_samples(list(reversed(samples)), 10)} == ten
    kept = choose_samples(samples, 10)
    assert [s.id for s in kept] == [s.id for s in samples if s.id in ten]  # dataset order
    assert len(choose_samples(samples, None)) == 30


def test_missing_note_is_short_and_names_the_docs() -> None:
    cell = next(c for c in CELLS if c.key == "steerable/epic/plain")
    note = missing_note(cell, "EPIC needs the file X. Searched: a, b, c. " + "long " * 200)
    assert note.startswith("not measured: data missing, see docs/perseval.md")
    assert "EPIC needs the file X" in note and "Searched" not in note and len(note) < 250


def test_steerability_is_the_best_style_per_group_beside_unsteered() -> None:
    cell = next(c for c in CELLS if c.key == "steerable/opinionqa/opinionqa")
    assert cell.options["steer_style"] == "santurkar"  # their three styles, one call each
    # two questions, groups G=a and G=b; per group the mean over the questions:
    #   G=a: unsteered 0.5, qa 0.7, bio 0.6, portray 0.4 -> best qa 0.7, gain 0.2
    #   G=b: unsteered 0.8, qa 0.7, bio 0.7, portray 0.9 -> best portray 0.9, gain 0.1
    per_question = [
        {"a": (0.4, 0.8, 0.6, 0.4), "b": (0.8, 0.6, 0.7, 1.0)},
        {"a": (0.6, 0.6, 0.6, 0.4), "b": (0.8, 0.8, 0.7, 0.8)},
    ]
    rows = []
    for i, groups in enumerate(per_question):
        values: dict[str, float] = {}
        for g, (plain, qa, bio, portray) in groups.items():
            values[f"rep/G={g}"] = plain
            values[f"rep_steered_qa/G={g}"] = qa
            values[f"rep_steered_bio/G={g}"] = bio
            values[f"rep_steered_portray/G={g}"] = portray
        rows.append(Row(id=f"q{i}", values=values))
    log = CellLog(cell, "m/m", "log.eval", "quick", False, "", rows)
    result = steerability_cell(LogIndex([log], ["m/m"]), Bootstrap(resamples=200), "m/m")
    assert result is not None
    assert result.extra["styles"] == ["bio", "portray", "qa"]
    a, b = result.extra["groups"]["G=a"], result.extra["groups"]["G=b"]
    assert (a["best_style"], a["unsteered"], a["steered"]) == ("qa", 0.5, pytest.approx(0.7))
    assert (b["best_style"], b["unsteered"], b["steered"]) == ("portray", 0.8, pytest.approx(0.9))
    assert a["gain"]["estimate"] == pytest.approx(0.2)
    assert result.estimate == pytest.approx((0.2 + 0.1) / 2)
    assert result.extra["unsteered_mean"] == pytest.approx(0.65)
    assert result.extra["steered_mean"] == pytest.approx(0.8)


def test_run_caps_reach_every_calling_cell_and_the_panels_creation() -> None:
    caps = {"max_tokens": 48, "reasoning": False}
    by_key = {c.key: c for c in CELLS}
    panel = build_cell(by_key["jury/brexit/panel"], "quick", True, caps).task_args
    judge = build_cell(by_key["steerable/brexit/plain"], "quick", True, caps).task_args
    baseline = build_cell(by_key["distributional/brexit/uniform"], "quick", True, caps).task_args
    assert panel["persona_max_tokens"] == panel["max_tokens"] == 48
    assert panel["reasoning"] is False and judge["reasoning"] is False
    assert judge["max_tokens"] == 48 and "persona_max_tokens" not in judge
    assert "max_tokens" not in baseline  # no call: nothing to cap


def test_a_run_of_some_cells_keeps_the_others_notes(tmp_path: Path) -> None:
    by_key = {c.key: c for c in CELLS}
    epic, panel = by_key["steerable/epic/plain"], by_key["jury/brexit/panel"]
    record_cells(tmp_path, [BuiltCell(epic, "quick", False, missing="data missing")], ["m"])
    record_cells(tmp_path, [BuiltCell(panel, "quick", False)], ["m"])  # --only jury/brexit
    notes, models = read_cell_notes(tmp_path)
    assert models == ["m"]
    assert notes == {"steerable/epic/plain": "data missing"}
    lines = (tmp_path / CELLS_FILE).read_text().splitlines()
    assert [json.loads(line).get("key") for line in lines] == [None, epic.key, panel.key]


def test_notes_count_unreadable_answers_per_log() -> None:
    cell = next(c for c in CELLS if c.key == "distributional/brexit/judge")
    rows = [
        Row(id="a", values={"n_answers": 1.0, "failed_answers": 1.0}),
        Row(id="b", values={"n_answers": 1.0, "failed_answers": 0.0}),
        Row(id="c", values={}, errored=True),
    ]
    [errored, failed] = run_notes([CellLog(cell, "m/m", "x.eval", "quick", False, "", rows)])
    assert errored.startswith("distributional/brexit/judge (m/m): 1 of 3 samples errored")
    assert failed.startswith("distributional/brexit/judge (m/m): 1 of 2 answers could not be read")
    assert run_notes([CellLog(cell, "m/m", "x.eval", "quick", False, "", rows[1:2])]) == []


def test_numbers_that_round_to_zero_read_without_a_sign() -> None:
    from inspect_plural.profile._text import number

    assert number(-0.0) == "0.000"
    assert number(-0.0004) == "0.000"
    assert number(-0.0006) == "-0.001"
    assert number(0.25) == "0.250"
