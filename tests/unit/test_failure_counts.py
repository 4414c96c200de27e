"""Every failed answer is counted, with its reason: debate turns, syntheses, panels included.

Before, MAJ-Eval's prediction listed no answer (its debate turns that failed to parse
were counted nowhere), ChatEval counted only its final answers, and a failure had a
message but no reason a report could count.
"""

from __future__ import annotations

from inspect_ai.scorer import SampleScore, Score
from inspect_ai.util import Store

from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.scorers._failures import answer_failures, failure_reasons, failure_values
from inspect_plural.scorers.ratings._scorer import debate_outcomes
from inspect_plural.solvers.chateval import ChatEvalRecord, ChatEvalTurn
from inspect_plural.solvers.debate import DebateTurn, Evaluation, GroupDebate, PanelDebate


def _debate() -> GroupDebate:
    return GroupDebate(
        group="Clinicians",
        personas=["Ana", "Bo"],
        initial=[
            Evaluation(persona="Ana", scores={"overall": 4}, parse_ok=True),
            Evaluation(persona="Bo", parse_ok=False, failure="hedge"),
        ],
        turns=[
            DebateTurn(round=1, speaker="Bo", parse_ok=False, failure="echo"),
            DebateTurn(round=1, speaker="Ana", parse_ok=True, scores={"overall": 4}),
        ],
        final=[
            Evaluation(persona="Ana", scores={"overall": 4}, parse_ok=True, source="done"),
            Evaluation(persona="Bo", parse_ok=False, failure="truncated", source="closing_call"),
        ],
        aggregator_failure="echo",
    )


def test_a_debate_counts_every_answer_it_asked_for() -> None:
    outcomes = _debate().answer_outcomes()
    # 2 independent evaluations, 2 turns, 1 closing call (Ana's final is a kept one), 1
    # synthesis
    assert len(outcomes) == 6
    assert sorted(str(f) for ok, f in outcomes if not ok) == ["echo", "echo", "hedge", "truncated"]


def test_the_rating_scorer_reads_maj_eval_and_chateval_discussions() -> None:
    store = Store()
    PanelDebate.detached(groups=[_debate()]).write_to(store)
    assert len(debate_outcomes(store)) == 6
    store = Store()
    ChatEvalRecord.detached(
        turns=[
            ChatEvalTurn(round=1, referee="Critic", text="Too vague."),
            ChatEvalTurn(round=1, referee="Scientist", parse_ok=False, failure="echo"),
            ChatEvalTurn(round=2, referee="Critic", final=True, parse_ok=True),
        ]
    ).write_to(store)
    # the final turns are the prediction's answers; the discussion turns are counted here
    assert debate_outcomes(store) == [(True, None), (False, "echo")]


def test_failures_by_reason_per_sample_and_per_run() -> None:
    failed = Prediction.detached(
        parse_ok=False,
        answers=[
            ModelAnswer(raw="", parse_ok=False, failure="echo"),
            ModelAnswer(raw="", parse_ok=False),  # recorded before reasons existed
            ModelAnswer(raw="a", parse_ok=True),
        ],
    )
    assert failure_values(answer_failures(failed)) == {"failed/echo": 1.0, "failed/no_answer": 1.0}
    no_panel = Prediction.detached(parse_ok=False, failure="no_panel")
    assert answer_failures(no_panel) == ["no_panel"]  # no answer was asked for
    scores = [
        SampleScore(score=Score(value={"failed/echo": 2.0, "parse_ok": 0.0})),
        SampleScore(score=Score(value={"failed/echo": 1.0, "failed/hedge": 1.0})),
        SampleScore(score=Score(value={"parse_ok": 1.0})),
    ]
    assert failure_reasons()(scores) == {"failed/any": 4.0, "failed/echo": 3.0, "failed/hedge": 1.0}
