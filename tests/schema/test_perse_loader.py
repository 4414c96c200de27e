"""PERSE loaders (Per-MPST, Per-DOC), their row errors, the reviewer split and the demo files.

The real rows are the repository's own sample files (``shared/data/perse``, 10 rows each);
tests that need them skip when the folder is missing. Malformed files are written to
``tmp_path`` from the packaged demo rows, so the row-error tests always run.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import SHARED_DATA

from inspect_plural.records import PairwisePreference, PersonalReview
from inspect_plural.sources import DataNotFoundError, DataRowError
from inspect_plural.sources.perse import (
    PERDOC_ASPECTS,
    PERDOC_RELEASE_URL,
    PERMPST_RELEASE_URL,
    LoadedRows,
    load_per_doc,
    load_per_mpst,
    parse_perdoc_prompt,
    split_by_reviewer,
)

PERSE_DIR = SHARED_DATA / "perse"
MPST_FILE = PERSE_DIR / "PerMPST.k3.sample.jsonl"
DOC_FILE = PERSE_DIR / "PerDOC.I.sample.jsonl"
DEMO = Path(__file__).resolve().parents[2] / "src" / "inspect_plural" / "demo"
MARKERS = [
    "[The Start of User Preference]",
    "[The End of User Preference]",
    "[The Start of Plot A]",
    "[The End of Plot A]",
    "[The Start of Plot B]",
    "[The End of Plot B]",
]
CHOICE = re.compile(r'"Choice":\s*"(Plot [AB])"')
PREMISE = re.compile(r"^Premise\s+(.*?)\s*(?=Settings\s)", re.DOTALL)


def _require_shared() -> None:
    if not PERSE_DIR.is_dir():
        pytest.skip("shared PERSE data not available")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def mpst_rows() -> list[dict[str, Any]]:
    _require_shared()
    return _lines(MPST_FILE)


@pytest.fixture(scope="module")
def doc_rows() -> list[dict[str, Any]]:
    _require_shared()
    return _lines(DOC_FILE)


@pytest.fixture(scope="module")
def mpst() -> LoadedRows:
    _require_shared()
    return load_per_mpst(PERSE_DIR, k=3)


@pytest.fixture(scope="module")
def doc() -> LoadedRows:
    _require_shared()
    return load_per_doc(PERSE_DIR, aspects="I")


# --- Per-MPST: the real sample ------------------------------------------------------------


def test_per_mpst_sample_records(mpst: LoadedRows, mpst_rows: list[dict[str, Any]]) -> None:
    records: list[PersonalReview] = mpst.records
    assert len(records) == len(mpst_rows) == 10
    assert mpst.files == ["PerMPST.k3.sample.jsonl"]
    assert mpst.declared == [""] * 10
    assert mpst.summary == {
        "k": 3,
        "written_for_k": 3,
        "truncated": False,
        "rows": 10,
        "duplicates_dropped": 0,
    }
    assert {r.reviewer_id for r in records} == {"ma-cortes"}
    ids = [r.id for r in records]
    assert len(set(ids)) == 10
    for record, row in zip(records, mpst_rows, strict=True):
        examples = row["examples"]
        assert record.id == f"ma-cortes/{examples[-1]['movie_id']}"
        assert record.target.item_id == examples[-1]["movie_id"]
        assert len(record.history) == 3
        assert record.target.score == examples[-1]["score"]
        completion_score = re.search(r'"Score":\s*(\d+)', row["completion"])
        assert completion_score is not None
        assert record.target.score == int(completion_score.group(1))
        assert [h.item_id for h in record.history] == [e["movie_id"] for e in examples[:3]]
        assert [h.plot for h in record.history] == [e["summ_plot"] for e in examples[:3]]
        assert [h.review for h in record.history] == [e["clean_review"] for e in examples[:3]]
        assert [h.score for h in record.history] == [e["score"] for e in examples[:3]]
        assert record.target.plot == examples[-1]["summ_plot"]
        assert record.target.review == examples[-1]["clean_review"]
        assert record.target.title == examples[-1]["movie_title"]


@pytest.mark.parametrize("k", [1, 2])
def test_per_mpst_smaller_k_keeps_the_first_reviews(k: int, mpst: LoadedRows) -> None:
    small = load_per_mpst(PERSE_DIR, k=k)
    assert small.summary["truncated"] is True
    assert small.summary["written_for_k"] == 3 and small.summary["k"] == k
    assert [r.id for r in small.records] == [r.id for r in mpst.records]
    for short, full in zip(small.records, mpst.records, strict=True):
        assert short.history == full.history[:k]
        assert short.target == full.target


def test_per_mpst_larger_k_names_the_release(mpst: LoadedRows) -> None:
    with pytest.raises(DataNotFoundError) as info:
        load_per_mpst(PERSE_DIR, k=4)
    assert PERMPST_RELEASE_URL in str(info.value)
    assert "found k: [3]" in str(info.value)


def test_per_mpst_rejects_bad_k_and_demo_with_dir(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least 0"):
        load_per_mpst(tmp_path, k=-1)
    with pytest.raises(ValueError, match="not both"):
        load_per_mpst(tmp_path, demo=True)
    with pytest.raises(DataNotFoundError, match="missing does not exist"):
        load_per_mpst(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataNotFoundError, match=re.escape(PERMPST_RELEASE_URL)):
        load_per_mpst(tmp_path / "empty")
    with pytest.raises(DataNotFoundError, match="found k: none"):
        load_per_mpst(tmp_path)


# --- Per-DOC: the real sample -------------------------------------------------------------


def test_per_doc_sample_records(doc: LoadedRows, doc_rows: list[dict[str, Any]]) -> None:
    records: list[PairwisePreference] = doc.records
    assert len(records) == len(doc_rows) == 10
    assert doc.files == ["PerDOC.I.sample.jsonl"]
    assert doc.summary == {"aspects": ["interestingness"], "rows": 10, "duplicates_dropped": 0}
    assert len({r.annotator_id for r in records}) == 4
    assert {r.aspect for r in records} == {"interestingness"}
    ids = [r.id for r in records]
    assert len(set(ids)) == 10
    for record, row in zip(records, doc_rows, strict=True):
        assert record.annotator_id == row["review_id"]
        found = CHOICE.search(row["completion"])
        assert found is not None and record.choice == found.group(1)
        example_part = row["prompt"][0].split("[The End of User Preference]")[0]
        example_choice = CHOICE.findall(example_part)
        assert example_choice and record.example.choice == example_choice[-1]
    repeated = [i for i, row in enumerate(doc_rows) if row["idx"] == 1116]
    assert len(repeated) == 2
    first, second = (doc_rows[i] for i in repeated)
    assert first["review_id"] == second["review_id"] and first["prompt"] != second["prompt"]
    assert ids[repeated[0]] == f"interestingness/{first['review_id']}/1116"
    assert ids[repeated[1]] == f"interestingness/{first['review_id']}/1116#2"
    assert ids[0] == f"interestingness/{doc_rows[0]['review_id']}/{doc_rows[0]['idx']}"


def test_per_doc_sample_plots(doc: LoadedRows) -> None:
    for record in doc.records:
        for pair in (record.pair, record.example.pair):
            assert pair.plot_a.startswith("Premise") and pair.plot_b.startswith("Premise")
            assert pair.plot_a != pair.plot_b
            a, b = PREMISE.match(pair.plot_a), PREMISE.match(pair.plot_b)
            assert a is not None and b is not None
            assert a.group(1) == b.group(1) == pair.premise
            assert pair.premise and "[The" not in pair.plot_a + pair.plot_b


def test_per_doc_missing_aspects_are_named(doc: LoadedRows) -> None:
    with pytest.raises(DataNotFoundError) as info:
        load_per_doc(PERSE_DIR)
    message = str(info.value)
    for key in ("adaptability", "surprise", "character_development", "ending"):
        assert key in message
    assert "interestingness" not in message and PERDOC_RELEASE_URL in message
    assert load_per_doc(PERSE_DIR, aspects="Q1").summary == doc.summary
    with pytest.raises(ValueError, match="unknown Per-DOC aspect"):
        load_per_doc(PERSE_DIR, aspects="humour")


@pytest.mark.parametrize("marker", MARKERS)
def test_parse_perdoc_prompt_names_a_missing_marker(marker: str) -> None:
    prompt = _lines(DEMO / "per_doc" / "PerDOC.I.valid.jsonl")[0]["prompt"][0]
    example, pair = parse_perdoc_prompt(prompt)
    assert example.choice in ("Plot A", "Plot B") and pair.plot_a and pair.plot_b
    broken = prompt.replace(marker, "", 1)
    if "Plot" in marker:  # both parts carry the plot markers: drop it from the query too
        broken = broken.replace(marker, "")
    with pytest.raises(ValueError) as info:
        parse_perdoc_prompt(broken)
    name = "User Preference" if "User Preference" in marker else marker.split()[-1]
    assert name in str(info.value)


def test_parse_perdoc_prompt_names_the_part_and_the_choice() -> None:
    prompt = _lines(DEMO / "per_doc" / "PerDOC.I.valid.jsonl")[0]["prompt"][0]
    example_end = prompt.index("[The End of User Preference]")
    query = prompt[example_end:].replace("[The End of Plot B]", "")
    with pytest.raises(ValueError, match=r"Plot B\].*query part"):
        parse_perdoc_prompt(prompt[:example_end] + query)
    example = CHOICE.sub('"Verdict": "none"', prompt[:example_end])
    with pytest.raises(ValueError, match="Choice"):
        parse_perdoc_prompt(example + prompt[example_end:])


# --- malformed files ----------------------------------------------------------------------


def _demo_rows(folder: str, name: str) -> list[dict[str, Any]]:
    return _lines(DEMO / folder / name)


def _write(path: Path, rows: list[Any]) -> Path:
    lines = [r if isinstance(r, str) else json.dumps(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _set_score(row: dict[str, Any]) -> str:
    row["examples"][2]["score"] = 11
    return "examples[2].score"


def _mix_reviewers(row: dict[str, Any]) -> str:
    row["examples"][1]["reviewer_name"] = "someone-else"
    return "examples"


def _drop_examples(row: dict[str, Any]) -> str:
    del row["examples"]
    return "examples"


def _drop_plot(row: dict[str, Any]) -> str:
    del row["examples"][0]["summ_plot"]
    return "examples[0].summ_plot"


def _text_score(row: dict[str, Any]) -> str:
    row["examples"][-1]["score"] = "seven"
    return "examples[5].score"


@pytest.mark.parametrize(
    "breaker", [_set_score, _mix_reviewers, _drop_examples, _drop_plot, _text_score]
)
def test_per_mpst_malformed_rows(tmp_path: Path, breaker: Callable[[dict[str, Any]], str]) -> None:
    rows = _demo_rows("per_mpst", "PerMPST.k5.valid.jsonl")[:4]
    field = breaker(rows[2])
    path = _write(tmp_path / "PerMPST.k5.broken.jsonl", rows)
    with pytest.raises(DataRowError) as info:
        load_per_mpst(tmp_path, k=5)
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 2, field)
    message = str(info.value)
    assert str(path) in message and "data row 2" in message and repr(field) in message


def test_per_mpst_bad_json_line(tmp_path: Path) -> None:
    rows: list[Any] = _demo_rows("per_mpst", "PerMPST.k5.valid.jsonl")[:3]
    rows.insert(1, '{"examples": [')
    path = _write(tmp_path / "PerMPST.k5.broken.jsonl", rows)
    with pytest.raises(DataRowError, match="not valid JSON") as info:
        load_per_mpst(tmp_path, k=5)
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 1, "(line)")
    assert str(path) in str(info.value) and "data row 1" in str(info.value)
    _write(path, ["[1, 2]"])
    with pytest.raises(DataRowError, match="not a JSON object"):
        load_per_mpst(tmp_path, k=5)


def test_per_mpst_too_few_prior_reviews_for_k(tmp_path: Path) -> None:
    rows = _demo_rows("per_mpst", "PerMPST.k5.valid.jsonl")[:3]
    rows[1]["examples"] = rows[1]["examples"][3:]  # 2 prior reviews in a k5 file
    path = _write(tmp_path / "PerMPST.k5.broken.jsonl", rows)
    with pytest.raises(DataRowError, match="2 prior reviews, k=5") as info:
        load_per_mpst(tmp_path, k=5)
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 1, "examples")


def test_per_mpst_duplicates_dropped_and_ids_suffixed(tmp_path: Path) -> None:
    rows = _demo_rows("per_mpst", "PerMPST.k5.valid.jsonl")[:2]
    other_history = json.loads(json.dumps(rows[0]))
    other_history["examples"] = [other_history["examples"][1], *other_history["examples"][1:]]
    _write(tmp_path / "PerMPST.k5.x.jsonl", [rows[0], rows[1], rows[0], other_history])
    loaded = load_per_mpst(tmp_path, k=5)
    assert loaded.summary["duplicates_dropped"] == 1 and loaded.summary["rows"] == 3
    first = loaded.records[0].id
    assert [r.id for r in loaded.records] == [first, loaded.records[1].id, f"{first}#2"]


def _doc_drop_review_id(row: dict[str, Any]) -> str:
    del row["review_id"]
    return "review_id"


def _doc_no_markers(row: dict[str, Any]) -> str:
    row["prompt"] = ["Compare two plots. Plot A: a. Plot B: b."]
    return "prompt"


def _doc_no_choice(row: dict[str, Any]) -> str:
    row["completion"] = '```json\n{\n  "Verdict": "both",\n}\n```'
    return "completion"


def _doc_prompt_not_text(row: dict[str, Any]) -> str:
    row["prompt"] = [3]
    return "prompt"


def _doc_missing_completion(row: dict[str, Any]) -> str:
    del row["completion"]
    return "completion"


@pytest.mark.parametrize(
    "breaker",
    [
        _doc_drop_review_id,
        _doc_no_markers,
        _doc_no_choice,
        _doc_prompt_not_text,
        _doc_missing_completion,
    ],
)
def test_per_doc_malformed_rows(tmp_path: Path, breaker: Callable[[dict[str, Any]], str]) -> None:
    rows = _demo_rows("per_doc", "PerDOC.S.valid.jsonl")[:4]
    field = breaker(rows[3])
    path = _write(tmp_path / "PerDOC.S.broken.jsonl", rows)
    with pytest.raises(DataRowError) as info:
        load_per_doc(tmp_path, aspects="S")
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 3, field)
    message = str(info.value)
    assert str(path) in message and "data row 3" in message and repr(field) in message


def test_per_doc_prompt_error_names_the_marker(tmp_path: Path) -> None:
    rows = _demo_rows("per_doc", "PerDOC.S.valid.jsonl")[:2]
    rows[1]["prompt"] = [rows[1]["prompt"][0].replace("[The End of User Preference]", "")]
    _write(tmp_path / "PerDOC.S.broken.jsonl", rows)
    with pytest.raises(DataRowError, match=r"User Preference\]") as info:
        load_per_doc(tmp_path, aspects="surprise")
    assert info.value.row == 1 and info.value.field == "prompt"


def test_per_doc_bad_json_line(tmp_path: Path) -> None:
    rows: list[Any] = _demo_rows("per_doc", "PerDOC.E.valid.jsonl")[:2]
    rows.append("not json")
    path = _write(tmp_path / "PerDOC.E.broken.jsonl", rows)
    with pytest.raises(DataRowError, match="not valid JSON") as info:
        load_per_doc(tmp_path, aspects="E")
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 2, "(line)")


# --- reviewer split -----------------------------------------------------------------------


def _undeclared(rows: LoadedRows) -> LoadedRows:
    return LoadedRows(records=rows.records, declared=[""] * len(rows.records), files=rows.files)


def _synthetic(n_reviewers: int, per_reviewer: int = 2) -> LoadedRows:
    """Demo Per-MPST records relabelled to ``n_reviewers`` reviewers."""
    base = load_per_mpst(demo=True, k=1).records[0]
    records = [
        base.model_copy(update={"id": f"r{i:03d}/{j}", "reviewer_id": f"r{i:03d}"})
        for i in range(n_reviewers)
        for j in range(per_reviewer)
    ]
    return LoadedRows(records=records, declared=[""] * len(records), files=["x.jsonl"])


def _reviewers(records: list[Any]) -> set[str]:
    return {r.reviewer_id if isinstance(r, PersonalReview) else r.annotator_id for r in records}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(min_value=1, max_value=60), seed=st.integers(0, 10_000))
def test_seeded_split_property(n: int, seed: int) -> None:
    rows = _synthetic(n)
    split = split_by_reviewer(rows, "seeded", seed=seed)
    again = split_by_reviewer(rows, "seeded", seed=seed)
    assert [r.id for r in split.valid] == [r.id for r in again.valid]
    valid, train = _reviewers(split.valid), _reviewers(split.train)
    assert not valid & train
    assert valid | train == {f"r{i:03d}" for i in range(n)}
    assert len(valid) == max(1, round(0.1 * n))
    assert len(split.valid) + len(split.train) == len(rows.records)
    # every reviewer's rows stay together, in load order
    assert [r.id for r in split.valid] == [r.id for r in rows.records if r.reviewer_id in valid]
    assert split.protocol == "seeded" and split.summary["valid_fraction"] == 0.1
    assert split.summary["valid_reviewers"] == len(valid)
    assert split.summary["train_reviewers"] == len(train)


def test_seeded_split_depends_on_the_seed() -> None:
    rows = _synthetic(30)
    held_out = {
        frozenset(_reviewers(split_by_reviewer(rows, "seeded", seed=s).valid)) for s in range(8)
    }
    assert len(held_out) > 1
    order = list(reversed(rows.records))
    reordered = LoadedRows(records=order, declared=rows.declared, files=rows.files)
    assert _reviewers(split_by_reviewer(reordered, "seeded", seed=3).valid) == _reviewers(
        split_by_reviewer(rows, "seeded", seed=3).valid
    )  # drawn from the sorted ids, not the file order
    half = split_by_reviewer(rows, "seeded", valid_fraction=0.5, seed=1)
    assert len(_reviewers(half.valid)) == 15
    whole = split_by_reviewer(rows, "seeded", valid_fraction=1.0, seed=1)
    assert len(whole.valid) == 60 and not whole.train
    for bad in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="valid_fraction"):
            split_by_reviewer(rows, "seeded", valid_fraction=bad)


def test_split_all_and_auto_on_the_sample(mpst: LoadedRows, doc: LoadedRows) -> None:
    everything = split_by_reviewer(doc, "all")
    assert everything.protocol == "all" and everything.valid == doc.records
    assert everything.train == [] and everything.summary["valid_fraction"] is None
    auto = split_by_reviewer(doc, "auto")
    assert auto.protocol == "seeded"
    assert auto.summary["valid_reviewers"] == 1 and auto.summary["train_reviewers"] == 3
    assert [r.id for r in auto.valid] == [
        r.id for r in split_by_reviewer(doc, "seeded", seed=42).valid
    ]
    single = split_by_reviewer(mpst, "auto")  # one reviewer: held out, nothing to train on
    assert single.protocol == "seeded" and len(single.valid) == 10 and single.train == []
    for rows in (mpst, doc):
        with pytest.raises(ValueError, match="split=release") as info:
            split_by_reviewer(rows, "release")
        assert rows.files[0] in str(info.value)


def test_split_release_on_the_demo() -> None:
    rows = load_per_mpst(demo=True, k=5)
    assert rows.files == ["PerMPST.k5.train.jsonl", "PerMPST.k5.valid.jsonl"]
    assert Counter(rows.declared) == {"train": 36, "valid": 12}
    for mode in ("release", "auto"):
        split = split_by_reviewer(rows, mode)  # type: ignore[arg-type]
        assert split.protocol == "release"
        assert split.valid == [r for r, d in zip(rows.records, rows.declared) if d == "valid"]
        assert split.train == [r for r, d in zip(rows.records, rows.declared) if d == "train"]
    seeded = split_by_reviewer(rows, "seeded", seed=42)
    assert seeded.protocol == "seeded" and seeded.summary["valid_reviewers"] == 2
    # one validation reviewer put into the training file: refused
    leaked = list(rows.declared)
    leaked[rows.declared.index("train")] = "valid"
    mixed = LoadedRows(records=rows.records, declared=leaked, files=rows.files)
    with pytest.raises(ValueError, match="both the training and the validation") as info:
        split_by_reviewer(mixed, "release")
    assert rows.records[rows.declared.index("train")].reviewer_id in str(info.value)
    with pytest.raises(ValueError, match="both the training"):
        split_by_reviewer(mixed, "auto")
    assert split_by_reviewer(mixed, "seeded").protocol == "seeded"


def test_split_rejects_an_unknown_mode() -> None:
    rows = load_per_mpst(demo=True, k=5)
    with pytest.raises(ValueError, match="relase"):
        split_by_reviewer(rows, "relase")  # type: ignore[arg-type]


# --- demo files ---------------------------------------------------------------------------


def test_demo_per_mpst() -> None:
    rows = load_per_mpst(demo=True, k=5)
    split = split_by_reviewer(rows, "auto")
    assert split.summary == {
        "protocol": "release",
        "valid_fraction": None,
        "valid_reviewers": 4,
        "valid_rows": 12,
        "train_reviewers": 12,
        "train_rows": 36,
    }
    assert not _reviewers(split.valid) & _reviewers(split.train)
    assert all(len(r.history) == 5 for r in rows.records)
    assert len({r.id for r in rows.records}) == 48
    assert all(r.target.title.startswith("[demo]") for r in rows.records)
    seen_in_training = {s.item_id for r in split.train for s in (*r.history, r.target)}
    cold = [r for r in split.valid if r.target.item_id not in seen_in_training]
    assert len(cold) == 1
    assert all(1 <= s.score <= 10 for r in rows.records for s in (*r.history, r.target))
    assert len({r.target.score for r in split.valid}) > 2  # correlations are defined
    three = load_per_mpst(demo=True, k=3)
    assert three.summary["truncated"] is True and three.summary["written_for_k"] == 5
    assert [r.history for r in three.records] == [r.history[:3] for r in rows.records]
    with pytest.raises(DataNotFoundError, match="at most 5 prior reviews"):
        load_per_mpst(demo=True, k=6)


def test_demo_per_doc() -> None:
    rows = load_per_doc(demo=True)
    keys = list(PERDOC_ASPECTS)
    assert rows.summary["aspects"] == keys
    assert Counter(r.aspect for r in rows.records) == dict.fromkeys(keys, 6)
    assert rows.files == [f"PerDOC.{PERDOC_ASPECTS[k].code}.valid.jsonl" for k in keys]
    assert set(rows.declared) == {"valid"}
    assert len({r.id for r in rows.records}) == 30
    assert len({r.annotator_id for r in rows.records}) == 3
    assert [r.id for r in rows.records if r.id.endswith("#2")] and all(
        "#" not in r.id for r in rows.records if r.aspect != "interestingness"
    )
    assert all(r.pair.premise.startswith("[demo]") for r in rows.records)
    assert Counter(r.choice for r in rows.records).keys() == {"Plot A", "Plot B"}
    split = split_by_reviewer(rows, "auto")
    assert split.protocol == "release" and len(split.valid) == 30 and not split.train
    only = load_per_doc(demo=True, aspects="ending,S")
    assert only.summary["aspects"] == ["surprise", "ending"]
    assert [r.aspect for r in only.records] == ["surprise"] * 6 + ["ending"] * 6


def test_demo_files_are_packaged_and_reproducible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packaged = {
        "per_mpst": sorted((DEMO / "per_mpst").glob("*.jsonl")),
        "per_doc": sorted((DEMO / "per_doc").glob("*.jsonl")),
    }
    assert [p.name for p in packaged["per_mpst"]] == [
        "PerMPST.k5.train.jsonl",
        "PerMPST.k5.valid.jsonl",
    ]
    assert len(packaged["per_doc"]) == 5
    repo = Path(__file__).resolve().parents[2]
    script = repo / "tools" / "make_demo_perse.py"
    if not script.is_file():
        pytest.skip("not a source checkout")
    spec = importlib.util.spec_from_file_location("make_demo_perse", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look the module up
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(module, "MPST_DIR", tmp_path / "per_mpst")
    monkeypatch.setattr(module, "DOC_DIR", tmp_path / "per_doc")
    module.main()
    for folder, paths in packaged.items():
        written = sorted(p.name for p in (tmp_path / folder).iterdir())
        assert written == [p.name for p in paths], folder
        for path in paths:
            assert (tmp_path / folder / path.name).read_bytes() == path.read_bytes(), path.name


def test_demo_keeps_the_official_layout(
    mpst_rows: list[dict[str, Any]], doc_rows: list[dict[str, Any]]
) -> None:
    demo_mpst = _demo_rows("per_mpst", "PerMPST.k5.valid.jsonl")[0]
    assert demo_mpst.keys() == mpst_rows[0].keys()
    assert demo_mpst["examples"][0].keys() == mpst_rows[0]["examples"][0].keys()
    demo_doc = _demo_rows("per_doc", "PerDOC.I.valid.jsonl")[0]
    assert demo_doc.keys() == doc_rows[0].keys()
    for marker in MARKERS:
        assert marker in demo_doc["prompt"][0] and marker in doc_rows[0]["prompt"][0]


def test_empty_files_are_refused(tmp_path: Path) -> None:
    """A folder whose matching files hold no rows fails at load time, naming the files."""
    (tmp_path / "PerDOC.I.valid.jsonl").write_text("\n", encoding="utf-8")
    (tmp_path / "PerMPST.k3.valid.jsonl").write_text("", encoding="utf-8")
    with pytest.raises(DataNotFoundError, match=r"no Per-DOC rows.*PerDOC\.I\.valid\.jsonl"):
        load_per_doc(tmp_path, aspects="I")
    with pytest.raises(DataNotFoundError, match=r"no Per-MPST rows.*PerMPST\.k3\.valid"):
        load_per_mpst(tmp_path, k=3)


def test_k0_keeps_the_targets_without_prior_reviews() -> None:
    zero = load_per_mpst(demo=True, k=0)
    five = load_per_mpst(demo=True, k=5)
    assert all(r.history == [] for r in zero.records)
    assert [(r.reviewer_id, r.target) for r in zero.records] == [
        (r.reviewer_id, r.target) for r in five.records
    ]
    assert zero.summary["written_for_k"] == 5 and zero.summary["truncated"] is True
    assert zero.declared == five.declared


def test_demo_k_beyond_the_demo_files_names_the_range() -> None:
    with pytest.raises(DataNotFoundError, match=re.escape("use -T k=0..5")):
        load_per_mpst(demo=True, k=6)
