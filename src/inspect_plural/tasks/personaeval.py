# inspect-evals-lint: ignore-file[main_file] -- one module per task family (docs/register.md)
"""PersonaEval tasks: who is speaking? (Zhou et al. 2025).

Three tracks: ``personaeval_literary`` and ``personaeval_drama`` (four candidates) and
``personaeval_expertise`` (five audience levels). One sample = one dialogue whose second
speaker is to be identified among candidates with profiles.
"""

from __future__ import annotations

import random
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver

from inspect_plural.errors import OptionError
from inspect_plural.options import TaskOption, check_options, metrics_option
from inspect_plural.records import (
    LabelScale,
    RoleExample,
    RoleItem,
    RoleSampleMetadata,
    read_only_values,
)
from inspect_plural.scorers.role import (
    ROLE_PRESETS,
    resolve_role_config,
    role_mean,
    role_metrics,
    role_scorer,
)
from inspect_plural.solvers._limits import ROLE_ANSWER_MAX_TOKENS
from inspect_plural.solvers.role_identification import role_identification
from inspect_plural.sources.personaeval import PERSONAEVAL_TRACKS, load_personaeval
from inspect_plural.structured import structured_mode, structured_option, structured_value
from inspect_plural.tasks._metadata import task_version
from inspect_plural.tasks._preflight import model_check
from inspect_plural.tasks._protocols import PROTOCOLS, method_settings
from inspect_plural.tasks._viewer import headline, role_viewer

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

PERSONAEVAL_SPECS: tuple[TaskOption, ...] = (
    TaskOption("data_dir", None, help="folder of the official CSV"),
    TaskOption("demo", False, "bool", help="the demo rows written for this package"),
    TaskOption("seed", DEFAULT_SEED, "int", help="seed of every random choice"),
    TaskOption("shuffle_candidates", True, "bool", help="shuffle candidate order per sample"),
    TaskOption("method", "role_identification", choices=METHODS, help="the method"),
    TaskOption("few_shot", 0, "int", choices=FEW_SHOT_CHOICES, help="solved examples shown"),
    TaskOption("reasoning", True, "bool", help="step-by-step analysis before the answer"),
    TaskOption("self_consistency", 1, "int", low=1, help="answers per sample (K calls)"),
    TaskOption("aggregate", "mean", choices=("mean", "majority"), help="how K answers combine"),
    TaskOption("temperature", None, "float", low=0.0, help="default 0.0, 0.7 with K > 1"),
    TaskOption("max_tokens", None, "int", low=1, help="output token cap (default 2,048)"),
    TaskOption("prompts", None, help="folder of replacement prompt templates"),
    TaskOption("prompt_source", "template", choices=("template", "dataset"), help="prompt"),
    TaskOption("metrics_preset", "default", choices=tuple(ROLE_PRESETS), help="definitions"),
    metrics_option(),
    TaskOption("protocol", "default", choices=PROTOCOLS, help="paper: PersonaEval's sampling"),
    TaskOption("revision", None, help="Hugging Face revision when downloading"),
    structured_option(),
)
"""The options of every PersonaEval task (``-T name=value``)."""


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
        metadata=read_only_values(metadata.model_dump()),
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


def personaeval_task(track: str, **options: Any) -> Task:
    """Build the task of one PersonaEval track (the ``@task`` functions call this).

    Every option is checked before any data is read (:data:`PERSONAEVAL_SPECS`).

    Args:
        track: ``literary``, ``drama`` or ``expertise``.
        **options: ``data_dir`` (folder holding the official CSV, else
            ``data/personaeval/`` or the hub), ``demo`` (the demo rows written for this
            package), ``seed``, ``shuffle_candidates`` (False keeps the file's order),
            ``method`` (``role_identification``, the one method of this family),
            ``few_shot`` (solved examples from the same track: 0, 1, 3 or 5),
            ``reasoning``, ``self_consistency`` (K answers per sample, K calls),
            ``aggregate`` (``mean`` distribution or ``majority`` top-1), ``temperature``
            (default 0.0, or 0.7 with self-consistency), ``max_tokens``, ``prompts``,
            ``prompt_source`` (``template``: our wording; ``dataset``: the CSV's own
            prompt), ``metrics_preset`` (``default`` or ``personaeval``, the official
            code's metrics), ``metrics`` (``headline`` or ``full``), ``protocol``
            (``default`` or ``paper``) and ``revision``.

    Returns:
        The task.

    Raises:
        OptionError: An unknown option (with the closest names) or a bad value.
    """
    opts = check_options(f"personaeval_{track}", PERSONAEVAL_SPECS, options)
    few_shot = int(opts["few_shot"])
    if opts["prompt_source"] == "dataset" and few_shot:
        raise OptionError(
            "few_shot", "needs prompt_source=template (the dataset's prompt is fixed)"
        )
    seed = int(opts["seed"])
    demo = bool(opts["demo"])
    shuffle = bool(opts["shuffle_candidates"])
    self_consistency = int(opts["self_consistency"])
    items, origin, folder = load_personaeval(
        track, data_dir=opts["data_dir"], demo=demo, revision=opts["revision"]
    )
    if few_shot and len(items) <= few_shot:
        raise OptionError("few_shot", f"{few_shot} needs more than {few_shot} items in the track")
    samples = [
        record_to_sample(
            item,
            seed=seed,
            shuffle_candidates=shuffle,
            examples=few_shot_examples(items, i, few_shot, seed, shuffle),
            demo=demo,
            keep_source_prompt=opts["prompt_source"] == "dataset",
        )
        for i, item in enumerate(items)
    ]
    settings = method_settings(
        "role_identification", opts["protocol"], opts["temperature"], opts["max_tokens"]
    )
    temperature = (
        opts["temperature"]
        if opts["temperature"] is not None
        else (0.0 if self_consistency == 1 else 0.7)
    )
    solver: Solver = role_identification(
        reasoning=bool(opts["reasoning"]),
        self_consistency=self_consistency,
        aggregate=opts["aggregate"],
        prompts=opts["prompts"],
        prompt_source=opts["prompt_source"],
        seed=seed,
        temperature=temperature,
        max_tokens=opts["max_tokens"] or ROLE_ANSWER_MAX_TOKENS,
        structured=structured_value(opts["structured"]),
    )
    preset = opts["metrics_preset"]
    config = resolve_role_config(preset)
    _, n_options = PERSONAEVAL_TRACKS[track]
    return Task(
        setup=model_check("role_identification"),
        dataset=MemoryDataset(samples, name=f"personaeval_{track}" + ("_demo" if demo else "")),
        solver=solver,
        scorer=role_scorer(preset=preset),
        metrics=role_metrics(config),
        # under --epochs, each key's mean (Inspect's default, without exact fractions)
        epochs=Epochs(1, role_mean()),
        config=GenerateConfig(temperature=temperature),
        version=task_version(f"personaeval_{track}"),
        viewer=role_viewer(n_options),
        **headline("top1"),
        metadata={
            "family": "personaeval",
            "track": track,
            "n_candidates": n_options,
            "data_source": origin,
            "data_folder": folder,
            "demo": demo,
            "seed": seed,
            "few_shot": few_shot,
            "protocol": opts["protocol"],
            "sampling": settings.model_copy(update={"temperature": temperature}).model_dump(),
            "metrics": opts["metrics"],
            "metrics_preset": preset,
            "structured": structured_mode(opts["structured"]),
        },
    )


@task
def personaeval_literary(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    few_shot: int = 0,
    self_consistency: int = 1,
    **options: Any,
) -> Task:
    """PersonaEval-Literary: speakers in English novels, four candidates.

    Args:
        data_dir: Folder holding the official CSV.
        demo: Use the demo rows written for this package (offline).
        seed: Seed of every random choice.
        few_shot: Solved examples from the same track in each prompt (0, 1, 3 or 5).
        self_consistency: K answers per sample.
        **options: The other options of :func:`personaeval_task`.
    """
    return personaeval_task("literary", **_given(locals()))


@task
def personaeval_drama(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    few_shot: int = 0,
    self_consistency: int = 1,
    **options: Any,
) -> Task:
    """PersonaEval-Drama: speakers in Chinese screenplays, four candidates.

    Args:
        data_dir: Folder holding the official CSV.
        demo: Use the demo rows written for this package (offline).
        seed: Seed of every random choice.
        few_shot: Solved examples from the same track in each prompt (0, 1, 3 or 5).
        self_consistency: K answers per sample.
        **options: The other options of :func:`personaeval_task`.
    """
    return personaeval_task("drama", **_given(locals()))


@task
def personaeval_expertise(
    data_dir: str | None = None,
    demo: bool = False,
    seed: int = DEFAULT_SEED,
    few_shot: int = 0,
    self_consistency: int = 1,
    **options: Any,
) -> Task:
    """PersonaEval-Expertise: the audience level an expert addresses, five candidates.

    Args:
        data_dir: Folder holding the official CSV.
        demo: Use the demo rows written for this package (offline).
        seed: Seed of every random choice.
        few_shot: Solved examples from the same track in each prompt (0, 1, 3 or 5).
        self_consistency: K answers per sample.
        **options: The other options of :func:`personaeval_task`.
    """
    return personaeval_task("expertise", **_given(locals()))


def _given(explicit: dict[str, Any]) -> dict[str, Any]:
    """A task function's explicit parameters and ``**options`` as one mapping."""
    given = {k: v for k, v in explicit.items() if k != "options"}
    given.update(explicit.get("options") or {})
    return given
