"""MAJ-Eval: stakeholder personas debate in groups and their final scores are averaged.

Per sample, every stakeholder group runs concurrently (MAJ-Eval §3.2):

1. *Phase 1*: each persona scores the content on its own (concurrent calls).
2. *Phase 2*: a free debate. In each round every still-active persona speaks once; a
   ``moderator`` call picks the next speaker among those who have not spoken this round,
   told where the group disagrees (computed in code) and who has not been heard. The
   last candidate of a round is picked without a call. A persona that says
   ``NO MORE COMMENTS`` is done and its scores are final. The debate stops when everyone
   is done or after ``max_rounds``; a persona still active is final at its last parsed
   scores (or asked once more with ``closing_call=true``).
3. *Phase 3*: an ``aggregator`` call writes the group's synthesis. The group's score per
   dimension is the mean of its members' final scores, computed in code (the
   aggregator's own numbers are recorded and compared).

The predicted score per dimension is the mean over groups; ``initial_scores`` applies
the same rule to the phase-1 scores. Deviation from the paper, documented: every debate
turn ends with the speaker's current scores (JSON with a ``done`` flag), so a persona's
final evaluation is its last turn's, with no extra call.

Personas come from a persona file (``personas=FILE``), from documents
(``persona_docs=[...]``, created once per task with the ``persona_builder`` model and
cached on disk) or from the file shipped for the task. They are loaded once per solver
and copied into every sample's store as :class:`StakeholderPanel`; the whole debate is
in :class:`PanelDebate`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import anyio
from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import collect, span
from pydantic import BaseModel, Field

from inspect_plural.answer_format import JsonFormat, declare_answer_format
from inspect_plural.prediction import PanelScores, StoredRecord
from inspect_plural.prompts import load_template
from inspect_plural.rating_parsing import DONE_MARKER, parse_scores
from inspect_plural.records import RatedSampleMetadata, RatingDimension
from inspect_plural.solvers._debate import (
    disagreement_summary,
    fallback_speaker,
    parse_moderator_pick,
)
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    mean_scores,
    render_dimensions,
    render_rated,
    scores_instruction,
    scores_schema,
    tokens_of,
    write_rating_prediction,
)
from inspect_plural.stakeholders import (
    PERSONA_SEED,
    Persona,
    PersonaSet,
    StakeholderGroup,
    persona_config,
    personas_for_task,
)

__all__ = ["DebateTurn", "GroupDebate", "PanelDebate", "StakeholderPanel", "maj_eval"]

AGENT = "maj_agent.txt"
PHASE1 = "maj_phase1.txt"
DEBATE = "maj_debate.txt"
CLOSING = "maj_closing.txt"
MODERATOR = "maj_moderator.txt"
AGGREGATE = "maj_aggregate.txt"
_TEMPLATES: dict[str, tuple[set[str], set[str]]] = {
    AGENT: (
        {"name", "persona", "content_label", "task_description", "dimensions", "content"},
        {"persona", "dimensions", "content"},
    ),
    PHASE1: ({"response_format"}, {"response_format"}),
    DEBATE: (
        {"evaluations", "transcript", "name", "response_format"},
        {"transcript", "response_format"},
    ),
    CLOSING: ({"transcript", "name", "response_format"}, {"response_format"}),
    MODERATOR: (
        {
            "group",
            "task_description",
            "dimensions",
            "candidates",
            "disagreement",
            "unheard",
            "transcript",
            "response_format",
        },
        {"candidates", "response_format"},
    ),
    AGGREGATE: (
        {"group", "task_description", "dimensions", "evaluations", "average", "response_format"},
        {"evaluations", "response_format"},
    ),
}
MISMATCH_TOLERANCE = 0.5
"""How far the aggregator's average may be from the computed one before it is flagged."""


class Evaluation(BaseModel):
    """One persona's evaluation (phase 1, or its final one).

    Attributes:
        persona: Who evaluated.
        scores: Parsed scores (dimensions that failed to parse are absent).
        parse_ok: Whether every dimension parsed.
        error: What failed to parse.
        feedback: The text of the answer.
        source: For final evaluations: ``done`` (said NO MORE COMMENTS), ``last_turn``,
            ``initial`` (never spoke successfully in the debate), ``closing_call``. With
            ``done`` and ``closing_call``, a dimension the answer did not give keeps the
            persona's last parsed score.

    """

    persona: str
    scores: dict[str, float] = Field(default_factory=dict)
    parse_ok: bool = False
    error: str | None = None
    feedback: str = ""
    source: str = "phase1"


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
        stop_reason: ``all_done``, ``max_rounds`` or ``single_member``.
        synthesis: The aggregator's summary.
        aggregator_scores: The averages the aggregator reported (recorded, not used).
        aggregator_mismatch: Whether those differ from the computed means.
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
    scores: dict[str, float] = Field(default_factory=dict)
    initial_scores: dict[str, float] = Field(default_factory=dict)
    model_calls: int = 0
    tokens: int = 0


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

    """

    origin: str = Field(default="")
    groups: list[StakeholderGroup] = Field(default_factory=list)
    creation_calls: int = Field(default=0)


class _Call:
    """Counts the calls and tokens of one group."""

    def __init__(self, config: GenerateConfig) -> None:
        self.config = config
        self.calls = 0
        self.tokens = 0

    async def __call__(self, model: Model, messages: list[ChatMessage]) -> str:
        output = await model.generate(messages, config=self.config)
        self.calls += 1
        self.tokens += tokens_of(output)
        return output.completion


def _template(name: str, prompts: str | None) -> str:
    fields, required = _TEMPLATES[name]
    return load_template(name, fields, required, prompts)


def _persona_text(persona: Persona, group: StakeholderGroup, simple_roles: bool) -> str:
    if simple_roles:
        return f"You are {persona.name}, {group.simple_role}."
    return persona.describe()


def _format_scores(scores: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:g}" for k, v in scores.items()) or "(no readable scores)"


def _render_evaluations(evaluations: Sequence[Evaluation]) -> str:
    blocks = []
    for e in evaluations:
        feedback = e.feedback.strip() or "(no feedback)"
        blocks.append(f"### {e.persona}\n\nScores: {_format_scores(e.scores)}\n\n{feedback}")
    return "\n\n".join(blocks)


def _render_transcript(turns: Sequence[DebateTurn]) -> str:
    if not turns:
        return "(nobody has spoken yet)"
    return "\n\n".join(f"[{t.speaker}] (round {t.round}): {t.text.strip()}" for t in turns)


class _Group:
    """One group's debate for one sample."""

    def __init__(
        self,
        group: StakeholderGroup,
        personas: Sequence[Persona],
        metadata: RatedSampleMetadata,
        config: GenerateConfig,
        max_rounds: int,
        simple_roles: bool,
        closing_call: bool,
        prompts: str | None,
    ) -> None:
        self.group = group
        self.personas = list(personas)
        self.metadata = metadata
        self.dimensions: list[RatingDimension] = metadata.dimensions
        self.names = [d.name for d in self.dimensions]
        self.max_rounds = max_rounds
        self.simple_roles = simple_roles
        self.closing_call = closing_call
        self.prompts = prompts
        self.call = _Call(config)
        self.record = GroupDebate(group=group.name, personas=[p.name for p in personas])

    def _system(self, persona: Persona) -> ChatMessageSystem:
        text = _template(AGENT, self.prompts).format(
            name=persona.name,
            persona=_persona_text(persona, self.group, self.simple_roles),
            content_label=self.metadata.content_label,
            task_description=self.metadata.task_description,
            dimensions=render_dimensions(self.dimensions),
            content=render_rated(self.metadata),
        )
        return ChatMessageSystem(content=text)

    def _scores_format(self, with_done: bool) -> tuple[str, JsonFormat]:
        extra: dict[str, dict[str, object]] = {"feedback": {"type": "string"}}
        if with_done:
            extra["done"] = {"type": "boolean"}
        schema = scores_schema(self.dimensions, extra)
        instruction = scores_instruction(self.dimensions).replace(
            "with exactly these keys",
            'with a "feedback" string'
            + (', a "done" flag' if with_done else "")
            + " and these score keys",
        )
        prefixes = [DONE_MARKER] if with_done else []
        return instruction, JsonFormat(json_schema=schema, prefix_choices=prefixes)

    async def _ask_persona(
        self, persona: Persona, user: str, declared: JsonFormat
    ) -> tuple[str, Evaluation, bool]:
        message = declare_answer_format(ChatMessageUser(content=user), declared)
        text = await self.call(get_model(role="persona"), [self._system(persona), message])
        parsed = parse_scores(text, self.dimensions, SCORE_LOW, SCORE_HIGH)
        feedback = str(parsed.fields.get("feedback") or text)
        evaluation = Evaluation(
            persona=persona.name,
            scores=parsed.scores,
            parse_ok=parsed.ok,
            error=parsed.error,
            feedback=feedback,
        )
        return text, evaluation, parsed.done

    async def phase1(self) -> None:
        instruction, declared = self._scores_format(with_done=False)
        user = _template(PHASE1, self.prompts).format(response_format=instruction)

        async def one(persona: Persona) -> Evaluation:
            _, evaluation, _ = await self._ask_persona(persona, user, declared)
            return evaluation

        self.record.initial = list(await collect(*(one(p) for p in self.personas)))

    async def _pick(
        self, round_number: int, candidates: list[str], latest: dict[str, dict[str, float]]
    ) -> DebateTurn:
        heard = {t.speaker for t in self.record.turns}
        if len(candidates) == 1:
            return DebateTurn(round=round_number, speaker=candidates[0], forced=True)
        by_name = {p.name: p for p in self.personas}
        listed = "\n".join(
            f"- {name}: {by_name[name].one_line()} (latest scores: "
            f"{_format_scores(latest.get(name, {}))})"
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
        instruction = (
            "Answer with a JSON object in a ```json code block:\n\n"
            '```json\n{"next_speaker": "<one of the names above>", "reason": "<one sentence>"}'
            "\n```"
        )
        prompt = _template(MODERATOR, self.prompts).format(
            group=self.group.name,
            task_description=self.metadata.task_description,
            dimensions=render_dimensions(self.dimensions),
            candidates=listed,
            disagreement=disagreement_summary(latest, self.names),
            unheard="\n".join(f"- {n}" for n in unheard) or "(everyone has spoken)",
            transcript=_render_transcript(self.record.turns),
            response_format=instruction,
        )
        message = declare_answer_format(
            ChatMessageUser(content=prompt), JsonFormat(json_schema=schema)
        )
        raw = await self.call(get_model(role="moderator"), [message])
        speaker, reason = parse_moderator_pick(raw, candidates)
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

    async def phase2(self) -> dict[str, Evaluation]:
        by_name = {p.name: p for p in self.personas}
        latest = {e.persona: dict(e.scores) for e in self.record.initial}
        spoke_ok: set[str] = set()
        final: dict[str, Evaluation] = {}
        if len(self.personas) <= 1:
            self.record.stop_reason = "single_member"
            return final
        active = [p.name for p in self.personas]
        instruction, declared = self._scores_format(with_done=True)
        evaluations = _render_evaluations(self.record.initial)
        self.record.stop_reason = "max_rounds"
        for round_number in range(1, self.max_rounds + 1):
            self.record.rounds = round_number
            self.record.active_per_round.append(len(active))
            spoke: set[str] = set()
            while candidates := [n for n in active if n not in spoke]:
                turn = await self._pick(round_number, candidates, latest)
                user = _template(DEBATE, self.prompts).format(
                    evaluations=evaluations,
                    transcript=_render_transcript(self.record.turns),
                    name=turn.speaker,
                    response_format=instruction,
                )
                text, evaluation, done = await self._ask_persona(
                    by_name[turn.speaker], user, declared
                )
                turn.text = evaluation.feedback
                turn.scores = evaluation.scores
                turn.done = done
                turn.parse_ok = evaluation.parse_ok
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
            if not active:
                self.record.stop_reason = "all_done"
                break
        for name in active:
            if self.closing_call:
                closing = await self._closing(by_name[name])
                # a dimension the closing answer does not give keeps the persona's last
                # parsed score (as for "done"); parse_ok and error still show the failure
                final[name] = closing.model_copy(
                    update={"scores": {**latest.get(name, {}), **closing.scores}}
                )
            else:
                source = "last_turn" if name in spoke_ok else "initial"
                final[name] = Evaluation(
                    persona=name,
                    scores=latest.get(name, {}),
                    parse_ok=bool(latest.get(name)),
                    source=source,
                )
        return final

    async def _closing(self, persona: Persona) -> Evaluation:
        instruction, declared = self._scores_format(with_done=False)
        user = _template(CLOSING, self.prompts).format(
            transcript=_render_transcript(self.record.turns),
            name=persona.name,
            response_format=instruction,
        )
        _, evaluation, _ = await self._ask_persona(persona, user, declared)
        return evaluation.model_copy(update={"source": "closing_call"})

    async def phase3(self) -> None:
        finals = self.record.final
        self.record.scores = mean_scores([e.scores for e in finals], self.names)
        self.record.initial_scores = mean_scores(
            [e.scores for e in self.record.initial], self.names
        )
        schema = scores_schema(self.dimensions, {"synthesis": {"type": "string"}})
        instruction = (
            scores_instruction(self.dimensions)
            .replace("with exactly these keys", 'with a "synthesis" string and these keys')
            .replace("an integer score", "the group's average score")
        )
        prompt = _template(AGGREGATE, self.prompts).format(
            group=self.group.name,
            task_description=self.metadata.task_description,
            dimensions=render_dimensions(self.dimensions),
            evaluations=_render_evaluations(finals),
            average=_format_scores({k: round(v, 2) for k, v in self.record.scores.items()}),
            response_format=instruction,
        )
        message = declare_answer_format(
            ChatMessageUser(content=prompt), JsonFormat(json_schema=schema)
        )
        raw = await self.call(get_model(role="aggregator"), [message])
        parsed = parse_scores(raw, self.dimensions, SCORE_LOW, SCORE_HIGH)
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
            final = await self.phase2()
            if not final:  # a group of one: its phase-1 evaluation is final
                final = {
                    e.persona: e.model_copy(update={"source": "initial"})
                    for e in self.record.initial
                }
            self.record.final = [final[p.name] for p in self.personas if p.name in final]
            await self.phase3()
        self.record.model_calls = self.call.calls
        self.record.tokens = self.call.tokens
        return self.record


@solver
def maj_eval(
    personas: str | None = None,
    persona_docs: str | list[str] | None = None,
    groups: str | list[str] | None = None,
    n_personas: int | None = None,
    max_rounds: int = 3,
    simple_roles: bool = False,
    closing_call: bool = False,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = PERSONA_SEED,
) -> Solver:
    """MAJ-Eval: stakeholder personas score, debate in groups, and are averaged.

    Model roles: ``persona`` (the personas' calls), ``moderator`` (picking speakers),
    ``aggregator`` (the synthesis) and, only when personas are created from
    documents, ``persona_builder``; all default to the evaluated model.

    Args:
        personas: A persona file (JSON written by ``inspect-plural personas``) or the
            name of a shipped set; None: the set shipped for the sample's dataset.
        persona_docs: Documents (paths, or a comma-separated string) to create the
            personas from, once per task (cached on disk); excludes ``personas``.
        groups: Only these stakeholder groups (names, or a comma-separated string).
        n_personas: At most this many personas per group (None: all).
        max_rounds: Debate rounds at most.
        simple_roles: The paper's ablation: a one-line role per group replaces each
            persona's five attributes (names and counts stay).
        closing_call: Ask personas still active after ``max_rounds`` for a final
            evaluation (one call each) instead of keeping their last scores.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature of every call.
        seed: Generation seed (``seed + epoch - 1`` per epoch); personas created from
            ``persona_docs`` use ``seed`` at temperature 0.

    Returns:
        A solver that writes :class:`StakeholderPanel`, :class:`PanelDebate` and a
        :class:`~inspect_plural.prediction.Prediction`.
    """
    if max_rounds < 1:
        raise ValueError("maj_eval needs max_rounds >= 1")
    if n_personas is not None and n_personas < 1:
        raise ValueError("maj_eval needs n_personas >= 1")
    if personas and persona_docs:
        raise ValueError("maj_eval takes personas=FILE or persona_docs=..., not both")
    for name in _TEMPLATES:
        _template(name, prompts)
    docs = _split(persona_docs)
    wanted = _split(groups)
    for doc in docs:
        if not Path(doc).is_file():
            raise FileNotFoundError(f"maj_eval: persona document not found: {doc}")
    cache: dict[str, tuple[PersonaSet, int]] = {}
    lock = anyio.Lock()
    method = "maj_eval/simple_roles" if simple_roles else "maj_eval"

    async def persona_set(metadata: RatedSampleMetadata) -> tuple[PersonaSet, int]:
        async with lock:
            if metadata.dataset in cache:
                return cache[metadata.dataset][0], 0
            async with span("stakeholder personas"):
                loaded, calls = await personas_for_task(
                    metadata.dataset,
                    metadata.task_description,
                    personas=personas,
                    documents=docs,
                    model=get_model(role="persona_builder") if docs else None,
                    prompts=prompts,
                    config=persona_config(seed),
                )
            cache[metadata.dataset] = (loaded, calls)
            return loaded, calls

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        loaded, creation_calls = await persona_set(metadata)
        selected = loaded.select(groups=wanted or None, n_personas=n_personas)
        StakeholderPanel.detached(
            origin=loaded.origin.kind,
            groups=selected.groups,
            creation_calls=creation_calls,
        ).write_to(state.store)
        config = GenerateConfig(
            temperature=temperature, seed=None if seed is None else seed + state.epoch - 1
        )
        runners = [
            _Group(
                group,
                group.personas,
                metadata,
                config,
                max_rounds,
                simple_roles,
                closing_call,
                prompts,
            )
            for group in selected.groups
        ]
        debates = list(await collect(*(r.run() for r in runners)))
        PanelDebate.detached(
            groups=debates, max_rounds=max_rounds, simple_roles=simple_roles
        ).write_to(state.store)
        names = metadata.dimension_names
        panels = {
            d.group: PanelScores(
                initial={e.persona: e.scores for e in d.initial},
                final={e.persona: e.scores for e in d.final},
                scores=d.scores,
                model_calls=d.model_calls,
                tokens=d.tokens,
            )
            for d in debates
        }
        synthesis = "\n\n".join(f"{d.group}: {d.synthesis}" for d in debates)
        write_rating_prediction(
            state.store,
            method,
            metadata.dimensions,
            mean_scores([d.scores for d in debates], names),
            model_calls=creation_calls + sum(d.model_calls for d in debates),
            # the sample that created the personas also carries their tokens, as its calls
            tokens=(loaded.usage.total_tokens if creation_calls else 0)
            + sum(d.tokens for d in debates),
            panels=panels,
            initial_scores=mean_scores([d.initial_scores for d in debates], names),
            rationale=synthesis,
            aggregate="mean_of_groups",
        )
        return state

    return solve


def _split(value: str | list[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]
