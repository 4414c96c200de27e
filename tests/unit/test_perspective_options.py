"""Task options, parsing and metric rules that a review found fragile."""

from __future__ import annotations

import numpy as np
import pytest
from inspect_ai.scorer import SampleScore, Score
from tests.conftest import SHARED_DATA

from inspect_plural.parsing import parse_label
from inspect_plural.records import annotator_sample
from inspect_plural.scorers import accuracy_by_trait, grouped_report, prf_report, text_macro_f1
from inspect_plural.sources.brexit import load_brexit
from inspect_plural.splits import perseval_split
from inspect_plural.tasks.perspective import brexit, dices

LABELS = ["not hate speech", "hate speech"]


def test_the_last_labelled_json_object_decides() -> None:
    text = 'draft {"label": "hate speech"} ... final answer {"label": "unsure"}'
    assert not parse_label(text, LABELS).ok
    assert parse_label('{"label": "unsure"} then {"label": "hate speech"}', LABELS).label == (
        "hate speech"
    )


@pytest.mark.parametrize(("value", "expected"), [("false", False), ("no", False), ("yes", True)])
def test_boolean_options_accept_strings(value: str, expected: bool) -> None:
    task = brexit(demo=True, named=value, method="annotator_majority")
    assert task.metadata is not None and task.metadata["named"] is expected


def test_boolean_options_reject_other_strings() -> None:
    with pytest.raises(ValueError, match="true or false"):
        brexit(demo=True, extended="maybe")


def test_personalized_judge_needs_named_at_build_time() -> None:
    with pytest.raises(ValueError, match="it needs named=true"):
        brexit(demo=True, method="personalized_judge", named=False)


def test_subset_given_as_int_like_yaml_does() -> None:
    task = dices(demo=True, subset=990, method="item_majority")  # type: ignore[arg-type]
    assert task.dataset.name == "dices_demo"


def test_adaptation_test_keeps_adaptation_out_of_the_pool() -> None:
    corpus = load_brexit(data_dir=SHARED_DATA / "brexit")
    at_test = perseval_split(corpus, adaptation="test", text_split=(0.7, 0.05))
    at_train = perseval_split(corpus, adaptation="train", text_split=(0.7, 0.05))
    assert len(at_train.train) == len(at_test.train) + len(at_test.examples) == 3232
    assert at_test.examples.equals(at_train.examples)


def test_annotator_majority_counts_every_example_not_only_those_shown() -> None:
    task = dices(demo=True, method="annotator_majority", max_examples=1)
    for sample in task.dataset:
        meta = annotator_sample(sample.metadata)
        assert len(meta.training) <= 1
        if len(meta.training) == 1:
            assert sum(meta.own_votes.values()) >= 1


def _score(gold: int, pred: int, n_labels: int, item: str, group: str) -> SampleScore:
    value = {
        "pred": float(pred),
        "gold": float(gold),
        "correct": float(pred == gold),
        "parse_ok": 1.0,
        "n_labels": float(n_labels),
        "ordinal": 0.0,
    }
    metadata = {"annotator_id": "a", "item_id": item, "trait:group": group}
    return SampleScore(score=Score(value=value), sample_id=item, sample_metadata=metadata)


def test_items_with_their_own_scales_are_scored_on_their_own_label_set() -> None:
    # a 2-option question answered perfectly scores macro-F1 1.0 over its two options,
    # even when another question in the corpus has 5 options
    scores = [_score(0, 0, 2, "q1", "x"), _score(1, 1, 2, "q1", "x"), _score(3, 3, 5, "q2", "x")]
    report = grouped_report([0, 1, 3], [0, 1, 3], ["q1", "q1", "q2"], 5, row_labels=[2, 2, 5])
    q1 = prf_report([0, 1], [0, 1], 2)
    q2 = prf_report([3], [3], 5)
    assert report["macro_f1"] == pytest.approx(np.mean([q1["macro_f1"], q2["macro_f1"]]))
    assert q1["macro_f1"] == 1.0
    assert text_macro_f1()(scores) == pytest.approx(report["macro_f1"])


def test_accuracy_by_trait_forms_no_unknown_group() -> None:
    scores = [_score(0, 0, 2, "q1", "x"), _score(1, 0, 2, "q2", "UNK"), _score(1, 1, 2, "q3", "")]
    assert accuracy_by_trait(["group"])(scores) == {"accuracy/group=x": 1.0}


def test_the_version_is_eval_yaml_s_not_a_user_option() -> None:
    from inspect_plural.tasks.panels import storysparkqa

    assert dices(demo=True).version == "2-A"
    for build in (dices, storysparkqa):
        with pytest.raises(ValueError, match=r"option version: is not a task option"):
            build(demo=True, version="9-Z")


def test_waves_and_subset_accept_what_dash_t_gives() -> None:
    from inspect_plural.sources import load_dices, load_opinionqa

    assert len(load_opinionqa(demo=True, waves="900").judgments) == len(
        load_opinionqa(demo=True, waves=[900]).judgments
    )
    assert load_dices(demo=True, subset=350).name == "dices"
