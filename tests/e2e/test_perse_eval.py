"""End-to-end runs of ``per_mpst`` and ``per_doc`` (PERSE), read back from the written log.

Each test calls ``inspect_ai.eval`` on the registered task with the offline
``plural/random`` model (or a scripted model registered here) and checks the log: the
pooled correlations against scipy computed straight from the JSON-lines file, per-sample
predictions against the model's own output, model events against each method's call
budget, and the metric presets' treatment of answers that failed to parse.

The "must show" run is :func:`test_per_mpst_prior_average_matches_scipy`: on the
repository's 10-row Per-MPST sample, the prior average's Pearson, Spearman and Kendall
equal scipy's on (mean of the 3 prior scores, the target score).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest
from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo
from rouge_score import rouge_scorer
from scipy import stats
from tests.conftest import FAST_LOG, SHARED_DATA, ScriptedModelAPI
from tests.conftest import log_metrics as _metrics
from tests.conftest import log_samples as _samples
from tests.conftest import model_events as _model_events
from tests.conftest import score_value as _value

from inspect_plural.errors import UserError
from inspect_plural.prediction import Prediction
from inspect_plural.records import PairSampleMetadata, ReviewSampleMetadata
from inspect_plural.scorers.personal._review_metrics import chance_abs_error
from inspect_plural.sources.perse import (
    clean_review,
    load_per_doc,
    load_per_mpst,
    split_by_reviewer,
)
from inspect_plural.tasks.perse import per_doc, per_mpst

pytestmark = pytest.mark.e2e

PERSE = SHARED_DATA / "perse"
MPST_FILE = PERSE / "PerMPST.k3.sample.jsonl"
DOC_FILE = PERSE / "PerDOC.I.sample.jsonl"
"""Log buffering only: the finished log is the same."""
CORRELATIONS: dict[str, Callable[..., Any]] = {
    "pearson": stats.pearsonr,
    "spearman": stats.spearmanr,
    "kendall": stats.kendalltau,
}
JSON_BLOCK = re.compile(r"```json\s*(\{.*?\})\s*```", re.DOTALL)

needs_shared = pytest.mark.skipif(not PERSE.is_dir(), reason="shared PERSE data not available")


# --------------------------------------------------------------------------- helpers


def _run(task: str, log_dir: Path, model: str = "plural/random", **task_args: Any) -> EvalLog:
    """A registered task by name; the log as read back from disk."""
    [log] = eval(
        f"inspect_plural/{task}",
        task_args=task_args,
        model=model,
        log_dir=str(log_dir),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    return read_eval_log(log.location, resolve_attachments="core")


def _file_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _answer_json(text: str) -> dict[str, Any]:
    blocks = JSON_BLOCK.findall(text)
    assert blocks, text
    value = json.loads(blocks[-1])
    assert isinstance(value, dict)
    return value


def _check_pooled(
    metrics: dict[str, float],
    preds: list[float],
    golds: list[float],
    failed: list[bool] | None = None,
) -> None:
    """The logged correlations, accuracy and MAE equal scipy's / numpy's on the pairs.

    A ``failed`` row (its prediction stands in for a missing answer) is never exact, and
    adds a uniformly random score's expected error to the MAE (never less than chance).
    """
    for name, function in CORRELATIONS.items():
        assert metrics[name] == pytest.approx(function(preds, golds)[0], abs=1e-12), name
    failed = failed or [False] * len(preds)
    exact = [
        not f and math.floor(p + 0.5) == g for p, g, f in zip(preds, golds, failed, strict=True)
    ]
    assert metrics["accuracy"] == pytest.approx(sum(exact) / len(exact))
    errors = [
        chance_abs_error(g, 1, 10) if f else abs(p - g)
        for p, g, f in zip(preds, golds, failed, strict=True)
    ]
    assert metrics["mae"] == pytest.approx(fmean(errors))
    assert metrics["n"] == len(preds)


def _shared_args() -> dict[str, Any]:
    if not PERSE.is_dir():
        pytest.skip("shared PERSE data not available")
    return {"data_dir": str(PERSE)}


# --------------------------------------------------------------------------- Per-MPST


def test_per_mpst_prior_average_matches_scipy(tmp_path: Path) -> None:
    """MUST-SHOW: prior average on the real sample = scipy on the file's own numbers."""
    log = _run("per_mpst", tmp_path, method="prior_average", **_shared_args())
    rows = _file_rows(MPST_FILE)
    preds = [fmean(e["score"] for e in row["examples"][:3]) for row in rows]
    golds = [float(row["examples"][3]["score"]) for row in rows]
    samples = _samples(log)
    assert len(samples) == 10
    metrics = _metrics(log)
    _check_pooled(metrics, preds, golds)
    assert metrics["accuracy"] == pytest.approx(
        sum(math.floor(p + 0.5) == g for p, g in zip(preds, golds)) / 10
    )
    assert metrics["parse_failures"] == 0 and metrics["calls_per_sample"] == 0
    assert metrics["tokens_per_sample"] == 0 and "cold_start" not in metrics  # headline: > 0
    assert "review_rouge1" not in metrics and "review_bleu" not in metrics  # no review
    by_id = {f"ma-cortes/{row['examples'][3]['movie_id']}": i for i, row in enumerate(rows)}
    for sample in samples:
        i = by_id[str(sample.id)]
        assert _model_events(sample) == []
        value = _value(sample)
        assert value["pred"] == pytest.approx(preds[i]) and value["gold"] == golds[i]
        assert value["model_calls"] == 0 and value["parse_ok"] == 1
        prediction = sample.store_as(Prediction)
        assert prediction.method == "prior_average" and prediction.model_calls == 0
        assert prediction.rationale and "mean of 3 prior scores" in prediction.rationale
    assert log.eval.metadata is not None
    assert log.eval.metadata["split"]["protocol"] == "seeded"
    assert log.eval.metadata["split"]["valid_rows"] == 10


def _check_perse_review(log: EvalLog, n_samples: int, low: int = 1, high: int = 10) -> None:
    samples = _samples(log)
    assert len(samples) == n_samples
    rouge = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)
    preds: list[float] = []
    golds: list[float] = []
    rouges: list[float] = []
    for sample in samples:
        metadata = sample.metadata_as(ReviewSampleMetadata)
        [event] = _model_events(sample)
        assert event.config.temperature == 0.0 and event.config.max_tokens == 600
        assert event.config.seed == 42
        prompt = event.input[-1].text
        assert metadata.review.target.plot.strip() in prompt
        assert metadata.review.target.review not in prompt  # the gold review is never shown
        assert prompt.count("[Score]") == metadata.k == len(metadata.review.history)
        shown = [
            prompt.index(
                f"{h.plot.strip()}\n[Review] {clean_review(h.review)}\n[Score] {h.score:g}"
            )
            for h in metadata.review.history
        ]
        assert shown == sorted(shown)
        assert shown[-1] < prompt.index(metadata.review.target.plot.strip())
        assert sample.output.completion == sample.messages[-1].text
        answer = _answer_json(sample.output.completion)
        value = _value(sample)
        assert value["parse_ok"] == 1 and value["model_calls"] == 1
        assert value["pred"] == answer["score"] and low <= answer["score"] <= high
        assert value["gold"] == metadata.gold == metadata.review.target.score
        expected_rouge = rouge.score(metadata.review.target.review, answer["review"])
        assert value["review_rouge1"] == pytest.approx(expected_rouge["rouge1"].fmeasure)
        prediction = sample.store_as(Prediction)
        assert prediction.rationale == answer["review"] and prediction.score == answer["score"]
        assert prediction.tokens == event.output.usage.total_tokens
        preds.append(value["pred"])
        golds.append(value["gold"])
        rouges.append(value["review_rouge1"])
    metrics = _metrics(log)
    _check_pooled(metrics, preds, golds)
    assert metrics["review_rouge1"] == pytest.approx(fmean(rouges))
    assert metrics["parse_failures"] == 0 and metrics["calls_per_sample"] == 1


@needs_shared
def test_per_mpst_perse_review_on_the_sample(tmp_path: Path) -> None:
    log = _run("per_mpst", tmp_path, data_dir=str(PERSE))
    _check_perse_review(log, 10)


def test_per_mpst_perse_review_on_the_demo(tmp_path: Path) -> None:
    log = _run("per_mpst", tmp_path, demo=True, k=2)
    _check_perse_review(log, 12)
    for sample in _samples(log):
        assert sample.metadata_as(ReviewSampleMetadata).k == 2
    assert log.eval.metadata is not None
    assert log.eval.metadata["load"]["truncated"] is True
    assert log.eval.metadata["split"]["protocol"] == "release"


def test_per_mpst_matrix_factorization_on_the_demo(tmp_path: Path) -> None:
    log = _run("per_mpst", tmp_path, demo=True, k=5, method="matrix_factorization")
    rows = load_per_mpst(demo=True, k=5)
    split = split_by_reviewer(rows)
    trained = {s.item_id for r in split.train for s in (*r.history, r.target)}
    [unseen] = [r.id for r in split.valid if r.target.item_id not in trained]
    samples = _samples(log)
    assert sorted(str(s.id) for s in samples) == sorted(r.id for r in split.valid)
    cold = []
    for sample in samples:
        assert _model_events(sample) == []
        value = _value(sample)
        assert value["model_calls"] == 0 and value["parse_ok"] == 1
        assert 1 <= value["pred"] <= 10
        [score] = sample.scores.values()  # type: ignore[union-attr]
        prediction = sample.store_as(Prediction)
        factors = sample.metadata_as(ReviewSampleMetadata).training_factors
        assert factors is not None and factors.reviewers == 12
        if value.get("cold_start") == 1:
            cold.append(str(sample.id))
            assert prediction.flags == ["cold_start"]
            assert score.metadata is not None and score.metadata["flags"] == ["cold_start"]
            assert prediction.rationale and prediction.rationale.startswith("cold start")
            assert score.explanation == prediction.rationale
            history = sample.metadata_as(ReviewSampleMetadata).review.history
            assert sample.metadata_as(ReviewSampleMetadata).review.target.item_id not in (
                factors.movies
            )
            assert any(h.item_id in factors.movies for h in history)
        else:
            assert "cold_start" not in value and prediction.flags == []
            assert prediction.rationale and "12 training reviewers" in prediction.rationale
    assert cold == [unseen]
    metrics = _metrics(log)
    assert metrics["cold_start"] == 1 and metrics["calls_per_sample"] == 0 and metrics["n"] == 12
    assert log.eval.metadata is not None
    factorisation = log.eval.metadata["factorisation"]
    distinct = {(r.reviewer_id, s.item_id) for r in split.train for s in (*r.history, r.target)}
    assert factorisation == {
        "n_factors": 10,
        "reg": 5.0,
        "train_reviewers": 12,
        "train_ratings": len(distinct),
    }
    tuned = per_mpst(demo=True, method="matrix_factorization", mf_factors=3, mf_reg=1.5)
    assert tuned.metadata is not None
    assert tuned.metadata["factorisation"]["n_factors"] == 3
    assert tuned.metadata["factorisation"]["reg"] == 1.5
    other = per_mpst(demo=True, method="prior_average")
    assert other.metadata is not None and other.metadata["factorisation"] is None


def test_matrix_factorization_refusals() -> None:
    if PERSE.is_dir():
        with pytest.raises(UserError, match="training reviewers"):
            per_mpst(data_dir=str(PERSE), method="matrix_factorization")
    with pytest.raises(ValueError, match="training reviewers"):
        per_mpst(demo=True, method="matrix_factorization", split="all")
    with pytest.raises(ValueError, match="cannot apply to pairwise"):
        per_doc(demo=True, method="matrix_factorization")


# --------------------------------------------------------------------------- Per-DOC


def test_per_doc_perse_aspect_on_the_sample(tmp_path: Path) -> None:
    log = _run("per_doc", tmp_path, aspects="I", split="all", **_shared_args())
    rows = _file_rows(DOC_FILE)
    samples = _samples(log)
    assert len(samples) == 10
    correct: list[float] = []
    for sample in samples:
        [event] = _model_events(sample)
        metadata = sample.metadata_as(PairSampleMetadata)
        prompt = event.input[-1].text
        pair = metadata.preference.pair
        assert prompt.index(pair.plot_a.strip()) < prompt.index(pair.plot_b.strip())
        assert f"[The Reader Preferred] {metadata.preference.example.choice}" in prompt
        chosen = _answer_json(sample.output.completion)["choice"]
        value = _value(sample)
        assert value["correct"] == float(chosen == metadata.gold)
        assert value["model_calls"] == 1 and value["parse_ok"] == 1
        assert "consistent" not in value and "first_shown" not in value
        assert sample.store_as(Prediction).label == chosen
        correct.append(value["correct"])
    gold: dict[str, str] = {}  # sample id -> the file's completion choice
    for row in rows:
        base = f"interestingness/{row['review_id']}/{row['idx']}"
        key = base if base not in gold else f"{base}#2"
        gold[key] = re.findall(r'"Choice": "(Plot [AB])"', row["completion"])[-1]
    assert {str(s.id): s.metadata["gold"] for s in samples} == gold
    metrics = _metrics(log)
    assert metrics["accuracy/interestingness"] == pytest.approx(fmean(correct))
    assert metrics["accuracy"] == metrics["accuracy/interestingness"]
    assert "accuracy_micro" not in metrics  # metrics=full only
    assert "n/interestingness" not in metrics and metrics["calls_per_sample"] == 1
    assert "position_consistency" not in metrics  # inapplicable without both_orders
    assert "first_shown_rate" not in metrics


def test_per_doc_both_orders_on_the_demo(tmp_path: Path) -> None:
    log = _run("per_doc", tmp_path, demo=True, both_orders="true", metrics="full")
    samples = _samples(log)
    assert len(samples) == 30
    consistent: list[float] = []
    first_shown: list[float] = []
    na = 0
    for sample in samples:
        assert len(_model_events(sample)) == 2
        pair = sample.metadata_as(PairSampleMetadata).preference.pair
        a, b = pair.plot_a.strip(), pair.plot_b.strip()
        first, out1, second, out2 = sample.messages
        assert first.role == second.role == "user" and out1.role == out2.role == "assistant"
        new_first = first.text.split("[The New Pair]")[1]
        new_second = second.text.split("[The New Pair]")[1]
        assert new_first.index(a) < new_first.index(b)
        assert new_second.index(b) < new_second.index(a)  # the second prompt swaps them
        assert first.text.split("[The New Pair]")[0] == second.text.split("[The New Pair]")[0]
        prediction = sample.store_as(Prediction)
        assert [x.order for x in prediction.answers] == ["AB", "BA"]
        raw = [_answer_json(out1.text)["choice"], _answer_json(out2.text)["choice"]]
        swap = {"Plot A": "Plot B", "Plot B": "Plot A"}
        assert [x.label for x in prediction.answers] == [raw[0], swap[raw[1]]]
        agree = raw[0] == swap[raw[1]]
        assert prediction.label == (raw[0] if agree else "N/A")
        assert prediction.flags == ([] if agree else ["orders_disagree"])
        assert prediction.model_calls == 2 and prediction.aggregate == "both_orders"
        value = _value(sample)
        assert value["consistent"] == float(agree)
        assert value["first_shown"] == fmean([raw[0] == "Plot A", raw[1] == "Plot A"])
        assert value["na"] == float(not agree) and value["parse_ok"] == 1
        assert value["correct"] == float(agree and raw[0] == sample.metadata["gold"])
        consistent.append(value["consistent"])
        first_shown.append(value["first_shown"])
        na += not agree
    assert 0 < na < 30  # plural/random both agrees and disagrees across 30 samples
    metrics = _metrics(log)
    assert metrics["position_consistency"] == pytest.approx(fmean(consistent))
    assert metrics["first_shown_rate"] == pytest.approx(fmean(first_shown))
    assert metrics["na_answers"] == na and metrics["calls_per_sample"] == 2
    per_aspect = [metrics[f"accuracy/{k}"] for k in sorted({s.metadata["aspect"] for s in samples})]
    assert len(per_aspect) == 5 and metrics["accuracy"] == pytest.approx(fmean(per_aspect))


def test_per_doc_prior_average(tmp_path: Path) -> None:
    log = _run(
        "per_doc", tmp_path, aspects="I", split="all", method="prior_average", **_shared_args()
    )
    rows = _file_rows(DOC_FILE)
    choice = re.compile(r'"Choice": "(Plot [AB])"')
    agree = 0
    for row in rows:
        example = row["prompt"][0].split("[The End of User Preference]")[0]
        agree += choice.findall(example)[-1] == choice.findall(row["completion"])[-1]
    samples = _samples(log)
    assert len(samples) == 10
    for sample in samples:
        assert _model_events(sample) == []
        metadata = sample.metadata_as(PairSampleMetadata)
        prediction = sample.store_as(Prediction)
        assert prediction.label == metadata.preference.example.choice
        assert _value(sample)["correct"] == float(prediction.label == metadata.gold)
    metrics = _metrics(log)
    assert metrics["accuracy/interestingness"] == pytest.approx(agree / 10)
    assert metrics["calls_per_sample"] == 0 and metrics["parse_failures"] == 0


# --------------------------------------------------------------------------- metric presets


NEW_ITEM_MARKERS = ("[The New Plot]", "[The New Pair]")


class Script:
    """Answers of the scripted model, keyed by (text of the new item, text of the profile).

    The new item alone is ambiguous (two reviewers may score the same story), so the key
    adds a text of the reviewer's own history or example.
    """

    answers: dict[tuple[str, str], str] = {}
    calls: int = 0


@modelapi(name="perse_e2e_script")
def _perse_script() -> type[ModelAPI]:
    return PerseScriptAPI


class PerseScriptAPI(ScriptedModelAPI):
    """Answers with the first scripted text whose key is in the prompt."""

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        Script.calls += 1
        prompt = input[-1].text
        new = prompt
        for marker in NEW_ITEM_MARKERS:  # the new item, never the history or example
            new = new.split(marker)[-1]
        [answer] = [
            a for (item, profile), a in Script.answers.items() if item in new and profile in prompt
        ]
        return self.reply(answer)


FAILED_ROWS = (1, 4, 7)
"""The demo validation rows (in load order) the scripted model answers without a score."""
SCRIPTED_SCORES = [3, 9, 5, 8, 2, 7, 6, 10, 4, 1, 7, 5]


@pytest.mark.parametrize("preset", ["default", "perse"])
def test_per_mpst_presets_with_failed_parses(tmp_path: Path, preset: str) -> None:
    valid = split_by_reviewer(load_per_mpst(demo=True, k=5)).valid
    assert len(valid) == len(SCRIPTED_SCORES) == 12
    expected: dict[str, float | None] = {}
    rouge: dict[str, float] = {}
    scorer = rouge_scorer.RougeScorer(["rouge1"], use_stemmer=False)
    Script.answers = {}
    for i, record in enumerate(valid):
        key = (record.target.plot.strip(), clean_review(record.history[0].review))
        assert key not in Script.answers
        if i in FAILED_ROWS:
            Script.answers[key] = "I would rather not say."
            expected[record.id] = None
        else:
            # a review sharing more or fewer words with the reviewer's own: ROUGE-1 varies
            review = " ".join(record.target.review.split()[: 2 + 4 * i]) + " Fine."
            answer = {"review": review, "score": SCRIPTED_SCORES[i]}
            Script.answers[key] = f"```json\n{json.dumps(answer)}\n```"
            expected[record.id] = SCRIPTED_SCORES[i]
            rouge[record.id] = scorer.score(record.target.review, review)["rouge1"].fmeasure
    Script.calls = 0
    log = _run(
        "per_mpst", tmp_path, "perse_e2e_script/m", demo=True, metrics_preset=preset, metrics="full"
    )
    assert Script.calls == 12
    gold = {r.id: r.target.score for r in valid}
    preds: list[float] = []
    golds: list[float] = []
    failed: list[bool] = []
    for sample in _samples(log):
        value = _value(sample)
        scripted = expected[str(sample.id)]
        if scripted is None:
            assert value["parse_ok"] == 0 and "pred" not in value and "exact" not in value
            assert "review_rouge1" not in value
            assert sample.store_as(Prediction).error == "no score found in the answer"
            if preset == "default":  # kept, predicting the middle of the 1-10 scale
                preds.append(5.5)
                golds.append(gold[str(sample.id)])
                failed.append(True)
        else:
            assert value["pred"] == scripted and value["parse_ok"] == 1
            assert value["review_rouge1"] == pytest.approx(rouge[str(sample.id)])
            preds.append(value["pred"])
            golds.append(gold[str(sample.id)])
            failed.append(False)
    metrics = _metrics(log)
    assert metrics["parse_failures"] == len(FAILED_ROWS)
    assert metrics["n"] == (12 if preset == "default" else 12 - len(FAILED_ROWS))
    _check_pooled(metrics, preds, golds, failed)
    assert len(set(rouge.values())) > 5  # the ROUGE mean is over differing values
    assert metrics["review_rouge1"] == pytest.approx(fmean(rouge.values()))
    assert log.eval.metadata is not None and log.eval.metadata["metrics_preset"] == preset


@pytest.mark.parametrize("preset", ["default", "perse"])
def test_per_doc_presets_with_failed_parses(tmp_path: Path, preset: str) -> None:
    valid = load_per_doc(demo=True, aspects="I").records
    assert len(valid) == 6
    answers = [None, "Plot A", "Plot B", None, "Plot B", "Plot A"]
    Script.answers = {}
    for record, answer in zip(valid, answers, strict=True):
        pair, example = record.pair, record.example.pair
        key = (f"{pair.plot_a.strip()}\n[Plot B]\n{pair.plot_b.strip()}", example.plot_a.strip())
        assert key not in Script.answers
        Script.answers[key] = (
            "Hard to say." if answer is None else f'```json\n{{"choice": "{answer}"}}\n```'
        )
    Script.calls = 0
    log = _run(
        "per_doc",
        tmp_path,
        "perse_e2e_script/m",
        demo=True,
        aspects="I",
        metrics_preset=preset,
        metrics="full",
    )
    assert Script.calls == 6
    right = sum(r.choice == a for r, a in zip(valid, answers))
    by_id = dict(zip((r.id for r in valid), answers))
    for sample in _samples(log):
        value = _value(sample)
        assert value["parse_ok"] == float(by_id[str(sample.id)] is not None)
        assert value["correct"] == float(by_id[str(sample.id)] == sample.metadata["gold"])
    metrics = _metrics(log)
    assert metrics["parse_failures"] == 2
    n = 6 if preset == "default" else 4
    assert metrics["n/interestingness"] == n
    assert metrics["accuracy/interestingness"] == pytest.approx(right / n)
    assert metrics["accuracy_micro"] == pytest.approx(right / n)


# --------------------------------------------------------------------------- option errors


@pytest.mark.parametrize(
    ("build", "match"),
    [
        (lambda: per_mpst(demo=True, method="prior_average", review_words=100), "review_words"),
        (lambda: per_mpst(demo=True, method="prior_average", temperature=0.2), "temperature"),
        (lambda: per_mpst(demo=True, method="perse_review", mf_factors=3), "mf_factors"),
        (lambda: per_mpst(demo=True, method="matrix_factorization", prompts="x"), "prompts"),
        (lambda: per_doc(demo=True, method="prior_average", both_orders=True), "both_orders"),
        (lambda: per_doc(demo=True, method="prior_average", max_tokens=10), "max_tokens"),
        (lambda: per_mpst(demo=True, method="oracle"), "option method: 'oracle' is not one of"),
        (lambda: per_doc(demo=True, method="perse_review"), "'perse_review' is not one of"),
        (lambda: per_mpst(demo=True, metrics_preset="paper"), "metrics_preset"),  # type: ignore[arg-type]
        (lambda: per_doc(demo=True, metrics_preset="paper"), "metrics_preset"),  # type: ignore[arg-type]
        (lambda: per_doc(demo=True, aspects="humour"), "unknown Per-DOC aspect"),
        (lambda: per_mpst(demo=True, k=-1), "option k: must be at least 0"),
        (lambda: per_mpst(demo=True, data_dir="x"), "not both"),
    ],
)
def test_option_errors(build: Callable[[], Any], match: str) -> None:
    with pytest.raises(ValueError, match=re.escape(match)):
        build()


def test_options_of_the_method_are_accepted() -> None:
    task = per_mpst(demo=True, method="perse_review", review_words=40, temperature=0.1)
    assert task.config.temperature == 0.1 and task.config.max_tokens == 600
    assert task.config.seed == 42
    baseline = per_mpst(demo=True, method="prior_average")
    assert baseline.config.temperature is None and baseline.config.max_tokens is None
    pairwise = per_doc(demo=True, both_orders=False, max_tokens=50)
    assert pairwise.config.max_tokens == 50 and len(pairwise.dataset) == 30
