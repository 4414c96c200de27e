from __future__ import annotations

import math
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq
import pytest

from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.mhs import (
    MHS_COLUMNS,
    MHS_FILES,
    MHS_HF_REPO,
    complete_mhs_frame,
    generation_of_age,
    load_mhs,
)
from inspect_plural.splits import cinemetric_split, natural_sorted, perseval_split

PARQUET, CSV = MHS_FILES


def _row(annotator: int, comment: int, hatespeech: float, **demographics: Any) -> dict[str, Any]:
    """One row with the required columns (fixture text written for tests)."""
    person: dict[str, Any] = {
        "annotator_gender": "female",
        "annotator_educ": "masters",
        "annotator_income": "10k-50k",
        "annotator_ideology": "slightly_liberal",
        "annotator_age": 30.0,
    }
    person.update(demographics)
    return {
        "comment_id": comment,
        "annotator_id": annotator,
        "text": f"Fixture comment {comment}.",
        "hatespeech": hatespeech,
        **person,
    }


def _fixture_rows() -> list[dict[str, Any]]:
    return [
        _row(10, 200, 0.0),
        _row(10, 31, 2.0),
        _row(10, 200, 2.0),  # repeat: the first judgment is kept
        _row(
            2,
            200,
            1.0,
            annotator_gender="male",
            annotator_educ="some_college",
            annotator_income=None,
            annotator_ideology="no_opinion",
            annotator_age=55.9,
        ),
        _row(
            3,
            31,
            0.0,
            annotator_gender=None,
            annotator_educ=None,
            annotator_income=">200k",
            annotator_ideology="extremely_conservative",
            annotator_age=None,
        ),
    ]


def write_mhs_fixture(
    folder: Path, rows: list[dict[str, Any]] | None = None, csv: bool = False
) -> Path:
    frame = complete_mhs_frame(pd.DataFrame(rows if rows is not None else _fixture_rows()))
    if csv:
        path = folder / CSV
        frame.to_csv(path, index=False)
    else:
        path = folder / PARQUET
        frame.to_parquet(path, index=False)
    return path


def _demo_file() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/mhs", PARQUET)))


def test_demo_has_the_official_columns_and_loads() -> None:
    assert len(MHS_COLUMNS) == 131
    assert pq.read_schema(_demo_file()).names == MHS_COLUMNS
    corpus = load_mhs(demo=True)
    assert corpus.demo and "demo data written for inspect_plural" in corpus.origin
    assert len(corpus.annotators) == 20 and len(corpus.items) == 40
    assert list(corpus.judgments.columns) == ["annotator_id", "item_id", "label"]
    assert set(corpus.judgments["label"]) == {0, 1}
    assert corpus.judgments.groupby("annotator_id").size().min() >= 16
    assert corpus.scale.labels == ["not hateful", "hateful"] and corpus.scale.kind == "nominal"
    assert corpus.trait_dimensions == ["Education", "Gender", "Ideology", "Income", "Age"]
    assert all(i.text and i.text.startswith("Demo comment") for i in corpus.items.values())
    assert all(a.isdigit() for a in corpus.annotators)
    traits = [a.traits for a in corpus.annotators.values()]
    assert sum("Income" not in t for t in traits) == 1  # missing answer: dimension absent
    assert sum("Age" not in t for t in traits) == 1


def test_hatespeech_label_keeps_three_answers() -> None:
    corpus = load_mhs(demo=True, label="hatespeech")
    assert corpus.scale.kind == "ordinal" and corpus.scale.labels == ["no", "unclear", "yes"]
    assert set(corpus.judgments["label"]) == {0, 1, 2}
    binary = load_mhs(demo=True)
    assert (binary.judgments["label"] == (corpus.judgments["label"] > 0).astype(int)).all()


@pytest.mark.parametrize("csv", [False, True])
def test_fixture_loads_ids_labels_traits(tmp_path: Path, csv: bool) -> None:
    write_mhs_fixture(tmp_path, csv=csv)
    corpus = load_mhs(data_dir=tmp_path)
    assert (CSV if csv else PARQUET) in corpus.origin and str(tmp_path) not in corpus.origin
    frame = corpus.judgments
    assert len(frame) == 4
    assert frame.loc[(frame.annotator_id == "10") & (frame.item_id == "200"), "label"].tolist() == [
        0
    ]
    assert frame.loc[(frame.annotator_id == "2") & (frame.item_id == "200"), "label"].tolist() == [
        1
    ]
    assert natural_sorted(list(corpus.annotators)) == ["2", "3", "10"]
    assert set(corpus.items) == {"200", "31"} and corpus.items["31"].text == "Fixture comment 31."
    assert corpus.annotators["10"].traits == {
        "Education": "educ-high",  # masters (the old code's "educ_high" typo is not kept)
        "Gender": "female",
        "Ideology": "liberal",
        "Income": "income-low",
        "Age": "GenY",
    }
    assert corpus.annotators["2"].traits == {
        "Education": "educ-low",
        "Gender": "male",
        "Ideology": "neutral",
        "Age": "GenX",  # int(55.9) = 55
    }
    assert corpus.annotators["3"].traits == {
        "Gender": "UNK",
        "Ideology": "conservative",
        "Income": "income-high",
    }


def test_generation_bins_follow_perseval() -> None:
    ages = pd.Series([56.0, 55.0, 40.0, 39.9, 24.0, 23.0, math.nan])
    binned = generation_of_age(ages).tolist()
    assert binned[:6] == ["Boomer", "GenX", "GenX", "GenY", "GenY", "GenZ"]
    assert pd.isna(binned[6])


def test_hatespeech_out_of_range_names_row_and_field(tmp_path: Path) -> None:
    rows = _fixture_rows()
    rows[3]["hatespeech"] = 3.0
    write_mhs_fixture(tmp_path, rows)
    with pytest.raises(DataRowError) as info:
        load_mhs(data_dir=tmp_path)
    assert info.value.row == 3 and info.value.field == "hatespeech"


def test_unknown_demographic_value_names_row_and_field(tmp_path: Path) -> None:
    rows = _fixture_rows()
    for row in rows[3:4]:
        row["annotator_educ"] = "kindergarten"
    write_mhs_fixture(tmp_path, rows)
    with pytest.raises(DataRowError) as info:
        load_mhs(data_dir=tmp_path)
    assert info.value.row == 3 and info.value.field == "annotator_educ"
    assert "kindergarten" in str(info.value)


def test_missing_columns_are_named(tmp_path: Path) -> None:
    path = write_mhs_fixture(tmp_path)
    pd.read_parquet(path).drop(columns=["annotator_ideology"]).to_parquet(path)
    with pytest.raises(ValueError, match="annotator_ideology"):
        load_mhs(data_dir=tmp_path)


def test_missing_files_fail_fast_with_instructions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    start = time.perf_counter()
    with pytest.raises(DataNotFoundError) as info:
        load_mhs(data_dir=tmp_path)
    message = str(info.value)
    assert PARQUET in message and CSV in message and MHS_HF_REPO in message
    assert "data_dir" in message and "demo=true" in message
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError, match="HF_HUB_OFFLINE"):
        load_mhs()
    assert time.perf_counter() - start < 5


def test_data_root_is_searched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "mhs").mkdir()
    write_mhs_fixture(tmp_path / "mhs", csv=True)
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path))
    assert len(load_mhs().items) == 2


def test_unknown_label_is_rejected() -> None:
    with pytest.raises(ValueError, match="hateful"):
        load_mhs(demo=True, label="offensive")


def test_both_splits_run_on_demo() -> None:
    corpus = load_mhs(demo=True)
    perseval = perseval_split(corpus)
    assert perseval.summary["test_users"] == 4 and len(perseval.test) > 0
    assert set(perseval.test["item_id"]).isdisjoint(perseval.train["item_id"])
    cinemetric = cinemetric_split(corpus, n_annotators=10)
    assert len(cinemetric.test) == 10 * 10


def test_demo_annotator_majority_beats_chance() -> None:
    corpus = load_mhs(demo=True)
    split = cinemetric_split(corpus, n_annotators=20)
    majority = split.examples.groupby("annotator_id")["label"].agg(lambda s: int(s.mean() >= 0.5))
    predicted = split.test["annotator_id"].map(majority)
    assert (predicted == split.test["label"]).mean() > 0.5
