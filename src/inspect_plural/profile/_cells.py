"""The profile's cells: which task runs with which method, options and sample size.

A cell is one (task, method, options) eval; a budget picks its sample size. The four
modes (Sorensen et al. 2024's steerable, distributional and jury pluralism, plus role
fidelity) read their cells by ``role`` within a ``group`` (a dataset):

- steerable: on each PersEval dataset with annotator traits, ``plain`` (``llm_judge``)
  against ``personalized`` (``personalized_judge``, the annotator's traits shown), and
  ``unnamed`` against ``named`` (``retrieval_examples`` with ``named=false|true``); on
  OpinionQA, ``opinionqa``: ``distribution_judge`` steered towards each group of the
  steered dimensions in Santurkar et al.'s three styles (qa, bio, portray), beside its
  unsteered answer;
- distributional: on each LeWiDi dataset, ``judge`` (``distribution_judge``) beside the
  no-call baselines ``uniform``, ``label_prior``, ``most_frequent`` and ``random`` (the
  LeWiDi 2025 leaderboard's); OpinionQA representativeness reads the same
  ``opinionqa`` cell's unsteered answers;
- jury: ``panel`` (``stakeholder_panel``, one persona per trait value) on the LeWiDi
  datasets with annotator traits;
- role: ``role`` (``role_identification``) on the three PersonaEval tracks.

Sample sizes (:data:`SIZES`) follow a precision target per kind of unit, stated in
:data:`PRECISION`; ``None`` means every sample the task has. Samples are chosen by the
SHA-256 of their id (:mod:`._tasks`), so the cells of one dataset share their samples
and a smaller budget's samples are a subset of a larger one's.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "BUDGETS",
    "CELLS",
    "MODES",
    "PRECISION",
    "SIZES",
    "Budget",
    "Cell",
    "Mode",
    "SizeKind",
    "cells_for",
]

Mode = Literal["steerable", "distributional", "jury", "role"]
MODES: tuple[Mode, ...] = ("steerable", "distributional", "jury", "role")
Budget = Literal["quick", "standard", "full"]
BUDGETS: tuple[Budget, ...] = ("quick", "standard", "full")
SizeKind = Literal["judgments", "items", "panel_items", "questions", "roles"]

SIZES: dict[SizeKind, dict[Budget, int | None]] = {
    "judgments": {"quick": 20, "standard": 400, "full": 1600},
    "items": {"quick": 20, "standard": 200, "full": None},
    "panel_items": {"quick": 10, "standard": 100, "full": 300},
    "questions": {"quick": 20, "standard": 200, "full": None},
    "roles": {"quick": 20, "standard": 400, "full": 1600},
}
"""Samples per cell by kind of unit and budget (None: all the task has)."""

PRECISION: dict[SizeKind, str] = {
    "judgments": (
        "one annotator's label per sample, scored right or wrong: the 95% half-width of "
        "an accuracy near 0.5 is about 0.98/sqrt(n): 0.22 at 20 (quick: a smoke test that "
        "tells apart only gross differences), 0.05 at 400 (standard), 0.025 at 1,600 (full); "
        "paired gains are tighter when the two methods agree on most samples"
    ),
    "items": (
        "one item's label distribution per sample: per-item soft-label distances have a "
        "standard deviation of about 0.3 (Manhattan on two labels), so the half-width of "
        "their mean is about 0.13 at 20 items (quick), 0.04 at 200 (standard), and the "
        "test set's own sampling error with every item (full)"
    ),
    "panel_items": (
        "one item per sample, one call per persona: a panel of k personas costs k calls an "
        "item, so sizes are halved against the items' (quick 10, standard 100, full 300); "
        "the error correlation needs at least 5 items for an interval"
    ),
    "questions": (
        "one survey question per sample, steered once per group of the steered dimensions "
        "and style: representativeness per group has a standard deviation of about 0.15 "
        "across questions, so half-widths of about 0.07 at 20 (quick) and 0.02 at 200 "
        "(standard); full takes every question"
    ),
    "roles": (
        "one attribution per sample, scored right or wrong: top-1 half-widths as for "
        "judgments (0.22 at 20, 0.05 at 400, 0.025 at 1,600)"
    ),
}
"""Why each size: the 95% interval half-width it buys."""


class Cell(BaseModel):
    """One eval of the profile: a task, a method, its options and its sample size.

    Attributes:
        key: Unique name, ``<mode>/<group>/<role>``.
        mode: The mode the cell belongs to.
        group: What cells are compared within (the dataset).
        role: What the cell is in its mode (``plain``, ``personalized``, ``unnamed``,
            ``named``, ``opinionqa``, ``judge``, ``uniform``, ``label_prior``,
            ``most_frequent``, ``random``, ``panel``, ``role``).
        task: The registered task, without ``inspect_plural/``.
        method: The method (``-T method=``; PersonaEval's tasks have one method and no
            option for it).
        options: Further task options (``-T``), for every budget.
        budget_options: Options that depend on the budget.
        size: The kind of unit that decides the sample size (:data:`SIZES`).
        per_model: Whether the cell calls the model (a no-call baseline runs once).
        data: Where the docs say how to get the data when it is missing.
    """

    model_config = ConfigDict(frozen=True)

    key: str
    mode: Mode
    group: str
    role: str
    task: str
    method: str
    options: dict[str, Any] = Field(default_factory=dict)
    budget_options: dict[Budget, dict[str, Any]] = Field(default_factory=dict)
    size: SizeKind
    per_model: bool = True
    data: str

    def samples(self, budget: Budget) -> int | None:
        """The sample size under a budget (None: every sample)."""
        return SIZES[self.size][budget]

    def task_args(self, budget: Budget, demo: bool) -> dict[str, Any]:
        """The task arguments under a budget (``demo`` adds ``demo=true``)."""
        method = {} if self.task.startswith("personaeval") else {"method": self.method}
        args = {**method, **self.options, **self.budget_options.get(budget, {})}
        return {**args, "demo": True} if demo else args


STEERING_DATASETS = ("brexit", "epic", "mhs", "dices")
"""PersEval's datasets with annotator traits (MD-Agreement has none)."""
LEWIDI_DATASETS = (
    "armis",
    "convabuse",
    "brexit",
    "md_agreement",
    "csc",
    "mp",
    "paraphrase",
    "varierrnli",
)
"""Every LeWiDi dataset (2023, then 2025)."""
PANEL_DATASETS = ("brexit", "csc", "paraphrase", "varierrnli")
"""LeWiDi datasets with annotator traits and a panel of a few personas (MP's eight trait
dimensions would seat dozens)."""
ROLE_TASKS = ("personaeval_literary", "personaeval_drama", "personaeval_expertise")
DISTRIBUTION: dict[str, Any] = {"target": "distribution"}
OPINIONQA_STEER: dict[Budget, dict[str, Any]] = {
    "quick": {"steer": "POLPARTY"},
    "standard": {"steer": "POLPARTY,POLIDEOLOGY,RELIG"},
    "full": {"steer": "POLPARTY,POLIDEOLOGY,RELIG,EDUCATION,INCOME,RACE"},
}
"""Steered OpinionQA dimensions per budget (each group of each costs a call per item)."""

DATA_DOCS = {
    "brexit": "docs/perseval.md#dataset",
    "epic": "docs/perseval.md#dataset",
    "mhs": "docs/perseval.md#dataset",
    "dices": "docs/perseval.md#dataset",
    "md_agreement": "docs/lewidi.md#files",
    "opinionqa": "docs/cinemetric.md (OpinionQA is user-supplied: Pew ATP terms)",
}
"""Where each dataset's docs say how to get it (LeWiDi: docs/lewidi.md#files)."""


def _docs(task: str) -> str:
    if task.startswith("personaeval"):
        return "docs/personaeval.md"
    return DATA_DOCS.get(task, "docs/lewidi.md#files")


def _steerable() -> list[Cell]:
    pairs: tuple[tuple[str, str, dict[str, Any]], ...] = (
        ("plain", "llm_judge", {}),
        ("personalized", "personalized_judge", {"named": True}),
        ("unnamed", "retrieval_examples", {"named": False}),
        ("named", "retrieval_examples", {"named": True}),
    )
    cells = [
        Cell(
            key=f"steerable/{task}/{role}",
            mode="steerable",
            group=task,
            role=role,
            task=task,
            method=method,
            options=options,
            size="judgments",
            data=_docs(task),
        )
        for task in STEERING_DATASETS
        for role, method, options in pairs
    ]
    cells.append(
        Cell(
            key="steerable/opinionqa/opinionqa",
            mode="steerable",
            group="opinionqa",
            role="opinionqa",
            task="opinionqa",
            method="distribution_judge",
            options={**DISTRIBUTION, "metrics": "full", "steer_style": "santurkar"},
            budget_options=OPINIONQA_STEER,
            size="questions",
            data=_docs("opinionqa"),
        )
    )
    return cells


def _distributional() -> list[Cell]:
    roles = (
        ("judge", "distribution_judge", True),
        ("uniform", "uniform", False),
        ("label_prior", "label_prior", False),
        ("most_frequent", "lewidi_most_frequent", False),
        ("random", "lewidi_random", False),
    )
    return [
        Cell(
            key=f"distributional/{task}/{role}",
            mode="distributional",
            group=task,
            role=role,
            task=task,
            method=method,
            options=DISTRIBUTION,
            size="items",
            per_model=per_model,
            data=_docs(task),
        )
        for task in LEWIDI_DATASETS
        for role, method, per_model in roles
    ]


def _jury() -> list[Cell]:
    return [
        Cell(
            key=f"jury/{task}/panel",
            mode="jury",
            group=task,
            role="panel",
            task=task,
            method="stakeholder_panel",
            options=DISTRIBUTION,
            size="panel_items",
            data=_docs(task),
        )
        for task in PANEL_DATASETS
    ]


def _role() -> list[Cell]:
    return [
        Cell(
            key=f"role/{task.removeprefix('personaeval_')}/role",
            mode="role",
            group=task.removeprefix("personaeval_"),
            role="role",
            task=task,
            method="role_identification",
            size="roles",
            data=_docs(task),
        )
        for task in ROLE_TASKS
    ]


CELLS: tuple[Cell, ...] = (*_steerable(), *_distributional(), *_jury(), *_role())
"""Every cell of the profile, mode by mode."""


def cells_for(modes: tuple[Mode, ...] = MODES) -> list[Cell]:
    """The cells of some modes, in profile order."""
    return [cell for cell in CELLS if cell.mode in modes]
