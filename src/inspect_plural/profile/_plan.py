"""``profile run --dry-run``: samples, model calls and tokens per cell, before any call.

Calls follow the protocol minimum the ``calls`` benchmark checks every run against
(``benchmarks/protocol.py``), computed here from the chosen samples' metadata:

- ``llm_judge``, ``personalized_judge``, ``retrieval_examples``,
  ``role_identification``: 1 per sample;
- ``distribution_judge``: 1 per item + 1 per group of the item in each steered dimension;
- ``uniform``, ``label_prior``, ``lewidi_most_frequent``, ``lewidi_random``: 0;
- ``stakeholder_panel``: 1 per persona per item, plus the panel's creation once per run
  (1 per persona written from a profile); the default panel has a persona per known
  trait value, counted here over the chosen items' annotators (the run's panel counts
  every annotator of the dataset, so this can fall short).

Tokens are an estimate: input, about four characters a token of the prompt template,
the answer-format instruction (:data:`FORMAT_CHARS`) and the sample's text (plus the
persona's profile, or the examples a method shows); output, :data:`OUTPUT_TOKENS` a call
(brief reasoning and a JSON answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from inspect_ai.dataset import Sample

from inspect_plural.item_records import is_item_sample, item_sample
from inspect_plural.profile._tasks import BuiltCell
from inspect_plural.records import annotator_sample
from inspect_plural.solvers._steering import steer_styles

__all__ = [
    "CHARS_PER_TOKEN",
    "FORMAT_CHARS",
    "OUTPUT_TOKENS",
    "CellPlan",
    "plan_cell",
    "plan_total",
    "render_plan",
]

CHARS_PER_TOKEN = 4
"""Characters a token, for the input estimate."""
FORMAT_CHARS = 600
"""The answer-format instruction and its filled example, in characters (about)."""
OUTPUT_TOKENS = 150
"""Output tokens a call (brief reasoning, then the JSON answer)."""
PROFILE_CHARS = 400
"""A persona's profile as a vote prompt shows it, in characters (about)."""
TEMPLATES = {
    "llm_judge": "annotator_judge.txt",
    "personalized_judge": "annotator_judge.txt",
    "retrieval_examples": "retrieval_judge.txt",
    "distribution_judge": "distribution_judge.txt",
    "stakeholder_panel": "stakeholder_label.txt",
    "role_identification": "role_identification.txt",
}
ONE_CALL = ("llm_judge", "personalized_judge", "retrieval_examples", "role_identification")


@dataclass(frozen=True)
class CellPlan:
    """One cell's cost for one model.

    Attributes:
        key: The cell.
        models: Models the cell runs for (1 for a no-call baseline).
        samples: Chosen samples (0 when not measured).
        calls: Model calls for one model.
        input_tokens: Estimated input tokens for one model.
        output_tokens: Estimated output tokens for one model.
        note: Why the cell is not measured (None: it runs).
    """

    key: str
    models: int
    samples: int
    calls: int
    input_tokens: int
    output_tokens: int
    note: str | None = None


def _template_chars(method: str) -> int:
    name = TEMPLATES.get(method)
    if name is None:
        return 0
    return len(resources.files("inspect_plural.prompts").joinpath(name).read_text("utf-8"))


def _text(sample: Sample) -> str:
    if isinstance(sample.input, str):
        return sample.input
    return "\n".join(message.text for message in sample.input)


def _steered(metadata: dict[str, Any], steer: Any) -> int:
    dims = steer.split(",") if isinstance(steer, str) else list(steer or [])
    wanted = {d.strip() for d in dims if str(d).strip()}
    return sum(1 for key in metadata.get("groups") or {} if key.split("=", 1)[0] in wanted)


def _visible_traits(metadata: dict[str, Any]) -> list[dict[str, str]]:
    """An item sample's annotators' visible traits (joined from the run's context)."""
    if metadata.get("context") and is_item_sample(metadata):
        return [dict(a.traits) for a in item_sample(metadata).annotators]
    return [a.get("traits") or {} for a in metadata.get("annotators") or []]


def _personas(samples: Sequence[Sample]) -> int:
    values = {
        (dim, value)
        for s in samples
        for traits in _visible_traits(s.metadata or {})
        for dim, value in traits.items()
        if value not in ("", "UNK")
    }
    return len(values)


def _examples_chars(metadata: dict[str, Any], k: int = 3) -> int:
    """The first ``k`` example judgments' text (an annotator sample's, from the run's context)."""
    if metadata.get("context") and not is_item_sample(metadata):
        return sum(len(e.item.text or "") for e in annotator_sample(metadata).training[:k])
    training = metadata.get("training") or []
    return sum(len(str((e.get("item") or {}).get("text", ""))) for e in training[:k])


def plan_cell(built: BuiltCell, n_models: int) -> CellPlan:
    """The samples, calls and tokens of one cell, for one model.

    Args:
        built: The cell with its chosen samples.
        n_models: How many models the profile runs (a no-call cell runs once).

    Returns:
        The cell's plan (zero calls and a note when it is not measured).
    """
    cell = built.cell
    models = n_models if cell.per_model else 1
    if not built.measured:
        return CellPlan(cell.key, models, 0, 0, 0, 0, built.missing)
    base = _template_chars(cell.method) + FORMAT_CHARS
    calls = chars = 0
    personas = _personas(built.samples) if cell.method == "stakeholder_panel" else 0
    styles = len(steer_styles(built.task_args.get("steer_style")))
    for sample in built.samples:
        meta = sample.metadata or {}
        text = len(_text(sample))
        if cell.method in ONE_CALL:
            extra = _examples_chars(meta) if cell.method == "retrieval_examples" else 0
            calls += 1
            chars += base + text + extra
        elif cell.method == "distribution_judge":
            n = 1 + styles * _steered(meta, built.task_args.get("steer"))
            calls += n
            chars += n * (base + text)
        elif cell.method == "stakeholder_panel":
            calls += personas
            chars += personas * (base + text + PROFILE_CHARS)
    if cell.method == "stakeholder_panel" and built.samples:
        calls += personas  # the panel's creation, once per run: one call per profile
        chars += personas * (_template_chars("stakeholder_panel") + FORMAT_CHARS)
    cap = built.task_args.get("max_tokens")
    return CellPlan(
        cell.key,
        models,
        len(built.samples),
        calls,
        chars // CHARS_PER_TOKEN,
        calls * (OUTPUT_TOKENS if cap is None else min(int(cap), OUTPUT_TOKENS)),
    )


def plan_total(plans: Sequence[CellPlan]) -> CellPlan:
    """Every cell's samples, calls and tokens over every model."""
    return CellPlan(
        "total",
        max((p.models for p in plans), default=0),
        sum(p.samples * p.models for p in plans),
        sum(p.calls * p.models for p in plans),
        sum(p.input_tokens * p.models for p in plans),
        sum(p.output_tokens * p.models for p in plans),
    )


def render_plan(plans: Sequence[CellPlan], models: Sequence[str]) -> str:
    """The dry run's table: per cell (for each model) and in total over the models."""
    head = f"{'cell':<42} {'models':>6} {'samples':>7} {'calls':>7} {'in tok':>9} {'out tok':>8}"
    lines = [head, "-" * len(head)]
    for p in plans:
        if p.note:
            lines.append(f"{p.key:<42} {p.note}")
            continue
        lines.append(
            f"{p.key:<42} {p.models:>6} {p.samples:>7} {p.calls:>7} "
            f"{p.input_tokens:>9} {p.output_tokens:>8}"
        )
    total = plan_total([p for p in plans if not p.note])
    lines += [
        "-" * len(head),
        f"{'total (all models)':<42} {len(models):>6} {total.samples:>7} {total.calls:>7} "
        f"{total.input_tokens:>9} {total.output_tokens:>8}",
        "calls, input and output tokens per cell are for one model; tokens are estimates "
        f"({CHARS_PER_TOKEN} characters a token in, {OUTPUT_TOKENS} tokens a call out, "
        "or --max-tokens if lower)",
    ]
    return "\n".join(lines)
