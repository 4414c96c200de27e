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

The debate itself is :mod:`inspect_plural.solvers.debate._group`'s, shared with the
``panel`` scorer; the records are in :mod:`inspect_plural.solvers.debate._records`.
"""

from __future__ import annotations

from pathlib import Path

from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from inspect_plural._concurrency import BuildFailed, SharedBuilds
from inspect_plural.models import role_model
from inspect_plural.prediction import PanelScores
from inspect_plural.prompts import example_key
from inspect_plural.records import RatedSampleMetadata, RatingDimension
from inspect_plural.solvers._limits import ANSWER_MAX_TOKENS
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    mean_scores,
    render_rated,
    write_rating_prediction,
)
from inspect_plural.solvers.debate import (
    AGENT,
    AGGREGATE,
    CLOSING,
    DEBATE,
    MISMATCH_TOLERANCE,
    MODERATOR,
    PHASE1,
    DebateSettings,
    DebateTurn,
    Evaluation,
    GradingInput,
    GroupDebate,
    PanelDebate,
    StakeholderPanel,
    check_templates,
    debate_groups,
)
from inspect_plural.stakeholders import (
    PERSONA_SEED,
    PersonaFileError,
    PersonaSet,
    persona_config,
    personas_for_task,
)
from inspect_plural.structured import Structured, structured_value

__all__ = [
    "AGENT",
    "AGGREGATE",
    "CLOSING",
    "DEBATE",
    "MISMATCH_TOLERANCE",
    "MODERATOR",
    "PHASE1",
    "DebateTurn",
    "Evaluation",
    "GroupDebate",
    "PanelDebate",
    "StakeholderPanel",
    "grading_input",
    "maj_eval",
]


def grading_input(metadata: RatedSampleMetadata) -> GradingInput:
    """What ``maj_eval`` grades: the rated output, scored on 1–5 whatever the human scale.

    Args:
        metadata: The rating sample's metadata.

    Returns:
        The debate's input.
    """
    return GradingInput(
        content=render_rated(metadata),
        content_label=metadata.content_label,
        task_description=metadata.task_description,
        dimensions=[_on_rating_scale(d) for d in metadata.dimensions],
        example_key=example_key(metadata),
    )


def _on_rating_scale(dimension: RatingDimension) -> RatingDimension:
    return dimension.model_copy(update={"low": SCORE_LOW, "high": SCORE_HIGH})


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
    max_tokens: int | None = ANSWER_MAX_TOKENS,
    structured: Structured = False,
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
        max_tokens: Output token cap of every debate call (a persona's evaluation or
            turn, a moderator's pick, the aggregation); None: the provider's.
        structured: Constrain every debate answer (scores, turns, the moderator's pick,
            the synthesis) to its JSON schema: ``True`` (Inspect's structured output) or
            ``"json_object"`` (llama-cpp-python's dialect). Persona creation from
            documents is not constrained.

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
    base = DebateSettings(
        max_rounds=max_rounds,
        simple_roles=simple_roles,
        closing_call=closing_call,
        prompts=prompts,
        structured=structured_value(structured),
    )
    check_templates(base)
    docs = _split(persona_docs)
    wanted = _split(groups)
    for doc in docs:
        if not Path(doc).is_file():
            raise FileNotFoundError(f"maj_eval: persona document not found: {doc}")
    builds: SharedBuilds[tuple[PersonaSet, int]] = SharedBuilds(fatal=(PersonaFileError,))
    method = "maj_eval/simple_roles" if simple_roles else "maj_eval"

    async def persona_set(metadata: RatedSampleMetadata) -> tuple[PersonaSet, int]:
        """The task's set, and the creation calls this sample made (0 for all others)."""
        made_here = False

        async def build() -> tuple[PersonaSet, int]:
            nonlocal made_here
            made_here = True
            async with span("stakeholder personas"):
                return await personas_for_task(
                    metadata.dataset,
                    metadata.task_description,
                    personas=personas,
                    documents=docs,
                    model=role_model("persona_builder") if docs else None,
                    prompts=prompts,
                    config=persona_config(seed),
                )

        what = f"stakeholder personas for {metadata.dataset}"
        loaded, calls = await builds.get(metadata.dataset, what, build)
        return loaded, calls if made_here else 0

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        metadata = state.metadata_as(RatedSampleMetadata)
        try:
            loaded, creation_calls = await persona_set(metadata)
        except BuildFailed as failure:
            # shared by every sample of the task: no new call; recorded for --score-on-error
            write_rating_prediction(
                state.store,
                method,
                metadata.dimensions,
                {},
                model_calls=0,
                error=str(failure),
                failure="build_failed",
            )
            raise  # a sample error: the run's status says so, eval-retry reruns it
        selected = loaded.select(groups=wanted or None, n_personas=n_personas)
        StakeholderPanel.detached(
            origin=loaded.origin.kind,
            groups=selected.groups,
            creation_calls=creation_calls,
            notes=loaded.notes,
        ).write_to(state.store)
        settings = base.model_copy(
            update={
                "config": GenerateConfig(
                    temperature=temperature,
                    max_tokens=max_tokens,
                    seed=None if seed is None else seed + state.epoch - 1,
                )
            }
        )
        debates = await debate_groups(selected.groups, grading_input(metadata), settings)
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
