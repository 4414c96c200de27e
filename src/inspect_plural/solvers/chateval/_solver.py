"""ChatEval: referees with fixed roles discuss one output, then score it (a MAJ-Eval baseline).

The referees (General Public and Critic, or the five-role setting that adds News Author,
Psychologist and Scientist) discuss the content for ``rounds`` rounds. Every turn's
prompt holds the task, the context and the content, the dimensions, the note that other
referees judge the same content and should be engaged critically, the referee's role,
the discussion so far as ``[name]: text`` lines, and "your turn". In the last round the
prompt also asks for "Evaluation evidence:" and one ``<Dimension> score: X`` line per
dimension. This is MAJ-Eval's adaptation to absolute scoring of one output; the
original compares two answers.

Communication strategies (ChatEval's, as in its configs):

- ``one_by_one``: the referees speak in turn, each seeing everything said before it,
  the earlier turns of the same round included (rounds × referees sequential turns).
- ``simultaneous``: in each round the referees speak concurrently, each seeing the
  discussion up to the end of the previous round.
- ``simultaneous_summarizer``: as ``simultaneous``, but a running summary replaces the
  discussion: after every round but the last, one call folds that round's turns into
  the summary (the official code summarises once per agent; once per round is ours).

A final answer whose score lines do not parse is asked again, up to ``max_retry`` more
times (each a call); after that the referee's scores are recorded as failed: they are
left out, never defaulted, and an empty message joins the discussion (as in the
official code). The score per dimension is the mean of the referees' parsed final
scores.

Calls per sample: rounds × referees + retries (+ rounds − 1 summaries with the
summarizer).

The code lives in private modules, one concept each, re-exported here unchanged: the
roles file and the role sets (``_chateval_roles``), the turn and discussion records
(``_chateval_records``), and the prompt templates with their rendering
(``_chateval_prompts``). This module keeps the strategies, the completion length and the
solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from inspect_plural._concurrency import gather, named
from inspect_plural._replies import generate_reply
from inspect_plural.answer_format import ScoreLinesFormat, TextFormat, declare_answer_format
from inspect_plural.answer_screen import screen_answer
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer, PanelScores
from inspect_plural.prompts import load_template
from inspect_plural.rating_parsing import parse_score_lines
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.solvers._ratings import mean_scores, tokens_of, write_rating_prediction
from inspect_plural.solvers.chateval._prompts import (
    FINAL,
    FINAL_FIELDS,
    FINAL_REQUIRED,
    NO_HISTORY,
    NO_SUMMARY,
    SUMMARY,
    SUMMARY_FIELDS,
    SUMMARY_REQUIRED,
    TURN,
    TURN_FIELDS,
    TURN_REQUIRED,
    final_example,
    render_history,
    turn_prompt,
)
from inspect_plural.solvers.chateval._records import ChatEvalRecord, ChatEvalTurn
from inspect_plural.solvers.chateval._roles import (
    CHATEVAL_ROLE_SETS,
    ROLES,
    Referee,
    load_referees,
)

__all__ = [
    "CHATEVAL_ROLE_SETS",
    "CHATEVAL_STRATEGIES",
    "ROLES",
    "ChatEvalRecord",
    "ChatEvalTurn",
    "Referee",
    "chateval",
    "load_referees",
]

Strategy = Literal["one_by_one", "simultaneous", "simultaneous_summarizer"]
CHATEVAL_STRATEGIES: tuple[Strategy, ...] = (
    "one_by_one",
    "simultaneous",
    "simultaneous_summarizer",
)
"""Values of the ``strategy`` option."""

MAX_TOKENS = 512
"""Completion length of every call (ChatEval's config)."""


@solver
def chateval(
    strategy: str = "one_by_one",
    roles: str = "two",
    rounds: int = 2,
    max_retry: int = 3,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
) -> Solver:
    """ChatEval: role-played referees discuss the output, then each scores it.

    Model roles: ``referee`` for the turns, ``summarizer`` for the running summary (both
    default to the evaluated model).

    Args:
        strategy: ``one_by_one``, ``simultaneous`` or ``simultaneous_summarizer``.
        roles: ``two`` (General Public, Critic) or ``five`` (adds News Author,
            Psychologist, Scientist).
        rounds: Discussion rounds; the last one asks for the scores.
        max_retry: Further calls for a final answer whose scores do not parse.
        prompts: Folder of replacement prompt templates (``chateval_turn.txt``,
            ``chateval_final.txt``, ``chateval_summary.txt``, ``chateval_roles.txt``).
        temperature: Sampling temperature of every call (None: the provider's default).
        seed: Generation seed (retry k uses ``seed + k``; epoch e shifts every seed by
            ``(e - 1) * (max_retry + 1)``; None: unseeded).

    Returns:
        A solver that writes a :class:`ChatEvalRecord` and a
        :class:`~inspect_plural.prediction.Prediction` with a score per dimension and
        the referees as the panel ``referees``.

    Raises:
        ValueError: An unknown strategy or role set, ``rounds`` below 1 or a negative
            ``max_retry``.
    """
    if strategy not in CHATEVAL_STRATEGIES:
        raise ValueError(
            f"chateval strategy must be one of {list(CHATEVAL_STRATEGIES)}, not {strategy!r}"
        )
    if rounds < 1 or max_retry < 0:
        raise ValueError("chateval needs rounds >= 1 and max_retry >= 0")
    referees = load_referees(roles, prompts)
    # check every template now, not after the first sample's calls
    load_template(TURN, TURN_FIELDS, TURN_REQUIRED, prompts)
    load_template(FINAL, FINAL_FIELDS, FINAL_REQUIRED, prompts)
    if strategy == "simultaneous_summarizer":
        load_template(SUMMARY, SUMMARY_FIELDS, SUMMARY_REQUIRED, prompts)
    method = "chateval"
    if strategy != "one_by_one":
        method += f"/{strategy}"
    if roles != "two":
        method += f"/{roles}_roles"

    def config(base_seed: int | None, attempt: int) -> GenerateConfig:
        return GenerateConfig(
            temperature=temperature,
            max_tokens=MAX_TOKENS,
            seed=None if base_seed is None else base_seed + attempt,
        )

    async def take_turn(
        model: Model,
        metadata: RatedSampleMetadata,
        referee: Referee,
        round_number: int,
        history: str,
        base_seed: int | None,
    ) -> ChatEvalTurn:
        final = round_number == rounds
        prompt = turn_prompt(metadata, referee, history, final, prompts)
        answer_format = (
            ScoreLinesFormat(
                titles=[d.title for d in metadata.dimensions],
                example=final_example(metadata, referee),
            )
            if final
            else TextFormat()
        )
        turn = ChatEvalTurn(round=round_number, referee=referee.name, final=final)
        for attempt in range(1 + (max_retry if final else 0)):
            message = declare_answer_format(ChatMessageUser(content=prompt), answer_format)
            output = await generate_reply(model, [message], config(base_seed, attempt))
            turn.model_calls += 1
            turn.tokens += tokens_of(output)
            turn.attempts.append(output.completion)
            turn.retries = attempt
            refusal = screen_answer(output.completion, [message])
            if not final:
                if refusal is None:
                    turn.text = output.completion
                else:  # an echo joins no discussion, and counts as a failed turn
                    turn.parse_ok, turn.error, turn.failure = False, refusal.error, refusal.failure
                break
            if refusal is not None:
                turn.parse_ok, turn.error, turn.failure = False, refusal.error, refusal.failure
                continue
            parsed = parse_score_lines(output.completion, metadata.dimensions)
            if parsed.ok:
                turn.text = output.completion
                turn.parse_ok = True
                turn.scores = parsed.scores
                turn.error = turn.failure = None
                break
            turn.parse_ok = False
            turn.error = parsed.error
            turn.failure = parsed.failure
        return turn

    async def summarize(
        model: Model,
        metadata: RatedSampleMetadata,
        summary: str,
        turns: Sequence[ChatEvalTurn],
        base_seed: int | None,
    ) -> tuple[str, int]:
        template = load_template(SUMMARY, SUMMARY_FIELDS, SUMMARY_REQUIRED, prompts)
        prompt = template.format(
            summary=summary or NO_SUMMARY,
            new_lines=render_history([(t.referee, t.text) for t in turns]),
            content_label=metadata.content_label,
        )
        message = declare_answer_format(ChatMessageUser(content=prompt), TextFormat())
        output = await generate_reply(model, [message], config(base_seed, 0))
        return output.completion, tokens_of(output)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        model = role_model("referee")
        base_seed = None if seed is None else seed + (state.epoch - 1) * (max_retry + 1)
        turns: list[ChatEvalTurn] = []
        history: list[tuple[str, str]] = []
        summaries: list[str] = []
        summary = ""
        summary_calls = summary_tokens = 0
        for round_number in range(1, rounds + 1):
            async with span(f"round {round_number}"):
                if strategy == "one_by_one":
                    for referee in referees:
                        turn = await named(
                            referee.name,
                            take_turn(
                                model,
                                metadata,
                                referee,
                                round_number,
                                render_history(history),
                                base_seed,
                            ),
                        )
                        turns.append(turn)
                        history.append((referee.name, turn.text))
                    continue
                shown = (
                    render_history(history)
                    if strategy == "simultaneous"
                    else (summary or NO_HISTORY)
                )
                taken = await gather(
                    *(
                        named(r.name, take_turn(model, metadata, r, round_number, shown, base_seed))
                        for r in referees
                    )
                )
                turns += taken
                history += [(t.referee, t.text) for t in taken]
                if strategy == "simultaneous_summarizer" and round_number < rounds:
                    summary, used = await summarize(
                        role_model("summarizer"), metadata, summary, taken, base_seed
                    )
                    summaries.append(summary)
                    summary_calls += 1
                    summary_tokens += used
        final_turns = [t for t in turns if t.final]
        referee_scores = {t.referee: t.scores for t in final_turns if t.parse_ok}
        failed = [t.referee for t in final_turns if not t.parse_ok]
        names = [d.name for d in metadata.dimensions]
        scores = mean_scores(list(referee_scores.values()), names)
        calls = sum(t.model_calls for t in turns) + summary_calls
        tokens = sum(t.tokens for t in turns) + summary_tokens
        initial = (
            {t.referee: t.scores for t in turns if t.round == 1 and t.parse_ok}
            if rounds == 1
            else {}
        )
        ChatEvalRecord.detached(
            strategy=strategy,
            roles=[r.name for r in referees],
            rounds=rounds,
            max_retry=max_retry,
            turns=turns,
            summaries=summaries,
            referee_scores=referee_scores,
            failed=failed,
            scores=scores,
            model_calls=calls,
            tokens=tokens,
        ).write_to(state.store)
        answers = [
            ModelAnswer(
                raw=t.attempts[-1] if t.attempts else "",
                parse_ok=bool(t.parse_ok),
                error=None if t.parse_ok else f"{t.referee}: {t.error} (after {t.retries} retries)",
                persona=t.referee,
                scores=t.scores or None,
                read_as="text" if t.parse_ok else None,  # score lines
                failure=None if t.parse_ok else (t.failure or "no_answer"),
            )
            for t in final_turns
        ]
        write_rating_prediction(
            state.store,
            method,
            metadata.dimensions,
            scores,
            model_calls=calls,
            tokens=tokens,
            answers=answers,
            panels={
                "referees": PanelScores(
                    initial=initial,
                    final=referee_scores,
                    scores=scores,
                    model_calls=calls,
                    tokens=tokens,
                )
            },
            initial_scores=mean_scores(list(initial.values()), names) if initial else None,
            aggregate="mean",
        )
        return state

    return solve
