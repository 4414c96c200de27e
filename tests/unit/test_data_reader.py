"""The shared reader of users' data files: every bad file ends in a short, named error."""

from __future__ import annotations

import json
import shutil
import textwrap
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest

from inspect_plural.errors import UserError
from inspect_plural.sources import DataFileError, DataRowError, load_brexit, load_dp, load_epic
from inspect_plural.sources._paths import check_path
from inspect_plural.sources._read import (
    read_csv_file,
    read_json_file,
    read_json_lines,
    read_text_file,
    require_columns,
)

DEMO = Path(str(resources.files("inspect_plural").joinpath("demo")))
MAX_LINES = 8
"""Lines of message (wrapped at 80) that fit the 10-line budget with Inspect's blank lines."""


def _short(error: BaseException) -> str:
    message = str(error)
    wrapped = [w for line in message.splitlines() for w in textwrap.wrap(line, 80) or [""]]
    assert len(wrapped) <= MAX_LINES, message
    assert isinstance(error, UserError), type(error)
    return " ".join(message.split())


def _latin1_copy(source: Path, target: Path) -> None:
    """A copy of a demo folder whose files hold a Latin-1 'é' (as a legacy export would)."""
    target.mkdir()
    for file in source.iterdir():
        text = file.read_text(encoding="utf-8").replace("e", "\u00e9", 3)
        (target / file.name).write_bytes(text.encode("latin-1", "replace"))


def test_a_latin1_text_file_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_bytes('{"a": 1,\n "b": "caf\u00e9"}'.encode("latin-1"))
    with pytest.raises(DataFileError) as info:
        read_text_file(path, "a JSON object")
    message = _short(info.value)
    assert str(path) in message and "not UTF-8" in message and "line 2" in message
    assert "iconv" in message


def test_a_byte_order_mark_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + b'{"a": 1}')
    assert read_json_file(path, "an object") == {"a": 1}


def test_json_nested_too_deep_is_a_short_error(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        read_json_file(path, "a LeWiDi JSON file")
    message = _short(info.value)
    assert str(path) in message and "nested too deeply" in message


def test_invalid_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"a": 1,\n\n "b": }', encoding="utf-8")
    with pytest.raises(DataFileError, match=r"bad.json: not valid JSON at line 3"):
        read_json_file(path, "an object")


def test_json_lines_name_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_text('{"a": 1}\n\n[' + "[" * 5000 + "\n{oops\n", encoding="utf-8")
    with pytest.raises(DataRowError) as info:
        read_json_lines(path, "one object a line")
    assert (info.value.row, info.value.field) == (2, "(line)")
    assert "nested too deeply" in str(info.value)
    path.write_text('{"a": 1}\n\n{oops\n', encoding="utf-8")
    with pytest.raises(DataRowError) as info:
        read_json_lines(path, "one object a line")
    assert info.value.row == 2 and "not valid JSON" in str(info.value)


def test_a_path_part_over_the_limit_is_named_not_raised(tmp_path: Path) -> None:
    long = tmp_path / ("a" * 300) / "file.csv"
    with pytest.raises(DataFileError) as info:
        check_path(long, "the data folder")
    message = _short(info.value)
    assert "longer than the file system allows" in message and "..." in message
    with pytest.raises(DataFileError, match="longer than the file system allows"):
        read_csv_file(long, "a table")


def test_a_latin1_csv_and_a_ragged_csv_are_short_errors(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_bytes("a,b\n1,caf\u00e9\n".encode("latin-1"))
    with pytest.raises(DataFileError) as info:
        read_csv_file(path, "a table", dtype=str)
    assert "not UTF-8" in _short(info.value) and "line 2" in str(info.value)
    path.write_text('a,b\n1,"x\n', encoding="utf-8")
    with pytest.raises(DataFileError, match="not a readable table"):
        read_csv_file(path, "a table", dtype=str)


def test_missing_columns_list_what_is_missing_and_expected(tmp_path: Path) -> None:
    with pytest.raises(DataFileError) as info:
        require_columns(["text", "annotations"], ["tweet", "hs"], tmp_path / "x.csv", "a table")
    message = _short(info.value)
    assert "missing column(s) tweet, hs; it has text, annotations." in message
    assert "It should be a table, with the columns tweet, hs." in message
    many = [f"c{i}" for i in range(500)]
    with pytest.raises(DataFileError) as info:
        require_columns(many, ["x"], "f.csv", "a table")
    assert "(500 in all)" in _short(info.value)


# --- the loaders, through the reader ------------------------------------------------------


def test_brexit_hub_csvs_with_wrong_columns_name_the_file_and_columns(tmp_path: Path) -> None:
    for name in ("train.csv", "validation.csv", "test.csv"):
        (tmp_path / name).write_text("text,annotations\nhello,1\n", encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_brexit(data_dir=tmp_path)
    message = _short(info.value)
    assert str(tmp_path / "train.csv") in message
    assert "tweet, instance_id, annotator_group, annotator_id, hs" in message
    assert "text, annotations" in message.split("It should be")[0]  # what it has, not the hint


def test_the_empty_brexit_csv_hint_names_the_real_columns(tmp_path: Path) -> None:
    for name in ("train.csv", "validation.csv", "test.csv"):
        (tmp_path / name).write_text("", encoding="utf-8")
    with pytest.raises(UserError) as info:
        load_brexit(data_dir=tmp_path)
    assert "text, annotations" not in str(info.value)
    assert "silvia-casola/BREXIT" in str(info.value)
    assert "tweet, instance_id, annotator_group, annotator_id, hs" in str(info.value)


@pytest.mark.parametrize("dataset", ["epic", "brexit", "dp"])
def test_a_non_utf8_data_file_names_the_file(dataset: str, tmp_path: Path) -> None:
    folder = tmp_path / dataset
    _latin1_copy(DEMO / dataset, folder)
    loader = {"epic": load_epic, "brexit": load_brexit, "dp": load_dp}[dataset]
    with pytest.raises(DataFileError) as info:
        loader(data_dir=folder)
    message = _short(info.value)
    assert str(folder) in message and "not UTF-8" in message and "line " in message


def test_brexit_json_nested_too_deep_names_the_file(tmp_path: Path) -> None:
    shutil.copytree(DEMO / "brexit", tmp_path / "brexit")
    train = tmp_path / "brexit" / "HS-Brexit_train.json"
    train.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_brexit(data_dir=tmp_path)
    assert str(train) in _short(info.value) and "nested too deeply" in str(info.value)


def test_a_convabuse_text_nested_too_deep_names_the_file_and_row(tmp_path: Path) -> None:
    from inspect_plural.sources import load_convabuse

    shutil.copytree(DEMO / "convabuse", tmp_path / "convabuse")
    train = tmp_path / "convabuse" / "ConvAbuse_train.json"
    records = json.loads(train.read_text(encoding="utf-8"))
    first = next(iter(records))
    records[first]["text"] = "[" * 100_000 + "]" * 100_000  # a string field holding JSON
    train.write_text(json.dumps(records), encoding="utf-8")
    with pytest.raises(DataRowError) as info:
        load_convabuse(data_dir=tmp_path)
    message = _short(info.value)
    assert str(train) in message and "nested too deeply" in message


def test_a_dp_file_missing_fields_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "toxicity_ratings.json").write_text(
        json.dumps({"comment": "x", "ratings": []}) + "\n", encoding="utf-8"
    )
    with pytest.raises(DataFileError, match=r"missing field\(s\) comment_id"):
        load_dp(data_dir=tmp_path)


def test_a_corrupt_parquet_is_a_user_error(tmp_path: Path) -> None:
    from inspect_plural.sources import load_mhs

    (tmp_path / "measuring-hate-speech.parquet").write_bytes(b"PAR1 not really parquet")
    with pytest.raises(DataFileError, match="not a readable parquet file"):
        load_mhs(data_dir=tmp_path)
    frame = pd.DataFrame({"comment_id": [1]})
    frame.to_parquet(tmp_path / "measuring-hate-speech.parquet")
    with pytest.raises(DataFileError, match=r"missing column\(s\) annotator_id"):
        load_mhs(data_dir=tmp_path)


def test_an_overlong_ratings_path_is_a_short_error(tmp_path: Path) -> None:
    from inspect_plural.tasks.panels import check_ratings_file

    with pytest.raises(DataFileError) as info:
        check_ratings_file(tmp_path / ("r" * 300) / "ratings.csv")
    assert "option ratings" in _short(info.value)
