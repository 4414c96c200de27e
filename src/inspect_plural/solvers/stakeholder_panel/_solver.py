"""``stakeholder_panel``: a MAJ-Eval stakeholder panel labels an item; its votes give the shares.

For the distribution target (``-T target=distribution``: one sample per item). The panel
is built once per run under a lock (:mod:`._members`: a persona file,
documents, inline profiles, or by default one profile per trait value of the dataset),
cached on disk like the ``panel`` scorer's, and copied into every item's store. Per item,
every persona labels the item independently: one call each, all concurrent, each in a
transcript span named for the persona, with the item, the label scale and the persona's
profile in the prompt (``stakeholder_label.txt``; the literal labels and a filled
example, answered in ``label`` mode). The item's distribution is the personas' vote
shares, each group weighted equally and the personas equally within a group; each
annotator's label for the perspectivist metrics is the vote of the personas that stand
for their trait values, else the panel's majority (:mod:`._votes`, which
states both rules with a worked example).

Calls per item: one per persona, plus the panel's creation once per run (one call per
profile; from documents MAJ-Eval's extraction, grouping and writing; none from a file or
the disk cache), made by the first item that needs the panel. Model roles:
``persona_builder`` creates the personas, ``judge`` answers as them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.log import transcript
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span

from inspect_plural._concurrency import BuildFailed, SharedBuilds, gather, named
from inspect_plural.answer_format import DistributionFormat, LabelFormat
from inspect_plural.errors import UserError
from inspect_plural.item_records import (
    AnnotatorPredictions,
    AnnotatorRun,
    ItemSampleMetadata,
    is_item_sample,
    item_sample,
)
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.prompts import example_key, load_template
from inspect_plural.solvers._answers import ask, response_format
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._render import render_item, render_labels
from inspect_plural.solvers.stakeholder_panel._members import BuiltPanel, build_members, plan_panel
from inspect_plural.solvers.stakeholder_panel._records import (
    PanelMember,
    PersonaVote,
    StakeholderVotes,
)
from inspect_plural.solvers.stakeholder_panel._votes import (
    annotator_runs,
    group_shares,
    pool_votes,
    top_label,
    votes_of,
)
from inspect_plural.stakeholders import PersonaFileError, persona_config
from inspect_plural.structured import Structured, structured_value

__all__ = [
    "AGGREGATE",
    "DEFAULT_TASK_DESCRIPTION",
    "PANEL_SPAN",
    "PanelMember",
    "PersonaVote",
    "StakeholderVotes",
    "render_vote_prompt",
    "stakeholder_panel",
    "vote_summary",
]

METHOD = "stakeholder_panel"
TEMPLATE = "stakeholder_label.txt"
TEMPLATE_FIELDS = {"name", "profile", "task", "item", "labels", "response_format"}
REQUIRED_FIELDS = {"profile", "item", "labels", "response_format"}
AGGREGATE = "group_vote_shares"
"""``Prediction.aggregate`` of the method: groups weighted equally, personas within them."""
PANEL_SPAN = "stakeholder personas"
"""The transcript span of the panel's creation (in the item that built it)."""
DEFAULT_TASK_DESCRIPTION = (
    "Label pieces of content: read each one and choose, from your own point of view, the "
    "one label of its scale that fits it best."
)
"""What persona creation is told the panel does, when the dataset says nothing."""
DEFAULT_TASK = "Choose the label that fits the content, in your view."
LEAD = "First think briefly about how you, given who you are, see the content."


def render_profile(member: PanelMember) -> str:
    """The persona as its prompt shows it: group, profile and attributes, one per line.

    An attribute that only repeats the profile (a persona whose answer was unreadable keeps
    the profile as its perspective) is shown once.
    """
    lines = [f"Stakeholder group: {member.group}"]
    if member.profile:
        lines.append(f"Profile: {member.profile}")
    for line in (member.description or "").splitlines():
        if not member.profile or line.partition(": ")[2] != member.profile:
            lines.append(line)
    return "\n".join(lines)


def render_vote_prompt(
    metadata: ItemSampleMetadata,
    member: PanelMember,
    reasoning: bool = True,
    prompts: str | None = None,
) -> tuple[str, DistributionFormat | LabelFormat]:
    """One persona's prompt for an item, and the label format it declares.

    Args:
        metadata: The item sample's metadata.
        member: The persona.
        reasoning: Ask for brief reasoning before the JSON answer.
        prompts: Folder of replacement templates.

    Returns:
        The prompt (every label spelled out, a filled example) and its answer format.
    """
    template = load_template(TEMPLATE, TEMPLATE_FIELDS, REQUIRED_FIELDS, prompts)
    if metadata.scale is None:
        raise ValueError(f"item {metadata.item_id} has no label scale")
    instruction, declared = response_format(
        "label",
        metadata.labels,
        reasoning,
        lead=LEAD,
        example_key=example_key(metadata, member.name),
    )
    text = template.format(
        name=member.name,
        profile=render_profile(member),
        task=metadata.scale.description or DEFAULT_TASK,
        item=render_item(metadata.item),
        labels=render_labels(metadata.scale),
        response_format=instruction,
    )
    return text, declared


def _origin(panel: BuiltPanel, here: bool) -> str:
    """Where the panel comes from, and whether this item built it."""
    if panel.origin == "file":
        how = "read from the file"
    elif panel.calls == 0:
        how = "read from the disk cache"
    else:
        how = "built by this item" if here else "built by another item of this run"
    return f"{panel.origin}, {how}"


def vote_summary(
    panel: BuiltPanel,
    here: bool,
    votes: Sequence[PersonaVote],
    distribution: dict[str, float] | None,
    runs: Sequence[AnnotatorRun],
) -> str:
    """The panel's votes, the pooled distribution and each annotator's label (Markdown)."""
    groups = list(dict.fromkeys(m.group for m in panel.members))
    lines = [
        f"**Stakeholder panel** ({_origin(panel, here)}): personas {len(panel.members)}, "
        f"groups {len(groups)}",
        "",
    ]
    for group in groups:
        cast = [
            f"{m.label}: {v.label if v.label is not None else f'no readable answer ({v.error})'}"
            for m, v in zip(panel.members, votes, strict=True)
            if m.group == group
        ]
        lines.append(f"- {group}: " + "; ".join(cast))
    unparsed = sum(1 for v in votes if v.label is None)
    lines += ["", f"Unreadable answers (left out): {unparsed}", ""]
    if distribution:
        shares = ", ".join(f"{label} {share:.3f}" for label, share in distribution.items())
        lines.append(f"Distribution (each group weighted equally): **{shares}**")
    else:
        lines.append("No distribution: no vote could be read.")
    lines += ["", "Annotators: " + "; ".join(f"{r.annotator_id} {r.label}" for r in runs)]
    return "\n".join(lines)


def _split(value: str | Sequence[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


@solver
def stakeholder_panel(
    personas: str | list[str] | dict[str, Any] | None = None,
    persona_docs: str | list[str] | None = None,
    panel_groups: str | list[str] | None = None,
    personas_per_group: int | None = None,
    trait_values: list[list[str]] | None = None,
    task_description: str | None = None,
    reasoning: bool = True,
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    max_tokens: int | None = None,
    structured: Structured = False,
    persona_max_tokens: int | None = None,
) -> Solver:
    """A stakeholder panel labels each item; the vote shares are its distribution.

    Args:
        personas: A persona file (written by ``inspect-plural personas``), a shipped set
            (``storysparkqa``), or inline profiles (``"a nurse; parents: a parent"``, a
            list, or a mapping group -> profiles), expanded into personas once per run.
        persona_docs: Documents to create the personas from (MAJ-Eval's creation, once
            per run, cached on disk); instead of ``personas``.
        panel_groups: Only these stakeholder groups (the default panel's groups are the
            trait dimensions).
        personas_per_group: At most this many personas per group (the first ones).
        trait_values: ``[dimension, value]`` pairs the default panel has a persona for
            (the tasks pass the dataset's known trait values); used when neither
            ``personas`` nor ``persona_docs`` is given.
        task_description: What persona creation is told the panel does (the tasks pass
            the dataset's labelling question).
        reasoning: Ask each persona for brief reasoning before its JSON answer.
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature of every vote.
        seed: Generation seed (``seed + epoch - 1`` per epoch; persona creation ``seed``
            at temperature 0).
        max_tokens: Output token cap of a vote (None: 1,024 with reasoning, 256 without).
        structured: Constrain every vote (and each persona written from a profile) to its
            JSON schema: ``True`` (Inspect's structured output) or ``"json_object"``
            (llama-cpp-python's dialect).
        persona_max_tokens: Output token cap of each persona's creation (None: 4,096;
            a slow local model's profile run caps it with its answers).

    Returns:
        A solver for item samples (``-T target=distribution``) that writes a
        :class:`~inspect_plural.prediction.Prediction` (the pooled distribution, every
        persona's answer), :class:`~inspect_plural.item_records.AnnotatorPredictions`
        (each annotator's label) and :class:`StakeholderVotes` (the panel and its votes).

    Raises:
        OptionError: No personas and no trait values, a missing file or document, an
            unknown group.
    """
    structured = structured_value(structured)
    load_template(TEMPLATE, TEMPLATE_FIELDS, REQUIRED_FIELDS, prompts)  # checked now
    plan = plan_panel(
        personas, _split(persona_docs), trait_values, _split(panel_groups), personas_per_group
    )
    creation_task = task_description or DEFAULT_TASK_DESCRIPTION
    creation_config = persona_config(seed)
    if persona_max_tokens is not None:
        creation_config = creation_config.merge(GenerateConfig(max_tokens=persona_max_tokens))
    builds: SharedBuilds[BuiltPanel] = SharedBuilds(fatal=(PersonaFileError,))

    async def panel_once() -> tuple[BuiltPanel, bool]:
        """The run's panel, built by the first item that asks (True for that one)."""
        made_here = False

        async def build() -> BuiltPanel:
            nonlocal made_here
            made_here = True
            async with span(PANEL_SPAN):
                made = await build_members(
                    plan,
                    creation_task,
                    role_model("persona_builder"),
                    creation_config,
                    prompts,
                    structured,
                )
            if not made.members:
                raise UserError(f"{METHOD}: the panel has no persona ({plan.origin})")
            return made

        panel = await builds.get("panel", f"{METHOD}'s persona panel", build)
        return panel, made_here

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if not is_item_sample(state.metadata):
            raise ValueError(
                f"{METHOD} predicts an item's label distribution: run the task with "
                "-T target=distribution"
            )
        metadata = item_sample(state.metadata)
        try:
            panel, here = await panel_once()
        except BuildFailed as failure:
            # shared by every item: no new call; recorded for --score-on-error
            Prediction.detached(
                method=METHOD, parse_ok=False, error=str(failure), failure="build_failed"
            ).write_to(state.store)
            raise  # a sample error: the run's status says so, eval-retry reruns it
        labels = metadata.labels
        model = role_model("judge")
        config = GenerateConfig(
            temperature=temperature,
            seed=None if seed is None else seed + state.epoch - 1,
            max_tokens=answer_cap(reasoning, max_tokens),
        )

        async def vote(member: PanelMember) -> ModelAnswer:
            text, declared = render_vote_prompt(metadata, member, reasoning, prompts)
            answer, _ = await ask(
                model, text, declared, config, labels, "label", member.label, None, structured
            )
            return answer

        answers = await gather(*(named(m.label, vote(m)) for m in panel.members))
        _write(state, metadata, panel, here, answers)
        return state

    return solve


def _write(
    state: TaskState,
    metadata: ItemSampleMetadata,
    panel: BuiltPanel,
    here: bool,
    answers: Sequence[ModelAnswer],
) -> None:
    """Pool the votes and write the prediction, the annotators' labels and the votes."""
    labels = metadata.labels
    votes = votes_of(panel.members, answers)
    shares = group_shares(votes, labels)
    distribution = pool_votes(votes, labels)
    unparsed = sum(1 for v in votes if v.label is None)
    runs = annotator_runs(metadata.annotators, panel.members, votes, labels, distribution)
    creation = panel.calls if here else 0
    read = len(votes) - unparsed
    Prediction.detached(
        method=METHOD,
        label=top_label(distribution, labels) if distribution else None,
        distribution=distribution,
        parse_ok=distribution is not None,
        error=None if distribution else f"no persona's vote could be read (0 of {len(votes)})",
        rationale=f"{read} of {len(votes)} personas voted, in "
        + ("1 group" if len(shares) == 1 else f"{len(shares)} groups weighted equally")
        + f" ({unparsed} unreadable, left out)",
        answers=list(answers),
        aggregate=AGGREGATE,
        model_calls=len(answers) + creation,
    ).write_to(state.store)
    AnnotatorPredictions.detached(method=METHOD, runs=runs).write_to(state.store)
    StakeholderVotes.detached(
        origin=panel.origin,
        personas=panel.members,
        votes=votes,
        group_shares=shares,
        unparsed=unparsed,
        creation_calls=creation,
        created_groups=panel.created_groups,
        notes=panel.notes,
    ).write_to(state.store)
    transcript().info(vote_summary(panel, here, votes, distribution, runs), source="vote")
