"""Shared helpers of the annotator-level methods' end-to-end tests: runs read back from
their logs, and the checks of a CINEMETRIC run against its call budget."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from inspect_ai.scorer import Score
from tests.conftest import SHARED_DATA

from inspect_plural.answer_format import (
    CharacterListFormat,
    LabelFormat,
    declared_answer_format,
)
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.records import AnnotatorSampleMetadata, annotator_sample
from inspect_plural.scorers._values import values_of
from inspect_plural.scorers.perspective import accuracy
from inspect_plural.scorers.role import parse_failures
from inspect_plural.solvers.cinemetric import CharacterPanel
from inspect_plural.tasks import perspective
from inspect_plural.tasks.annotator._options import ITEM_METHODS, METHODS

BREXIT = SHARED_DATA / "brexit"
TASKS = ["opinionqa", "dp", "brexit", "epic", "mhs", "md_agreement", "dices"]
NEEDS_NAMED = ("personalized_judge", "trait_ensemble")  # trait_ensemble: trait_scope=own
PER_ANNOTATOR = [m for m in METHODS if m not in ITEM_METHODS]
"""Methods of the per-annotator target (the others predict an item's distribution)."""
ONE_CALL = ("llm_judge", "personalized_judge", "retrieval_examples")
BASELINES = ("annotator_majority", "item_majority")
LIMIT = 24
N_PERSONAS = 3
SKIPPED_TRAIT_VALUES = ("", "UNK")
CALIBRATION = ("top1", "top2", "mean_rank", "ece", "brier_score")
FAST_LOG = {"log_realtime": False, "log_buffer": 1000}
"""Log buffering only: the finished log is the same."""


# --------------------------------------------------------------------------- helpers


def run_eval(task: str | Task, log_dir: Path, **kwargs: Any) -> EvalLog:
    """One eval with plural/random; the log as read back from disk."""
    [log] = eval(
        task,
        model="plural/random",
        log_dir=str(log_dir),
        display="none",
        **FAST_LOG,
        **kwargs,
    )
    assert log.status == "success", log.error
    # prompts are stored as attachments; resolved, the model events hold the raw text
    return read_eval_log(log.location, resolve_attachments="core")


def run_task(task: str, log_dir: Path, limit: int | None = None, **task_args: Any) -> EvalLog:
    """A registered task by name, with its full metrics."""
    return run_eval(f"inspect_plural/{task}", log_dir, task_args=task_args, limit=limit)


def task_args_for(task: str, method: str, **options: Any) -> dict[str, Any]:
    args: dict[str, Any] = {"demo": True, "method": method, **options}
    if task == "md_agreement":
        args["named"] = False  # no traits: the only setting it accepts
    return args


def lean_task(task: str, **task_args: Any) -> Task:
    """The registered task with its dataset, solver, scorer and config, but two metrics."""
    full: Task = getattr(perspective, task)(**task_args)
    return Task(
        dataset=full.dataset,
        solver=full.solver,
        scorer=full.scorer,
        metrics=[accuracy(), parse_failures()],
        config=full.config,
        version=full.version,
        metadata=full.metadata,
        name=full.name,
    )


def samples_of(log: EvalLog) -> list[EvalSample]:
    assert log.samples
    return log.samples


def metrics_of(log: EvalLog) -> dict[str, Any]:
    assert log.results is not None
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


def score_of(sample: EvalSample) -> Score:
    assert sample.scores, f"{sample.id} was not scored"
    [score] = sample.scores.values()
    assert isinstance(score.value, dict)
    return score


def value_of(sample: EvalSample) -> dict[str, float]:
    return values_of(score_of(sample))


def meta_of(sample: EvalSample) -> AnnotatorSampleMetadata:
    return annotator_sample(sample.metadata)


def model_calls_of(sample: EvalSample) -> int:
    return sum(1 for e in sample.events if e.event == "model")


def model_events_of(sample: EvalSample) -> list[Any]:
    return [e for e in sample.events if e.event == "model"]


def prompt_of(event: Any) -> str:
    """The text of the last message sent to the model (the prompt)."""
    return str(event.input[-1].text)


def is_selection(event: Any) -> bool:
    return isinstance(declared_answer_format(event.input), CharacterListFormat)


def is_validation(event: Any) -> bool:
    declared = declared_answer_format(event.input)
    return isinstance(declared, LabelFormat) and declared.style == "bare"


def is_persona_call(event: Any) -> bool:
    """A CINEMETRIC role-play (or simulation) call: neither selection nor validation."""
    return not (is_selection(event) or is_validation(event))


def known_traits(traits: dict[str, str]) -> list[tuple[str, str]]:
    return [(d, v) for d, v in traits.items() if v not in SKIPPED_TRAIT_VALUES]


def majority(labels: list[str | None]) -> str | None:
    """Majority vote, ties to the earliest answer (the package's documented rule)."""
    counts = Counter(label for label in labels if label is not None)
    if not counts:
        return None
    best = max(counts.values())
    return next(label for label in counts if counts[label] == best)


def mean_distribution(answers: list[ModelAnswer], labels: list[str]) -> list[float]:
    dists = [a.distribution for a in answers]
    assert all(d is not None for d in dists)
    return [sum(d[name] for d in dists if d) / len(dists) for name in labels]


def panels_of(log: EvalLog) -> dict[str, list[CharacterPanel]]:
    """Annotator id -> the CharacterPanel of each of their samples."""
    result: dict[str, list[CharacterPanel]] = defaultdict(list)
    for sample in samples_of(log):
        result[str(meta_of(sample).annotator_id)].append(sample.store_as(CharacterPanel))
    return result


def character_keys(panel: CharacterPanel) -> list[tuple[str, str]]:
    return [(c.name, c.movie) for c in panel.characters]


def check_cinemetric_budget(log: EvalLog) -> None:
    """One panel built per annotator, shared by all their samples; 3 role-play calls each."""
    by_annotator: dict[str, list[EvalSample]] = defaultdict(list)
    for sample in samples_of(log):
        if "CharacterPanel:annotator_id" not in sample.store:
            continue  # nothing to match the annotator on: no panel, no call
        by_annotator[str(meta_of(sample).annotator_id)].append(sample)
    for annotator, samples in by_annotator.items():
        panels = [s.store_as(CharacterPanel) for s in samples]
        assert {p.annotator_id for p in panels} == {annotator}
        builders = [s for s, p in zip(samples, panels) if p.built_here]
        assert len(builders) == 1, f"{annotator}: {len(builders)} samples built the panel"
        first = panels[0]
        for panel in panels:
            assert panel.model_dump(exclude={"built_here"}) == first.model_dump(
                exclude={"built_here"}
            )
            assert not panel.from_cache
        # 1 selection call per round, 1 validation call per candidate
        assert 1 <= first.rounds <= 2 and len(first.selection_raw) == first.rounds
        assert first.model_calls == first.rounds + len(first.candidates)
        valid = [c for c in first.candidates if c.validated]
        if first.rounds == 2:
            assert sum(c.validated for c in first.candidates if c.round == 1) < N_PERSONAS
        if len(valid) >= N_PERSONAS:
            assert character_keys(first) == [(c.name, c.movie) for c in valid[:N_PERSONAS]]
        assert len(first.characters) == N_PERSONAS
        for sample, panel in zip(samples, panels):
            events = model_events_of(sample)
            calls = N_PERSONAS + (panel.model_calls if panel.built_here else 0)
            assert len(events) == calls, sample.id
            assert sample.store_as(Prediction).model_calls == calls
            selections = [e for e in events if is_selection(e)]
            validations = [e for e in events if is_validation(e)]
            if panel.built_here:
                assert len(selections) == panel.rounds
                assert len(validations) == len(panel.candidates)
            else:
                assert not selections and not validations
            answers = sample.store_as(Prediction).answers
            assert [a.persona for a in answers] == [c.label for c in panel.characters]
