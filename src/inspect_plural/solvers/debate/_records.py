"""The records of a MAJ-Eval debate: evaluations, turns, one group's debate, the panel.

:class:`GroupDebate` is what the group debate (:mod:`inspect_plural.solvers.debate._group`)
returns for one group and one piece of content; ``maj_eval`` stores the groups of a
sample as :class:`PanelDebate` and the personas as :class:`StakeholderPanel`, and the
``panel`` scorer keeps the same groups in its score's metadata.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from inspect_plural.parsing import FailureReason, ReadAs
from inspect_plural.prediction import StoredRecord
from inspect_plural.stakeholders import StakeholderGroup

__all__ = ["DebateTurn", "Evaluation", "GroupDebate", "PanelDebate", "StakeholderPanel"]


class Evaluation(BaseModel):
    """One persona's evaluation (phase 1, or its final one).

    Attributes:
        persona: Who evaluated.
        scores: Parsed scores (dimensions that failed to parse are absent).
        parse_ok: Whether every dimension parsed.
        error: What failed to parse.
        feedback: The text of the answer.
        read_as: How the scores were read (``json`` or ``text``; None: not from an answer).
        source: For final evaluations: ``done`` (said NO MORE COMMENTS), ``last_turn``,
            ``initial`` (never spoke successfully in the debate), ``closing_call``. With
            ``done`` and ``closing_call``, a dimension the answer did not give keeps the
            persona's last parsed score.
        schema_name: The JSON schema structured output constrained the answer to (None:
            unconstrained, or not from an answer).
        failure: Why the answer is not one (``echo``, ``copied_example``, ...; None when
            it parsed, or when not from an answer).

    """

    persona: str
    scores: dict[str, float] = Field(default_factory=dict)
    parse_ok: bool = False
    error: str | None = None
    feedback: str = ""
    read_as: ReadAs | None = None
    source: str = "phase1"
    schema_name: str | None = None
    failure: FailureReason | None = None


class DebateTurn(BaseModel):
    """One turn of the free debate.

    Attributes:
        round: Debate round (1 = first).
        speaker: Who spoke.
        forced: True when the speaker was the only candidate left (no moderator call).
        moderator_raw: The moderator's answer (empty when forced).
        reason: The moderator's reason for the pick.
        fallback: True when the moderator's answer named no candidate and the rule in code
            picked instead.
        text: What the speaker said.
        scores: The speaker's scores after the turn (parsed dimensions only).
        done: Whether the speaker said NO MORE COMMENTS.
        parse_ok: Whether every dimension parsed.
        failure: Why the turn is no answer (``echo``, ``hedge``, ...; None when parsed).

    """

    round: int
    speaker: str
    forced: bool = False
    moderator_raw: str = ""
    reason: str = ""
    fallback: bool = False
    text: str = ""
    scores: dict[str, float] = Field(default_factory=dict)
    done: bool = False
    parse_ok: bool = False
    failure: FailureReason | None = None


class GroupDebate(BaseModel):
    """Everything one stakeholder group did for one sample.

    Attributes:
        group: The group's name.
        personas: Its members, in listed order.
        initial: Phase-1 evaluations.
        turns: The debate, in order.
        final: Final evaluations.
        rounds: Debate rounds run.
        active_per_round: Members still active at the start of each round.
        stop_reason: ``all_done``, ``max_rounds``, ``single_member``, or ``independent``
            (no debate was asked for: independent scoring only).
        synthesis: The aggregator's summary.
        aggregator_scores: The averages the aggregator reported (recorded, not used).
        aggregator_mismatch: Whether those differ from the computed means.
        aggregator_failure: Why the aggregator's answer was refused (an echo or a
            copied example; None: accepted, or no aggregator).
        scores: The group's score per dimension (mean of the final scores).
        initial_scores: The mean of the phase-1 scores.
        model_calls: Calls made by the group for this sample.
        tokens: Their input plus output tokens.

    """

    group: str
    personas: list[str]
    initial: list[Evaluation] = Field(default_factory=list)
    turns: list[DebateTurn] = Field(default_factory=list)
    final: list[Evaluation] = Field(default_factory=list)
    rounds: int = 0
    active_per_round: list[int] = Field(default_factory=list)
    stop_reason: str = ""
    synthesis: str = ""
    aggregator_scores: dict[str, float] = Field(default_factory=dict)
    aggregator_mismatch: bool = False
    aggregator_failure: FailureReason | None = None
    scores: dict[str, float] = Field(default_factory=dict)
    initial_scores: dict[str, float] = Field(default_factory=dict)
    model_calls: int = 0
    tokens: int = 0

    def answer_outcomes(self) -> list[tuple[bool, FailureReason | None]]:
        """Every persona answer of the debate: whether it parsed, and if not, why.

        The independent evaluations, every debate turn and the closing calls' answers
        (a final evaluation that is a kept earlier one is not a new answer), and the
        aggregator's synthesis when there was one (failed when refused as an echo or a
        copied example; its scores are recorded, not used).

        Returns:
            ``(parse_ok, failure)`` per answer.
        """
        evaluations = [*self.initial, *(e for e in self.final if e.source == "closing_call")]
        outcomes = [(e.parse_ok, e.failure) for e in evaluations]
        outcomes += [(t.parse_ok, t.failure) for t in self.turns]
        if self.synthesis or self.aggregator_failure is not None:
            outcomes.append((self.aggregator_failure is None, self.aggregator_failure))
        return outcomes


class PanelDebate(StoredRecord):
    """The whole MAJ-Eval debate of one sample, one entry per stakeholder group."""

    groups: list[GroupDebate] = Field(default_factory=list)
    max_rounds: int = Field(default=0)
    simple_roles: bool = Field(default=False)


class StakeholderPanel(StoredRecord):
    """The personas a sample was judged by, and where they came from.

    Attributes:
        origin: ``default``, ``file`` or ``documents`` (see the persona set's ``origin``).
        groups: The stakeholder groups with their personas.
        creation_calls: Persona-creation calls this sample made (0 unless it created them).
        notes: What happened while the set was made (a persona skipped, a disk-cache
            entry that did not fit and was rebuilt).

    """

    origin: str = Field(default="")
    groups: list[StakeholderGroup] = Field(default_factory=list)
    creation_calls: int = Field(default=0)
    notes: list[str] = Field(default_factory=list)
