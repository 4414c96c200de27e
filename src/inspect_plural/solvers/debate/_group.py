"""The MAJ-Eval group debate on any content: independent scoring, moderated debate, synthesis.

One engine for everything a stakeholder panel grades: ``maj_eval`` (a rating task's
generated output) and the ``panel`` scorer (any Inspect task's output) both describe
what to grade as a :class:`GradingInput` (a rendered "what to grade" block, what it is
called, the task it was produced for, and the dimensions with the scale to score them
on) and run :func:`debate_groups`. Per group (all groups concurrently):

1. *Independent scoring*: each persona scores the content on its own (concurrent calls).
2. *Debate* (``max_rounds`` >= 1, groups of two or more): in each round every still-active
   persona speaks once; a ``moderator`` call picks each speaker but the last of the
   round, told where the group disagrees (computed in code) and who has not been
   heard. A persona that says ``NO MORE COMMENTS`` is done. After ``max_rounds`` a
   persona still active is final at its last parsed scores (or asked once more, all of
   them concurrently, with ``closing_call``).
3. *Aggregation* (``max_rounds`` >= 1): an ``aggregator`` call writes the group's
   synthesis. The group's score per dimension is the mean of its members' final scores,
   computed in code.

With ``max_rounds=0`` the personas score independently and nothing else is asked: each
persona's independent evaluation is final and the group's score is their mean.

Every call sits in a span named for what it is: ``stakeholder group NAME``, then
``independent scoring``, ``debate round N``, ``closing`` and ``aggregator``, with one
span per persona (its name) and per ``moderator`` pick.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.util import span

from inspect_plural._concurrency import gather, named
from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.answer_screen import Refusal, screen_answer
from inspect_plural.rating_parsing import DONE_MARKER
from inspect_plural.solvers._ratings import mean_scores, render_dimensions, scores_example
from inspect_plural.solvers.debate._calls import DebateCalls
from inspect_plural.solvers.debate._records import DebateTurn, Evaluation, GroupDebate
from inspect_plural.solvers.debate._rules import (
    disagreement_summary,
    fallback_speaker,
    parse_moderator_pick,
)
from inspect_plural.solvers.debate._score_format import (
    parse_dimension_scores,
    scale_instruction,
    scale_schema,
)
from inspect_plural.solvers.debate._settings import (
    MISMATCH_TOLERANCE,
    DebateSettings,
    GradingInput,
)
from inspect_plural.solvers.debate._text import (
    format_scores,
    moderator_instruction,
    persona_text,
    render_evaluations,
    render_transcript,
)
from inspect_plural.stakeholders import Persona, StakeholderGroup

__all__ = ["debate_groups"]


class _Group:
    """One group's debate about one piece of content."""

    def __init__(
        self, group: StakeholderGroup, grading: GradingInput, settings: DebateSettings
    ) -> None:
        self.group = group
        self.personas = list(group.personas)
        self.grading = grading
        self.dimensions = grading.dimensions
        self.names = [d.name for d in self.dimensions]
        self.settings = settings
        self.call = DebateCalls(settings)
        self.record = GroupDebate(group=group.name, personas=[p.name for p in self.personas])

    def _system(self, persona: Persona) -> ChatMessageSystem:
        text = self.settings.template("agent").format(
            name=persona.name,
            persona=persona_text(persona, self.group, self.settings.simple_roles),
            content_label=self.grading.content_label,
            task_description=self.grading.task_description,
            dimensions=render_dimensions(self.dimensions),
            content=self.grading.content,
        )
        return ChatMessageSystem(content=text)

    def _scores_format(self, with_done: bool) -> tuple[str, JsonFormat]:
        extra: dict[str, dict[str, object]] = {"feedback": {"type": "string"}}
        if with_done:
            extra["done"] = {"type": "boolean"}
        schema = scale_schema(self.dimensions, extra)
        key = f"{self.grading.example_key}:{self.group.name}"
        # the example shows scores only: an answer that is just the example gave no feedback
        example = json.dumps(scores_example(self.dimensions, key))
        instruction = scale_instruction(self.dimensions, key).replace(
            "with exactly these keys",
            'with a "feedback" string'
            + (', a "done" flag' if with_done else "")
            + " and these score keys",
        )
        prefixes = [DONE_MARKER] if with_done else []
        name = "debate_turn" if with_done else "scores"
        declared = JsonFormat(
            json_schema=schema, prefix_choices=prefixes, name=name, example=example
        )
        return instruction, declared

    async def _ask_persona(
        self, persona: Persona, user: str, declared: JsonFormat
    ) -> tuple[str, Evaluation, bool]:
        message = declare_answer_format(ChatMessageUser(content=user), declared)
        messages = [self._system(persona), message]
        text, schema = await self.call(self.settings.roles.persona, messages)
        refusal = screen_answer(text, messages)
        if refusal is not None:  # never parsed, and kept out of the others' transcript
            return text, self._refused(persona.name, refusal, schema), False
        parsed = parse_dimension_scores(text, self.dimensions)
        feedback = str(parsed.fields.get("feedback") or text)
        evaluation = Evaluation(
            persona=persona.name,
            scores=parsed.scores,
            parse_ok=parsed.ok,
            error=parsed.error,
            feedback=feedback,
            read_as=parsed.read_as,
            schema_name=schema,
            failure=parsed.failure,
        )
        return text, evaluation, parsed.done

    @staticmethod
    def _refused(name: str, refusal: Refusal, schema: str | None) -> Evaluation:
        return Evaluation(
            persona=name,
            parse_ok=False,
            error=refusal.error,
            feedback=f"(no answer: {refusal.failure.replace('_', ' ')})",
            schema_name=schema,
            failure=refusal.failure,
        )

    async def phase1(self) -> None:
        instruction, declared = self._scores_format(with_done=False)
        user = self.settings.template("phase1").format(response_format=instruction)

        async def one(persona: Persona) -> Evaluation:
            _, evaluation, _ = await self._ask_persona(persona, user, declared)
            return evaluation

        async with span("independent scoring"):
            self.record.initial = await gather(*(named(p.name, one(p)) for p in self.personas))

    async def _pick(
        self, round_number: int, candidates: list[str], latest: dict[str, dict[str, float]]
    ) -> DebateTurn:
        heard = {t.speaker for t in self.record.turns}
        if len(candidates) == 1:
            return DebateTurn(round=round_number, speaker=candidates[0], forced=True)
        by_name = {p.name: p for p in self.personas}
        listed = "\n".join(
            f"- {name}: {by_name[name].one_line()} (latest scores: "
            f"{format_scores(latest.get(name, {}))})"
            for name in candidates
        )
        unheard = [name for name in candidates if name not in heard]
        schema = {
            "type": "object",
            "properties": {
                "next_speaker": {"enum": candidates},
                "reason": {"type": "string"},
            },
            "required": ["next_speaker", "reason"],
        }
        prompt = self.settings.template("moderator").format(
            group=self.group.name,
            task_description=self.grading.task_description,
            dimensions=render_dimensions(self.dimensions),
            candidates=listed,
            disagreement=disagreement_summary(latest, self.names),
            unheard="\n".join(f"- {n}" for n in unheard) or "(everyone has spoken)",
            transcript=render_transcript(self.record.turns),
            response_format=moderator_instruction(candidates),
        )
        message = declare_answer_format(
            ChatMessageUser(content=prompt), JsonFormat(name="moderator_pick", json_schema=schema)
        )
        async with span("moderator"):
            raw, _ = await self.call(self.settings.roles.moderator, [message])
        refused = screen_answer(raw, [message]) is not None
        speaker, reason = (None, "") if refused else parse_moderator_pick(raw, candidates)
        if speaker is None:
            speaker = fallback_speaker(candidates, latest, heard, self.names)
            return DebateTurn(
                round=round_number,
                speaker=speaker,
                moderator_raw=raw,
                reason="moderator's answer named no candidate; picked the largest disagreement",
                fallback=True,
            )
        return DebateTurn(
            round=round_number,
            speaker=speaker,
            moderator_raw=raw,
            reason=reason,
        )

    def _kept(self, name: str, latest: dict[str, dict[str, float]], source: str) -> Evaluation:
        """A final evaluation at the persona's last parsed scores (no further call)."""
        scores = latest.get(name, {})
        missing = [d for d in self.names if d not in scores]
        return Evaluation(
            persona=name,
            scores=scores,
            parse_ok=not missing,  # every dimension without a score is a failure
            error=f"no score for {', '.join(missing)}" if missing else None,
            source=source,
        )

    async def _round(
        self,
        round_number: int,
        active: list[str],
        latest: dict[str, dict[str, float]],
        final: dict[str, Evaluation],
        spoke_ok: set[str],
    ) -> None:
        by_name = {p.name: p for p in self.personas}
        instruction, declared = self._scores_format(with_done=True)
        evaluations = render_evaluations(self.record.initial)
        spoke: set[str] = set()
        while candidates := [n for n in active if n not in spoke]:
            turn = await self._pick(round_number, candidates, latest)
            user = self.settings.template("debate").format(
                evaluations=evaluations,
                transcript=render_transcript(self.record.turns),
                name=turn.speaker,
                response_format=instruction,
            )
            async with span(turn.speaker):
                _, evaluation, done = await self._ask_persona(by_name[turn.speaker], user, declared)
            turn.text = evaluation.feedback
            turn.scores = evaluation.scores
            turn.done = done
            turn.parse_ok = evaluation.parse_ok
            turn.failure = evaluation.failure
            self.record.turns.append(turn)
            spoke.add(turn.speaker)
            if evaluation.scores:
                latest[turn.speaker] = {**latest.get(turn.speaker, {}), **evaluation.scores}
                spoke_ok.add(turn.speaker)
            if done:
                active.remove(turn.speaker)
                final[turn.speaker] = evaluation.model_copy(
                    update={"scores": latest.get(turn.speaker, {}), "source": "done"}
                )

    async def phase2(self) -> dict[str, Evaluation]:
        latest = {e.persona: dict(e.scores) for e in self.record.initial}
        spoke_ok: set[str] = set()
        final: dict[str, Evaluation] = {}
        if len(self.personas) <= 1:
            self.record.stop_reason = "single_member"
            return final
        active = [p.name for p in self.personas]
        self.record.stop_reason = "max_rounds"
        for round_number in range(1, self.settings.max_rounds + 1):
            self.record.rounds = round_number
            self.record.active_per_round.append(len(active))
            async with span(f"debate round {round_number}"):
                await self._round(round_number, active, latest, final, spoke_ok)
            if not active:
                self.record.stop_reason = "all_done"
                break
        if self.settings.closing_call and active:
            by_name = {p.name: p for p in self.personas}
            async with span("closing"):
                closings = await gather(
                    *(named(name, self._closing(by_name[name])) for name in active)
                )
            for name, closing in zip(active, closings):
                # a dimension the closing answer does not give keeps the persona's last
                # parsed score (as for "done"); parse_ok and error still show the failure
                final[name] = closing.model_copy(
                    update={"scores": {**latest.get(name, {}), **closing.scores}}
                )
        else:
            for name in active:
                source = "last_turn" if name in spoke_ok else "initial"
                final[name] = self._kept(name, latest, source)
        return final

    async def _closing(self, persona: Persona) -> Evaluation:
        instruction, declared = self._scores_format(with_done=False)
        user = self.settings.template("closing").format(
            transcript=render_transcript(self.record.turns),
            name=persona.name,
            response_format=instruction,
        )
        _, evaluation, _ = await self._ask_persona(persona, user, declared)
        return evaluation.model_copy(update={"source": "closing_call"})

    def _means(self) -> None:
        self.record.scores = mean_scores([e.scores for e in self.record.final], self.names)
        self.record.initial_scores = mean_scores(
            [e.scores for e in self.record.initial], self.names
        )

    async def phase3(self) -> None:
        self._means()
        schema = scale_schema(self.dimensions, {"synthesis": {"type": "string"}})
        instruction = (
            scale_instruction(self.dimensions, f"{self.grading.example_key}:aggregator")
            .replace("with exactly these keys", 'with a "synthesis" string and these keys')
            .replace("an integer score", "the group's average score")
        )
        prompt = self.settings.template("aggregate").format(
            group=self.group.name,
            task_description=self.grading.task_description,
            dimensions=render_dimensions(self.dimensions),
            evaluations=render_evaluations(self.record.final),
            average=format_scores({k: round(v, 2) for k, v in self.record.scores.items()}),
            response_format=instruction,
        )
        message = declare_answer_format(
            ChatMessageUser(content=prompt), JsonFormat(name="synthesis", json_schema=schema)
        )
        async with span("aggregator"):
            raw, _ = await self.call(self.settings.roles.aggregator, [message])
        refusal = screen_answer(raw, [message])
        if refusal is not None:  # an echo of the evaluations is no synthesis
            self.record.aggregator_failure = refusal.failure
            return
        parsed = parse_dimension_scores(raw, self.dimensions)
        self.record.synthesis = str(parsed.fields.get("synthesis") or raw)
        self.record.aggregator_scores = parsed.scores
        self.record.aggregator_mismatch = any(
            abs(value - self.record.scores[name]) > MISMATCH_TOLERANCE
            for name, value in parsed.scores.items()
            if name in self.record.scores
        )

    async def run(self) -> GroupDebate:
        async with span(f"stakeholder group {self.group.name}"):
            await self.phase1()
            if self.settings.max_rounds == 0:  # independent scoring only
                self.record.stop_reason = "independent"
                final: dict[str, Evaluation] = {}
            else:
                final = await self.phase2()
            if not final:  # a group of one, or no debate: the first evaluation is final
                final = {
                    e.persona: e.model_copy(update={"source": "initial"})
                    for e in self.record.initial
                }
            self.record.final = [final[p.name] for p in self.personas if p.name in final]
            if self.settings.max_rounds == 0:
                self._means()
            else:
                await self.phase3()
        self.record.model_calls = self.call.calls
        self.record.tokens = self.call.tokens
        return self.record


async def debate_groups(
    groups: Sequence[StakeholderGroup], grading: GradingInput, settings: DebateSettings
) -> list[GroupDebate]:
    """Run every group's debate about one piece of content, all groups concurrently.

    Args:
        groups: The stakeholder groups, each with its personas.
        grading: What to grade.
        settings: How the debate runs.

    Returns:
        Each group's debate, in the order given.
    """
    return await gather(*(_Group(group, grading, settings).run() for group in groups))
