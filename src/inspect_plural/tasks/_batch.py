"""Which methods work with Inspect's ``--batch``, declared in one place.

``--batch`` (``eval(..., batch=True)``) sends model calls through the provider's batch
API (OpenAI, Anthropic, Google, Together AI, Grok); other providers ignore it. Every call
then waits for its batch to come back, minutes to hours. Calls a method issues
concurrently share a batch; calls that depend on an earlier answer wait for another
batch. So what decides whether a method suits batch mode is the number of *sequential*
waits on the path of one sample (samples themselves run concurrently), not its number of
calls.

:data:`BATCH_SUPPORT` declares this for every method in every method registry
(``METHODS``, ``RATING_METHODS``, ``PER_MPST_METHODS``, ``PER_DOC_METHODS`` and
PersonaEval's ``METHODS``); a test fails when a registered method has no declaration,
and the table in ``docs/running.md`` is :func:`batch_table`'s output.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from inspect_plural.tasks.annotator import METHODS
from inspect_plural.tasks.perse import PER_DOC_METHODS, PER_MPST_METHODS
from inspect_plural.tasks.personaeval import METHODS as PERSONAEVAL_METHODS
from inspect_plural.tasks.rating import RATING_METHODS

__all__ = [
    "BATCH_SUPPORT",
    "BatchStatus",
    "BatchSupport",
    "batch_table",
    "method_families",
]

BatchStatus = Literal["yes", "slow", "not_applicable"]
"""``yes``: at most two sequential batch waits per sample; ``slow``: works, but each
sequential round of calls waits for a batch of its own; ``not_applicable``: the method
calls no model, so there is nothing to batch."""

STATUS_TEXT: dict[BatchStatus, str] = {
    "yes": "yes",
    "slow": "yes, slow",
    "not_applicable": "n/a (no model calls)",
}


class BatchSupport(BaseModel):
    """How a method behaves under ``--batch``.

    Attributes:
        status: See :data:`BatchStatus`.
        waits: Sequential batch waits on one sample's path with the default options
            (``0`` when the method calls no model).
        note: What the waits are, and the options that change them.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    status: BatchStatus
    waits: str
    note: str

    @property
    def calls_model(self) -> bool:
        """Whether the method calls a model at all."""
        return self.status != "not_applicable"


def _no_calls(note: str) -> BatchSupport:
    return BatchSupport(status="not_applicable", waits="0", note=note)


BATCH_SUPPORT: dict[str, BatchSupport] = {
    # annotator-level tasks
    "llm_judge": BatchSupport(status="yes", waits="1", note="one call per sample"),
    "personalized_judge": BatchSupport(status="yes", waits="1", note="one call per sample"),
    "retrieval_examples": BatchSupport(
        status="yes", waits="1", note="one call; the examples are retrieved locally (BM25)"
    ),
    "trait_ensemble": BatchSupport(
        status="yes", waits="1", note="one call per trait value, all concurrent"
    ),
    "cinemetric": BatchSupport(
        status="slow",
        waits="3-5",
        note=(
            "an annotator's panel takes selection, then validation (one more pair per "
            "extra selection round, up to max_selection_rounds), then role-play; panels "
            "are built concurrently and kept on disk, so a rerun needs 1 wait"
        ),
    ),
    "annotator_majority": _no_calls("the annotator's most frequent example label"),
    "item_majority": _no_calls("the training pool's most frequent label for the item"),
    "distribution_judge": BatchSupport(
        status="yes",
        waits="1",
        note="target=distribution: one call per item (steer: one more per group and style, "
        "concurrent)",
    ),
    "uniform": _no_calls("target=distribution: the same share for every label"),
    "label_prior": _no_calls("target=distribution: the training pool's label distribution"),
    "lewidi_most_frequent": _no_calls("target=distribution: the pool's most frequent label"),
    "lewidi_random": _no_calls("target=distribution: seeded random distributions and labels"),
    "stakeholder_panel": BatchSupport(
        status="yes",
        waits="2",
        note=(
            "target=distribution: every persona's vote, all concurrent (1 wait), after "
            "the panel's creation once per task (1 wait from profiles or the default "
            "trait profiles, 3 from persona_docs, none from a persona file or the disk "
            "cache, so a rerun needs 1)"
        ),
    ),
    # rating tasks (storysparkqa, mslr_cochrane)
    "maj_eval": BatchSupport(
        status="slow",
        waits="about 17",
        note=(
            "per group (groups run concurrently): phase 1, then per debate round a "
            "moderator pick and a turn for each persona but the last (2n-1 for n "
            "personas; 3 personas x max_rounds=3 gives 15), then the synthesis; "
            "persona_docs adds 3 waits once per task"
        ),
    ),
    "geval": BatchSupport(
        status="yes",
        waits="1-3",
        note=(
            "dimensions concurrent; 1 wait with logprobs, or with geval_mode=sampling "
            "on a provider that returns num_choices; geval_mode=auto on a provider "
            "without logprobs (Anthropic) waits for the logprob call, the sampling call "
            "and the top-up calls"
        ),
    ),
    "chateval": BatchSupport(
        status="slow",
        waits="4",
        note=(
            "one_by_one: rounds x referees turns in sequence (2 x 2 by default, plus "
            "a wait per retried final answer); chateval_strategy=simultaneous: rounds "
            "(2), simultaneous_summarizer: rounds + rounds - 1"
        ),
    ),
    "rouge_l": _no_calls("ROUGE-L against the reference, computed locally"),
    # PERSE tasks (per_mpst, per_doc)
    "perse_review": BatchSupport(status="yes", waits="1", note="one call per sample"),
    "perse_aspect": BatchSupport(
        status="yes", waits="1", note="one call per sample (both_orders: two, concurrent)"
    ),
    "prior_average": _no_calls("the mean of the reviewer's prior scores (or prior choice)"),
    "matrix_factorization": _no_calls("a factor model fitted on the training reviewers"),
    # PersonaEval tasks
    "role_identification": BatchSupport(
        status="yes", waits="1", note="one call per sample (self_consistency=K: K, concurrent)"
    ),
}
"""Every registered method's behaviour under ``--batch`` (see the module docstring)."""


def method_families() -> dict[str, list[str]]:
    """Every registered method, with the task families whose registries list it.

    Returns:
        Method name -> families (``perspective``, ``ratings``, ``per_mpst``,
        ``per_doc``, ``personaeval``), in registry order.
    """
    registries: dict[str, list[str]] = {
        "perspective": list(METHODS),
        "ratings": list(RATING_METHODS),
        "per_mpst": list(PER_MPST_METHODS),
        "per_doc": list(PER_DOC_METHODS),
        "personaeval": list(PERSONAEVAL_METHODS),
    }
    families: dict[str, list[str]] = {}
    for family, names in registries.items():
        for name in names:
            families.setdefault(name, []).append(family)
    return families


FAMILY_LABELS: dict[str, str] = {
    "perspective": "annotator-level",
    "ratings": "storysparkqa, mslr_cochrane",
    "per_mpst": "per_mpst",
    "per_doc": "per_doc",
    "personaeval": "personaeval_*",
}
"""How :func:`batch_table` names each family's tasks."""


def batch_table() -> str:
    """The table of :data:`BATCH_SUPPORT` in ``docs/running.md``, one row per method.

    Returns:
        A Markdown table: method, task families, ``--batch``, sequential waits, note.
    """
    rows = [
        "| method | tasks | `--batch` | sequential waits per sample | note |",
        "|---|---|---|---|---|",
    ]
    for method, families in method_families().items():
        support = BATCH_SUPPORT[method]
        rows.append(
            f"| `{method}` | {', '.join(FAMILY_LABELS[f] for f in families)} "
            f"| {STATUS_TEXT[support.status]} "
            f"| {support.waits} | {support.note} |"
        )
    return "\n".join(rows)
