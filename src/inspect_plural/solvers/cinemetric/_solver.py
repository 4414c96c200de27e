"""CINEMETRIC: annotators matched to movie characters who role-play the judgment and vote.

Perspective making (:mod:`inspect_plural.solvers.cinemetric._panel`) runs once per
annotator, or once per annotator and run with ``panel_per_epoch`` (the paper's protocol:
results are means of runs, each with its own panel), and is shared by all of that
annotator's samples (under a lock, so concurrent samples wait instead of repeating it).
A build that raises (a provider failing) is tried twice, then its failure is shared:
each sample of that annotator is a sample error with the reason, making no new call.

Perspective taking, per sample: each character answers the test item in role (the
``n_personas`` calls run concurrently), and the label is the majority vote, ties going
to the first-listed character (with three different answers, the first persona's).

The panel (candidates, verdicts, characters, rationales) is copied into every sample's
store as :class:`CharacterPanel`, each character's answer is one entry of
``Prediction.answers``, and a transcript entry lists the panel, so Inspect View shows the
panel and the vote (also when the panel came from the disk cache).
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.log import transcript
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import span
from pydantic import BaseModel

from inspect_plural._concurrency import BuildFailed, SharedBuilds, gather, named
from inspect_plural.models import role_model
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.prompts import example_key, load_template
from inspect_plural.records import AnnotatorSampleMetadata, annotator_sample, require_examples
from inspect_plural.solvers._answers import (
    ask,
    check_answer_format,
    response_format,
    write_prediction,
)
from inspect_plural.solvers._limits import answer_cap
from inspect_plural.solvers._pooling import pooled
from inspect_plural.solvers._render import render_item, render_labels
from inspect_plural.solvers.cinemetric._cache import (
    panel_disk_key,
    panel_label,
    read_panel,
    store_panel,
)
from inspect_plural.solvers.cinemetric._panel import (
    SELECT,
    SELECT_FIELDS,
    VALIDATE,
    VALIDATE_FIELDS,
    BuiltPanel,
    CharacterPanel,
    MovieCharacter,
    build_panel,
    panel_key,
    profile_text,
)
from inspect_plural.solvers.judge import task_text
from inspect_plural.structured import Structured, structured_value

__all__ = ["CharacterPanel", "MovieCharacter", "cinemetric"]

ROLEPLAY = "cinemetric_roleplay.txt"
SIMULATE = "cinemetric_simulate.txt"
ROLEPLAY_FIELDS = {"character", "movie", "rationale", "task", "item", "labels", "response_format"}
SIMULATE_FIELDS = {"profile", "rationale", "task", "item", "labels", "response_format"}


class _Panel(BaseModel):
    """A panel as one run holds it: who built it, or that it came from the disk cache."""

    built: BuiltPanel
    builder: tuple[str, int] | None = None
    """(sample id, epoch) of the sample whose calls built it; None when read from disk."""
    notes: list[str] = []
    """Why a stored entry was not used (it did not fit the run), for every sample's record."""


def _roleplay_prompt(
    metadata: AnnotatorSampleMetadata,
    character: MovieCharacter,
    instruction: str,
    selection_rationale: bool,
    prompts: str | None,
) -> str:
    template = load_template(
        ROLEPLAY,
        ROLEPLAY_FIELDS,
        {"character", "rationale", "item", "labels", "response_format"},
        prompts,
    )
    rationale = ""
    if selection_rationale and character.rationale:
        rationale = (
            "\n# Why This Character\n\n"
            f"The matching step picked them because: {character.rationale}\n"
        )
    assert metadata.scale is not None
    return template.format(
        character=character.name,
        movie=character.movie,
        rationale=rationale,
        task=task_text(metadata),
        item=render_item(metadata.item),
        labels=render_labels(metadata.scale),
        response_format=instruction,
    )


def _simulate_prompt(
    metadata: AnnotatorSampleMetadata,
    character: MovieCharacter,
    instruction: str,
    prompts: str | None,
) -> str:
    template = load_template(
        SIMULATE, SIMULATE_FIELDS, {"item", "labels", "response_format"}, prompts
    )
    assert metadata.scale is not None
    return template.format(
        profile=profile_text(metadata),
        rationale=character.rationale or "(no rationale was given)",
        task=task_text(metadata),
        item=render_item(metadata.item),
        labels=render_labels(metadata.scale),
        response_format=instruction,
    )


def _panel_summary(built: BuiltPanel, from_cache: bool, built_here: bool) -> str:
    """The panel as a Markdown block for the transcript (what Inspect View shows)."""
    origin = (
        "read from the disk cache (built by an earlier run)"
        if from_cache
        else ("built by this sample" if built_here else "built by another sample of this run")
    )
    lines = [f"**Character panel** ({origin}; {built.status})", ""]
    lines += [
        f"{i}. {c.label}" + (f": {c.rationale}" if c.rationale else "")
        for i, c in enumerate(built.characters, 1)
    ]
    considered = [c for c in built.candidates if c not in built.characters]
    if considered:
        lines += ["", "Also considered: " + "; ".join(f"{c.label} {c.verdict}" for c in considered)]
    return "\n".join(lines)


def _vote_summary(answers: Sequence[ModelAnswer], label: str | None) -> str:
    """The panel's votes and the majority, as a Markdown block for the transcript."""
    lines = ["**Votes**", ""]
    lines += [
        f"- {a.persona}: {a.label if a.parse_ok else 'no readable answer (' + str(a.error) + ')'}"
        for a in answers
    ]
    lines += ["", f"Majority: **{label}**" if label else "No majority: no vote could be read."]
    return "\n".join(lines)


@solver
def cinemetric(
    training_examples: bool = True,
    character_names: bool = True,
    selection_rationale: bool = True,
    n_candidates: int = 5,
    n_personas: int = 3,
    max_selection_rounds: int = 2,
    answer_format: str = "label",
    prompts: str | None = None,
    temperature: float | None = 0.0,
    seed: int | None = 42,
    persona_cache: bool = True,
    max_tokens: int | None = None,
    panel_per_epoch: bool = False,
    structured: Structured = False,
) -> Solver:
    """CINEMETRIC: movie-character personas per annotator, role-played and voted.

    Model roles: ``persona_builder`` selects and validates the characters, ``judge``
    role-plays them; both default to the evaluated model.

    Args:
        training_examples: Show the annotator's training judgments to the selection
            (False: the ablation "w/o training examples", selection from traits only).
        character_names: Role-play the characters (False: the ablation "w/o character
            names": each selected character's rationale, without name or movie, guides
            a direct simulation of the annotator from traits and examples).
        selection_rationale: Show each character's selection rationale in its role-play
            prompt (False: the paper's evaluation "w/o reasoning" prompt).
        n_candidates: Characters asked for per selection round.
        n_personas: Characters that answer each test item.
        max_selection_rounds: Selection rounds at most (the first included) while
            fewer than ``n_personas`` candidates are valid.
        answer_format: ``label`` (``Answer:`` line) or ``distribution`` (a probability
            for every label; the vote uses each persona's top label, and the sample's
            distribution is the personas' mean).
        prompts: Folder of replacement prompt templates.
        temperature: Sampling temperature of every call (None: the provider's default).
        seed: Generation seed of every call (None: unseeded).
        persona_cache: Reuse panels stored on disk by earlier runs (and store new
            ones): ``$INSPECT_PLURAL_CACHE/panels``, else
            ``~/.cache/inspect_plural/panels``, keyed by the first selection prompt,
            the validation template, the ``persona_builder`` model and its arguments,
            the generation config and the selection options. So a rerun or
            ``inspect eval-retry`` does not pay for the panels again. False builds every
            panel in this run (and still stores it). A panel that came out short is
            never stored.
        max_tokens: Output token cap of every call (None: 2,048 for a selection round,
            64 for a validation, 1,024 for a role-play answer).
        panel_per_epoch: Build each annotator's panel anew in every epoch, with the
            epoch's seed (the paper's protocol: each of its 5 runs has its own panels);
            False builds one panel per annotator, shared by the epochs.
        structured: Constrain every answer to its JSON schema (the character list, each
            verdict, each role-play answer): ``True`` (Inspect's structured output) or
            ``"json_object"`` (llama-cpp-python's dialect).

    Returns:
        A solver that writes a :class:`CharacterPanel` and a
        :class:`~inspect_plural.prediction.Prediction`.

    """
    mode = check_answer_format(answer_format)
    structured = structured_value(structured)
    if n_personas < 1 or n_candidates < n_personas or max_selection_rounds < 1:
        raise ValueError(
            "cinemetric needs 1 <= n_personas <= n_candidates and max_selection_rounds >= 1"
        )
    if not character_names and not selection_rationale:
        raise ValueError(
            "cinemetric with character_names=false simulates the annotator from each "
            "character's rationale: it cannot also run with selection_rationale=false"
        )
    # check every template now, not after the first panel's calls
    load_template(SELECT, SELECT_FIELDS, {"count", "profile", "examples", "exclude"}, prompts)
    load_template(VALIDATE, VALIDATE_FIELDS, VALIDATE_FIELDS, prompts)
    if character_names:
        required = {"character", "rationale", "item", "labels", "response_format"}
        load_template(ROLEPLAY, ROLEPLAY_FIELDS, required, prompts)
    else:
        load_template(SIMULATE, SIMULATE_FIELDS, {"item", "labels", "response_format"}, prompts)
    config = GenerateConfig(temperature=temperature, seed=seed, max_tokens=max_tokens)
    builds: SharedBuilds[_Panel] = SharedBuilds()
    method = "cinemetric"
    if not training_examples:
        method += "/no_training_examples"
    if not character_names:
        method += "/no_character_names"
    if not selection_rationale:
        method += "/no_selection_rationale"

    async def panel_for(
        metadata: AnnotatorSampleMetadata, builder: tuple[str, int], epoch: int
    ) -> _Panel:
        run = epoch if panel_per_epoch else None
        what = f"characters for annotator {metadata.annotator_id}"
        what += f" (run {run})" if run is not None else ""

        async def build() -> _Panel:
            model = role_model("persona_builder")
            options = (n_candidates, n_personas, max_selection_rounds, training_examples)
            build_config = config
            if run is not None and seed is not None:
                build_config = config.merge(GenerateConfig(seed=seed + run - 1))
            disk_key = panel_disk_key(
                metadata, model, build_config, *options, prompts, run, structured
            )
            label = panel_label(disk_key, metadata, model, build_config, n_personas, prompts)
            cached, note = read_panel(label) if persona_cache else (None, None)
            if cached is not None:
                return _Panel(built=cached)
            async with span(what):
                built = await build_panel(
                    metadata, model, build_config, *options, prompts, structured
                )
            store_panel(label, built)
            return _Panel(built=built, builder=builder, notes=[note] if note else [])

        return await builds.get(panel_key(metadata, run), what, build)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        if training_examples:
            require_examples(state.metadata, "cinemetric")
        metadata = annotator_sample(state.metadata)
        if not metadata.traits and not (training_examples and metadata.training):
            # this annotator has neither traits nor examples: no call, a recorded failure
            write_prediction(
                state.store,
                method,
                [],
                metadata.labels,
                0,
                "majority",
                f"nothing to match annotator {metadata.annotator_id} on: no traits "
                "(unnamed) and no training examples",
            )
            return state
        # a sample retried after an error (--retry-on-error) is still the builder
        try:
            panel = await panel_for(metadata, (str(state.sample_id), state.epoch), state.epoch)
        except BuildFailed as failure:  # shared: no new call; recorded for --score-on-error
            write_prediction(
                state.store,
                method,
                [],
                metadata.labels,
                0,
                "majority",
                str(failure),
                failure="build_failed",
            )
            raise  # a sample error: the run's status says so, eval-retry reruns it
        built = panel.built
        built_here = panel.builder == (str(state.sample_id), state.epoch)
        CharacterPanel.detached(
            annotator_id=metadata.annotator_id,
            built_here=built_here,
            from_cache=panel.builder is None,
            training_examples=training_examples and bool(metadata.training),
            notes=panel.notes,
            **built.model_dump(),
        ).write_to(state.store)
        for note in panel.notes:
            transcript().info(note, source="panel cache")
        persona_calls = built.model_calls if built_here else 0
        transcript().info(_panel_summary(built, panel.builder is None, built_here), source="panel")
        labels = metadata.labels
        if not built.characters:
            write_prediction(
                state.store,
                method,
                [],
                labels,
                persona_calls,
                "majority",
                built.status,
                failure="no_panel",
            )
            return state
        aspect = "Character's aspect" if character_names else "User's aspect"
        fields = [
            (
                "Reasoning",
                "why this label",
                "Weighed against what matters to them, the content reads this way to them",
            ),
            (
                aspect,
                "the aspect of the "
                + ("character's" if character_names else "person's")
                + " perspective you used for this judgment",
                "Their sense of fairness",
            ),
        ]
        instruction, declared = response_format(
            mode, labels, fields=fields, example_key=example_key(metadata)
        )
        model = role_model("judge")
        # a different seed per epoch, so --epochs samples the role-play again
        call_config = GenerateConfig(max_tokens=answer_cap(True, None)).merge(config)
        call_config = call_config.merge(
            GenerateConfig(seed=None if seed is None else seed + state.epoch - 1)
        )

        async def answer(character: MovieCharacter) -> ModelAnswer:
            if character_names:
                prompt = _roleplay_prompt(
                    metadata, character, instruction, selection_rationale, prompts
                )
            else:
                prompt = _simulate_prompt(metadata, character, instruction, prompts)
            parsed, _ = await ask(
                model,
                prompt,
                declared,
                call_config,
                labels,
                mode,
                character.label,
                aspect,
                structured,
            )
            return parsed

        answers = await gather(*(named(c.label, answer(c)) for c in built.characters))
        write_prediction(
            state.store,
            method,
            answers,
            labels,
            persona_calls + len(answers),
            "majority",
        )
        transcript().info(_vote_summary(answers, Prediction.read(state.store).label), source="vote")
        return state

    return pooled(method, solve)
