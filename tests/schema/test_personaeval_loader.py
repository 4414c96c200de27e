from __future__ import annotations

import csv
from pathlib import Path

import pytest

from inspect_plural.records import RoleSampleMetadata
from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.personaeval import (
    PERSONAEVAL_TRACKS,
    extract_conversation,
    load_personaeval,
    read_personaeval_csv,
)
from inspect_plural.tasks.personaeval import few_shot_examples, personaeval_task, record_to_sample


def test_fixture_tracks_load_with_official_schema(personaeval_dir: Path) -> None:
    items, origin, _ = load_personaeval("expertise", data_dir=str(personaeval_dir))
    assert len(items) == 10 and "Expertise.csv" in origin and "sha256" in origin
    assert all(len(item.candidates) == 5 for item in items)
    assert items[3].id == "expertise-00003"
    assert items[3].true_role == items[3].candidates[3].name  # gt cycles through options
    assert items[0].conversation.startswith("[Character1: Narrator]")
    assert "# Task" not in items[0].conversation
    assert str(personaeval_dir) not in origin  # no local path in the log


@pytest.mark.parametrize("track", sorted(PERSONAEVAL_TRACKS))
def test_demo_rows_are_labelled_and_valid(track: str) -> None:
    items, origin, _ = load_personaeval(track, demo=True)
    assert 15 <= len(items) <= 30
    assert "demo" in origin
    assert {len(i.candidates) for i in items} == {PERSONAEVAL_TRACKS[track][1]}
    assert all(i.source_prompt and "DEMO" in i.source_prompt for i in items)


def test_missing_files_error_names_files_and_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError) as info:
        load_personaeval("literary")
    message = str(info.value)
    assert "Literary.csv" in message and "lingfengzhou/PersonaEval" in message
    assert "data_dir" in message and "demo=true" in message
    with pytest.raises(DataNotFoundError, match="Drama.csv"):
        load_personaeval("drama", data_dir=str(tmp_path))


def test_data_root_is_searched(
    personaeval_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "root"
    (root / "personaeval").mkdir(parents=True)
    (personaeval_dir / "Drama.csv").rename(root / "personaeval" / "Drama.csv")
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(root))
    items, *_ = load_personaeval("drama")
    assert len(items) == 8


def _rewrite(path: Path, row: int, field: str, value: str) -> None:
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    rows[row][field] = value
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [("gt", "Nobody", "not among"), ("option2", "", "empty"), ("prompt", "  ", "empty")],
)
def test_bad_rows_name_file_row_and_field(
    personaeval_dir: Path, field: str, value: str, problem: str
) -> None:
    path = personaeval_dir / "Literary.csv"
    _rewrite(path, 5, field, value)
    with pytest.raises(DataRowError) as info:
        read_personaeval_csv(path, "literary")
    assert info.value.row == 5 and info.value.field == field
    assert "Literary.csv" in str(info.value) and problem in str(info.value)


def test_duplicate_candidates_are_a_row_error(personaeval_dir: Path) -> None:
    path = personaeval_dir / "Literary.csv"
    _rewrite(path, 2, "option2", "Fixture Person 2-A")
    with pytest.raises(DataRowError, match="row 2"):
        read_personaeval_csv(path, "literary")


def test_missing_option5_column_for_expertise(personaeval_dir: Path) -> None:
    with pytest.raises(ValueError, match="option5"):
        read_personaeval_csv(personaeval_dir / "Literary.csv", "expertise")


def test_conversation_without_headings_is_kept_whole() -> None:
    assert extract_conversation("  just a dialogue  ") == "just a dialogue"


def test_shuffle_is_seeded_and_per_sample(personaeval_dir: Path) -> None:
    items, *_ = load_personaeval("literary", data_dir=str(personaeval_dir))
    a = [record_to_sample(i, seed=1).choices for i in items]
    b = [record_to_sample(i, seed=1).choices for i in reversed(items)][::-1]
    c = [record_to_sample(i, seed=2).choices for i in items]
    kept = [record_to_sample(i, shuffle_candidates=False).choices for i in items]
    assert a == b and a != c
    assert kept == [[c.name for c in i.candidates] for i in items]
    assert any(x != y for x, y in zip(a, kept))
    for item, choices in zip(items, a):
        assert sorted(choices or []) == sorted(c.name for c in item.candidates)


def test_few_shot_never_uses_the_test_item(personaeval_dir: Path) -> None:
    items, *_ = load_personaeval("literary", data_dir=str(personaeval_dir))
    for index, item in enumerate(items):
        examples = few_shot_examples(items, index, 5, seed=3, shuffle_candidates=True)
        assert len(examples) == 5
        assert item.conversation not in {e.conversation for e in examples}
        assert len({e.conversation for e in examples}) == 5
    assert few_shot_examples(items, 0, 3, 3, True) == few_shot_examples(items, 0, 3, 3, True)


def test_task_samples_follow_the_metadata_schema(personaeval_dir: Path) -> None:
    task = personaeval_task("expertise", data_dir=str(personaeval_dir), few_shot=1)
    samples = list(task.dataset)
    assert [s.id for s in samples] == [f"expertise-{i:05d}" for i in range(10)]
    metadata = RoleSampleMetadata.model_validate(samples[0].metadata)
    assert len(metadata.candidates) == 5 and len(metadata.examples) == 1
    assert metadata.true_role == samples[0].target
    assert task.metadata is not None and task.metadata["n_candidates"] == 5


def test_invalid_task_parameters(personaeval_dir: Path) -> None:
    with pytest.raises(ValueError, match="few_shot"):
        personaeval_task("literary", data_dir=str(personaeval_dir), few_shot=2)
    with pytest.raises(ValueError, match="method"):
        personaeval_task("literary", data_dir=str(personaeval_dir), method="cinemetric")
    with pytest.raises(ValueError, match="preset"):
        personaeval_task("literary", data_dir=str(personaeval_dir), metrics_preset="nope")


def test_writer_round_trips_through_the_reader(personaeval_dir: Path, tmp_path: Path) -> None:
    from inspect_plural.sources.personaeval import write_personaeval_csv

    items = read_personaeval_csv(personaeval_dir / "Expertise.csv", "expertise")
    copy = write_personaeval_csv(tmp_path / "copy.csv", items)
    assert read_personaeval_csv(copy, "expertise") == items
