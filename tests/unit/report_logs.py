"""Hand-made logs for the report and the dataframes (no eval run).

:func:`write_run` writes one ``.eval`` log with ``write_eval_log``: a plan naming the
method (or a ``--solver``), task arguments and metadata, per-sample score values and
metadata, model events (live or read from the cache), token usage and a store. The
runs of each family are built in ``report_runs.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.log import (
    EvalConfig,
    EvalDataset,
    EvalLog,
    EvalMetric,
    EvalPlan,
    EvalPlanStep,
    EvalResults,
    EvalSample,
    EvalScore,
    EvalSpec,
    write_eval_log,
)
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage
from inspect_ai.scorer import Score

START = datetime(2025, 1, 1, tzinfo=timezone.utc)
Row = tuple[dict[str, float], dict[str, Any]]
"""One sample: its score value and its metadata."""


@dataclass
class Run:
    """One fake run.

    Attributes:
        task: Task name (without the package).
        method: The solver in the plan (or given with ``--solver``).
        scorer: The first scorer's name.
        rows: Per sample (and epoch), its score value and metadata.
        metrics: The first scorer's metrics.
        model: The evaluated model.
        task_args: Task arguments.
        metadata: Task metadata (``family``, ``metrics_preset``, ...).
        solver: Given with ``--solver`` (the plan still names the method).
        minutes: Creation time after :data:`START`.
        status: The log's status.
        cache_read: Every model call read from Inspect's cache (no usage recorded).
        store: Per-sample store.
        extra: Other scorers: name -> (per sample value, metadata) and metrics.
        epochs: Epochs (rows then carry ``epoch`` in their metadata).
        calls: Model calls per sample.
        shown: Write each score as the package's scorers now do: at most this many
            numbers, rounded, in its value and every number in ``metadata["values"]``
            (0: every number in the value, the earlier layout).
        limit: ``--limit`` as the log records it.
        sample_id: ``--sample-id`` as the log records it.
        dataset_samples: Samples in the task's dataset, as the log records them.
        usage: Token usage per sample to record instead of the default (100 in, 10
            out per call).
    """

    task: str = "brexit"
    method: str = "llm_judge"
    scorer: str = "annotator_scorer"
    rows: list[Row] = field(default_factory=list)
    metrics: dict[str, float] = field(default_factory=dict)
    model: str = "prov/m1"
    task_args: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    solver: str | None = None
    minutes: int = 0
    status: str = "success"
    cache_read: bool = False
    store: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, tuple[list[tuple[Any, dict[str, Any] | None]], dict[str, float]]] = field(
        default_factory=dict
    )
    epochs: int = 1
    calls: int = 1
    shown: int = 0
    limit: int | None = None
    sample_id: list[str] | None = None
    dataset_samples: int | None = None
    usage: ModelUsage | None = None


def _event(cache: bool) -> ModelEvent:
    usage = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
    return ModelEvent(
        model="fixture/model",
        input=[],
        tools=[],
        tool_choice="none",
        config=GenerateConfig(),
        output=ModelOutput(model="fixture/model", choices=[], usage=usage),
        cache="read" if cache else None,
    )


def _sample(run: Run, i: int, value: dict[str, float], metadata: dict[str, Any]) -> EvalSample:
    epoch = int(metadata.pop("epoch", 1))
    scores = {run.scorer: Score(value=value)}
    if run.shown:
        shown = {k: round(v, 4) for k, v in list(value.items())[: run.shown]}
        scores = {run.scorer: Score(value=shown, metadata={"values": dict(value)})}
    for name, (per_sample, _) in run.extra.items():
        extra_value, extra_metadata = per_sample[i]
        scores[name] = Score(value=extra_value, metadata=extra_metadata)
    usage = (
        {}
        if run.cache_read or not run.calls
        else {run.model: run.usage}
        if run.usage is not None
        else {
            run.model: ModelUsage(
                input_tokens=100 * run.calls,
                output_tokens=10 * run.calls,
                total_tokens=110 * run.calls,
            )
        }
    )
    return EvalSample(
        id=str(metadata.get("sample_id", f"s{i}")),
        epoch=epoch,
        input="fixture input",
        target="fixture target",
        metadata={k: v for k, v in metadata.items() if k != "sample_id"},
        scores=scores,
        events=[_event(run.cache_read) for _ in range(run.calls)],
        model_usage=usage,
        store=dict(run.store),
    )


def write_run(folder: Path, name: str, run: Run) -> Path:
    """Write the run as ``folder/name.eval``; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    samples = [_sample(run, i, dict(v), dict(m)) for i, (v, m) in enumerate(run.rows)]
    spec = EvalSpec(
        created=(START + timedelta(minutes=run.minutes)).isoformat(),
        task=f"inspect_plural/{run.task}",
        dataset=EvalDataset(name=run.task, samples=run.dataset_samples),
        model=run.model,
        config=EvalConfig(epochs=run.epochs, limit=run.limit, sample_id=run.sample_id),
        metadata={"metrics_preset": "default", **run.metadata},
        task_args=dict(run.task_args),
        solver=f"inspect_plural/{run.solver}" if run.solver else None,
        solver_args={} if run.solver else None,
    )
    scores = [
        EvalScore(
            name=run.scorer,
            scorer=run.scorer,
            metrics={k: EvalMetric(name=k, value=v) for k, v in run.metrics.items()},
        )
    ]
    scores += [
        EvalScore(name=n, scorer=n, metrics={k: EvalMetric(name=k, value=v) for k, v in m.items()})
        for n, (_, m) in run.extra.items()
    ]
    plan = EvalPlan(
        steps=[EvalPlanStep(solver=f"inspect_plural/{run.solver or run.method}", params={})]
    )
    log = EvalLog(
        status=run.status,  # type: ignore[arg-type]
        eval=spec,
        plan=plan,
        results=EvalResults(
            total_samples=len(samples), completed_samples=len(samples), scores=scores
        )
        if run.status == "success"
        else None,
        samples=samples if run.status == "success" else None,
    )
    path = folder / f"{name}.eval"
    write_eval_log(log, str(path))
    return path
