from __future__ import annotations

import csv
import logging
import time
from pathlib import Path

import pandas as pd
import pytest

from inspect_plural.scorers import weighted_distribution
from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.opinionqa import (
    OPINIONQA_CODALAB_WORKSHEET,
    OPINIONQA_TRAITS,
    load_opinionqa,
)
from inspect_plural.splits import cinemetric_split, perseval_split

INFO_HEADER = [
    "",
    "Unnamed: 0.1",
    "Unnamed: 0",
    "key",
    "option_mapping",
    "question",
    "references",
    "option_ordinal",
]

# FIXTURE questions written for these tests, in the official info.csv schema.
FIXTURE_QUESTIONS = {
    27: [
        ("FIXA_W27", "Fixture question A?", ["Yes", "No"], [1.0, 2.0]),
        ("FIXB_W27", "Fixture question B?", ["More", "Less", "Same"], [1.0, 2.0, 1.5]),
        ("FIXC_W27", "Fixture question C?", ["Red", "None", "NA"], [1, 1, 1]),
    ],
    92: [
        ("FIXD_W92", "Fixture question D?", ["Low", "Mid", "High"], [1.0, 2.0, 3.0]),
    ],
}
FIXTURE_TRAITS = {
    "CREGION": "South",
    "AGE": "30-49",
    "SEX": "Female",
    "EDUCATION": "Postgraduate",
    "CITIZEN": "Yes",
    "MARITAL": "Married",
    "RELIG": "Other",
    "RELIGATTEND": "Never",
    "POLPARTY": "Independent",
    "INCOME": "$100,000 or more",
    "POLIDEOLOGY": "Moderate",
    "RACE": "Other",
}


def _write_wave(
    root: Path,
    wave: int,
    answers: list[dict[str, str]],
    metadata: bool = True,
) -> Path:
    folder = root / f"American_Trends_Panel_W{wave}"
    folder.mkdir(parents=True)
    with open(folder / "info.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(INFO_HEADER)
        for i, (key, text, options, ordinal) in enumerate(FIXTURE_QUESTIONS[wave]):
            mapping = {float(j + 1): o for j, o in enumerate(options)}
            mapping[99.0] = "Refused"
            refs = repr([*options, "Refused"])
            writer.writerow([i, i, i, key, repr(mapping), text, refs, repr(ordinal)])
    if metadata:
        with open(folder / "metadata.csv", "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["", "key", "options"])
            writer.writerow([0, "CREGION", repr(["Northeast", "Midwest", "South", "West"])])
            writer.writerow([1, "AGE", repr(["18-29", "30-49", "50-64", "65+"])])
    keys = [q[0] for q in FIXTURE_QUESTIONS[wave]]
    fields = ["QKEY", *keys, *OPINIONQA_TRAITS, f"WEIGHT_W{wave}"]
    with open(folder / "responses.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        for row in answers:
            writer.writerow({**FIXTURE_TRAITS, f"WEIGHT_W{wave}": "1.0", **row})
    return folder


@pytest.fixture
def opinionqa_dir(tmp_path: Path) -> Path:
    root = tmp_path / "oqa"
    _write_wave(
        root,
        27,
        [
            {"QKEY": "101", "FIXA_W27": "Yes", "FIXB_W27": "Same", "FIXC_W27": "None"},
            {"QKEY": "102", "FIXA_W27": "Refused", "FIXB_W27": "", "FIXC_W27": "NA"},
            {"QKEY": "103", "FIXA_W27": "No", "FIXB_W27": "More", "FIXC_W27": "Refused"},
            {"QKEY": "104", "FIXA_W27": "Refused", "FIXB_W27": "", "FIXC_W27": ""},
        ],
    )
    _write_wave(
        root,
        92,
        [
            {"QKEY": "101", "FIXD_W92": "High", "AGE": "Refused", "CREGION": "Atlantis"},
            {"QKEY": "205", "FIXD_W92": "Low", "SEX": "", "INCOME": "Refused"},
        ],
        metadata=False,
    )
    return root


def test_demo_loads() -> None:
    corpus = load_opinionqa(demo=True)
    assert corpus.demo and "demo data written for inspect_plural" in corpus.origin
    assert "'Refused' answer(s) dropped" in corpus.origin
    assert len(corpus.annotators) == 25 and len(corpus.items) == 20
    assert set(corpus.item_scales) == set(corpus.items)
    assert {s.kind for s in corpus.item_scales.values()} == {"ordinal", "nominal"}
    assert all("Refused" not in s.labels for s in corpus.item_scales.values())
    assert all(a.startswith("W900:") for a in corpus.annotators)
    assert all(i.endswith("_W900") for i in corpus.items)
    assert corpus.trait_dimensions == list(OPINIONQA_TRAITS)
    assert corpus.annotators["W900:9004"].traits["INCOME"] == "UNK"  # "Refused"
    assert corpus.annotators["W900:9009"].traits["RELIGATTEND"] == "UNK"  # blank
    assert list(corpus.judgments.columns[:3]) == ["annotator_id", "item_id", "label"]
    sizes = corpus.judgments.groupby("item_id")["label"].max()
    assert all(sizes[i] < len(corpus.item_scales[i].labels) for i in sizes.index)
    assert corpus.judgments.groupby("annotator_id").size().min() >= 16
    assert not corpus.judgments.duplicated(["annotator_id", "item_id"]).any()
    assert corpus.items["DEMOLIBRARY_W900"].text
    assert "Refused" in corpus.origin and "6 'Refused'" in corpus.origin


def test_fixture_waves_load(opinionqa_dir: Path) -> None:
    corpus = load_opinionqa(data_dir=opinionqa_dir)
    assert not corpus.demo and "W27" in corpus.origin and "W92" in corpus.origin
    assert "sha256" in corpus.origin and "3 'Refused' answer(s) dropped" in corpus.origin
    # respondents differ per wave: the same QKEY in two waves is two annotators
    assert {"W27:101", "W92:101"} <= set(corpus.annotators)
    assert "W27:104" not in corpus.annotators  # only refusals and blanks: no judgments
    got = {
        (a, i): corpus.label_name(i, int(label))
        for a, i, label in corpus.judgments.itertuples(index=False)
    }
    assert got == {
        ("W27:101", "FIXA_W27"): "Yes",
        ("W27:101", "FIXB_W27"): "Same",
        ("W27:101", "FIXC_W27"): "None",  # not read as a missing value
        ("W27:102", "FIXC_W27"): "NA",
        ("W27:103", "FIXA_W27"): "No",
        ("W27:103", "FIXB_W27"): "More",
        ("W92:101", "FIXD_W92"): "High",
        ("W92:205", "FIXD_W92"): "Low",
    }
    kinds = {k: s.kind for k, s in corpus.item_scales.items()}
    assert kinds == {
        "FIXA_W27": "ordinal",
        "FIXB_W27": "nominal",  # [1.0, 2.0, 1.5] is not increasing
        "FIXC_W27": "nominal",
        "FIXD_W92": "ordinal",
    }
    assert corpus.item_scales["FIXB_W27"].labels == ["More", "Less", "Same"]
    # the options' own values, kept for representativeness (Santurkar et al.'s
    # option_ordinal); all equal marks a categorical question: none
    values = {k: s.ordinal_values for k, s in corpus.item_scales.items()}
    assert values == {
        "FIXA_W27": [1.0, 2.0],
        "FIXB_W27": [1.0, 2.0, 1.5],
        "FIXC_W27": None,
        "FIXD_W92": [1.0, 2.0, 3.0],
    }
    assert corpus.items["FIXA_W27"].text == "Fixture question A?"
    traits = corpus.annotators["W92:101"].traits
    assert traits["AGE"] == "UNK" and traits["CREGION"] == "Atlantis"  # no metadata.csv in W92
    assert corpus.annotators["W92:205"].traits["SEX"] == "UNK"
    assert corpus.annotators["W92:205"].traits["INCOME"] == "UNK"
    assert corpus.annotators["W27:101"].traits["RACE"] == "Other"


def test_metadata_options_bound_traits(tmp_path: Path) -> None:
    _write_wave(tmp_path, 27, [{"QKEY": "1", "FIXA_W27": "Yes", "CREGION": "Atlantis"}])
    corpus = load_opinionqa(data_dir=tmp_path)
    assert corpus.annotators["W27:1"].traits["CREGION"] == "UNK"


def test_wave_selection_and_human_resp_folder(opinionqa_dir: Path, tmp_path: Path) -> None:
    corpus = load_opinionqa(data_dir=opinionqa_dir, waves=[92])
    assert set(corpus.items) == {"FIXD_W92"}
    with pytest.raises(DataNotFoundError, match=r"\[26\]"):
        load_opinionqa(data_dir=opinionqa_dir, waves=[26, 92])
    parent = tmp_path / "bundle"
    parent.mkdir()
    opinionqa_dir.rename(parent / "human_resp")
    assert len(load_opinionqa(data_dir=parent).items) == 4


def test_data_root_is_searched(opinionqa_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = opinionqa_dir.parent / "root"
    root.mkdir()
    opinionqa_dir.rename(root / "opinionqa")
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(root))
    assert len(load_opinionqa().items) == 4


def test_missing_files_explain_how_to_get_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    start = time.monotonic()
    with pytest.raises(DataNotFoundError) as info:
        load_opinionqa()
    assert time.monotonic() - start < 2
    message = str(info.value)
    for needle in (
        OPINIONQA_CODALAB_WORKSHEET,
        "human_resp/",
        "Pew",
        "American_Trends_Panel_W{N}",
        "responses.csv",
        "info.csv",
        "metadata.csv",
        "data_dir",
        "demo=true",
        str(tmp_path / "nowhere" / "opinionqa"),
    ):
        assert needle in message
    # the GitHub copy has info.csv but no responses.csv
    (tmp_path / "American_Trends_Panel_W27").mkdir()
    (tmp_path / "American_Trends_Panel_W27" / "info.csv").write_text("x\n")
    with pytest.raises(DataNotFoundError, match="W27 lack responses.csv"):
        load_opinionqa(data_dir=tmp_path)


def test_bad_answer_names_row_and_field(tmp_path: Path) -> None:
    _write_wave(
        tmp_path,
        27,
        [{"QKEY": "1", "FIXA_W27": "Yes"}, {"QKEY": "2", "FIXA_W27": "No", "FIXB_W27": "Maybe"}],
    )
    with pytest.raises(DataRowError) as info:
        load_opinionqa(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "FIXB_W27"
    assert "responses.csv" in str(info.value) and "'Maybe'" in str(info.value)


def test_bad_info_literal_names_row_and_field(tmp_path: Path) -> None:
    folder = _write_wave(tmp_path, 27, [{"QKEY": "1", "FIXA_W27": "Yes"}])
    text = (folder / "info.csv").read_text(encoding="utf-8")
    (folder / "info.csv").write_text(
        text.replace("\"['More', 'Less', 'Same', 'Refused']\"", "\"['More', 'Less'\""),
        encoding="utf-8",
    )
    with pytest.raises(DataRowError) as info:
        load_opinionqa(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "references"


def test_missing_column_is_named(tmp_path: Path) -> None:
    folder = _write_wave(tmp_path, 27, [{"QKEY": "1", "FIXA_W27": "Yes"}])
    path = folder / "responses.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join([lines[0].replace("RELIG,", "RELIGION,", 1), *lines[1:]]) + "\n")
    with pytest.raises(ValueError, match=r"responses.csv: missing column\(s\) RELIG;"):
        load_opinionqa(data_dir=tmp_path)


def test_splits_run_on_demo() -> None:
    corpus = load_opinionqa(demo=True)
    split = cinemetric_split(corpus, seed=1, n_annotators=10)
    assert split.summary["n_annotators"] == 10 and len(split.test) == 100
    assert split.examples.groupby("annotator_id").size().eq(5).all()
    perseval = perseval_split(corpus, seed=42, adaptation="none")
    assert perseval.test["annotator_id"].nunique() == 5  # 20% of 25 users
    assert not set(perseval.test["annotator_id"]) & set(perseval.train["annotator_id"])


def test_answer_matches_an_option_cut_short_in_info_csv(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    long_option = "Fixture option that runs on and on " * 5
    cut = long_option[:60]
    monkeypatch.setitem(
        FIXTURE_QUESTIONS,
        55,
        [("FIXL_W55", "Fixture long question?", [cut, "Short"], [1.0, 2.0])],
    )
    _write_wave(
        tmp_path,
        55,
        [
            {"QKEY": "1", "FIXL_W55": long_option.strip()},
            {"QKEY": "2", "FIXL_W55": "Short"},
        ],
    )
    corpus = load_opinionqa(data_dir=tmp_path)
    labels = dict(zip(corpus.judgments["annotator_id"], corpus.judgments["label"]))
    assert labels == {"W55:1": 0, "W55:2": 1}


# -- survey weights ------------------------------------------------------------------------


def test_demo_survey_weights_are_the_weight_column() -> None:
    corpus = load_opinionqa(demo=True)
    folder = Path(load_opinionqa.__code__.co_filename).parent.parent / "demo" / "opinionqa"
    responses = pd.read_csv(folder / "American_Trends_Panel_W900" / "responses.csv", dtype=str)
    expected = dict(zip("W900:" + responses["QKEY"], responses["WEIGHT_W900"].astype(float)))
    assert corpus.annotator_weights == expected and len(expected) == 25
    assert "no survey weights" not in corpus.origin
    # a question's weighted distribution: the weights summed per option, normalised
    item = "DEMOLIBRARY_W900"
    rows = corpus.judgments[corpus.judgments["item_id"] == item]
    weights = [expected[a] for a in rows["annotator_id"]]
    by_hand = [0.0] * len(corpus.item_scales[item].labels)
    for label, weight in zip(rows["label"], weights):
        by_hand[int(label)] += weight
    total = sum(by_hand)
    got = weighted_distribution(rows["label"], len(by_hand), weights)
    assert got.tolist() == pytest.approx([v / total for v in by_hand])


def test_weights_default_to_one(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _write_wave(
        tmp_path,
        27,
        [
            {"QKEY": "1", "FIXA_W27": "Yes", "WEIGHT_W27": "2.5"},
            {"QKEY": "2", "FIXA_W27": "No", "WEIGHT_W27": ""},
        ],
    )
    # explicit: an earlier eval() in the same process may have raised the root logger's level
    caplog.set_level(logging.WARNING, logger="inspect_plural")
    corpus = load_opinionqa(data_dir=tmp_path)
    assert corpus.annotator_weights == {"W27:1": 2.5, "W27:2": 1.0}
    assert "blank WEIGHT_W27" in caplog.text
    # without the column: no weights, every respondent weighs 1, and the origin says so
    path = tmp_path / "American_Trends_Panel_W27" / "responses.csv"
    frame = pd.read_csv(path, dtype=str, keep_default_na=False).drop(columns=["WEIGHT_W27"])
    frame.to_csv(path, index=False)
    corpus = load_opinionqa(data_dir=tmp_path)
    assert corpus.annotator_weights == {} and corpus.weight_of("W27:1") == 1.0
    assert "no survey weights in W27 (weight 1)" in corpus.origin


@pytest.mark.parametrize("weight", ["heavy", "-1", "inf"])
def test_bad_weight_names_row_and_field(tmp_path: Path, weight: str) -> None:
    _write_wave(
        tmp_path,
        27,
        [
            {"QKEY": "1", "FIXA_W27": "Yes"},
            {"QKEY": "2", "FIXA_W27": "No", "WEIGHT_W27": weight},
        ],
    )
    with pytest.raises(DataRowError) as info:
        load_opinionqa(data_dir=tmp_path)
    assert info.value.row == 1 and info.value.field == "WEIGHT_W27"
