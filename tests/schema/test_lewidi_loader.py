"""LeWiDi loaders (2023 and 2025 layouts) against the real files and the demo files.

The real data is ``../shared/data/lewidi/{2023,2025}`` (copied from the LeWiDi repository
at commit 45d7b06); tests that need it skip when it is absent. Every expected value is
computed here from the JSON directly, never through the loader.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from tests.conftest import SHARED_DATA

from inspect_plural.adapters import available_datasets
from inspect_plural.label_sets import NLI_LABELS, decode_label_set
from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources.brexit import load_brexit
from inspect_plural.sources.lewidi import (
    LEWIDI_COMMIT,
    LEWIDI_REPO,
    load_armis,
    load_convabuse,
    load_csc,
    load_mp,
    load_paraphrase,
    load_varierrnli,
)
from inspect_plural.sources.md_agreement import load_md_agreement

LEWIDI = SHARED_DATA / "lewidi"
D2023, D2025 = LEWIDI / "2023", LEWIDI / "2025"
needs_real = pytest.mark.skipif(not LEWIDI.is_dir(), reason="no ../shared/data/lewidi here")

Loader = Callable[..., AnnotatedCorpus]
DATASETS: dict[str, tuple[Loader, str, int, tuple[str, ...]]] = {
    # name: loader, file prefix, edition, split files of the real copy
    "armis": (load_armis, "ArMIS", 2023, ("train", "dev", "test")),
    "convabuse": (load_convabuse, "ConvAbuse", 2023, ("train", "dev", "test")),
    "brexit": (load_brexit, "HS-Brexit", 2023, ("train", "dev", "test")),
    "md_agreement": (load_md_agreement, "MD-Agreement", 2023, ("train", "dev", "test")),
    "csc": (load_csc, "CSC", 2025, ("dev", "test")),
    "mp": (load_mp, "MP", 2025, ("dev", "test")),
    "paraphrase": (load_paraphrase, "Paraphrase", 2025, ("train", "dev", "test")),
    "varierrnli": (load_varierrnli, "VariErrNLI", 2025, ("train", "dev", "test")),
}
NEW = ["armis", "convabuse", "csc", "mp", "paraphrase", "varierrnli"]


def _folder(edition: int) -> Path:
    return D2023 if edition == 2023 else D2025


def _records(prefix: str, edition: int, split: str, folder: Path | None = None) -> dict[str, Any]:
    path = (folder or _folder(edition)) / f"{prefix}_{split}.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


_CORPORA: dict[str, AnnotatedCorpus] = {}


def _real(name: str) -> AnnotatedCorpus:
    if name not in _CORPORA:
        loader, _, edition, _ = DATASETS[name]
        _CORPORA[name] = loader(data_dir=_folder(edition))
    return _CORPORA[name]


def _judged(record: dict[str, Any]) -> list[tuple[str, str]]:
    """(annotator, raw label) pairs of a record, straight from the JSON, repeats removed."""
    who = record["annotators"].split(",")
    if isinstance(record["annotations"], dict):
        return [(a, str(record["annotations"][a])) for a in dict.fromkeys(who)]
    pairs = list(zip(who, record["annotations"].split(",")))
    return list({a: (a, v) for a, v in reversed(pairs)}.values())  # the first of a repeat


def _expected_item_ids(name: str, split: str, raw_id: str, position: int) -> str:
    if name == "md_agreement":
        return str(position)
    return f"{'validation' if name == 'brexit' and split == 'dev' else split}-{raw_id}"


# --------------------------------------------------------------------------------------
# The real files
# --------------------------------------------------------------------------------------


@needs_real
@pytest.mark.parametrize("name", list(DATASETS))
def test_items_splits_and_judgments_match_the_files(name: str) -> None:
    _, prefix, edition, splits = DATASETS[name]
    corpus = _real(name)
    assert not corpus.demo and "sha256" in corpus.origin
    position = 0
    expected_splits: dict[str, str] = {}
    expected_judgments = 0
    for split in splits:
        for raw_id, record in _records(prefix, edition, split).items():
            expected_splits[_expected_item_ids(name, split, raw_id, position)] = split
            expected_judgments += len(_judged(record))
            position += 1
    assert corpus.item_splits == expected_splits
    assert set(corpus.items) == set(expected_splits)
    assert len(corpus.judgments) == expected_judgments
    assert not corpus.judgments.duplicated(["annotator_id", "item_id"]).any()
    if "train" not in splits:
        assert f"no {prefix}_train.json" in corpus.origin and "training pool" in corpus.origin


@needs_real
@pytest.mark.parametrize(
    "name", ["armis", "convabuse", "brexit", "md_agreement", "csc", "mp", "paraphrase"]
)
def test_computed_distribution_equals_the_files_soft_label(name: str) -> None:
    corpus = _real(name)
    computed = corpus.label_distributions()
    official = pd.DataFrame.from_dict(corpus.item_soft_labels, orient="index")
    official = official.loc[computed.index, corpus.scale.labels]
    gap = (computed - official).abs().max(axis=1)
    # the files round shares to 2 decimals (1/3 -> 0.33, 1/6 -> 0.17, 1/12 -> 0.08)
    far = gap[gap > 0.005 + 1e-9]
    if name == "md_agreement":
        # test record 2038 lists Ann448 twice (both 0): the file's 0.8/0.2 counts the repeat
        before = len(_records("MD-Agreement", 2023, "train")) + len(
            _records("MD-Agreement", 2023, "dev")
        )
        repeat = str(before + list(_records("MD-Agreement", 2023, "test")).index("2038"))
        assert list(far.index) == [repeat]
        assert computed.loc[repeat].tolist() == [0.75, 0.25]
        assert official.loc[repeat].tolist() == [0.8, 0.2]
    else:
        assert far.empty, far.head()


@needs_real
@pytest.mark.parametrize("name", list(DATASETS))
def test_soft_and_hard_labels_are_the_files(name: str) -> None:
    _, prefix, edition, splits = DATASETS[name]
    corpus = _real(name)
    in_order = [
        (split, raw_id, record)
        for split in splits
        for raw_id, record in _records(prefix, edition, split).items()
    ]
    records = {
        _expected_item_ids(name, split, raw_id, position): record
        for position, (split, raw_id, record) in enumerate(in_order)
    }
    assert len(records) == len(corpus.items)
    for item_id, record in records.items():
        got = corpus.item_soft_labels[item_id]
        if name == "varierrnli":
            assert got == {b: record["soft_label"][b]["1"] for b in NLI_LABELS}
        else:
            file_values = sorted((float(k), v) for k, v in record["soft_label"].items())
            assert [got[label] for label in corpus.scale.labels] == [v for _, v in file_values]
        if edition == 2023:
            assert corpus.scale.labels.index(corpus.item_hard_labels[item_id]) == int(
                record["hard_label"]
            )
    assert bool(corpus.item_hard_labels) == (edition == 2023)


@needs_real
def test_convabuse_severity_abuse_and_parts() -> None:
    records = [
        r for split in ("train", "dev", "test") for r in _records("ConvAbuse", 2023, split).values()
    ]
    raw = Counter(v for r in records for v in r["annotations"].split(","))
    assert set(raw) == {"-3", "-2", "-1", "0", "1"}
    abuse = _real("convabuse")
    assert abuse.scale.labels == ["not abusive", "abusive"]
    counts = abuse.judgments["label"].value_counts()
    assert counts[1] == raw["-3"] + raw["-2"] + raw["-1"] and counts[0] == raw["0"] + raw["1"]
    severity = load_convabuse(data_dir=D2023, label="severity")
    assert severity.scale.kind == "ordinal" and severity.scale.labels == [
        "-3",
        "-2",
        "-1",
        "0",
        "1",
    ]
    got = Counter(severity.scale.labels[i] for i in severity.judgments["label"])
    assert got == raw and not severity.item_soft_labels and not severity.item_hard_labels
    first = json.loads(records[0]["text"])
    item = abuse.items["train-1"]
    assert item.text is None and item.parts == {k: v.strip() for k, v in first.items()}
    assert list(item.parts) == ["prev_agent", "prev_user", "agent", "user"]
    sexist = load_convabuse(data_dir=D2023, label="sexist")
    ones = sum(r["other_info"]["other_annotations"]["sexist"].count("1") for r in records)
    assert int(sexist.judgments["label"].sum()) == ones and sexist.scale.labels == ["no", "yes"]


@needs_real
def test_armis_groups_are_traits() -> None:
    corpus = _real("armis")
    record = _records("ArMIS", 2023, "train")["1"]
    assert record["other_info"]["Ann1"] == "Moderate_Female"
    assert corpus.annotators["Ann1"].traits == {
        "group": "Moderate Female",
        "Ideology": "Moderate",
        "Gender": "Female",
    }
    assert corpus.annotators["Ann3"].traits["Gender"] == "Male"
    assert corpus.trait_dimensions == ["group", "Ideology", "Gender"]
    assert corpus.items["train-1"].text == record["text"].strip()


@needs_real
def test_2025_metadata_becomes_traits() -> None:
    mp = _real("mp")
    meta = json.loads((D2025 / "MP_annotators_meta.json").read_text(encoding="utf-8"))
    assert set(mp.annotators) == {f"Ann{k}" for k in meta}  # "0" in the file is Ann0
    ann0 = mp.annotators["Ann0"].traits
    assert meta["0"]["Age"] == 19.0 and ann0["Generation"] == "GenZ"
    assert meta["0"]["Ethnicity simplified"] == "DATA_EXPIRED" and ann0["Ethnicity"] == "UNK"
    assert ann0["Nationality"] == meta["0"]["Nationality"]
    values = {a.traits["Employment status"] for a in mp.annotators.values()}
    assert not any("'" in v for v in values)  # the export's stray quotes are removed
    csc = _real("csc")
    csc_meta = json.loads((D2025 / "CSC_annotators_meta.json").read_text(encoding="utf-8"))
    unlisted = set(csc.annotators) - set(csc_meta)
    assert len(unlisted) == 32  # test annotators the metadata does not list
    assert all(csc.annotators[a].traits == {"Gender": "UNK", "Generation": "UNK"} for a in unlisted)
    assert csc.trait_dimensions == ["Gender", "Generation"]
    para = _real("paraphrase")  # its metadata has trailing commas
    assert para.annotators["Ann3"].traits == {
        "Gender": "Male",
        "Generation": "GenY",
        "Nationality": "German",
        "Education": "master student",
    }


@needs_real
def test_2025_scales_and_parts() -> None:
    para = _real("paraphrase")
    assert para.scale.kind == "ordinal" and para.scale.labels == [str(v) for v in range(-5, 6)]
    assert set(para.items["train-218948"].parts) == {"Question1", "Question2"}
    csc = _real("csc")
    assert csc.scale.kind == "ordinal" and csc.scale.labels == list("123456")
    assert set(next(iter(csc.items.values())).parts) == {"context", "response"}
    mp = _real("mp")
    assert mp.scale.labels == ["not ironic", "ironic"]
    assert set(next(iter(mp.items.values())).parts) == {"post", "reply"}


@needs_real
def test_varierrnli_label_sets_round_trip() -> None:
    corpus = _real("varierrnli")
    got = {
        (a, i): set(decode_label_set(corpus.scale.labels[label]))
        for a, i, label in corpus.judgments.itertuples(index=False)
    }
    expected = {}
    for split in ("train", "dev", "test"):
        for raw_id, record in _records("VariErrNLI", 2025, split).items():
            for annotator, value in record["annotations"].items():
                expected[(annotator, f"{split}-{raw_id}")] = set(value.split(","))
    assert got == expected
    # ids repeat across the files for different items (they name the premise)
    assert corpus.items["train-23751"].parts != corpus.items["test-23751"].parts
    # "Ann2,Ann2" in annotators: one judgment with two labels
    record = _records("VariErrNLI", 2025, "train")["61429"]
    assert record["annotators"].split(",").count("Ann2") == len(
        record["annotations"]["Ann2"].split(",")
    )


@needs_real
def test_brexit_and_md_agreement_read_the_2023_folder() -> None:
    brexit = _real("brexit")
    assert {"train-1", "validation-1", "test-1"} <= set(brexit.items)
    assert brexit.item_splits["validation-1"] == "dev"
    assert brexit.annotators["Ann1"].traits == {"group": "target group"}
    md = _real("md_agreement")
    assert list(md.items)[:2] == ["0", "1"] and len(md.annotators) == 819
    assert md.items["0"].context == "Elections2020"


# --------------------------------------------------------------------------------------
# Demo files, layout, registration
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NEW)
def test_demo_data_loads_and_says_so(name: str) -> None:
    loader, prefix, _, splits = DATASETS[name]
    corpus = loader(demo=True)
    assert corpus.demo and corpus.origin.startswith("demo data written for inspect_plural")
    assert set(corpus.item_splits.values()) == set(splits)
    assert 40 <= len(corpus.items) <= 70 and len(corpus.annotators) <= 20
    texts = [p for item in corpus.items.values() for p in [item.text, *item.parts.values()] if p]
    assert any("invented for inspect_plural" in t for t in texts)
    assert set(corpus.item_soft_labels) == set(corpus.items)
    computed = corpus.label_distributions() if name != "varierrnli" else None
    if computed is not None:
        official = pd.DataFrame.from_dict(corpus.item_soft_labels, orient="index")
        gap = (computed - official.loc[computed.index, corpus.scale.labels]).abs().to_numpy()
        assert gap.max() <= 0.005 + 1e-9


def test_demo_quirks_exercise_the_real_files_quirks() -> None:
    csc = load_csc(demo=True)
    assert {a for a, t in csc.annotators.items() if t.traits["Gender"] == "UNK"} >= {
        "Ann16",
        "Ann17",
    }
    var = load_varierrnli(demo=True)
    assert {"train-5000", "test-5000"} <= set(var.items)
    multi = [var.scale.labels[i] for i in var.judgments["label"] if " + " in var.scale.labels[i]]
    assert multi  # some demo annotators give two labels
    mp = load_mp(demo=True)
    assert all(t.traits["Gender"] in ("Female", "Male") for t in mp.annotators.values())


def test_subfolder_layout_and_data_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    demo = Path(load_mp.__code__.co_filename).parents[2] / "demo"
    shutil.copytree(demo / "mp", tmp_path / "LeWiDi_3-2025" / "MP")
    corpus = load_mp(data_dir=tmp_path / "LeWiDi_3-2025")
    assert len(corpus.items) == 60 and not corpus.demo
    root = tmp_path / "root"
    shutil.copytree(demo / "armis", root / "lewidi" / "2023")
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(root))
    assert len(load_armis().items) == 50


def test_entry_points_register_every_lewidi_dataset() -> None:
    found = available_datasets()
    for name in [*NEW, "brexit", "md_agreement"]:
        assert name in found, name
    assert found["varierrnli"].value == "inspect_plural.sources.lewidi:load_varierrnli"


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", [*NEW, "md_agreement"])
def test_missing_files_say_what_to_get_where(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    loader, prefix, edition, splits = DATASETS[name]
    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DataNotFoundError) as info:
        loader()
    message = str(info.value)
    folder = "LeWiDi_2-2023/" if edition == 2023 else f"LeWiDi_3-2025/{prefix}/"
    for needle in (LEWIDI_REPO, LEWIDI_COMMIT, folder, "data_dir", "demo=true", "nowhere"):
        assert needle in message, needle
    for split in splits:
        assert f"{prefix}_{split}.json" in message
    if edition == 2025:
        assert f"{prefix}_annotators_meta.json" in message
    if "train" not in splits:
        assert "training pool" in message


def _demo_copy(tmp_path: Path, subdir: str) -> Path:
    demo = Path(load_mp.__code__.co_filename).parents[2] / "demo" / subdir
    return Path(shutil.copytree(demo, tmp_path / subdir))


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_bad_label_names_file_row_and_field(tmp_path: Path) -> None:
    folder = _demo_copy(tmp_path, "mp")

    def change(data: dict[str, Any]) -> None:
        record = list(data.values())[2]
        record["annotations"][next(iter(record["annotations"]))] = "2"

    _edit(folder / "MP_test.json", change)
    with pytest.raises(DataRowError) as info:
        load_mp(data_dir=folder)
    assert info.value.row == 2 and info.value.field == "annotations"
    assert "MP_test.json" in str(info.value) and "'2'" in str(info.value)


@pytest.mark.parametrize(
    ("subdir", "file", "change", "field"),
    [
        ("csc", "CSC_dev.json", lambda r: r.update(annotators="Ann999"), "annotators"),
        ("armis", "ArMIS_dev.json", lambda r: r.update(annotations="0,1"), "annotators"),
        ("armis", "ArMIS_dev.json", lambda r: r.update(text=" "), "text"),
        ("convabuse", "ConvAbuse_dev.json", lambda r: r.update(text="not json"), "text"),
        ("mp", "MP_dev.json", lambda r: r.update(soft_label={"0.0": 0.5, "7": 0.5}), "soft_label"),
        ("armis", "ArMIS_dev.json", lambda r: r.update(hard_label="x"), "hard_label"),
        (
            "varierrnli",
            "VariErrNLI_dev.json",
            lambda r: r["annotations"].update({k: "maybe" for k in r["annotations"]}),
            "annotations",
        ),
    ],
)
def test_malformed_record_names_its_row_and_field(
    tmp_path: Path, subdir: str, file: str, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    folder = _demo_copy(tmp_path, subdir)
    _edit(folder / file, lambda data: change(list(data.values())[1]))
    loader = DATASETS[subdir][0]
    with pytest.raises(DataRowError) as info:
        loader(data_dir=folder)
    assert info.value.row == 1 and info.value.field == field and file in str(info.value)


def test_repeated_item_id_in_a_file_is_an_error(tmp_path: Path) -> None:
    folder = _demo_copy(tmp_path, "armis")
    path = folder / "ArMIS_test.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('\n "2": {', '\n "1": {', 1), encoding="utf-8")
    with pytest.raises(DataRowError, match="'1' repeats") as info:
        load_armis(data_dir=folder)
    assert info.value.row == 1


def test_unknown_label_option_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown ConvAbuse label"):
        load_convabuse(demo=True, label="rude")
    with pytest.raises(ValueError, match="unknown MP label"):
        load_mp(demo=True, label="sarcasm")
