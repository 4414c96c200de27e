"""The disk cache of CINEMETRIC's panels (``$INSPECT_PLURAL_CACHE/panels``).

Finished panels are stored on disk (``$INSPECT_PLURAL_CACHE/panels``) under a key of
everything their calls depend on (prompts, model, server, arguments, generation config,
options, and the run when panels are rebuilt per run); a panel that came out short
(fewer characters than asked for) is never stored, so a rerun tries again instead of
replaying the failure. Each entry carries its label (:func:`panel_label`: the annotator
and dataset, the model, the templates' version, the seed, its character count); an entry
made for another annotator, copied under another key, cut short or empty is a miss,
rebuilt, with a note saying why (:func:`read_panel`).
"""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model

from inspect_plural._disk_cache import (
    EntryLabel,
    cache_key,
    read_labelled,
    text_version,
    write_labelled,
)
from inspect_plural.prompts import load_template
from inspect_plural.records import AnnotatorSampleMetadata
from inspect_plural.solvers.cinemetric._panel import (
    SELECT,
    SELECT_FIELDS,
    UNREADABLE_ROUND,
    VALIDATE,
    VALIDATE_FIELDS,
    BuiltPanel,
    _selection_prompt,
    panel_key,
)
from inspect_plural.structured import Structured, structured_mode

__all__ = ["PANEL_CACHE", "panel_disk_key", "panel_label", "read_panel", "store_panel"]

PANEL_CACHE = "panels"
PANEL_CACHE_VERSION = 3
"""Bump when a change to the code changes the panels the same prompts produce."""


def panel_disk_key(
    metadata: AnnotatorSampleMetadata,
    model: Model,
    config: GenerateConfig,
    n_candidates: int,
    n_personas: int,
    max_rounds: int,
    training_examples: bool,
    prompts: str | None,
    run: int | None = None,
    structured: Structured = False,
) -> str:
    """The disk-cache key of a panel: everything its calls and their order depend on.

    The first selection prompt carries the annotator's profile, examples, the task and
    the template; the validation template, the model, the server it is reached at, its
    ``-M`` arguments, the generation config (temperature, seed, token cap), the selection
    options, structured output (when on) and the run complete it.
    """
    constrained = {"structured": structured_mode(structured)} if structured else {}
    return cache_key(
        {
            **constrained,
            "version": PANEL_CACHE_VERSION,
            "panel": list(panel_key(metadata, run)),
            "selection": _selection_prompt(
                metadata, n_candidates, training_examples, [], False, prompts
            ),
            "reminder": UNREADABLE_ROUND,
            "validation": load_template(VALIDATE, VALIDATE_FIELDS, VALIDATE_FIELDS, prompts),
            "model": str(model),
            "base_url": model.api.base_url,
            "model_args": model.model_args,
            "config": config.model_dump(exclude_none=True),
            "n_candidates": n_candidates,
            "n_personas": n_personas,
            "max_selection_rounds": max_rounds,
        }
    )


def panel_label(
    key: str,
    metadata: AnnotatorSampleMetadata,
    model: Model,
    config: GenerateConfig,
    n_personas: int,
    prompts: str | None,
) -> EntryLabel:
    """The label a run needs for an annotator's panel stored under ``key``.

    Args:
        key: The panel's disk key (:func:`panel_disk_key`).
        metadata: A sample of the annotator.
        model: The ``persona_builder`` model.
        config: The generation config of the build (its seed is recorded).
        n_personas: The characters the run needs.
        prompts: Folder of replacement prompt templates.
    """
    return EntryLabel(
        kind=PANEL_CACHE,
        key=key,
        made_for=f"annotator {metadata.annotator_id} of {metadata.dataset}",
        model=str(model),
        prompt_version=text_version(
            load_template(SELECT, SELECT_FIELDS, set(), prompts),
            load_template(VALIDATE, VALIDATE_FIELDS, VALIDATE_FIELDS, prompts),
        ),
        seed=config.seed,
        sizes={"characters": n_personas},
    )


def _sizes(built: BuiltPanel) -> dict[str, int]:
    return {"characters": len(built.characters)}


def store_panel(label: EntryLabel, built: BuiltPanel) -> bool:
    """Store a panel on disk with its label, unless it came out short (a rerun tries again).

    Args:
        label: The panel's label (:func:`panel_label`; its sizes: the characters needed).
        built: The panel.

    Returns:
        Whether it was stored (False also when the cache cannot be written: warned once).
    """
    if len(built.characters) < label.sizes["characters"]:
        return False
    stored = label.model_copy(update={"sizes": _sizes(built)})
    return write_labelled(stored, built.model_dump(mode="json")) is not None


def read_panel(expected: EntryLabel) -> tuple[BuiltPanel | None, str | None]:
    """The panel stored for ``expected``, if it fits the run.

    Returns:
        ``(panel, None)``; ``(None, None)`` when none is stored; ``(None, note)`` when a
        stored entry does not fit (another annotator's, cut short, empty, of an older
        layout), the note saying why: the caller rebuilds it.
    """
    return read_labelled(expected, BuiltPanel.model_validate, _sizes)
