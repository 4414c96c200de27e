from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

import pytest

from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.dp import (
    DP_FILE,
    DP_LABEL_FIELDS,
    DP_TOXICITY_LABELS,
    DP_TRAITS,
    load_dp,
    rater_hash,
)
from inspect_plural.splits import cinemetric_split, perseval_split

DEMO_FILE = (
    Path(__file__).resolve().parents[2]
    / "src"
    / "inspect_plural"
    / "demo"
    / "dp"
    / "demo_toxicity_ratings.jsonl"
)

# FIXTURE survey answers written for these tests, in the official rating schema.
SURVEY_A: dict[str, Any] = {
    "gender": "Female",
    "race": "Asian",
    "technology_impact": "Neutral \u00e2\u20ac\u201c neither positive nor negative",
    "uses_media_social": True,
    "uses_media_news": False,
    "uses_media_video": True,
    "uses_media_forums": False,
    "personally_seen_toxic_content": True,
    "personally_been_target": False,
    "identify_as_transgender": "No",
    "toxic_comments_problem": "Frequently a problem",
    "education": "Master's degree",
    "age_range": "25 - 34",
    "lgbtq_status": "Heterosexual",
    "political_affilation": "Independent",
    "is_parent": False,
    "religion_important": "Not important",
}
SURVEY_B = {**SURVEY_A, "gender": None, "age_range": "65 or older"}


def _rating(score: object, survey: dict[str, Any], **extra: Any) -> dict[str, Any]:
    flags = {
        "is_profane": False,
        "is_threat": False,
        "is_identity_attack": False,
        "is_insult": score == 3,
        "is_sexual_harassment": False,
        "fine_to_see_online": True,
        "remove_from_online": False,
    }
    return {"toxic_score": score, **flags, **survey, **extra}


def _comment(cid: int, ratings: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "comment": f"Fixture comment {cid}.",
        "comment_id": cid,
        "source": "reddit",
        "perspective_score": 0.25,
        "ratings": ratings,
    }


def _write(path: Path, comments: list[dict[str, Any]], blank_line: bool = False) -> Path:
    lines = [json.dumps(c) for c in comments]
    if blank_line:
        lines.insert(1, "")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def dp_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "dp"
    _write(
        folder / DP_FILE,
        [
            _comment(
                11,
                [
                    _rating(0, SURVEY_A),
                    _rating(3, SURVEY_B),
                    _rating(4, SURVEY_A, worker_id="w-77"),
                    _rating(2, SURVEY_A),  # same survey as the first rater: merged, dropped
                ],
            ),
            _comment(12, [_rating(1, SURVEY_A), _rating(2, SURVEY_B)]),
            _comment(13, []),
        ],
        blank_line=True,
    )
    return folder


def test_demo_loads() -> None:
    corpus = load_dp(demo=True)
    assert corpus.demo and "demo data written for inspect_plural" in corpus.origin
    assert "sha256" in corpus.origin
    assert len(corpus.items) == 40 and len(corpus.annotators) == 16
    assert len(corpus.judgments) == 256
    assert corpus.judgments.groupby("annotator_id").size().min() >= 16
    assert corpus.scale.kind == "ordinal" and corpus.scale.labels == DP_TOXICITY_LABELS
    assert not corpus.item_scales
    assert set(corpus.judgments["label"]) <= set(range(5))
    assert all(a.startswith("r") and len(a) == 13 for a in corpus.annotators)
    assert corpus.trait_dimensions == list(DP_TRAITS)
    traits = [a.traits for a in corpus.annotators.values()]
    assert all(list(t) == list(DP_TRAITS) for t in traits)
    assert any(t["gender"] == "UNK" for t in traits)
    assert not any("\u00e2\u20ac" in v for t in traits for v in t.values())
    assert corpus.items["70001"].text and corpus.items["70001"].text.startswith("Demo comment 1:")
    assert DEMO_FILE.stat().st_size < 200_000


def test_demo_ids_follow_the_documented_hash() -> None:
    corpus = load_dp(demo=True)
    first = json.loads(DEMO_FILE.read_text(encoding="utf-8").splitlines()[0])
    rating = first["ratings"][0]
    survey = {k: v for k, v in rating.items() if k not in DP_LABEL_FIELDS}
    expected = "r" + hashlib.sha1(json.dumps(survey, sort_keys=True).encode()).hexdigest()[:12]
    assert rater_hash(survey) == expected
    row = corpus.judgments.iloc[0]
    assert (row["annotator_id"], row["item_id"]) == (expected, "70001")
    assert (
        corpus.label_name("70001", int(row["label"])) == DP_TOXICITY_LABELS[rating["toxic_score"]]
    )


def test_fixture_loads(dp_dir: Path) -> None:
    corpus = load_dp(data_dir=dp_dir)
    a, b = rater_hash(SURVEY_A), rater_hash(SURVEY_B)
    assert a != b and rater_hash({**SURVEY_B, "gender": None}) == b
    got = {(r.annotator_id, r.item_id): r.label for r in corpus.judgment_records()}
    assert got == {
        (a, "11"): "not at all toxic",  # the first of two identical surveys is kept
        (b, "11"): "very toxic",
        ("w-77", "11"): "extremely toxic",  # worker_id wins over the survey hash
        (a, "12"): "slightly toxic",
        (b, "12"): "moderately toxic",
    }
    assert set(corpus.items) == {"11", "12", "13"}
    traits_a = corpus.annotators[a].traits
    assert traits_a["political_affiliation"] == "Independent"
    assert traits_a["technology_impact"] == "Neutral \u2013 neither positive nor negative"
    assert traits_a["is_parent"] == "False" and traits_a["personally_seen_toxic_content"] == "True"
    assert corpus.annotators[b].traits["gender"] == "UNK"
    assert "local DP JSON lines toxicity_ratings.json" in corpus.origin


def test_flag_label(dp_dir: Path) -> None:
    corpus = load_dp(data_dir=dp_dir, label="is_insult")
    assert corpus.scale.kind == "nominal" and corpus.scale.labels == ["not an insult", "insult"]
    assert corpus.judgments["label"].tolist() == [0, 1, 0, 0, 0]
    with pytest.raises(ValueError, match="unknown DP label"):
        load_dp(data_dir=dp_dir, label="toxicity")


def test_any_jsonl_name_is_accepted(tmp_path: Path) -> None:
    _write(tmp_path / "ratings.jsonl", [_comment(1, [_rating(2, SURVEY_A)])])
    assert len(load_dp(data_dir=tmp_path).judgments) == 1
    _write(tmp_path / "other.json", [_comment(1, [_rating(2, SURVEY_A)])])
    with pytest.raises(ValueError, match="several candidate DP files"):
        load_dp(data_dir=tmp_path)
    _write(tmp_path / DP_FILE, [_comment(5, [_rating(1, SURVEY_B)])])
    assert set(load_dp(data_dir=tmp_path).items) == {"5"}


@pytest.mark.parametrize(
    ("value", "field"),
    [
        (5, "ratings[1].toxic_score"),
        ("high", "ratings[1].toxic_score"),
        (None, "ratings[1].toxic_score"),
    ],
)
def test_bad_score_names_line_and_field(tmp_path: Path, value: object, field: str) -> None:
    _write(
        tmp_path / DP_FILE,
        [
            _comment(1, [_rating(0, SURVEY_A)]),
            _comment(2, [_rating(1, SURVEY_A), _rating(value, SURVEY_B)]),
        ],
    )
    with pytest.raises(DataRowError) as info:
        load_dp(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == field


def test_bad_lines(tmp_path: Path) -> None:
    path = _write(tmp_path / DP_FILE, [_comment(1, [_rating(0, SURVEY_A)])])
    path.write_text(path.read_text() + "{not json\n", encoding="utf-8")
    with pytest.raises(DataRowError) as info:
        load_dp(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "(line)"
    _write(
        tmp_path / DP_FILE,
        [_comment(1, [_rating(0, SURVEY_A)]), {**_comment(2, []), "comment": ""}],
    )
    with pytest.raises(DataRowError) as info:
        load_dp(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "comment"
    _write(tmp_path / DP_FILE, [_comment(1, [_rating(0, SURVEY_A), "oops"])])  # type: ignore[list-item]
    with pytest.raises(DataRowError) as info:
        load_dp(data_dir=tmp_path)
    assert info.value.row == 0 and info.value.field == "ratings[1]"


def test_missing_field_is_named(tmp_path: Path) -> None:
    record = _comment(1, [_rating(0, SURVEY_A)])
    del record["comment_id"]
    _write(tmp_path / DP_FILE, [record])
    with pytest.raises(ValueError, match="comment_id"):
        load_dp(data_dir=tmp_path)


def test_missing_file_explains_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    start = time.monotonic()
    with pytest.raises(DataNotFoundError) as info:
        load_dp()
    assert time.monotonic() - start < 2
    message = str(info.value)
    for needle in (
        "scans.io/study/toxicity-perspectives",
        "password",
        "encrypted",
        DP_FILE,
        "*.jsonl",
        "data_dir",
        "demo=true",
        str(tmp_path / "nowhere" / "dp"),
    ):
        assert needle in message
    with pytest.raises(DataNotFoundError, match=DP_FILE):
        load_dp(data_dir=tmp_path)


def test_data_root_is_searched(dp_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(dp_dir.parent))
    assert len(load_dp().items) == 3


def test_splits_run_on_demo() -> None:
    corpus = load_dp(demo=True)
    split = cinemetric_split(corpus, seed=3, n_annotators=10)
    assert split.summary["n_annotators"] == 10 and len(split.test) == 100
    perseval = perseval_split(corpus, seed=42, adaptation="none")
    assert perseval.test["annotator_id"].nunique() == 3  # int(16 * 0.2)
    assert not set(perseval.test["annotator_id"]) & set(perseval.train["annotator_id"])
