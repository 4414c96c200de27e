"""ChatEval's records: one referee turn and the whole discussion of a sample.

:class:`ChatEvalTurn` is one turn (its attempts, retries, parsed scores, calls and
tokens); :class:`ChatEvalRecord` is the discussion the solver keeps in the sample store
(every turn, the running summaries, the referees' final scores and their mean).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from inspect_plural.parsing import FailureReason
from inspect_plural.prediction import StoredRecord

__all__ = ["ChatEvalRecord", "ChatEvalTurn"]


class ChatEvalTurn(BaseModel):
    """One referee turn.

    Attributes:
        round: The round (1 = first).
        referee: Who spoke.
        final: Whether it was a final-round turn (scores asked for).
        text: What joined the discussion (empty when a final answer never parsed).
        attempts: Every answer received, the first then each retry's.
        retries: Calls made after the first because the scores did not parse.
        parse_ok: Whether the final answer's scores parsed (None for discussion turns;
            False for a discussion turn refused as an echo of its prompt).
        scores: The parsed scores (final turns that parsed).
        error: Why the final answer did not parse (the last attempt's reason).
        failure: Its reason code (``echo``, ``copied_example``, ``hedge``, ...).
        model_calls: Calls made for this turn.
        tokens: Input plus output tokens of those calls.

    """

    round: int
    referee: str
    final: bool = False
    text: str = ""
    attempts: list[str] = Field(default_factory=list)
    retries: int = 0
    parse_ok: bool | None = None
    scores: dict[str, float] = Field(default_factory=dict)
    error: str | None = None
    failure: FailureReason | None = None
    model_calls: int = 0
    tokens: int = 0


class ChatEvalRecord(StoredRecord):
    """ChatEval's discussion for one sample, kept in the sample store.

    Attributes:
        strategy: The communication strategy.
        roles: The referees' names, in speaking order.
        rounds: Rounds run.
        max_retry: Retries allowed per final answer.
        turns: Every turn, in the order they were taken (concurrent turns of a round in
            role order).
        summaries: The running summary after each round but the last (summarizer only).
        referee_scores: Referee -> dimension -> parsed final score.
        failed: Referees whose final scores never parsed.
        scores: The mean of the referees' parsed final scores per dimension.
        model_calls: Calls made for this sample.
        tokens: Input plus output tokens of those calls.

    """

    strategy: str = Field(default="one_by_one")
    roles: list[str] = Field(default_factory=list)
    rounds: int = Field(default=0)
    max_retry: int = Field(default=0)
    turns: list[ChatEvalTurn] = Field(default_factory=list)
    summaries: list[str] = Field(default_factory=list)
    referee_scores: dict[str, dict[str, float]] = Field(default_factory=dict)
    failed: list[str] = Field(default_factory=list)
    scores: dict[str, float] = Field(default_factory=dict)
    model_calls: int = Field(default=0)
    tokens: int = Field(default=0)
