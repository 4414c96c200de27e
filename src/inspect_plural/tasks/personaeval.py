"""PersonaEval tasks: who is speaking? (Zhou et al. 2025).

Three tracks: ``personaeval_literary`` and ``personaeval_drama`` (four candidates) and
``personaeval_expertise`` (five audience levels). One sample = one dialogue whose second
speaker is to be identified among candidates with profiles.
"""

from __future__ import annotations

import random
from typing import Literal

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from inspect_plural.records import LabelScale, RoleExample, RoleItem, RoleSampleMetadata
from inspect_plural.scorers.role import resolve_role_config, role_mean, role_metrics, role_scorer
from inspect_plural.solvers.role_identification import Aggregate, role_identification
from inspect_plural.sources.personaeval import PERSONAEVAL_TRACKS, load_personaeval
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._viewer import role_viewer

__all__ = [
    "DEFAULT_SEED",
    "personaeval_drama",
    "personaeval_expertise",
    "personaeval_literary",
    "personaeval_task",
    "record_to_sample",
]

DEFAULT_SEED = 42
FEW_SHOT_CHOICES = (0, 1, 3, 5)
METHODS = ("role_identification",)


def _rng(seed: int, item_id: str, purpose: str) -> random.Random:
    """A generator that depends only on the seed and the sample, not on load order."""
    return random.Random(f"{seed}:{purpose}:{item_id}")


def record_to_sample(
    item: RoleItem,
    seed: int = DEFAULT_SEED,
    shuffle_candidates: bool = True,
    examples: list[RoleExample] | None = None,
    demo: bool = False,
    keep_source_prompt: bool = False,
) -> Sample:
    """Turn a PersonaEval record into an Inspect sample.

    Args:
        item: The record.
        seed: Task seed (candidate order depends on it and on the item id only).
        shuffle_candidates: Shuffle the candidates (False keeps the file's order).
        examples: Few-shot examples for this sample.
        demo: Whether the record is demo data.
        keep_source_prompt: Keep the dataset's full prompt in the metadata (needed only
            by ``prompt_source="dataset"``; otherwise left out to keep logs small).

    Returns:
        The sample; target is the true role; metadata follows ``RoleSampleMetadata``.

    """
    candidates = list(item.candidates)
    if shuffle_candidates:
        _rng(seed, item.id, "candidates").shuffle(candidates)
    metadata = RoleSampleMetadata(
        dataset=f"personaeval_{item.track}",
        item_id=item.id,
        scale=LabelScale(kind="nominal", labels=[c.name for c in candidates]),
        demo=demo,
        conversation=item.conversation,
        source_prompt=item.source_prompt if keep_source_prompt else None,
        candidates=candidates,
        true_role=item.true_role,
        examples=examples or [],
        file_order=[c.name for c in item.candidates],
    )
    return Sample(
        id=item.id,
        input=item.conversation,
        target=item.true_role,
        choices=[c.name for c in candidates],
        metadata=metadata.model_dump(),
    )


def few_shot_examples(
    items: list[RoleItem], index: int, k: int, seed: int, shuffle_candidates: bool
) -> list[RoleExample]:
    """K solved examples from the same track for item ``index``, never the item itself."""
    if k == 0:
        return []
    if len(items) <= k:
        raise ValueError(f"few_shot={k} needs more than {k} items in the track")
    item = items[index]
    rng = _rng(seed, item.id, "few_shot")
    chosen: list[int] = []
    while len(chosen) < k:  # rejection sampling: O(k) expected, no O(n) copy per sample
        j = rng.randrange(len(items))
        if j != index and j not in chosen:
            chosen.append(j)
    examples = []
    for j in chosen:
        ex = items[j]
        candidates = list(ex.candidates)
        if shuffle_candidates:
            _rng(seed, ex.id, "candidates").shuffle(candidates)
        examples.append(
            RoleExample(conversation=ex.conversation, candidates=candidates, true_role=ex.true_role)
        )
    return examples


def personaeval_task(
    track: str,
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    shuffle_candidates: bool = True,
    method: str = "role_identification",
    few_shot: int = 0,
    reasoning: bool = True,
    self_consistency: int = 1,
    aggregate: Aggregate = "mean",
    temperature: float | None = None,
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
    metrics_preset: str = "default",
    revision: str | None = None,
) -> Task:
    """Build the task of one PersonaEval track (the ``@task`` functions call this).

    Args:
        track: ``literary``, ``drama`` or ``expertise``.
        data_dir: Folder holding the official CSV (else ``data/personaeval/`` or the hub).
        demo: Use the demo rows written for this package (offline).
        seed: Seed of every random choice (candidate order, few-shot examples).
        shuffle_candidates: Shuffle candidate order per sample (False keeps the file's).
        method: The solver; ``role_identification`` is the one method of this family.
        few_shot: Solved examples from the same track in each prompt (0, 1, 3 or 5).
        reasoning: Ask for step-by-step analysis before the JSON answer.
        self_consistency: K answers per sample (K concurrent calls).
        aggregate: Combine K answers by ``mean`` distribution or ``majority`` top-1.
        temperature: Sampling temperature (default 0.0, or 0.7 with self-consistency).
        prompts: Folder of replacement prompt templates.
        prompt_source: ``template`` (our wording) or ``dataset`` (the CSV's own prompt).
        metrics_preset: ``default`` or ``personaeval`` (the official code's metrics).
        revision: Hugging Face revision to download.

    Returns:
        The task.

    """
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} for PersonaEval; one of {list(METHODS)}")
    if few_shot not in FEW_SHOT_CHOICES:
        raise ValueError(f"few_shot must be one of {FEW_SHOT_CHOICES}, not {few_shot}")
    if prompt_source == "dataset" and few_shot:
        raise ValueError("few_shot needs prompt_source='template' (the dataset prompt is fixed)")
    items, origin = load_personaeval(track, data_dir=data_dir, demo=demo, revision=revision)
    samples = [
        record_to_sample(
            item,
            seed=seed,
            shuffle_candidates=shuffle_candidates,
            examples=few_shot_examples(items, i, few_shot, seed, shuffle_candidates),
            demo=demo,
            keep_source_prompt=prompt_source == "dataset",
        )
        for i, item in enumerate(items)
    ]
    solver: Solver = role_identification(
        reasoning=reasoning,
        self_consistency=self_consistency,
        aggregate=aggregate,
        prompts=prompts,
        prompt_source=prompt_source,
        seed=seed,
    )
    config = resolve_role_config(metrics_preset)
    if temperature is None:
        temperature = 0.0 if self_consistency == 1 else 0.7
    _, n_options = PERSONAEVAL_TRACKS[track]
    return Task(
        dataset=MemoryDataset(samples, name=f"personaeval_{track}" + ("_demo" if demo else "")),
        solver=solver,
        scorer=role_scorer(preset=metrics_preset),
        metrics=role_metrics(config),
        # under --epochs, each key's mean (Inspect's default, without exact fractions)
        epochs=Epochs(1, role_mean()),
        config=GenerateConfig(temperature=temperature),
        version=task_version(f"personaeval_{track}"),
        viewer=role_viewer(n_options),
        metadata={
            "family": "personaeval",
            "track": track,
            "n_candidates": n_options,
            "data_source": origin,
            "demo": demo,
            "seed": seed,
            "metrics_preset": metrics_preset,
        },
    )


@task
def personaeval_literary(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    shuffle_candidates: bool = True,
    method: str = "role_identification",
    few_shot: int = 0,
    reasoning: bool = True,
    self_consistency: int = 1,
    aggregate: Aggregate = "mean",
    temperature: float | None = None,
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
    metrics_preset: str = "default",
    revision: str | None = None,
) -> Task:
    """PersonaEval-Literary: speakers in English novels, four candidates.

    Args: see :func:`personaeval_task`.
    """
    return personaeval_task("literary", **locals())


@task
def personaeval_drama(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    shuffle_candidates: bool = True,
    method: str = "role_identification",
    few_shot: int = 0,
    reasoning: bool = True,
    self_consistency: int = 1,
    aggregate: Aggregate = "mean",
    temperature: float | None = None,
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
    metrics_preset: str = "default",
    revision: str | None = None,
) -> Task:
    """PersonaEval-Drama: speakers in Chinese screenplays, four candidates.

    Args: see :func:`personaeval_task`.
    """
    return personaeval_task("drama", **locals())


@task
def personaeval_expertise(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    shuffle_candidates: bool = True,
    method: str = "role_identification",
    few_shot: int = 0,
    reasoning: bool = True,
    self_consistency: int = 1,
    aggregate: Aggregate = "mean",
    temperature: float | None = None,
    prompts: str | None = None,
    prompt_source: Literal["template", "dataset"] = "template",
    metrics_preset: str = "default",
    revision: str | None = None,
) -> Task:
    """PersonaEval-Expertise: the audience level an expert addresses, five candidates.

    Args: see :func:`personaeval_task`.
    """
    return personaeval_task("expertise", **locals())
