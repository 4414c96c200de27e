"""What the report holds of one log (:class:`LogData`), of a log it leaves out, and of a directory.

Shared by loading (:mod:`._load`), grouping runs (:mod:`._grouping`) and every section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from inspect_plural.scorers import PanelSummary

__all__ = ["FAMILIES", "LEWIDI_METRICS", "LoadResult", "LogData", "SkippedLog"]


FAMILIES: dict[str, str] = {
    "annotator_scorer": "annotator",
    "role_scorer": "personaeval",
    "rating_scorer": "ratings",
    "review_scorer": "perse",
    "choice_scorer": "perse",
}
"""Scorer -> the report section its logs belong to (others: ``lewidi`` by their
metrics, else ``other``)."""


LEWIDI_METRICS = (
    "manhattan",
    "wasserstein",
    "cross_entropy",
    "hard_micro_f1",
    "error_rate",
    "norm_abs_distance",
)
"""The LeWiDi leaderboard's metrics (soft-label, then perspectivist), as logs name them."""


@dataclass(frozen=True)
class SkippedLog:
    """A log left out of the report.

    Attributes:
        path: The log file (relative to the log directory).
        reason: Why (e.g. ``status started``).
    """

    path: str
    reason: str


@dataclass
class LogData:
    """What the report uses of one finished log.

    Attributes:
        path: The log file.
        name: The log's path relative to the log directory (for messages and notes).
        task: The task name without its package (``dp``, ``personaeval_literary``).
        model: The evaluated model.
        method: The method that ran (:func:`~inspect_plural.analysis.method_of`).
        scorer: The name of the first scorer (the task's own).
        created: When the eval was created (ISO 8601; orders repeated runs).
        epochs: Epochs per sample.
        metadata: The task metadata.
        task_args: The task arguments.
        model_roles: Model role -> model.
        metrics: The first scorer's metrics as stored in the log.
        other_metrics: Every other scorer's metrics (scorer -> name -> value).
        config: The run's configuration
            (:func:`~inspect_plural.analysis.run_configuration`).
        run_key: The configuration as one string (equal for repeats only).
        solver_given: Whether the method was chosen with ``--solver``.
        values: One row per sample and epoch: the first scorer's numeric values (a
            scorer with one value: a column named after it).
        sample_meta: One row per values row: ``sample_id``, ``epoch``,
            ``annotator_id``, ``item_id``, ``aspect`` and ``trait:<dimension>``.
        scale: One row per values row: the label scale's ``kind``, ``low``, ``high``.
        usage: Long table: ``sample`` (row), ``role``, ``input_tokens`` (uncached),
            ``output_tokens``, ``input_tokens_cache_read`` and
            ``input_tokens_cache_write`` (NaN where the provider reports no cache).
        errored: Samples that errored (no score): failures of every cell.
        panel: The persona panel scorer's summary, when the log has one.
        replay: Why the log is a cache replay (None: it is not).
        label: The row label (method and what distinguishes its configuration).
        reduced_epochs: The epochs averaged into each row (1: rows are sample-epochs
            as read; see :func:`~inspect_plural.report.metrics._base.reduce_epochs`).
        demo: Whether the run read the demo data written for this package
            (``-T demo=true``): marked DEMO wherever it is shown.
        dataset_samples: Samples in the task's dataset (None: not recorded).
        cached_panels: How many of the run's persona panels were read from the disk
            cache, and which run built them (None: it built its own, or has none).
        built_panels: Whether the run built some persona panel itself.
        uniform: The uniform baseline's per-item values on the run's items (a chance
            model's distribution run; :mod:`~.metrics._uniform`), else None.
    """

    path: str
    name: str
    task: str
    model: str
    method: str
    scorer: str | None
    created: str
    epochs: int
    metadata: dict[str, Any]
    task_args: dict[str, Any]
    model_roles: dict[str, str]
    metrics: dict[str, float]
    other_metrics: dict[str, dict[str, float]]
    config: dict[str, Any]
    run_key: str
    solver_given: bool
    values: pd.DataFrame
    sample_meta: pd.DataFrame
    scale: pd.DataFrame
    usage: pd.DataFrame
    errored: int = 0
    panel: PanelSummary | None = None
    replay: str | None = None
    label: str = ""
    reduced_epochs: int = 1
    demo: bool = False
    dataset_samples: int | None = None
    cached_panels: str | None = None
    built_panels: bool = False
    uniform: pd.DataFrame | None = None

    @property
    def n(self) -> int:
        """Scored rows (samples x epochs) of :attr:`values`."""
        return len(self.values)

    @property
    def partial(self) -> str | None:
        """How the run was limited to part of its dataset (None: every sample ran).

        ``--limit 5`` or ``--sample-id a,b``, with how many samples ran out of the
        dataset's when the log records it (``5 of 40 samples, --limit 5``).
        """
        chosen = self.config.get("samples") or {}
        limit, sample_id = chosen.get("limit"), chosen.get("sample_id")
        if limit is None and sample_id is None:
            return None
        option = f"--limit {limit}" if limit is not None else "--sample-id"
        if limit is not None and sample_id is not None:
            option += ", --sample-id"
        ran = (self.n * self.reduced_epochs + self.errored) // max(self.epochs, 1)
        whole = f" of {self.dataset_samples}" if self.dataset_samples else ""
        return f"{ran}{whole} samples, {option}"

    @property
    def family(self) -> str:
        """The report section of the log's own scorer (``annotator``, ``lewidi``...)."""
        if any(name in self.metrics for name in LEWIDI_METRICS):
            return "lewidi"
        if self.scorer is None:
            return "other"
        return FAMILIES.get(self.scorer, "panel" if self.panel_scorer == self.scorer else "other")

    @property
    def panel_scorer(self) -> str | None:
        """The scorer name the persona panel's scores are under, if any."""
        return self.panel.scorer if self.panel is not None else None


@dataclass
class LoadResult:
    """The logs of a directory.

    Attributes:
        logs: The logs the report shows, in a stable order.
        skipped: Logs left out (unfinished, unreadable, repeats, replays), with why.
        notes: Other things the reader should know (which repeat was kept).
    """

    logs: list[LogData]
    skipped: list[SkippedLog] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
