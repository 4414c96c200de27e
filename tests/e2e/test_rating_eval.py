"""End-to-end runs of the rating tasks (MSLR-Cochrane, StorySparkQA), read back from the log.

Each test calls ``inspect_ai.eval`` on a registered task (``inspect_plural/...``) with the
offline ``plural/random`` model (or ``none/none`` for ROUGE-L, which makes no call) and
checks the written log: the corpus metrics against scipy, ROUGE-L against
``rouge-score``, every sample's stored debate (:class:`StakeholderPanel`,
:class:`PanelDebate`) and G-Eval / ChatEval records, and the model calls recorded as
events against the protocol's budget.

Issue 5's "must show" runs are here: ROUGE-L on all 600 real MSLR-Cochrane summaries,
and ``maj_eval``, ``geval`` and ``chateval`` on 3 real MSLR items and on the StorySparkQA
demo, with persona creation making no call. Speed: the 600-sample ROUGE-L run takes
about 25 s; everything else uses ``limit`` of 2 or 3.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, EvalSample, read_eval_log
from rouge_score import rouge_scorer
from scipy import stats
from tests.conftest import FAST_LOG, SHARED_DATA
from tests.conftest import log_metrics as _metrics
from tests.conftest import log_samples as _samples
from tests.conftest import model_events as _model_events
from tests.conftest import score_value as _value

from inspect_plural.cli import main as cli_main
from inspect_plural.prediction import Prediction
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.solvers._debate import debate_call_budget
from inspect_plural.solvers.chateval import ChatEvalRecord
from inspect_plural.solvers.geval import GEvalRecord
from inspect_plural.solvers.maj_eval import PanelDebate, StakeholderPanel
from inspect_plural.solvers.rouge import RougeRecord
from inspect_plural.sources.mslr import MSLR_DIMENSIONS
from inspect_plural.sources.storysparkqa import STORYSPARKQA_DIMENSIONS
from inspect_plural.stakeholders import default_personas, load_personas
from inspect_plural.stakeholders._cache import persona_cache_dir

pytestmark = pytest.mark.e2e

MSLR = SHARED_DATA / "mslr_cochrane"
"""Log buffering only: the finished log is the same."""
TASK_ARGS: dict[str, dict[str, Any]] = {
    "mslr_cochrane": {"data_dir": str(MSLR)},
    "storysparkqa": {"demo": True},
}
DIMENSIONS = {
    "mslr_cochrane": [d.name for d in MSLR_DIMENSIONS],
    "storysparkqa": [d.name for d in STORYSPARKQA_DIMENSIONS],
}
COEFFICIENTS = ("spearman", "kendall", "pearson")
PAPER_ROUGE_OVERALL = {"pearson": 0.242, "spearman": 0.183, "kendall": 0.123}
"""Our ROUGE-L row on the 600 real summaries (3 decimals), pinned as a regression check."""
GROUP_SPAN = "stakeholder group "
PERSONA_SPAN = "stakeholder personas"


# --------------------------------------------------------------------------- helpers


def _run(
    task: str,
    log_dir: Path,
    limit: int | None = 3,
    model: str = "plural/random",
    **task_args: Any,
) -> EvalLog:
    """A registered task by name; the log as read back from disk."""
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={**TASK_ARGS[task], **task_args},
        model=model,
        limit=limit,
        log_dir=str(log_dir),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    # prompts are stored as attachments; resolved, the model events hold the raw text
    return read_eval_log(log.location, resolve_attachments="core")


def _calls_by_span(sample: EvalSample) -> Counter[str]:
    """Model events per enclosing MAJ-Eval span: a group's name, ``personas`` or ``other``."""
    parent: dict[str, str | None] = {}
    name: dict[str, str] = {}
    for event in sample.events:
        if event.event == "span_begin":
            parent[event.id] = event.parent_id
            name[event.id] = event.name
    counts: Counter[str] = Counter()
    for event in _model_events(sample):
        span, where = event.span_id, "other"
        while span is not None:
            if name.get(span, "").startswith(GROUP_SPAN):
                where = name[span].removeprefix(GROUP_SPAN)
                break
            if name.get(span) == PERSONA_SPAN:
                where = "personas"
                break
            span = parent.get(span)
        counts[where] += 1
    return counts


def _check_debate(sample: EvalSample, groups: list[str], n_personas: list[int]) -> int:
    """Every group's debate is complete and its calls match the budget and the log.

    Returns:
        The persona-creation calls this sample made.
    """
    panel = sample.store_as(StakeholderPanel)
    assert [g.name for g in panel.groups] == groups
    assert [len(g.personas) for g in panel.groups] == n_personas
    debate = sample.store_as(PanelDebate)
    assert [g.group for g in debate.groups] == groups
    by_span = _calls_by_span(sample)
    assert by_span["other"] == 0
    assert by_span["personas"] == panel.creation_calls
    for group, members in zip(debate.groups, panel.groups):
        names = [p.name for p in members.personas]
        assert group.personas == names
        assert [e.persona for e in group.initial] == names
        assert all(e.source == "phase1" for e in group.initial)
        assert [e.persona for e in group.final] == names
        assert group.synthesis.strip()
        if len(names) == 1:
            assert group.stop_reason == "single_member" and not group.turns
            assert [e.source for e in group.final] == ["initial"]
        else:
            assert group.stop_reason in ("all_done", "max_rounds")
            assert 1 <= group.rounds <= debate.max_rounds
            assert group.active_per_round[0] == len(names)
            assert len(group.turns) == sum(group.active_per_round)
            for r, active in enumerate(group.active_per_round, start=1):
                turns = [t for t in group.turns if t.round == r]
                assert len({t.speaker for t in turns}) == len(turns) == active
                assert [t.forced for t in turns] == [False] * (active - 1) + [True]
            assert {e.source for e in group.final} <= {"done", "last_turn", "initial"}
            if group.stop_reason == "all_done":
                assert {e.source for e in group.final} == {"done"}
        budget = debate_call_budget(len(names), group.active_per_round)
        assert group.model_calls == budget == by_span[group.group], group.group
    prediction = sample.store_as(Prediction)
    total = sum(g.model_calls for g in debate.groups)
    assert prediction.model_calls == total + panel.creation_calls
    assert len(_model_events(sample)) == prediction.model_calls
    assert set(prediction.panels) == set(groups)
    return panel.creation_calls


def _persona_file(path: Path) -> Path:
    """A small hand-written persona file: a group of two and a group of one."""
    data = {
        "task": "mslr_cochrane",
        "groups": [
            {
                "name": "Pharmacists",
                "simple_role": "a hospital pharmacist",
                "personas": [
                    {
                        "name": "Rosa Lind",
                        "demographics": "A 44-year-old hospital pharmacist (MARKER-DEMOGRAPHICS).",
                        "perspective": "Whether dosing and drug names match the review.",
                        "specialty": "Clinical pharmacology.",
                        "psychological_traits": "Precise.",
                        "social_relationships": "Advises the ward doctors.",
                    },
                    {
                        "name": "Tom Heller",
                        "perspective": "Whether the conclusion overstates the evidence.",
                    },
                ],
            },
            {
                "name": "Patients",
                "simple_role": "a patient who reads medical summaries",
                "personas": [
                    {"name": "Ines Voss", "perspective": "Whether a lay reader can follow it."}
                ],
            },
        ],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _documents(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    first = folder / "interviews.txt"
    first.write_text(
        "Clinicians told us they read review conclusions between patients and need the "
        "direction of the effect stated plainly.\n\nPatients said summaries full of "
        "jargon left them unsure whether a treatment helped.",
        encoding="utf-8",
    )
    second = folder / "guideline.txt"
    second.write_text(
        "Guideline authors grade the certainty of evidence and expect summaries to say "
        "how strong it is.\n\nLibrarians check that population, intervention and outcome "
        "terms match the review question.",
        encoding="utf-8",
    )
    return [first, second]


# --------------------------------------------------------------------------- ROUGE-L


def test_rouge_l_on_all_600_real_mslr_summaries(tmp_path: Path) -> None:
    log = _run("mslr_cochrane", tmp_path, limit=None, model="none/none", method="rouge_l")
    samples = _samples(log)
    assert len(samples) == 600
    assert sum(len(_model_events(s)) for s in samples) == 0
    metrics = _metrics(log)
    values = [_value(s) for s in samples]
    for dim in DIMENSIONS["mslr_cochrane"]:
        pairs = [
            (v[f"pred/{dim}"], v[f"gold/{dim}"])
            for v in values
            if f"pred/{dim}" in v and f"gold/{dim}" in v
        ]
        pred, gold = [p for p, _ in pairs], [g for _, g in pairs]
        assert metrics[f"{dim}/n"] == len(pairs)
        expected = {
            "spearman": stats.spearmanr(pred, gold).statistic,
            "kendall": stats.kendalltau(pred, gold).statistic,  # tau-b
            "pearson": stats.pearsonr(pred, gold).statistic,
        }
        for coefficient in COEFFICIENTS:
            assert math.isfinite(metrics[f"{dim}/{coefficient}"])
            assert metrics[f"{dim}/{coefficient}"] == pytest.approx(
                expected[coefficient], abs=1e-12
            ), f"{dim}/{coefficient}"
    assert metrics["overall/n"] == 598
    for coefficient, known in PAPER_ROUGE_OVERALL.items():
        assert round(metrics[f"overall/{coefficient}"], 3) == known, coefficient

    # the prediction is rouge-score's ROUGE-L F1 of the summary against the target
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for sample in samples[::97]:
        meta = RatedSampleMetadata.model_validate(sample.metadata)
        [target] = meta.output.references
        assert target == meta.output.context
        f1 = scorer.score(target, meta.output.content)["rougeL"].fmeasure
        value = _value(sample)
        for dim in DIMENSIONS["mslr_cochrane"]:
            assert value[f"pred/{dim}"] == pytest.approx(f1, abs=1e-12)
        record = sample.store_as(RougeRecord)
        assert record.best is not None and record.best.fmeasure == pytest.approx(f1)
        assert sample.store_as(Prediction).model_calls == 0


# --------------------------------------------------------------------------- the three methods


@pytest.mark.parametrize("task", ["mslr_cochrane", "storysparkqa"])
def test_maj_eval_completes_with_the_full_debate(task: str, tmp_path: Path) -> None:
    log = _run(task, tmp_path, method="maj_eval")
    defaults = default_personas(task)
    groups = defaults.group_names()
    sizes = [len(g.personas) for g in defaults.groups]
    samples = _samples(log)
    assert len(samples) == 3
    for sample in samples:
        assert _check_debate(sample, groups, sizes) == 0  # no persona-creation call
        panel = sample.store_as(StakeholderPanel)
        assert panel.origin == "default"
        assert sample.store_as(Prediction).method == "maj_eval"
        assert sample.store["PanelDebate:max_rounds"] == 3  # in the log as written
    metrics = _metrics(log)
    for group in groups:
        assert f"calls/{group}" in metrics and f"alpha/{group}/initial" in metrics


@pytest.mark.parametrize(
    ("task", "method", "options", "calls"),
    [
        ("mslr_cochrane", "geval", {}, 5),
        ("storysparkqa", "geval", {}, 5),
        ("mslr_cochrane", "chateval", {}, 4),
        ("storysparkqa", "chateval", {}, 4),
        ("mslr_cochrane", "chateval", {"chateval_strategy": "simultaneous_summarizer"}, 5),
    ],
)
def test_baselines_complete_with_their_call_counts(
    task: str, method: str, options: dict[str, Any], calls: int, tmp_path: Path
) -> None:
    log = _run(task, tmp_path, method=method, **options)
    samples = _samples(log)
    assert len(samples) == 3
    for sample in samples:
        prediction = sample.store_as(Prediction)
        assert len(_model_events(sample)) == prediction.model_calls == calls
        if method == "geval":  # one call per dimension, scored from logprobs
            record = sample.store_as(GEvalRecord)
            assert [d.name for d in record.dimensions] == DIMENSIONS[task]
            assert all(d.mode == "logprobs" and d.model_calls == 1 for d in record.dimensions)
            assert all(e.config.logprobs for e in _model_events(sample))
            assert record.model_calls == calls
        else:
            chat = sample.store_as(ChatEvalRecord)
            assert chat.strategy == options.get("chateval_strategy", "one_by_one")
            assert chat.model_calls == calls and chat.rounds == 2
            assert len(chat.roles) == 2
    assert "overall/spearman" in _metrics(log)


# --------------------------------------------------------------------------- options


def test_persona_file_simple_roles_and_groups(tmp_path: Path) -> None:
    personas = _persona_file(tmp_path / "personas.json")
    log = _run("mslr_cochrane", tmp_path / "file", limit=2, personas=str(personas))
    for sample in _samples(log):
        assert _check_debate(sample, ["Pharmacists", "Patients"], [2, 1]) == 0
        assert sample.store_as(StakeholderPanel).origin == "file"
    systems = [str(e.input[0].text) for s in _samples(log) for e in _model_events(s)]
    assert any("MARKER-DEMOGRAPHICS" in text for text in systems)

    log = _run(
        "mslr_cochrane",
        tmp_path / "simple",
        limit=2,
        personas=str(personas),
        simple_roles=True,
        groups="Pharmacists",
    )
    for sample in _samples(log):
        assert _check_debate(sample, ["Pharmacists"], [2]) == 0
        assert sample.store_as(PanelDebate).simple_roles is True
        assert sample.store_as(Prediction).method == "maj_eval/simple_roles"
        persona_calls = [e for e in _model_events(sample) if e.input[0].role == "system"]
        assert persona_calls
        for event in persona_calls:
            system = str(event.input[0].text)
            assert ", a hospital pharmacist." in system
            assert "MARKER-DEMOGRAPHICS" not in system and "Clinical pharmacology" not in system
    assert log.eval.task_args.get("simple_roles") is True

    # a subset of the shipped groups
    log = _run("storysparkqa", tmp_path / "groups", limit=2, groups="Children,Teachers")
    for sample in _samples(log):
        assert _check_debate(sample, ["Children", "Teachers"], [3, 3]) == 0


def test_an_option_of_another_method_fails_before_any_call(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="geval_n configures method geval, not maj_eval"):
        _run("mslr_cochrane", tmp_path, method="maj_eval", geval_n=5)
    assert not list(tmp_path.iterdir())  # no log: nothing ran


# --------------------------------------------------------------------------- persona creation


def test_persona_docs_created_once_per_task_then_cached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    docs = ",".join(str(p) for p in _documents(tmp_path / "docs"))
    log = _run("mslr_cochrane", tmp_path / "first", persona_docs=docs)
    [cached] = list(persona_cache_dir().glob("*.json"))
    created = load_personas(cached)
    assert created.origin.kind == "documents"
    chunks = sum(d.chunks for d in created.origin.documents)
    assert chunks == 2
    groups = created.group_names()
    sizes = [len(g.personas) for g in created.groups]
    creation = [_check_debate(s, groups, sizes) for s in _samples(log)]
    assert sum(creation) == created.usage.calls
    # extraction per chunk + 1 grouping + 1 per group asked for personas (a group whose
    # answer held no readable persona was asked, then dropped, and says so in the notes)
    asked = len(groups) + sum("no persona could be read" in n for n in created.notes)
    assert sum(creation) == chunks + 1 + asked
    assert sum(1 for c in creation if c > 0) == 1
    # creation is seeded like the debate (maj_eval's seed, 42 by default), at temperature 0
    [creator] = [s for s, c in zip(_samples(log), creation, strict=True) if c > 0]
    assert {(e.config.temperature, e.config.seed) for e in _model_events(creator)} == {(0.0, 42)}
    for sample in _samples(log):  # the creating sample carries the creation tokens too
        debate_tokens = sum(g.tokens for g in sample.store_as(PanelDebate).groups)
        made = sample.store_as(StakeholderPanel).creation_calls > 0
        extra = created.usage.total_tokens if made else 0
        assert sample.store_as(Prediction).tokens == debate_tokens + extra
        assert sample.store_as(Prediction).tokens == sum(
            e.output.usage.input_tokens + e.output.usage.output_tokens
            for e in _model_events(sample)
        )
    assert all(s.store_as(StakeholderPanel).origin == "documents" for s in _samples(log))

    again = _run("mslr_cochrane", tmp_path / "second", persona_docs=docs)
    for sample in _samples(again):
        assert _check_debate(sample, groups, sizes) == 0
    assert list(persona_cache_dir().glob("*.json")) == [cached]


def test_cli_personas_file_is_used_by_the_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "personas.json"
    docs = [str(p) for p in _documents(tmp_path / "docs")]
    args = ["personas", *docs, "--preset", "mslr_cochrane", "--model", "plural/random"]
    assert cli_main([*args, "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    written = load_personas(out)
    assert written.task == "mslr_cochrane" and written.origin.kind == "documents"

    log = _run("mslr_cochrane", tmp_path / "logs", limit=2, personas=str(out))
    groups = written.group_names()
    sizes = [len(g.personas) for g in written.groups]
    for sample in _samples(log):
        assert _check_debate(sample, groups, sizes) == 0
        assert sample.store_as(StakeholderPanel).origin == "documents"
    names = {p.name for p in written.personas}
    spoke = {
        e.persona for s in _samples(log) for g in s.store_as(PanelDebate).groups for e in g.initial
    }
    assert spoke == names
