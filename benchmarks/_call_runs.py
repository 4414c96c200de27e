"""The runs of the ``calls`` benchmark: every method of every task family, and the panel.

A :class:`Run` is one task run with one method (for the ``panel`` family: the panel
scorer on :mod:`benchmarks._panel_task`, options = the scorer's). :func:`quick_runs` is
the CI matrix (``tests/e2e/test_protocol_calls.py``), :func:`full_runs` every variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai import Task

import inspect_plural.tasks as plural_tasks
from benchmarks._panel_task import story_qa
from benchmarks.protocol import SKIPPED_TRAITS
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources.brexit import load_brexit
from inspect_plural.sources.dices import load_dices
from inspect_plural.sources.dp import load_dp
from inspect_plural.sources.epic import load_epic
from inspect_plural.sources.mhs import load_mhs
from inspect_plural.sources.opinionqa import load_opinionqa

__all__ = [
    "ANNOTATOR_METHODS",
    "ANNOTATOR_TASKS",
    "NEEDS_TRAITS",
    "NO_TRAITS",
    "PANEL_PROFILES",
    "PERSONA_DOCUMENT",
    "SHARED_BREXIT",
    "SHARED_DATA",
    "SHARED_MSLR",
    "SHARED_PERSE",
    "Run",
    "full_runs",
    "quick_runs",
    "trait_values",
]

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SHARED_BREXIT = SHARED_DATA / "brexit"
SHARED_MSLR = SHARED_DATA / "mslr_cochrane"
SHARED_PERSE = SHARED_DATA / "perse"

ANNOTATOR_TASKS = ["opinionqa", "dp", "brexit", "epic", "mhs", "md_agreement", "dices"]
ANNOTATOR_METHODS = [
    "llm_judge",
    "personalized_judge",
    "cinemetric",
    "trait_ensemble",
    "retrieval_examples",
    "annotator_majority",
    "item_majority",
]
NEEDS_TRAITS = {"personalized_judge", "trait_ensemble"}
NO_TRAITS = {"md_agreement"}
LOADERS: dict[str, Callable[..., AnnotatedCorpus]] = {
    "opinionqa": load_opinionqa,
    "dp": load_dp,
    "brexit": load_brexit,
    "epic": load_epic,
    "mhs": load_mhs,
    "dices": load_dices,
}
PERSONA_DOCUMENT = """Who cares about questions asked about a fairy tale

Parents who read fairy tales aloud at bedtime want questions that a young child can
answer from the story, and that start a conversation rather than a test.

Primary school teachers use question sets in class. They look for questions that
teach a new word or idea, fit the curriculum for children aged three to eight, and
can be answered from the section that was read.

Children's librarians choose stories for reading programmes and care that questions
respect the story's culture and do not frighten the youngest listeners.
"""
"""A generated document to create ``maj_eval`` personas from (no real text)."""


@dataclass(frozen=True)
class Run:
    """One task run with one method.

    Attributes:
        family: ``annotator``, ``rating``, ``perse``, ``personaeval`` or ``panel`` (the
            panel scorer on :mod:`benchmarks._panel_task`, options = the scorer's).
        task: The registered task name (``dices``, ``per_doc``...).
        data: ``demo`` or ``real``.
        method: The method (the task's ``method``; ``role_identification`` for PersonaEval).
        options: Further task options (the method's own, e.g. ``geval_mode``).
        limit: Samples to run (None: all).
        epochs: Epochs.

    """

    family: str
    task: str
    data: str
    method: str
    options: Mapping[str, Any] = field(default_factory=dict)
    limit: int | None = None
    epochs: int = 1

    @property
    def label(self) -> str:
        """The method with its options, as the table shows it."""
        shown = {k: v for k, v in self.options.items() if k != "persona_docs"}
        if "persona_docs" in self.options:
            shown["persona_docs"] = len(self.options["persona_docs"])
        if isinstance(shown.get("personas"), str) and ";" in shown["personas"]:
            shown["personas"] = f"{shown['personas'].count(';') + 1} profiles"
        extra = ", ".join(f"{k}={v}" for k, v in shown.items())
        extra += f"{', ' if extra else ''}epochs={self.epochs}" if self.epochs > 1 else ""
        return f"{self.method} ({extra})" if extra else self.method

    def task_args(self) -> dict[str, Any]:
        """The arguments of the task function (the panel scorer's, for ``panel``)."""
        args: dict[str, Any] = dict(self.options)
        if self.family == "panel":
            return args
        if self.family != "personaeval":
            args["method"] = self.method
        if self.data == "demo":
            args["demo"] = True
        elif self.task == "brexit":
            args["data_dir"] = str(SHARED_BREXIT)
        elif self.task == "mslr_cochrane":
            args["data_dir"] = str(SHARED_MSLR)
        elif self.task in ("per_mpst", "per_doc"):
            args["data_dir"] = str(SHARED_PERSE)
            if self.task == "per_doc":
                args |= {"aspects": "I", "split": "all"}
        return args

    def build(self) -> Task:
        """The task, cut to its first ``limit`` samples (``eval``'s limit is per call)."""
        factory: Callable[..., Task] = (
            story_qa if self.family == "panel" else getattr(plural_tasks, self.task)
        )
        task = factory(**self.task_args())
        if self.limit is not None:
            task.dataset = task.dataset[: self.limit]
        return task


# --- the runs ---------------------------------------------------------------------


def _annotator_runs(tasks: Sequence[str], limit: int | None) -> list[Run]:
    return [
        Run("annotator", task, "demo", method, limit=limit)
        for task in tasks
        for method in ANNOTATOR_METHODS
        if not (task in NO_TRAITS and method in NEEDS_TRAITS)
    ]


DISTRIBUTION = {"target": "distribution"}
"""The item-level target: one sample per item, per-annotator methods pooled."""
LABELLERS = (
    "target group: a person from the group the tweets talk about; "
    "target group: a relative of such a person; control group: a person from another group"
)
"""Inline profiles of a ``stakeholder_panel`` run on brexit: groups named after its trait
values, so each annotator gets the vote of the personas of their own group."""


def _distribution_runs(task: str, limit: int, quick: bool = False) -> list[Run]:
    """The distribution target: the direct methods, no-call baselines and pooled methods."""
    steer = {"steer": "group"} if task == "brexit" else {"steer": "POLPARTY"}
    runs = [
        Run("annotator", task, "demo", "distribution_judge", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "distribution_judge", {**DISTRIBUTION, **steer}, limit),
        Run("annotator", task, "demo", "uniform", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "label_prior", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "lewidi_most_frequent", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "lewidi_random", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "item_majority", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "llm_judge", DISTRIBUTION, limit),
        Run("annotator", task, "demo", "cinemetric", DISTRIBUTION, limit),
        # the default panel: one persona per trait value of the dataset
        Run("annotator", task, "demo", "stakeholder_panel", DISTRIBUTION, limit),
    ]
    if task == "brexit":
        panel = {**DISTRIBUTION, "personas": LABELLERS}
        runs.append(Run("annotator", task, "demo", "stakeholder_panel", panel, limit))
    if not quick:
        runs += [
            Run("annotator", task, "demo", m, DISTRIBUTION, limit)
            for m in ("personalized_judge", "trait_ensemble", "retrieval_examples")
        ]
        runs += [
            Run("annotator", task, "demo", "annotator_majority", DISTRIBUTION, limit),
            Run(
                "annotator",
                task,
                "demo",
                "trait_ensemble",
                {**DISTRIBUTION, "trait_scope": "all"},
                limit,
            ),
        ]
    return runs


def _panel_document_runs(docs: Sequence[str]) -> list[Run]:
    """``stakeholder_panel`` with personas created from documents (MAJ-Eval's creation)."""
    if not docs:
        return []
    options = {**DISTRIBUTION, "persona_docs": list(docs)}
    return [Run("annotator", "brexit", "demo", "stakeholder_panel", options, 2)]


def _rating_runs(task: str, data: str, limit: int, docs: Sequence[str]) -> list[Run]:
    runs = [
        Run("rating", task, data, "maj_eval", limit=limit),
        Run("rating", task, data, "geval", limit=limit),
        Run("rating", task, data, "chateval", limit=limit),
        Run("rating", task, data, "rouge_l", limit=limit),
    ]
    if docs:
        runs.append(Run("rating", task, data, "maj_eval", {"persona_docs": list(docs)}, limit))
    return runs


def _perse_runs(data: str, limit: int | None, quick: bool = False) -> list[Run]:
    runs = [
        Run("perse", "per_mpst", data, "perse_review", limit=limit),
        Run("perse", "per_mpst", data, "prior_average", limit=limit),
        Run("perse", "per_doc", data, "perse_aspect", limit=limit),
        Run("perse", "per_doc", data, "perse_aspect", {"both_orders": True}, limit),
        Run("perse", "per_doc", data, "prior_average", limit=limit),
    ]
    if data == "demo":  # the 10 sample rows are too few reviewers to fit a factorisation
        runs.insert(2, Run("perse", "per_mpst", data, "matrix_factorization", limit=limit))
    if quick:  # each method once
        runs = [r for r in runs if (r.task, r.method) != ("per_doc", "prior_average")]
    return runs


def _personaeval(track: str, options: Mapping[str, Any], limit: int) -> Run:
    return Run("personaeval", f"personaeval_{track}", "demo", "role_identification", options, limit)


PANEL_PROFILES = (
    "parents: a parent who reads stories at bedtime; parents: a grandmother; "
    "teachers: a kindergarten teacher"
)
"""Inline profiles of the panel runs: two groups, three personas."""


def _panel_runs(docs: Sequence[str], limit: int) -> list[Run]:
    """The ``panel`` scorer on a task unrelated to the package, each way it gets personas."""
    runs = [
        Run(
            "panel",
            "story_qa",
            "demo",
            "panel",
            {"personas": PANEL_PROFILES, "dimensions": "helpfulness:1-5,safety:0-3"},
            limit,
        ),
        Run(
            "panel",
            "story_qa",
            "demo",
            "panel",
            {"personas": "storysparkqa", "n_personas": 2, "rounds": 2, "closing_call": True},
            limit,
        ),
    ]
    if docs:
        runs.append(
            Run(
                "panel",
                "story_qa",
                "demo",
                "panel",
                {"persona_docs": list(docs), "rounds": 1},
                limit,
            )
        )
    return runs


def quick_runs(docs: Sequence[str] = ()) -> list[Run]:
    """One task per family per method, a few samples each."""
    return [
        *_annotator_runs(["brexit"], 3),  # the fewest metrics to compute
        # the paper's protocol: 5 runs, a panel per annotator and run
        Run("annotator", "brexit", "demo", "cinemetric", {"protocol": "paper"}, 2),
        *_distribution_runs("brexit", 3, quick=True),
        *_panel_document_runs(docs),
        *_rating_runs("storysparkqa", "demo", 1, docs),
        *_perse_runs("demo", 2, quick=True),
        _personaeval("literary", {}, 2),
        _personaeval("literary", {"self_consistency": 3}, 2),
        *_panel_runs(docs, 2),
    ]


def full_runs(docs: Sequence[str] = ()) -> list[Run]:
    """Every method on every relevant demo task, variants, and the real data present."""
    # panels are cached on disk per annotator: runs of one dataset's cinemetric that
    # share annotators (same split, same options) would reuse each other's panels
    runs = [
        r for r in _annotator_runs(ANNOTATOR_TASKS, 8) if (r.task, r.method) != ("dp", "cinemetric")
    ]
    runs += [
        Run("annotator", "dp", "demo", "cinemetric", limit=None),
        Run("annotator", "opinionqa", "demo", "cinemetric", {"seed": 1}, limit=12, epochs=2),
        Run("annotator", "dices", "demo", "cinemetric", {"max_selection_rounds": 3}, 8),
        Run("annotator", "dices", "demo", "trait_ensemble", {"trait_scope": "all"}, 8),
        Run("annotator", "epic", "demo", "trait_ensemble", {"trait_scope": "all"}, 8),
        Run("annotator", "epic", "demo", "llm_judge", {"answer_format": "distribution"}, 8),
    ]
    runs += _distribution_runs("brexit", 4) + _distribution_runs("opinionqa", 4)
    runs += _panel_document_runs(docs)
    if SHARED_BREXIT.is_dir():
        runs += [Run("annotator", "brexit", "real", m, limit=20) for m in ANNOTATOR_METHODS]
    runs += _rating_runs("storysparkqa", "demo", 3, docs)
    runs += _rating_runs("mslr_cochrane", "demo", 3, ())
    for task in ("storysparkqa", "mslr_cochrane"):
        runs += [
            Run("rating", task, "demo", "maj_eval", {"max_rounds": 2, "closing_call": True}, 3),
            Run("rating", task, "demo", "maj_eval", {"max_rounds": 1}, 3),
            Run("rating", task, "demo", "geval", {"geval_mode": "sampling"}, 3),
            Run("rating", task, "demo", "geval", {"geval_official": True}, 3),
            Run("rating", task, "demo", "chateval", {"chateval_strategy": "simultaneous"}, 3),
            Run(
                "rating",
                task,
                "demo",
                "chateval",
                {"chateval_strategy": "simultaneous_summarizer", "chateval_rounds": 3},
                3,
            ),
            Run("rating", task, "demo", "chateval", {"chateval_roles": "five"}, 3),
        ]
    if SHARED_MSLR.is_dir():
        runs += _rating_runs("mslr_cochrane", "real", 3, ())
    runs += _perse_runs("demo", None)
    if SHARED_PERSE.is_dir():
        runs += _perse_runs("real", None)
    runs += _panel_runs(docs, 3)
    for track in ("literary", "drama", "expertise"):
        runs += [
            _personaeval(track, {}, 5),
            _personaeval(track, {"self_consistency": 3}, 5),
            _personaeval(track, {"self_consistency": 3, "aggregate": "majority"}, 5),
            _personaeval(track, {"few_shot": 1}, 5),
        ]
    return runs


def trait_values(run: Run) -> int:
    """The dataset's known (dimension, value) pairs, for ``trait_scope=all``."""
    if run.options.get("trait_scope") != "all":
        return 0
    args = run.task_args()
    corpus = LOADERS[run.task](data_dir=args.get("data_dir"), demo=bool(args.get("demo")))
    return len(
        {
            (dim, value)
            for annotator in corpus.annotators.values()
            for dim, value in annotator.traits.items()
            if value not in SKIPPED_TRAITS
        }
    )
