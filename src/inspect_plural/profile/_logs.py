"""Logs -> the rows the profile computes on (reads logs only, once, linear in samples).

A log belongs to the profile when its task metadata holds the profile tag
(:data:`~inspect_plural.profile._tasks.PROFILE_KEY`: cell, budget, demo, samples), which
``profile run`` writes. For each (cell, model) the latest finished log is kept; an
unfinished or repeated one is set aside with a note. Each sample becomes a :class:`Row`
with only what the modes use: its numbers (the first scorer's values), the item's gold
distribution and scale, the predicted distribution, and a panel's votes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLogInfo, EvalSample, EvalSpec, list_eval_logs, read_eval_log
from inspect_ai.scorer import Score

from inspect_plural.profile._cells import CELLS, Cell
from inspect_plural.profile._eval_zip import SampleFields, read_header, read_sample_fields
from inspect_plural.profile._tasks import PROFILE_KEY
from inspect_plural.report._parallel import default_jobs, run_all
from inspect_plural.scorers._values import values_of

__all__ = ["NONE_MODEL", "CellLog", "Row", "find_profile_logs", "read_profile_logs", "read_rows"]

NONE_MODEL = "none/none"
"""The model of a cell that makes no call (a baseline, shared by every model)."""
EXCLUDED = {"events", "messages", "attachments", "output"}
"""Sample fields the profile never reads."""
CELLS_BY_KEY: dict[str, Cell] = {cell.key: cell for cell in CELLS}

Warn = Callable[[str], None]


@dataclass(frozen=True)
class Vote:
    """One persona's vote on an item (label None: unreadable)."""

    persona: str
    group: str
    label: str | None


@dataclass
class Row:
    """One sample, as the modes use it.

    Attributes:
        id: The sample id.
        values: The first scorer's numbers (full precision).
        labels: The scale's labels.
        kind: The scale's kind.
        gold: The item's gold distribution (item samples).
        base_labels: Base labels of a label-set scale (VariErrNLI).
        distribution: The method's distribution (None: failed or none given).
        votes: A stakeholder panel's votes, in panel order.
        errored: The sample errored (no score).
    """

    id: str
    values: dict[str, float]
    labels: list[str] = field(default_factory=list)
    kind: str = "nominal"
    gold: dict[str, float] | None = None
    base_labels: list[str] = field(default_factory=list)
    distribution: dict[str, float] | None = None
    votes: list[Vote] = field(default_factory=list)
    errored: bool = False


@dataclass
class CellLog:
    """The log of one cell for one model.

    Attributes:
        cell: The cell.
        model: The model (``none/none``: a no-call baseline).
        path: The log file.
        budget: The budget it ran under.
        demo: Whether it ran on demo data.
        created: When the eval was created.
        rows: One row per sample.
        computed: Figures computed from the rows once and reused (e.g. item skill units).
    """

    cell: Cell
    model: str
    path: str
    budget: str
    demo: bool
    created: str
    rows: list[Row] = field(default_factory=list)
    computed: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def errored(self) -> int:
        """Samples that errored."""
        return sum(1 for r in self.rows if r.errored)


def _votes(store: Mapping[str, Any]) -> list[Vote]:
    return [
        Vote(str(v.get("persona", "")), str(v.get("group", "")), v.get("label"))
        for v in store.get("StakeholderVotes:votes") or []
    ]


def _row(sample: SampleFields) -> Row:
    scores = list(sample.scores.values())
    values = values_of(Score.model_validate(scores[0])) if scores else {}
    meta = sample.metadata
    scale = meta.get("scale") or {}
    store = sample.store
    ok = bool(store.get("Prediction:parse_ok"))
    distribution = store.get("Prediction:distribution") if ok else None
    return Row(
        id=str(sample.id),
        values=values,
        labels=list(scale.get("labels") or []),
        kind=str(scale.get("kind") or "nominal"),
        gold=meta.get("gold"),
        base_labels=list(meta.get("base_labels") or []),
        distribution=dict(distribution) if distribution else None,
        votes=_votes(store),
        errored=sample.errored or not scores,
    )


def _fields_of(sample: EvalSample) -> SampleFields:
    return SampleFields(
        id=sample.id,
        epoch=sample.epoch,
        scores={k: v.model_dump() for k, v in (sample.scores or {}).items()},
        metadata=sample.metadata or {},
        store=sample.store or {},
        errored=sample.error is not None,
    )


def _relative(path: str, log_dir: Path) -> str:
    text = path.removeprefix("file://")
    try:
        return str(Path(text).resolve().relative_to(log_dir.resolve()))
    except ValueError:
        return text


def _header(info: EvalLogInfo) -> tuple[str, EvalSpec]:
    """A log's status and eval spec: from its ``header.json``, else read by Inspect."""
    header = read_header(info.name)
    if header is None:
        log = read_eval_log(info, header_only=True)
        header = (log.status, log.eval)
    return header


def find_profile_logs(log_dir: str | Path, warn: Warn) -> list[CellLog]:
    """The logs the profile reads: the latest finished one per (cell, model), without rows.

    Args:
        log_dir: The directory (searched recursively).
        warn: Called with a note for every log left out.

    Returns:
        The logs (headers only), in profile order of their cells.
    """
    root = Path(log_dir)
    kept: dict[tuple[str, str], CellLog] = {}
    for info in list_eval_logs(str(root), recursive=True):
        status, spec = _header(info)
        tag = (spec.metadata or {}).get(PROFILE_KEY)
        if not isinstance(tag, dict) or tag.get("cell") not in CELLS_BY_KEY:
            continue
        name = _relative(info.name, root)
        if status != "success":
            warn(f"{name}: status {status}, left out (run `profile run` again)")
            continue
        log = CellLog(
            cell=CELLS_BY_KEY[str(tag["cell"])],
            model=str(spec.model),
            path=info.name.removeprefix("file://"),
            budget=str(tag.get("budget", "")),
            demo=bool(tag.get("demo", False)),
            created=str(spec.created),
        )
        key = (log.cell.key, log.model)
        if key in kept:
            older, newer = sorted([kept[key], log], key=lambda x: x.created)
            warn(f"{_relative(older.path, root)}: a later log of {key[0]} ({key[1]}) is kept")
            log = newer
        kept[key] = log
    order = {cell.key: i for i, cell in enumerate(CELLS)}
    return sorted(kept.values(), key=lambda x: (order[x.cell.key], x.model))


def read_profile_logs(log_dir: str | Path, warn: Warn, jobs: int | None = None) -> list[CellLog]:
    """Every profile log under a directory: the latest finished one per (cell, model).

    Args:
        log_dir: The directory (searched recursively).
        warn: Called with a note for every log left out.
        jobs: Worker processes reading the logs (default: the CPUs, at most 4; the
            report's pool).

    Returns:
        The logs with their rows, in profile order of their cells.
    """
    logs = find_profile_logs(log_dir, warn)
    rows = run_all(lambda i: read_rows(logs[i].path), len(logs), jobs or default_jobs())
    for log, log_rows in zip(logs, rows):
        log.rows = log_rows
    return logs


def read_rows(path: str) -> list[Row]:
    """A log's samples as rows, reading only the fields the rows use.

    A local ``.eval`` log is read by :func:`read_sample_fields` (its events are never
    parsed: five times faster than Inspect's reader on a full run); any other log by
    Inspect, in one read of the whole log without events or messages (reading the
    samples one by one costs a round trip each: about 15 times slower).
    """
    samples = read_sample_fields(path)
    if samples is None:
        log = read_eval_log(path, exclude_fields=EXCLUDED)
        samples = [_fields_of(sample) for sample in log.samples or []]
    return [_row(sample) for sample in samples]
