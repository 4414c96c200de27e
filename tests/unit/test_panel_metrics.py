"""The panel scorer's score of one sample, its metrics and the report summary (no model)."""

from __future__ import annotations

import math
from typing import Any

import pytest
from inspect_ai.log import EvalSample
from inspect_ai.scorer import SampleScore, Score

from inspect_plural.records import RatingDimension
from inspect_plural.scorers import panel_metrics, panel_summary, units_alpha
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.panel._score import (
    PanelGroup,
    PanelRecord,
    group_keys,
    panel_score,
)
from inspect_plural.solvers.debate._records import DebateTurn, Evaluation, GroupDebate
from inspect_plural.stakeholders import Persona

HELP = RatingDimension(name="helpfulness", title="Helpfulness", description="d", low=1, high=5)
SAFE = RatingDimension(name="safety", title="Safety", description="d", low=0, high=3)

# --- the score of one sample ----------------------------------------------------------


def _eval(persona: str, scores: dict[str, float], ok: bool = True, text: str = "") -> Evaluation:
    return Evaluation(
        persona=persona,
        scores=scores,
        parse_ok=ok,
        error=None if ok else "no scores found",
        feedback=text,
        source="initial",
    )


def _record(groups: dict[str, list[str]], **extra: Any) -> PanelRecord:
    keys = group_keys(list(groups))
    return PanelRecord(
        origin="profiles",
        dimensions=[HELP, SAFE],
        groups=[
            PanelGroup(name=g, key=keys[g], personas=[Persona(name=p, perspective="x") for p in ps])
            for g, ps in groups.items()
        ],
        **extra,
    )


def _debate(group: str, evaluations: list[Evaluation], calls: int) -> GroupDebate:
    scored = [e for e in evaluations if e.scores]
    means = {
        d: sum(e.scores[d] for e in scored if d in e.scores)
        / len([e for e in scored if d in e.scores])
        for d in ("helpfulness", "safety")
        if any(d in e.scores for e in scored)
    }
    return GroupDebate(
        group=group,
        personas=[e.persona for e in evaluations],
        initial=evaluations,
        final=evaluations,
        scores=means,
        model_calls=calls,
        tokens=10 * calls,
    )


def test_group_keys_are_unique_score_names() -> None:
    assert group_keys(["Primary teachers", "primary-teachers", "Ärzte"]) == {
        "Primary teachers": "primary_teachers",
        "primary-teachers": "primary_teachers_2",
        "Ärzte": "ärzte",
    }


def test_unparsed_answers_are_counted_and_left_out_never_defaulted() -> None:
    parents = [
        _eval("Ann", {"helpfulness": 4, "safety": 1}, text="Clear and warm.\nSecond line."),
        _eval("Bob", {}, ok=False),
    ]
    teachers = [_eval("Cy", {"helpfulness": 2}, ok=False, text="Too short.")]
    debates = [_debate("Parents", parents, 2), _debate("Teachers", teachers, 1)]
    score = panel_score(debates, _record({"Parents": ["Ann", "Bob"], "Teachers": ["Cy"]}), 3, 50)
    value = values_of(score)
    assert isinstance(value, dict)
    assert value["helpfulness"] == pytest.approx((4 + 2) / 2)  # mean of the group means
    assert value["helpfulness/group/parents"] == 4.0  # Bob left out, not a default
    assert value["safety"] == 1.0 and math.isnan(value["safety/group/teachers"])
    assert value["parse_failures"] == 2.0
    assert (value["model_calls"], value["tokens"]) == (3 + 3, 50 + 30)
    assert score.reason is None
    assert "- Ann: helpfulness 4, safety 1 — Clear and warm. Second line." in str(score.explanation)
    assert "- Bob: no usable score (no scores found)" in str(score.explanation)
    assert score.metadata is not None
    assert set(score.metadata) == {"stakeholder_panel", "debate", "values"}


def test_a_sample_no_persona_could_score_is_kept_with_a_reason() -> None:
    debates = [_debate("Parents", [_eval("Ann", {}, ok=False)], 1)]
    score = panel_score(debates, _record({"Parents": ["Ann"]}))
    assert isinstance(score.value, dict)
    assert math.isnan(values_of(score)["helpfulness"]) and values_of(score)["parse_failures"] == 1
    assert score.reason == "grader_failed"
    assert str(score.explanation).startswith("No persona gave a usable score (no scores found)")


def test_the_explanation_gives_the_last_words_of_a_debating_persona() -> None:
    first = _eval("Ann", {"helpfulness": 3, "safety": 2}, text="First thoughts.")
    kept = first.model_copy(update={"feedback": "", "source": "last_turn"})
    debate = _debate("Parents", [first], 3).model_copy(
        update={
            "final": [kept],
            "turns": [DebateTurn(round=1, speaker="Ann", text="I changed my mind.")],
        }
    )
    score = panel_score([debate], _record({"Parents": ["Ann"]}))
    assert "— I changed my mind." in str(score.explanation)


# --- metrics and the report summary -----------------------------------------------------

GROUPS = {"Parents": ["Ann", "Bob"], "Teachers": ["Cy"]}
"""Three samples: parents (Ann, Bob) and teachers (Cy) score helpfulness and safety."""
SCORES = [
    {"Ann": (4, 1), "Bob": (5, 1), "Cy": (2, 1)},  # helpfulness spread 4.5 - 2 = 2.5
    {"Ann": (3, 2), "Bob": (3, 3), "Cy": (3, 2)},  # spread 0
    {"Ann": (1, 0), "Bob": (2, 0), "Cy": (2, 0)},  # spread 0.5
]


def _scores(record: PanelRecord) -> list[Score]:
    out = []
    for row in SCORES:
        debates = [
            _debate(
                g,
                [_eval(p, {"helpfulness": row[p][0], "safety": row[p][1]}) for p in members],
                len(members),
            )
            for g, members in GROUPS.items()
        ]
        out.append(panel_score(debates, record))
    return out


def test_metrics_worked_example() -> None:
    scores = _scores(_record(GROUPS))
    compute = panel_metrics()
    result = compute([SampleScore(score=s, sample_id=i) for i, s in enumerate(scores)])
    assert isinstance(result, dict)
    # panel means per sample: (4.5+2)/2, 3, (1.5+2)/2 -> 3.25, 3, 1.75
    assert result["helpfulness"] == pytest.approx((3.25 + 3 + 1.75) / 3)
    # group means over samples: parents (4.5+3+1.5)/3 = 3, teachers (2+3+2)/3 = 7/3
    assert result["helpfulness/group_spread"] == pytest.approx(3 - 7 / 3)
    assert result["helpfulness/groups_disagree"] == pytest.approx(1 / 3)  # only sample 1
    assert result["helpfulness/group/parents"] == pytest.approx(3.0)  # few groups: shown
    # alpha among the three personas (units = samples), interval level
    assert "helpfulness/alpha_interval" in result
    assert -1 <= result["helpfulness/alpha_interval"] <= 1
    assert result["parse_failures"] == 0 and result["unscored"] == 0
    assert len(result) + 2 <= 25  # with calls_per_sample and tokens_per_sample


def test_alpha_matches_inspects_krippendorff_on_the_same_units() -> None:
    scores = _scores(_record(GROUPS, alpha_level="ordinal"))
    result = panel_metrics()([SampleScore(score=s) for s in scores])
    assert isinstance(result, dict)
    units = [{p: float(v[0]) for p, v in row.items()} for row in SCORES]
    assert result["helpfulness/alpha_ordinal"] == pytest.approx(units_alpha(units, "ordinal").alpha)


def test_group_breakdowns_only_when_they_fit() -> None:
    many = {f"Group {i}": [f"P{i}"] for i in range(8)}
    record = _record(many)
    debates = [
        _debate(g, [_eval(m[0], {"helpfulness": 3, "safety": 1})], 1) for g, m in many.items()
    ]
    result = panel_metrics()([SampleScore(score=panel_score(debates, record))])
    assert isinstance(result, dict)
    # 2 dimensions x (mean, alpha, spread, disagree) + 2 + cost 2 = 12; + 2 x 8 > 25
    assert not any("/group/" in k for k in result) and len(result) == 10
    full = panel_score(debates, _record(many, metrics="full"))
    assert any("/group/" in k for k in panel_metrics()([SampleScore(score=full)]))  # type: ignore[union-attr]


def test_panel_summary_for_the_report() -> None:
    samples = []
    for i, score in enumerate(_scores(_record(GROUPS))):
        sample = EvalSample(id=f"s{i}", epoch=1, input="q", target="t")
        sample.scores = {"match": Score(value="C"), "panel": score}
        samples.append(sample)
    summary = panel_summary(samples, top=2)
    assert summary is not None
    assert (summary.scorer, summary.samples, summary.groups) == (
        "panel",
        3,
        ["Parents", "Teachers"],
    )
    cell = next(c for c in summary.cells if c.dimension == "helpfulness" and c.group == "Parents")
    assert cell.values == [4.5, 3.0, 1.5] and cell.sample_ids == ["s0", "s1", "s2"]
    assert cell.mean == pytest.approx(3.0) and cell.n == 3
    panel_cell = next(c for c in summary.cells if c.dimension == "safety" and c.group is None)
    assert panel_cell.values == pytest.approx([1.0, 2.25, 0.0])
    [alpha, _] = summary.agreement
    assert alpha.dimension == "helpfulness" and alpha.level == "interval" and alpha.n_units == 3
    contested = [(c.dimension, c.sample_id, c.spread) for c in summary.contested]
    assert contested[:2] == [("helpfulness", "s0", 2.5), ("helpfulness", "s2", 0.5)]
    assert summary.contested[0].group_means == {"Parents": 4.5, "Teachers": 2.0}
    assert panel_summary([EvalSample(id=1, epoch=1, input="q", target="t")]) is None
