"""Persona creation end to end: the three steps in order, the disk cache, the entry points.

:func:`create_personas` runs extraction (:mod:`._extraction`), grouping
(:mod:`._grouping`) and persona writing (:mod:`._writing`) with one :class:`Asker`
counting calls and tokens; :func:`cached_personas` keeps the result on disk under
:func:`persona_cache_key`; :func:`make_personas` is its synchronous form for the command
line, and :func:`personas_for_task` picks what a task runs with.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from inspect_ai.model import GenerateConfig, Model, get_model

from inspect_plural.stakeholders._cache import cache_key, read_cached, set_label, write_cached
from inspect_plural.stakeholders._calls import Asker, default_config, resolve_model
from inspect_plural.stakeholders._documents import (
    DEFAULT_MAX_DOC_CHARS,
    Document,
    read_document,
    split_document,
)
from inspect_plural.stakeholders._extraction import extract_stakeholders
from inspect_plural.stakeholders._grouping import group_stakeholders
from inspect_plural.stakeholders._prompts import (
    EXTRACT,
    GROUP,
    PERSONA,
    persona_prompts,
    prompts_hash,
)
from inspect_plural.stakeholders._writing import holds_example_copy, write_personas
from inspect_plural.stakeholders.records import (
    DEFAULT_PERSONA_SETS,
    DocumentInfo,
    PersonaFileError,
    PersonaOrigin,
    PersonaSet,
    default_personas,
    load_personas,
)

__all__ = [
    "PersonaCreationError",
    "cached_personas",
    "create_personas",
    "make_personas",
    "persona_cache_key",
    "personas_for_task",
]


class PersonaCreationError(RuntimeError):
    """Persona creation found no stakeholder, or could not write any persona."""


async def create_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> PersonaSet:
    """Create stakeholder personas from documents (no cache; see :func:`cached_personas`).

    Args:
        documents: The documents (research papers, interview studies, guidelines).
        task_description: The evaluation task, as the model is told it.
        task: The task's name, recorded (e.g. ``mslr_cochrane``).
        model: The model (a name, a Model, or None for the active model; in a solver
            pass ``get_model(role="persona_builder")``).
        prompts: Optional folder of replacement templates (``maj_extract.txt``,
            ``maj_group.txt``, ``maj_persona.txt``).
        max_doc_chars: Longer documents are split into parts of at most this size, one
            extraction call each.
        config: Generation config of every call (default: :func:`persona_config`,
            temperature 0 with seed :data:`PERSONA_SEED`).

    Returns:
        The persona set (``origin.kind == "documents"``), with calls and tokens in
        ``usage`` and anything worked around in ``notes``.

    Raises:
        PersonaCreationError: No stakeholder was found in any document, or no
            persona could be read.
    """
    templates = persona_prompts(prompts)
    config = default_config(config)
    llm = resolve_model(model)
    asker = Asker(llm, config)
    notes: list[str] = []

    # step 1: extraction, one call per part
    chunked = [(doc, split_document(doc, max_doc_chars)) for doc in documents]
    for doc, parts in chunked:
        if not parts:
            notes.append(f"{doc.name}: empty document, nothing extracted")
    stakeholders, found = await extract_stakeholders(
        [part for _, parts in chunked for part in parts],
        templates[EXTRACT],
        task_description,
        asker,
        notes,
    )
    infos = [
        DocumentInfo(
            name=doc.name,
            sha256=doc.sha256,
            chars=len(doc.text),
            chunks=len(parts),
            stakeholders=sum(found.get(part.name, 0) for part in parts),
        )
        for doc, parts in chunked
    ]
    if not stakeholders:
        raise PersonaCreationError(
            f"no stakeholder found in {len(documents)} document(s) ({asker.calls} extraction "
            "call(s)); check that the documents discuss the people involved in the task. "
            + " ".join(notes)
        )

    # step 1b: grouping, one call
    usable = await group_stakeholders(
        stakeholders, templates[GROUP], task_description, asker, notes
    )

    # step 2: personas, one call per group
    finished = await write_personas(usable, templates[PERSONA], task_description, asker, notes)
    if not finished:
        raise PersonaCreationError(
            f"{len(stakeholders)} stakeholder(s) found, but no persona could be read from the "
            f"answers for {len(usable)} group(s). " + " ".join(notes)
        )

    return PersonaSet(
        task=task,
        task_description=task_description,
        groups=finished,
        origin=PersonaOrigin(
            kind="documents",
            documents=infos,
            model=str(llm),
            prompts_hash=prompts_hash(templates),
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            config=config.model_dump(exclude_none=True),
        ),
        usage=asker.usage(),
        stakeholders=stakeholders,
        notes=notes,
    )


def persona_cache_key(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> str:
    """The cache key: SHA-256 over everything the created set depends on.

    That is the task and its description, the documents (names and contents), the
    model (name and ``-M`` arguments), the three prompt templates, ``max_doc_chars``
    and the generation config.
    """
    llm = resolve_model(model)
    return cache_key(
        {
            "version": 1,
            "task": task,
            "task_description": task_description,
            "documents": [[doc.name, doc.sha256] for doc in documents],
            "model": str(llm),
            "model_args": llm.model_args,
            "prompts": persona_prompts(prompts),
            "max_doc_chars": max_doc_chars,
            "config": default_config(config).model_dump(exclude_none=True),
        }
    )


async def cached_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
    cache: bool = True,
) -> tuple[PersonaSet, bool]:
    """:func:`create_personas` through the disk cache.

    The cache is ``$INSPECT_PLURAL_CACHE/personas`` (else
    ``~/.cache/inspect_plural/personas``), one file per :func:`persona_cache_key`.
    A hit makes no model call; the set's ``usage`` still records what creating it cost.

    Args:
        documents: As for :func:`create_personas`.
        task_description: As for :func:`create_personas`.
        task: As for :func:`create_personas`.
        model: As for :func:`create_personas`.
        prompts: As for :func:`create_personas`.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.
        cache: False skips the lookup (the new set is still stored).

    Returns:
        The persona set, and whether it came from the cache.
    """
    llm = resolve_model(model)
    key = persona_cache_key(documents, task_description, task, llm, prompts, max_doc_chars, config)
    templates = persona_prompts(prompts).values()
    label = set_label(
        key, f"task {task or '(unnamed)'}", str(llm), templates, default_config(config).seed
    )
    note = None
    if cache:
        hit, note = read_cached(label)
        # a set stored before copies of the prompt's example were refused is made again
        if hit is not None and not holds_example_copy(hit.personas):
            return hit, True
    created = await create_personas(
        documents, task_description, task, llm, prompts, max_doc_chars, config
    )
    created.origin.cache_key = key
    write_cached(label, created)
    if note is not None:  # for this run's samples, not stored with the set
        created.notes.append(note)
    return created, False


def make_personas(
    documents: Sequence[Document],
    task_description: str,
    task: str = "",
    model: Model | str | None = None,
    model_args: dict[str, Any] | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
    cache: bool = True,
) -> tuple[PersonaSet, bool]:
    """:func:`cached_personas` for code outside an eval (the command line), synchronous.

    Args:
        documents: As for :func:`create_personas`.
        task_description: As for :func:`create_personas`.
        task: As for :func:`create_personas`.
        model: A model name (e.g. ``openai/gpt-4.1``) or Model.
        model_args: Model arguments (``-M``) for a model given by name.
        prompts: As for :func:`create_personas`.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.
        cache: As for :func:`cached_personas`.

    Returns:
        The persona set, and whether it came from the cache.
    """
    # a synchronous entry point for scripts and the CLI: outside an eval, the caller names it
    llm = (
        model
        if isinstance(model, Model)
        else get_model(  # inspect-evals-lint: ignore[IEBP001] -- the caller names it
            model, **(model_args or {})
        )
    )
    return asyncio.run(
        cached_personas(
            documents, task_description, task, llm, prompts, max_doc_chars, config, cache
        )
    )


async def personas_for_task(
    task: str,
    task_description: str,
    personas: str | Path | None = None,
    documents: Sequence[str | Path | Document] = (),
    model: Model | str | None = None,
    prompts: str | Path | None = None,
    max_doc_chars: int = DEFAULT_MAX_DOC_CHARS,
    config: GenerateConfig | None = None,
) -> tuple[PersonaSet, int]:
    """The persona set a task runs with: created from documents, read from a file, or shipped.

    Args:
        task: The task name (its shipped default is used when neither ``personas`` nor
            ``documents`` is given).
        task_description: The task description (used only to create from documents).
        personas: A persona file or the name of a shipped set.
        documents: Documents (paths or :class:`Document`) to create the set from,
            through the disk cache (:func:`cached_personas`).
        model: The creating model (e.g. ``get_model(role="persona_builder")``).
        prompts: Folder of replacement templates.
        max_doc_chars: As for :func:`create_personas`.
        config: As for :func:`create_personas`.

    Returns:
        The set, and the model calls made now (0 for a file, a default or a cache hit).

    Raises:
        ValueError: Both ``personas`` and ``documents`` given.
        PersonaFileError: The file is invalid, or the task ships no default.
        PersonaCreationError: Creation found no stakeholder or wrote no persona.
    """
    if personas is not None and documents:
        raise ValueError("give a persona file or documents to create personas from, not both")
    if documents:
        docs = [d if isinstance(d, Document) else read_document(d) for d in documents]
        created, hit = await cached_personas(
            docs, task_description, task, model, prompts, max_doc_chars, config
        )
        return created, 0 if hit else created.usage.calls
    if personas is not None:
        return load_personas(personas), 0
    if task not in DEFAULT_PERSONA_SETS:
        raise PersonaFileError(
            f"task {task!r} ships no default persona set: give a persona file (written by "
            "`inspect-plural personas`) or documents to create one from"
        )
    return default_personas(task), 0
