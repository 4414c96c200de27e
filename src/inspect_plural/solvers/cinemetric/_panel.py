"""CINEMETRIC's perspective making: an annotator's movie-character panel, built once.

1. *Selection*: from the annotator's traits and (by default) their training judgments,
   the ``persona_builder`` model lists ``n_candidates`` distinct movie characters, each
   with the movie and a rationale.
2. *Validation*: one call per candidate asks whether the character is in that movie
   (VALID/INVALID). The first ``n_personas`` valid ones, in listed order, form the panel.
   When fewer pass, another selection round asks for new candidates (excluding those
   already seen; after a round whose answer listed no readable character, reminding the
   model of the format, with the round's own seed, so a greedy model is not sent the
   same prompt twice), up to ``max_selection_rounds`` rounds in all. If the panel is
   still short but holds a validated character, it is completed with the remaining
   candidates in listed order (those whose verdict could not be read before those
   judged INVALID); the panel's ``status`` says so. With no validated character there
   is no panel: the annotator's samples fail (``no_panel``) instead of role-playing
   characters nobody vouched for.

A candidate that is the selection prompt's own example (:data:`EXAMPLE_CHARACTER`, the
name a small model copies) is refused before validation, as MAJ-Eval's personas and
PERSE's reviews refuse their prompts' examples.

Finished panels are stored on disk by :mod:`inspect_plural.solvers.cinemetric._cache`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import ClassVar, Literal

from inspect_ai.model import ChatMessageUser, GenerateConfig, Model
from pydantic import BaseModel, Field

from inspect_plural._concurrency import gather, named
from inspect_plural.answer_format import CharacterListFormat, LabelFormat, declare_answer_format
from inspect_plural.answer_screen import screen_answer
from inspect_plural.parsing import VERDICTS, character_key, parse_characters, parse_verdict
from inspect_plural.prediction import StoredRecord
from inspect_plural.prompts import load_template
from inspect_plural.records import AnnotatorSampleMetadata
from inspect_plural.solvers._limits import PANEL_SELECTION_MAX_TOKENS, VERDICT_MAX_TOKENS
from inspect_plural.solvers._render import render_examples, render_traits
from inspect_plural.solvers.judge import task_text
from inspect_plural.structured import Structured, generate_answer

__all__ = [
    "EXAMPLE_CHARACTER",
    "BuiltPanel",
    "CharacterPanel",
    "MovieCharacter",
    "build_panel",
    "is_example_character",
    "panel_key",
    "profile_text",
]

SELECT = "cinemetric_select.txt"
VALIDATE = "cinemetric_validate.txt"
SELECT_FIELDS = {"count", "profile", "examples", "task", "basis", "exclude"}
VALIDATE_FIELDS = {"character", "movie"}
NO_PROFILE = "Nothing is known about this person's background; go by their example judgments."
UNREADABLE_ROUND = (
    "- Your previous answer listed no character in the format below; this time follow it exactly.\n"
)
"""Added to a selection round after one whose answer listed no readable character."""

Verdict = Literal["VALID", "INVALID", "UNPARSED"]


class MovieCharacter(BaseModel):
    """A candidate movie character for an annotator's panel.

    Attributes:
        name: The character's name as the model wrote it.
        movie: The movie title.
        rationale: Why the character matches the annotator.
        round: The selection round that proposed it (1 = first).
        verdict: The validation's answer (``UNPARSED`` when unreadable).
        validated: Whether it passed validation (False for a character that completes a
            short panel).

    """

    name: str
    movie: str
    rationale: str = ""
    round: int = 1
    verdict: Verdict | None = None
    validated: bool = False

    @property
    def label(self) -> str:
        """``Name (Movie)``, how the panel refers to the character."""
        return f"{self.name} ({self.movie})"


class CharacterPanel(StoredRecord):
    """An annotator's movie-character panel, as copied into each of their samples' stores.

    Attributes:
        annotator_id: Whose panel it is.
        characters: The characters that answer, in listed order.
        candidates: Every candidate proposed, with its validation verdict.
        rounds: Selection rounds run.
        status: What happened (e.g. a short panel completed with unvalidated characters).
        model_calls: Calls the panel cost (selection and validation), made once.
        built_here: Whether this sample made those calls (the others reused the panel).
        from_cache: Whether the panel came from the disk cache (built by an earlier run,
            so this run made none of its calls).
        training_examples: Whether selection saw the annotator's training judgments.
        selection_raw: The selection answers, one per round.
        notes: Why a stored panel was not used (it did not fit this run: made for another
            annotator, cut short, empty), so it was built again.

    """

    annotator_id: str = Field(default="")
    characters: list[MovieCharacter] = Field(default_factory=list)
    candidates: list[MovieCharacter] = Field(default_factory=list)
    rounds: int = Field(default=0)
    status: str = Field(default="")
    model_calls: int = Field(default=0)
    built_here: bool = Field(default=False)
    from_cache: bool = Field(default=False)
    training_examples: bool = Field(default=True)
    selection_raw: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    sparse_fields: ClassVar[frozenset[str]] = frozenset({"notes"})


class BuiltPanel(BaseModel):
    """A finished panel, cached per annotator (in memory, and on disk as JSON)."""

    characters: list[MovieCharacter]
    candidates: list[MovieCharacter]
    rounds: int
    status: str
    model_calls: int
    selection_raw: list[str]


EXAMPLE_CHARACTER = ("Marge Gunderson", "Fargo")
"""The character and movie of the filled example in ``cinemetric_select.txt``: a candidate
under that name copied the example and is refused."""
EXAMPLE_ENTRY = "Character Name: Marge Gunderson\nMovie Title: Fargo (1996)"
"""How the example entry opens in ``cinemetric_select.txt`` (declared with the prompt)."""


def is_example_character(name: str) -> bool:
    """Whether a listed character is the selection prompt's example (by name).

    Args:
        name: The character's name as listed.

    Returns:
        True for the example's name in any spelling.
    """
    return character_key(name, "") == character_key(EXAMPLE_CHARACTER[0], "")


def panel_key(metadata: AnnotatorSampleMetadata, run: int | None = None) -> tuple[str, ...]:
    """What a panel depends on: the dataset, the annotator, their examples and traits.

    One solver instance may serve several tasks (``eval([...])`` with one solver), so
    the dataset name and annotator id alone could hand one task's panel to another.

    Args:
        metadata: A sample of the annotator.
        run: The run (epoch) when panels are rebuilt per run; None: one panel per annotator.
    """
    digest = hashlib.sha256()
    for example in metadata.training:
        digest.update(f"{example.item.id}\x1f{example.label}\x1e".encode())
    digest.update(json.dumps(metadata.traits, sort_keys=True).encode())
    # not the sample's scale: on OpinionQA every question has its own, and the panel is
    # the annotator's, shared by all their questions (another label of one dataset shows
    # up in the examples' labels)
    key = (metadata.dataset, str(metadata.annotator_id), digest.hexdigest())
    return key if run is None else (*key, f"run {run}")


def profile_text(metadata: AnnotatorSampleMetadata) -> str:
    return render_traits(metadata.traits) if metadata.traits else NO_PROFILE


def _examples_block(metadata: AnnotatorSampleMetadata, use: bool) -> str:
    if not use or not metadata.training:
        return ""
    return (
        "\n# How This Person Labelled Other Content\n\n" + render_examples(metadata.training) + "\n"
    )


def _selection_prompt(
    metadata: AnnotatorSampleMetadata,
    count: int,
    training_examples: bool,
    excluded: Sequence[MovieCharacter],
    unreadable: bool,
    prompts: str | None,
) -> str:
    template = load_template(
        SELECT, SELECT_FIELDS, {"count", "profile", "examples", "exclude"}, prompts
    )
    with_examples = training_examples and bool(metadata.training)
    exclude = UNREADABLE_ROUND if unreadable else ""
    if excluded:
        listed = "\n".join(f"- {c.label}" for c in excluded)
        exclude += f"- Do not suggest any of these, already considered:\n{listed}\n"
    return template.format(
        count=count,
        profile=profile_text(metadata),
        examples=_examples_block(metadata, with_examples),
        task=task_text(metadata),
        basis="this person's profile and example judgments"
        if with_examples
        else "this person's profile",
        exclude=exclude,
    )


def _validation_prompt(character: MovieCharacter, prompts: str | None) -> str:
    template = load_template(VALIDATE, VALIDATE_FIELDS, VALIDATE_FIELDS, prompts)
    return template.format(character=character.name, movie=character.movie)


async def _validate(
    model: Model,
    character: MovieCharacter,
    config: GenerateConfig,
    prompts: str | None,
    structured: Structured,
) -> Verdict:
    message = declare_answer_format(
        ChatMessageUser(content=_validation_prompt(character, prompts)),
        LabelFormat(labels=list(VERDICTS), style="bare"),
    )
    verdict_config = GenerateConfig(max_tokens=VERDICT_MAX_TOKENS).merge(config)
    output, _ = await generate_answer(model, [message], verdict_config, structured)
    if screen_answer(output.completion, [message]) is not None:
        return "UNPARSED"  # an echo of the claim is no verdict
    parsed = parse_verdict(output.completion)
    return "UNPARSED" if not parsed.ok else ("VALID" if parsed.label == "VALID" else "INVALID")


async def build_panel(
    metadata: AnnotatorSampleMetadata,
    model: Model,
    config: GenerateConfig,
    n_candidates: int,
    n_personas: int,
    max_rounds: int,
    training_examples: bool,
    prompts: str | None,
    structured: Structured = False,
) -> BuiltPanel:
    candidates: list[MovieCharacter] = []
    seen: set[str] = set()
    raws: list[str] = []
    calls = 0
    rounds = 0
    copied = 0
    unreadable = False
    for round_number in range(1, max_rounds + 1):
        rounds = round_number
        prompt = _selection_prompt(
            metadata, n_candidates, training_examples, candidates, unreadable, prompts
        )
        message = declare_answer_format(
            ChatMessageUser(content=prompt),
            CharacterListFormat(count=n_candidates, example=EXAMPLE_ENTRY),
        )
        # each round its own seed: a later round never repeats an earlier call
        round_config = GenerateConfig(max_tokens=PANEL_SELECTION_MAX_TOKENS).merge(config)
        if config.seed is not None:
            round_config = round_config.merge(GenerateConfig(seed=config.seed + round_number - 1))
        output, _ = await generate_answer(model, [message], round_config, structured)
        calls += 1
        raws.append(output.completion)
        new: list[MovieCharacter] = []
        refused = screen_answer(output.completion, [message]) is not None  # echo or copy
        for parsed in [] if refused else parse_characters(output.completion):
            key = character_key(parsed.name, parsed.movie)
            if is_example_character(parsed.name):
                copied += 1
                continue
            if key not in seen and len(new) < n_candidates:
                seen.add(key)
                new.append(
                    MovieCharacter(
                        name=parsed.name,
                        movie=parsed.movie,
                        rationale=parsed.rationale,
                        round=round_number,
                    )
                )
        unreadable = not new
        verdicts = await gather(
            *(
                named(f"validation of {c.label}", _validate(model, c, config, prompts, structured))
                for c in new
            )
        )
        calls += len(new)
        for character, verdict in zip(new, verdicts):
            character.verdict = verdict
            character.validated = verdict == "VALID"
        candidates += new
        if sum(c.validated for c in candidates) >= n_personas:
            break
    valid = [c for c in candidates if c.validated]
    chosen = valid[:n_personas]
    status = f"{len(valid)} of {len(candidates)} candidates valid after {rounds} selection round(s)"
    if copied:
        status += f"; {copied} listed the prompt's example character (refused)"
    if chosen and len(chosen) < n_personas:
        rest = [c for c in candidates if not c.validated]
        rest.sort(key=lambda c: c.verdict != "UNPARSED")  # stable: listed order within each
        filler = rest[: n_personas - len(chosen)]
        if filler:
            status += f"; completed with {len(filler)} unvalidated: " + ", ".join(
                c.label for c in filler
            )
        chosen += filler  # validated characters first, so they lead the vote's tie rule
    if not chosen:
        status += (
            "; no validated character: no panel"
            if candidates
            else "; no character could be read from the selection answers"
        )
    return BuiltPanel(
        characters=[c.model_copy() for c in chosen],
        candidates=candidates,
        rounds=rounds,
        status=status,
        model_calls=calls,
        selection_raw=raws,
    )
