from __future__ import annotations

import csv
import shutil
from importlib import resources
from pathlib import Path

import pytest
from tests.conftest import SHARED_DATA

from inspect_plural.records import RatedOutput
from inspect_plural.sources import DataFileError, DataNotFoundError, DataRowError
from inspect_plural.sources.storysparkqa import (
    RATINGS_COLUMNS,
    STORYSPARKQA_DIMENSIONS,
    STORYSPARKQA_FILES,
    StorySparkQASections,
    format_qa,
    load_demo_sections,
    load_ratings,
    load_storysparkqa,
    load_storysparkqa_sections,
    storysparkqa_files,
)

SPARK_DIR = SHARED_DATA / "storysparkqa"
DIMS = [
    "overall",
    "grammar_correctness",
    "answer_relevancy",
    "contextual_consistency",
    "educational_appropriateness",
]
needs_shared = pytest.mark.skipif(not SPARK_DIR.is_dir(), reason="shared StorySparkQA missing")


@pytest.fixture(scope="module")
def sections() -> StorySparkQASections:
    if not SPARK_DIR.is_dir():
        pytest.skip("shared StorySparkQA data not available")
    return load_storysparkqa_sections(SPARK_DIR)


# --- the real CSVs ----------------------------------------------------------------------


def test_real_counts(sections: StorySparkQASections) -> None:
    assert sections.rows == {"train": 4300, "val": 799, "test": 769}
    assert sum(sections.rows.values()) == 5868
    assert len(sections.stories) == 278
    by_split = {s: sum(x.split == s for x in sections.sections.values()) for s in sections.rows}
    assert by_split == {"train": 3350, "val": 380, "test": 365}
    assert "local" in sections.origin and not sections.demo


def test_real_sections_and_references(sections: StorySparkQASections) -> None:
    section = sections.sections[("a-fish-story", "1")]
    assert section.text.startswith("Perhaps you think that fishes")
    assert section.references and all(" " in r for r in section.references)
    assert all(s.references for s in sections.sections.values())
    assert all(s.text for s in sections.sections.values())
    # every expert pair is a reference; one exact repeat of a pair is kept once
    assert sum(len(s.references) for s in sections.sections.values()) == 5867


@needs_shared
def test_flat_layout_is_accepted(tmp_path: Path) -> None:
    for path in STORYSPARKQA_FILES.values():
        shutil.copy(SPARK_DIR / path, tmp_path / Path(path).name)
    paths, origin = storysparkqa_files(tmp_path)
    assert set(paths) == {"train", "val", "test"} and origin.startswith("local")


def test_missing_csvs_fail_fast(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DataNotFoundError, match="data-merged-in-csv/train_split.csv"):
        load_storysparkqa_sections(tmp_path)
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(DataNotFoundError, match="HF_HUB_OFFLINE"):
        load_storysparkqa_sections()


# --- ratings files ----------------------------------------------------------------------


def _rating_row(qa: str, rater: str, **values: str) -> dict[str, str]:
    row = {
        "qa_id": qa,
        "story_name": "a-fish-story",
        "section_id": "1",
        "question": f"Fixture question {qa}?",
        "answer": f"Fixture answer {qa}.",
        "rater_id": rater,
        "grammar_correctness": "5",
        "answer_relevancy": "4",
        "contextual_consistency": "3",
        "educational_appropriateness": "",
        "generator": "fixture-model",
    }
    row.update(values)
    return row


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    columns = list(dict.fromkeys(c for row in rows for c in row))
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, restval="")
        writer.writeheader()
        writer.writerows(rows)
    return path


def test_ratings_join_sections(tmp_path: Path, sections: StorySparkQASections) -> None:
    path = _write(
        tmp_path / "ratings.csv",
        [
            _rating_row("q1", "r1"),
            _rating_row("q1", "r2", grammar_correctness="3", answer_relevancy="4.0"),
            _rating_row("q2", "r1", story_name="not-a-story", section_text="Fixture section."),
        ],
    )
    outputs = load_ratings(path, sections.sections)
    assert [o.id for o in outputs] == ["q1", "q2"]
    first = outputs[0]
    assert first.content == format_qa("Fixture question q1?", "Fixture answer q1.")
    assert first.context == sections.sections[("a-fish-story", "1")].text
    assert first.references == list(sections.sections[("a-fish-story", "1")].references)
    assert first.group == "a-fish-story" and first.system == "fixture-model"
    assert first.ratings["overall"] == {"r1": 4.0, "r2": (3 + 4 + 3) / 3}
    assert "educational_appropriateness" not in first.ratings
    assert first.gold()["grammar_correctness"] == 4.0
    assert first.raw["r2"]["answer_relevancy"] == "4.0"
    second = outputs[1]
    assert second.context == "Fixture section." and second.references == []


def test_ratings_without_sections(tmp_path: Path) -> None:
    path = _write(tmp_path / "r.csv", [_rating_row("q1", "r1", generator="")])
    (output,) = load_ratings(path)
    assert output.context is None and output.references == [] and output.system is None


@pytest.mark.parametrize(
    ("rows", "row", "field", "problem"),
    [
        ([_rating_row("q1", "r1", answer_relevancy="6")], 0, "answer_relevancy", "1 to 5"),
        ([_rating_row("q1", "r1", answer_relevancy="4.5")], 0, "answer_relevancy", "1 to 5"),
        ([_rating_row("q1", "r1", grammar_correctness="x")], 0, "grammar_correctness", "integer"),
        ([_rating_row("q1", "r1"), _rating_row("q1", "r1")], 1, "rater_id", "already rated"),
        (
            [_rating_row("q1", "r1"), _rating_row("q1", "r2", answer="Another answer.")],
            1,
            "answer",
            "differs from data row 0",
        ),
        (
            [_rating_row("q1", "r1"), _rating_row("q1", "r2", generator="other")],
            1,
            "generator",
            "differs",
        ),
        ([_rating_row("q1", "r1", section_id="first")], 0, "section_id", "whole number"),
        ([_rating_row("q1", "")], 0, "rater_id", "empty"),
        (
            [_rating_row("q1", "r1"), _rating_row("q2", "r1", story_name="no-such-story")],
            1,
            "section_id",
            "not in StorySparkQA",
        ),
    ],
)
def test_ratings_errors_name_file_row_and_field(
    tmp_path: Path,
    sections: StorySparkQASections,
    rows: list[dict[str, str]],
    row: int,
    field: str,
    problem: str,
) -> None:
    path = _write(tmp_path / "bad.csv", rows)
    with pytest.raises(DataRowError, match=problem) as info:
        load_ratings(path, sections.sections)
    assert (info.value.path, info.value.row, info.value.field) == (str(path), row, field)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("column", RATINGS_COLUMNS)
def test_ratings_missing_column(tmp_path: Path, column: str) -> None:
    row = _rating_row("q1", "r1")
    del row[column]
    path = _write(tmp_path / "bad.csv", [row])
    with pytest.raises(DataFileError, match=rf"missing column\(s\) {column};") as info:
        load_ratings(path)
    assert info.value.path == str(path)


def test_empty_ratings_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(",".join(RATINGS_COLUMNS) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no data rows"):
        load_ratings(path)


# --- the task-level loader and the demo -------------------------------------------------


def test_no_ratings_explains(tmp_path: Path) -> None:
    with pytest.raises(DataNotFoundError, match="-T ratings=FILE.*-T demo=true"):
        load_storysparkqa()
    with pytest.raises(DataNotFoundError, match="does not exist"):
        load_storysparkqa(ratings=str(tmp_path / "nope.csv"))
    with pytest.raises(ValueError, match="not both"):
        load_storysparkqa(ratings="x.csv", demo=True)


@needs_shared
def test_load_with_ratings_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "ratings.csv", [_rating_row("q1", "r1"), _rating_row("q1", "r2")])
    (output,) = load_storysparkqa(ratings=str(path), data_dir=SPARK_DIR)
    assert output.references and output.context


def test_demo_loads() -> None:
    outputs: list[RatedOutput] = load_storysparkqa(demo=True)
    assert 10 <= len(outputs) <= 12
    assert all(o.group and o.group.startswith("demo-") for o in outputs)
    assert all(
        o.id.startswith("demo-") and o.system and o.system.startswith("demo-") for o in outputs
    )
    assert all(o.context for o in outputs)
    assert sum(bool(o.references) for o in outputs) == len(outputs) - 1  # one own section_text
    raters = {r for o in outputs for r in o.raw}
    assert raters == {"demo-rater-1", "demo-rater-2"}
    assert any(len(by_rater) == 1 for o in outputs for by_rater in o.ratings.values())
    for output in outputs:
        assert list(output.ratings) == [d for d in DIMS if d in output.ratings]
        assert all(1 <= v <= 5 for v in output.gold().values())


def test_demo_sections_in_merged_schema() -> None:
    demo = load_demo_sections()
    assert demo.demo and "demo data written for inspect_plural" in demo.origin
    assert len(demo.stories) == 3 and all(s.startswith("demo-") for s in demo.stories)
    assert all(s.references for s in demo.sections.values())
    folder = resources.files("inspect_plural").joinpath("demo/storysparkqa")
    with open(Path(str(folder.joinpath("demo_split.csv"))), encoding="utf-8") as handle:
        header = next(csv.reader(handle))
    assert header == [
        "story_name",
        "section_id",
        "section_text",
        "word_id",
        "concept (sub)",
        "relation",
        "obj",
        "question",
        "answer",
    ]


def test_dimensions_declared() -> None:
    assert [d.name for d in STORYSPARKQA_DIMENSIONS] == DIMS
    assert all((d.low, d.high) == (1, 5) for d in STORYSPARKQA_DIMENSIONS)
