"""Nothing a loader drops or overrides goes unsaid: empty splits and conflicting repeats."""

from __future__ import annotations

import logging
import shutil
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest

from inspect_plural.sources import DATA_DIR_ENV, load_brexit, load_epic
from inspect_plural.sources._dedupe import dedupe_judgments, kept_rows
from inspect_plural.sources.brexit import read_brexit_hub_frame
from inspect_plural.sources.epic import EPIC_FILE

DEMO = Path(str(resources.files("inspect_plural").joinpath("demo")))


@pytest.fixture(autouse=True)
def _no_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DATA_DIR_ENV, raising=False)


def _warnings(caplog: pytest.LogCaptureFixture) -> str:
    return " | ".join(r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


def test_an_empty_brexit_train_file_is_warned_with_counts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    shutil.copytree(DEMO / "brexit", tmp_path / "brexit")
    (tmp_path / "brexit" / "HS-Brexit_train.json").write_text("{}", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        corpus = load_brexit(data_dir=tmp_path)
    dev = sum(1 for s in corpus.item_splits.values() if s == "dev")
    test = sum(1 for s in corpus.item_splits.values() if s == "test")
    said = _warnings(caplog)
    assert "HS-Brexit_train.json hold(s) no items" in said
    assert f"train 0, validation {dev}, test {test}" in said


def test_a_full_brexit_release_warns_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        load_brexit(demo=True)
    assert _warnings(caplog) == ""


def _epic_rows() -> pd.DataFrame:
    frame = pd.read_csv(DEMO / "epic" / EPIC_FILE, dtype=str, keep_default_na=False)
    return frame


def test_epic_item_ids_repeating_with_different_text_are_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    frame = _epic_rows()
    repeated = frame["id_original"].value_counts()
    ids = [i for i in repeated.index if repeated[i] > 1][:3]
    first_text = {i: frame.loc[frame["id_original"] == i, "text"].iloc[0] for i in ids}
    for i in ids:  # the last row of each of three items gets another reply
        last = frame.index[frame["id_original"] == i][-1]
        frame.loc[last, "text"] = f"Another fixture reply to {i}."
    frame.to_csv(tmp_path / EPIC_FILE, index=False)
    with caplog.at_level(logging.WARNING):
        corpus = load_epic(data_dir=tmp_path)
    said = _warnings(caplog)
    n_items = frame["id_original"].nunique()
    assert f"3 of {n_items} item ids (id_original) repeat with a different post or reply" in said
    assert "the first row of each is kept" in said
    assert all(corpus.items[i].parts["reply"] == first_text[i] for i in ids)


def test_epic_repeats_that_agree_warn_nothing(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        load_epic(demo=True)
    assert "repeat" not in _warnings(caplog)


def test_brexit_hub_rows_keep_the_first_tweet_and_say_so(caplog: pytest.LogCaptureFixture) -> None:
    frame = pd.DataFrame(
        {
            "tweet": ["first text", "second text", "other"],
            "instance_id": ["1", "1", "2"],
            "annotator_group": ["target", "target", "control"],
            "annotator_id": ["a", "b", "c"],
            "hs": ["0", "1", "0"],
            "split": ["train", "train", "test"],
        }
    )
    with caplog.at_level(logging.WARNING):
        corpus = read_brexit_hub_frame(frame, "hs", "fixture.csv")
    assert corpus.items["train-1"].text == "first text"
    assert "fixture.csv: 1 of 2 item ids repeat with a different tweet" in _warnings(caplog)


def test_repeated_judgments_count_those_with_another_label(
    caplog: pytest.LogCaptureFixture,
) -> None:
    frame = pd.DataFrame(
        {
            "annotator_id": ["a", "a", "a", "b", "b"],
            "item_id": ["1", "1", "2", "1", "1"],
            "label": [0, 1, 0, 1, 1],
        }
    )
    with caplog.at_level(logging.WARNING):
        kept, dropped = dedupe_judgments(frame, "fixture.json")
    assert dropped == 2 and kept["label"].tolist() == [0, 0, 1]
    assert "fixture.json: 2 repeated (annotator, item) judgments dropped" in _warnings(caplog)
    assert "1 (annotator, item) pairs had different labels" in _warnings(caplog)


def test_kept_rows_keeps_first_or_last() -> None:
    keys = pd.Series(["x", "y", "x", "x"])
    values = pd.Series(["1", "2", "1", "3"])
    assert kept_rows(keys, values, "f", "ids").tolist() == [True, True, False, False]
    assert kept_rows(keys, values, "f", "ids", keep="last").tolist() == [False, True, False, True]
    lists = pd.DataFrame({"v": [[1], [2], [1], [1]]})  # unhashable cells are compared too
    assert kept_rows(keys, lists, "f", "ids").tolist() == [True, True, False, False]


# --- persona documents in other encodings --------------------------------------------------

DOCUMENT = "Caf\u00e9 owners and na\u00efve readers: \u201cquoted\u201d views on the \u20ac."


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        ("cp1252", "Windows-1252"),
        ("utf-16", "UTF-16"),
        ("utf-16-le", "UTF-16 (little-endian"),
        ("utf-8-sig", ""),
        ("utf-8", ""),
    ],
)
def test_persona_documents_are_decoded_with_the_detected_encoding(
    encoding: str, named: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from inspect_plural.stakeholders import read_document

    path = tmp_path / "brief.txt"
    path.write_bytes(DOCUMENT.encode(encoding))
    with caplog.at_level(logging.WARNING):
        document = read_document(path)
    assert document.text == DOCUMENT  # no replacement characters, no NULs
    said = _warnings(caplog)
    if named:
        assert f"{path}: not UTF-8; read as {named}" in said
    else:
        assert said == ""


def test_a_binary_persona_document_is_refused_with_its_name(tmp_path: Path) -> None:
    from inspect_plural.sources import DataFileError
    from inspect_plural.stakeholders import read_document

    path = tmp_path / "image.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01")
    with pytest.raises(DataFileError) as info:
        read_document(path)
    assert str(path) in str(info.value) and "UTF-8" in str(info.value)
