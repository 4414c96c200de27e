from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest

from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.epic import (
    EPIC_COLUMNS,
    EPIC_FILE,
    EPIC_HF_REPO,
    generation_of_age,
    load_epic,
)
from inspect_plural.splits import cinemetric_split, perseval_split

USERS = ["5f00aa", "5f00bb", "5f00cc"]


def _row(user: str, item: str, label: str, age: str, sex: str = "Female") -> dict[str, str]:
    """One row in the official column layout (fixture text written for tests)."""
    return {
        "id_original": item,
        "text": f"Fixture reply to {item}.",
        "parent_id_original": f"p{item}",
        "parent_text": f"Fixture post {item}.",
        "language_variety": "uk",
        "user": user,
        "label": label,
        "Sex": sex,
        "Age": age,
        "Ethnicity simplified": "White",
        "Country of birth": "United Kingdom",
        "Country of residence": "United Kingdom",
        "Nationality": "United Kingdom",
        "Student status": "No",
        "Employment status": "Full-Time",
    }


def write_epic_fixture(folder: Path, rows: list[dict[str, str]] | None = None) -> Path:
    if rows is None:
        rows = [
            _row(USERS[0], "1200", "iro", "58"),
            _row(USERS[0], "abc1", "not", "58"),
            _row(USERS[0], "1200", "not", "58"),  # repeat: the first judgment is kept
            _row(USERS[1], "1200", "not", "DATA_EXPIRED", sex="Male"),
            _row(USERS[1], "999", "iro", "DATA_EXPIRED", sex="Male"),
            _row(USERS[2], "abc1", "iro", "25"),
        ]
    path = folder / EPIC_FILE
    pd.DataFrame(rows)[EPIC_COLUMNS].to_csv(path, index=False)
    return path


def test_demo_loads_in_official_schema() -> None:
    corpus = load_epic(demo=True)
    assert corpus.demo and "demo data written for inspect_plural" in corpus.origin
    assert len(corpus.annotators) == 20 and len(corpus.items) == 40
    assert list(corpus.judgments.columns) == ["annotator_id", "item_id", "label"]
    assert set(corpus.judgments["label"]) == {0, 1}
    assert corpus.judgments.groupby("annotator_id").size().min() >= 16
    assert corpus.scale.kind == "nominal" and corpus.scale.labels == ["not ironic", "ironic"]
    assert corpus.trait_dimensions == ["Gender", "Generation", "Nationality"]
    item = next(iter(corpus.items.values()))
    assert item.text is None and set(item.parts) == {"post", "reply"}
    assert item.parts["post"].startswith("Demo post")
    generations = {a.traits["Generation"] for a in corpus.annotators.values()}
    assert "UNK" in generations  # the DATA_EXPIRED annotator
    header = pd.read_csv(_demo_file(), nrows=0)
    assert list(header.columns) == EPIC_COLUMNS


def _demo_file() -> Path:
    from importlib import resources

    return Path(str(resources.files("inspect_plural").joinpath("demo/epic", EPIC_FILE)))


def test_fixture_loads_ids_labels_traits(tmp_path: Path) -> None:
    write_epic_fixture(tmp_path)
    corpus = load_epic(data_dir=tmp_path)
    assert not corpus.demo and "sha256" in corpus.origin and str(tmp_path) not in corpus.origin
    frame = corpus.judgments
    assert len(frame) == 5  # one repeated (user, item) pair dropped
    first = frame[(frame.annotator_id == USERS[0]) & (frame.item_id == "1200")]
    assert first["label"].tolist() == [1]  # 'iro' -> 1, the first row wins
    assert set(corpus.items) == {"1200", "abc1", "999"}
    assert corpus.items["999"].parts == {
        "post": "Fixture post 999.",
        "reply": "Fixture reply to 999.",
    }
    assert corpus.annotators[USERS[0]].traits == {
        "Gender": "Female",
        "Generation": "Boomer",
        "Nationality": "United Kingdom",
    }
    assert corpus.annotators[USERS[1]].traits["Generation"] == "UNK"
    assert corpus.annotators[USERS[1]].traits["Gender"] == "Male"
    assert corpus.annotators[USERS[2]].traits["Generation"] == "GenZ"


def test_generation_bins_follow_perseval() -> None:
    ages = pd.Series(["58", "57", "42", "41", "26", "25", "18", "DATA_EXPIRED", "30.5", ""])
    assert generation_of_age(ages).tolist() == [
        "Boomer",
        "GenX",
        "GenX",
        "GenY",
        "GenY",
        "GenZ",
        "GenZ",
        "UNK",
        "UNK",  # int("30.5") fails in the official code too
        "UNK",
    ]


def test_bad_label_names_row_and_field(tmp_path: Path) -> None:
    rows = [_row(USERS[0], "1", "iro", "30"), _row(USERS[0], "2", "maybe", "30")]
    write_epic_fixture(tmp_path, rows)
    with pytest.raises(DataRowError) as info:
        load_epic(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "label"
    assert "maybe" in str(info.value)


def test_empty_user_is_a_row_error(tmp_path: Path) -> None:
    rows = [_row(USERS[0], "1", "iro", "30"), _row("", "2", "not", "30")]
    write_epic_fixture(tmp_path, rows)
    with pytest.raises(DataRowError) as info:
        load_epic(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "user"


def test_missing_columns_are_named(tmp_path: Path) -> None:
    path = write_epic_fixture(tmp_path)
    pd.read_csv(path, dtype=str).drop(columns=["parent_text"]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="parent_text"):
        load_epic(data_dir=tmp_path)


def test_missing_files_fail_fast_with_instructions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.perf_counter()
    with pytest.raises(DataNotFoundError) as info:
        load_epic(data_dir=tmp_path)
    message = str(info.value)
    assert EPIC_FILE in message and EPIC_HF_REPO in message
    assert "data_dir" in message and "demo=true" in message
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError, match="HF_HUB_OFFLINE"):
        load_epic()
    assert time.perf_counter() - start < 5


def test_data_root_is_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "epic").mkdir()
    write_epic_fixture(tmp_path / "epic")
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path))
    assert len(load_epic().items) == 3


def test_unknown_label_is_rejected() -> None:
    with pytest.raises(ValueError, match="irony"):
        load_epic(demo=True, label="sarcasm")


def test_both_splits_run_on_demo() -> None:
    corpus = load_epic(demo=True)
    perseval = perseval_split(corpus)
    assert perseval.summary["test_users"] == 4 and len(perseval.test) > 0
    assert set(perseval.test["item_id"]).isdisjoint(perseval.train["item_id"])
    strict = perseval_split(corpus, adaptation="none")
    assert set(strict.test["annotator_id"]).isdisjoint(strict.train["annotator_id"])
    cinemetric = cinemetric_split(corpus, n_annotators=10)
    assert len(cinemetric.test) == 10 * 10
    assert cinemetric.examples.groupby("annotator_id").size().eq(5).all()
