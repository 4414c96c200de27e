from __future__ import annotations

import importlib.util
import random
import shutil
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.conftest import SHARED_DATA

from inspect_plural.records import RatedOutput
from inspect_plural.sources import DataNotFoundError, DataRowError, _hub
from inspect_plural.sources.mslr import (
    MSLR_DIMENSIONS,
    MSLR_FACETS,
    MSLR_FILES,
    MSLR_REVISION,
    facet_agreement,
    git_blob_sha1,
    load_mslr,
    mslr_demo_files,
    mslr_files,
    overall_score,
    parse_facet,
    pio_consistency,
    rater_scores,
    read_mslr,
    sample_per_system,
)
from inspect_plural.sources.mslr import _load as mslr

MSLR_DIR = SHARED_DATA / "mslr_cochrane"
SYSTEMS = ["8FWF5T", "AQ85CE", "JB6Z8F", "PX7SGV", "SPNXTA", "VNCH8M"]
DIMS = ["overall", "fluency", "pio_consistency", "effect_direction", "evidence_strength"]

# the real sheets are needed only by the tests that use them (the demo tests run without)
needs_shared = pytest.mark.skipif(not MSLR_DIR.is_dir(), reason="shared MSLR data not available")


def _require_shared() -> None:
    if not MSLR_DIR.is_dir():
        pytest.skip("shared MSLR data not available")


@pytest.fixture(scope="module")
def outputs() -> list[RatedOutput]:
    _require_shared()
    return load_mslr(MSLR_DIR)


@pytest.fixture(scope="module")
def official() -> list[RatedOutput]:
    _require_shared()
    return load_mslr(MSLR_DIR, other="official")


def _gold(outputs: list[RatedOutput], dim: str) -> list[float]:
    return [o.gold()[dim] for o in outputs if dim in o.gold()]


# --- facet rules -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2: Yes--there are no errors that impact comprehension of the summary", 2),
        ("1: Partially", 1),
        ("(+1): Positive effect", 1),
        ("(-1): Negative effect", -1),
        ("0: Not enough evidence (there is insufficient evidence to draw a conclusion)", 0),
        ("N/A: no effect direction is specified in the target summary", "na"),
        ("Other / uncertain (please comment)", "other"),
        ("", None),
        ("   ", None),
    ],
)
def test_parse_facet(text: str, expected: object) -> None:
    assert parse_facet(text) == expected


def test_parse_facet_rejects_other_shapes() -> None:
    with pytest.raises(ValueError, match="not a numbered"):
        parse_facet("Yes")


def test_pio_consistency_rules() -> None:
    assert pio_consistency(2, 1, "na") == 1.5
    assert pio_consistency(2, 1, "na", pio_na="zero") == 1.0
    assert pio_consistency(2, "other", None) == 2.0
    assert pio_consistency("na", "other", None) is None


def test_agreement_rules() -> None:
    assert facet_agreement(1, "na") == 0.0
    assert facet_agreement("na", "na") == 1.0
    assert facet_agreement(0, 0) == 1.0
    assert facet_agreement("other", 1) is None
    assert facet_agreement(1, None) is None
    assert facet_agreement("other", 1, other="official") == 0.0
    assert facet_agreement("other", None, other="official") is None
    # the official strength rule reads N/A as no answer
    assert facet_agreement("na", "na", other="official", na_is_answer=False) is None
    assert facet_agreement("na", 2, other="official", na_is_answer=False) == 0.0
    assert facet_agreement("na", "na", other="official") == 1.0


def test_overall_of_available_dimensions() -> None:
    assert overall_score(2, 1, 0, 1) == 0.625
    assert overall_score(2, None, None, 0) == 0.5
    assert overall_score(None, None, None, None) is None


def test_rater_scores() -> None:
    answers = {
        "fluency": 2,
        "population": 2,
        "intervention": 1,
        "outcome": "na",
        "ed_target": 1,
        "ed_generated": "na",
        "strength_target": "other",
        "strength_generated": 1,
    }
    scores = rater_scores(answers)  # type: ignore[arg-type]
    assert scores == {
        "overall": (1.0 + 0.75 + 0.0) / 3,
        "fluency": 2.0,
        "pio_consistency": 1.5,
        "effect_direction": 0.0,
    }
    assert rater_scores(answers, other="official")["evidence_strength"] == 0.0  # type: ignore[arg-type]
    assert rater_scores({}) == {}


# --- the real sheets --------------------------------------------------------------------


def test_counts(outputs: list[RatedOutput]) -> None:
    assert len(outputs) == 600
    assert len({o.id for o in outputs}) == 600
    assert Counter(o.system for o in outputs) == {s: 100 for s in SYSTEMS}
    assert len({o.group for o in outputs}) == 277
    assert sum(len(o.raw) == 2 for o in outputs) == 39
    assert len({o.group for o in outputs if len(o.raw) == 2}) == 20
    unrated = sorted(o.id for o in outputs if not o.ratings)
    assert unrated == ["AQ85CE/CD002987", "AQ85CE/CD005251"]
    assert [o.id for o in outputs if not o.content] == ["AQ85CE/CD005251"]
    assert [o.id for o in outputs] == sorted(o.id for o in outputs)


def test_record_fields(outputs: list[RatedOutput]) -> None:
    first = outputs[0]
    system, review = first.id.split("/")
    assert first.system == system and first.group == review
    assert first.context and first.references == [first.context]
    assert set(first.raw) <= {"A1", "A2"}
    for output in outputs:
        assert list(output.ratings) == [d for d in DIMS if d in output.ratings]
        for answers in output.raw.values():
            assert set(MSLR_FACETS) <= set(answers)
        assert all(set(by_rater) <= set(output.raw) for by_rater in output.ratings.values())
    targets = {o.group: o.context for o in outputs}
    assert all(o.context == targets[o.group] for o in outputs)


def test_gold_counts_and_distributions(outputs: list[RatedOutput]) -> None:
    counts = {d: len(_gold(outputs, d)) for d in DIMS}
    assert counts == {
        "overall": 598,
        "fluency": 598,
        "pio_consistency": 593,
        "effect_direction": 520,
        "evidence_strength": 530,
    }
    assert Counter(_gold(outputs, "fluency")) == {2.0: 501, 1.0: 76, 0.0: 16, 1.5: 4, 0.5: 1}
    assert Counter(_gold(outputs, "effect_direction")) == {0.0: 340, 1.0: 178, 0.5: 2}
    assert Counter(_gold(outputs, "evidence_strength")) == {0.0: 347, 1.0: 175, 0.5: 8}
    assert all(0 <= v <= 1 for v in _gold(outputs, "overall"))
    assert all(0 <= v <= 2 for v in _gold(outputs, "pio_consistency"))


def test_dimensions_available_per_summary(outputs: list[RatedOutput]) -> None:
    parts = DIMS[1:]
    available = Counter(sum(d in o.gold() for d in parts) for o in outputs)
    assert available == {4: 519, 3: 12, 2: 62, 1: 5, 0: 2}


def _differing_rows(a: list[RatedOutput], b: list[RatedOutput], dim: str) -> int:
    return sum(
        x.ratings.get(dim, {}).get(r) != y.ratings.get(dim, {}).get(r)
        for x, y in zip(a, b, strict=True)
        for r in ("A1", "A2")
    )


def test_official_rule_differs_where_the_spec_says(
    outputs: list[RatedOutput], official: list[RatedOutput]
) -> None:
    assert _differing_rows(outputs, official, "effect_direction") == 75
    assert _differing_rows(outputs, official, "evidence_strength") == 67
    assert _differing_rows(outputs, official, "fluency") == 0
    assert _differing_rows(outputs, official, "pio_consistency") == 0
    # the official rule only adds zeros for effect direction (Other against an answer)
    for x, y in zip(outputs, official, strict=True):
        for rater, value in y.ratings.get("effect_direction", {}).items():
            assert x.ratings.get("effect_direction", {}).get(rater, 0.0) == value


def test_pio_na_zero_lowers_pio(outputs: list[RatedOutput]) -> None:
    zero = load_mslr(MSLR_DIR, pio_na="zero")
    assert len(_gold(zero, "pio_consistency")) >= 593
    assert sum(_gold(zero, "pio_consistency")) < sum(_gold(outputs, "pio_consistency"))


@needs_shared
def test_shared_files_match_pinned_blobs() -> None:
    paths, origin = mslr_files(MSLR_DIR)
    assert set(paths) == {"A1", "A2"}
    for rater, path in paths.items():
        assert git_blob_sha1(path) == MSLR_FILES[rater][1]
    assert "local" in origin


@needs_shared
def test_repo_layout_is_accepted(tmp_path: Path) -> None:
    for rater, (repo_path, _) in MSLR_FILES.items():
        target = tmp_path / repo_path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(MSLR_DIR / "annotations" / f"cochrane_facets_{rater}.tsv", target)
    paths, _ = mslr_files(tmp_path)
    assert all(" " in p.name for p in paths.values())


def test_missing_files_fail_fast_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(DataNotFoundError, match="cochrane_facets_A1.tsv"):
        load_mslr(tmp_path)  # data_dir given: never downloads
    (tmp_path / "data").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(_hub, "host_reachable", lambda url, timeout=3.0: False)
    with pytest.raises(DataNotFoundError) as info:
        load_mslr()
    message = str(info.value)
    assert MSLR_REVISION in message and "not reachable" in message
    assert "annotations/cochrane_facets_A2.tsv" in message
    assert not (tmp_path / "cache").exists()


def test_wrong_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "annotations"
    bad.mkdir()
    for rater in ("A1", "A2"):
        (bad / f"cochrane_facets_{rater}.tsv").write_text("a\tb\n1\t2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="expected the 15 columns"):
        load_mslr(tmp_path)


def _write_sheet(path: Path, rows: list[list[str]]) -> None:
    # the demo sheet has the official header (checked against the real one in test_demo_*)
    header = mslr_demo_files()["A1"].read_text(encoding="utf-8").split("\n")[0]
    lines = [header, *("\t".join(r) for r in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _fixture_row(system: str, review: str, fluency: str = "2: Yes") -> list[str]:
    return [
        f"01FIXTURE0000000000{system}",
        review,
        "Fixture target.",
        "Fixture generated.",
        fluency,
        "2: Yes",
        "1: Partially",
        "N/A: No outcome in generated summary",
        "",
        "(+1): Positive effect",
        "(+1): Positive effect",
        "",
        "2: Moderate claim",
        "Other / uncertain (please comment)",
        "fixture comment",
    ]


def test_fixture_sheet_and_row_errors(tmp_path: Path) -> None:
    path = tmp_path / "A1.tsv"
    _write_sheet(path, [_fixture_row("AAAAAA", "CD1"), _fixture_row("BBBBBB", "CD1")])
    (out, _) = read_mslr({"A1": path})
    assert out.id == "AAAAAA/CD1" and out.content == "Fixture generated."
    assert out.gold() == {
        "overall": (1.0 + 0.75 + 1.0) / 3,
        "fluency": 2.0,
        "pio_consistency": 1.5,
        "effect_direction": 1.0,
    }
    assert out.raw["A1"]["strength_comment"] == "fixture comment"

    _write_sheet(path, [_fixture_row("AAAAAA", "CD1", fluency="maybe")])
    with pytest.raises(DataRowError) as info:
        read_mslr({"A1": path})
    assert (info.value.path, info.value.row, info.value.field) == (str(path), 0, "fluency")

    _write_sheet(path, [_fixture_row("AAAAAA", "CD1"), _fixture_row("AAAAAA", "CD1", "3: x")])
    with pytest.raises(DataRowError, match="outside"):
        read_mslr({"A1": path})

    _write_sheet(path, [_fixture_row("AAAAAA", "CD1"), _fixture_row("AAAAAA", "CD1")])
    with pytest.raises(DataRowError, match="rated twice") as info:
        read_mslr({"A1": path})
    assert info.value.row == 1


# --- sampling ---------------------------------------------------------------------------


def test_sample_per_system(outputs: list[RatedOutput]) -> None:
    drawn = sample_per_system(outputs, 17)
    assert len(drawn) == 102
    assert Counter(o.system for o in drawn) == {s: 17 for s in SYSTEMS}
    assert [o.system for o in drawn] == sorted(str(o.system) for o in drawn)
    assert all(o.ratings for o in drawn)
    assert len({o.id for o in drawn}) == 102
    assert len({o.group for o in drawn}) == 86
    assert sum(c >= 2 for c in Counter(o.group for o in drawn).values()) == 15
    assert [o.id for o in sample_per_system(outputs, 17)] == [o.id for o in drawn]
    shuffled = list(outputs)
    random.Random(0).shuffle(shuffled)
    assert [o.id for o in sample_per_system(shuffled, 17)] == [o.id for o in drawn]
    other_seed = sample_per_system(outputs, 17, seed=7)
    assert {o.id for o in other_seed} != {o.id for o in drawn}


def test_sample_per_system_rule(outputs: list[RatedOutput]) -> None:
    rated = sorted(o.id for o in outputs if o.system == "AQ85CE" and o.ratings)
    assert len(rated) == 98
    expected = random.Random("42:AQ85CE").sample(rated, 5)
    drawn = [o.id for o in sample_per_system(outputs, 5) if o.system == "AQ85CE"]
    assert drawn == expected


def test_sample_per_system_too_few(outputs: list[RatedOutput]) -> None:
    with pytest.raises(ValueError, match="AQ85CE has 98 rated outputs"):
        sample_per_system(outputs, 99)


def test_dimensions_declared() -> None:
    assert [d.name for d in MSLR_DIMENSIONS] == DIMS
    scales = {d.name: (d.low, d.high) for d in MSLR_DIMENSIONS}
    assert scales["fluency"] == (0, 2) and scales["pio_consistency"] == (0, 2)
    assert scales["overall"] == scales["effect_direction"] == (0, 1)


def _fake_download(content: dict[str, bytes]) -> Callable[..., Path]:
    def download(url: str, target: Path, missing: str, timeout: float = 60.0) -> Path:
        rater = "A1" if "A1.tsv" in url else "A2"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content[rater])
        return target

    return download


@needs_shared
def test_download_is_checked_against_the_blob_sha(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir(exist_ok=True)  # an empty data root
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    real = {r: (MSLR_DIR / f"annotations/cochrane_facets_{r}.tsv").read_bytes() for r in MSLR_FILES}
    monkeypatch.setattr(mslr, "download_file", _fake_download(real))
    paths, origin = mslr_files()
    assert "downloaded from GitHub" in origin
    assert all(str(tmp_path / "cache") in str(p) for p in paths.values())

    bad = {r: b"not the sheet\n" for r in MSLR_FILES}
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache2"))
    monkeypatch.setattr(mslr, "download_file", _fake_download(bad))
    with pytest.raises(DataNotFoundError, match="git blob SHA-1"):
        mslr_files()
    assert not list((tmp_path / "cache2").rglob("*.tsv"))


def test_texts_must_agree_between_sheets(tmp_path: Path) -> None:
    first, second = tmp_path / "A1.tsv", tmp_path / "A2.tsv"
    _write_sheet(first, [_fixture_row("AAAAAA", "CD1")])
    row = _fixture_row("AAAAAA", "CD1")
    row[3] = "Another generated text."
    _write_sheet(second, [row])
    with pytest.raises(DataRowError, match="read earlier") as info:
        read_mslr({"A1": first, "A2": second})
    assert (info.value.path, info.value.row, info.value.field) == (
        str(second),
        0,
        "Generated Summary",
    )
    _write_sheet(second, [_fixture_row("AAAAAA", "CD1")])
    (both,) = read_mslr({"A1": first, "A2": second})
    assert set(both.raw) == {"A1", "A2"} and both.ratings["fluency"] == {"A1": 2.0, "A2": 2.0}


# --- the demo sheets --------------------------------------------------------------------

DEMO_SYSTEMS = ["24CT93", "AF3A9Z", "EZ8G05", "JGTKXG", "X80QJW", "YQ86TD"]
DEMO_REVIEWS = ["CD9000001", "CD9000002", "CD9000003", "CD9000004"]


@pytest.fixture(scope="module")
def demo() -> list[RatedOutput]:
    return load_mslr(demo=True)


def test_demo_loads(demo: list[RatedOutput]) -> None:
    assert len(demo) == 24
    assert Counter(o.system for o in demo) == {s: 4 for s in DEMO_SYSTEMS}
    assert {o.group for o in demo} == set(DEMO_REVIEWS)
    assert [o.id for o in demo] == sorted(o.id for o in demo)
    assert all(o.ratings for o in demo)
    assert all(o.content.startswith("[demo]") for o in demo)
    assert all((o.context or "").startswith("[demo]") for o in demo)
    assert all(o.references == [o.context] for o in demo)
    assert sum("\n" in o.content for o in demo) == 1  # a quoted multi-line cell
    both = sorted(o.id for o in demo if len(o.raw) == 2)
    assert len(both) == 4
    assert Counter(len(o.raw) for o in demo) == {1: 20, 2: 4}
    assert Counter(r for o in demo for r in o.raw) == {"A1": 13, "A2": 15}


def test_demo_gold_in_range(demo: list[RatedOutput]) -> None:
    scales = {d.name: (d.low, d.high) for d in MSLR_DIMENSIONS}
    counts = Counter(d for o in demo for d in o.gold())
    assert counts == {
        "overall": 24,
        "fluency": 24,
        "pio_consistency": 24,
        "effect_direction": 23,
        "evidence_strength": 22,
    }
    for output in demo:
        assert list(output.ratings) == [d for d in DIMS if d in output.ratings]
        for dim, value in output.gold().items():
            low, high = scales[dim]
            assert low <= value <= high, (output.id, dim, value)
    # the both-rater summaries include one where the annotators disagree
    assert 0.5 in _gold(demo, "effect_direction")
    for dim in DIMS:  # every dimension varies, so correlations are defined
        assert len(set(_gold(demo, dim))) > 1


def test_demo_exercises_every_answer_shape(demo: list[RatedOutput]) -> None:
    parsed = Counter(
        (facet, type(answer).__name__ if isinstance(answer, int) else str(answer))
        for o in demo
        for answers in o.raw.values()
        for facet in MSLR_FACETS
        for answer in [parse_facet(answers[facet])]
    )
    for facet in ("population", "intervention", "ed_generated", "strength_target"):
        assert parsed[(facet, "other")] >= 1, facet
    for facet in ("outcome", "ed_target", "ed_generated"):
        assert parsed[(facet, "na")] >= 1, facet
    assert parsed[("strength_generated", "na")] >= 2 and parsed[("strength_target", "na")] == 1
    assert sum(n for (_, kind), n in parsed.items() if kind == "None") == 1
    assert all(parsed[(facet, "int")] >= 3 for facet in MSLR_FACETS)
    texts = [answers[f] for o in demo for answers in o.raw.values() for f in MSLR_FACETS]
    assert any(t.startswith("(+1)") for t in texts) and any(t.startswith("(-1)") for t in texts)
    # the real quirk: a strength answer holding the effect-direction N/A text
    assert any(
        a["strength_generated"].startswith("N/A: no effect direction")
        for o in demo
        for a in o.raw.values()
    )
    comments = [a for o in demo for a in o.raw.values() if "pio_comment" in a]
    assert comments and all(a["pio_comment"].startswith("[demo]") for a in comments)


def test_demo_options_change_what_the_spec_says(demo: list[RatedOutput]) -> None:
    official_demo = load_mslr(demo=True, other="official")
    assert _differing_rows(demo, official_demo, "effect_direction") >= 1
    assert _differing_rows(demo, official_demo, "evidence_strength") >= 1
    assert _differing_rows(demo, official_demo, "fluency") == 0
    zero = load_mslr(demo=True, pio_na="zero")
    assert sum(_gold(zero, "pio_consistency")) < sum(_gold(demo, "pio_consistency"))


def test_demo_and_data_dir_conflict(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not both"):
        load_mslr(tmp_path, demo=True)


def test_demo_files_are_packaged_and_reproducible(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = mslr_demo_files()
    assert set(paths) == {"A1", "A2"}
    assert all(p.parent.name == "mslr_cochrane" for p in paths.values())
    repo = Path(__file__).resolve().parents[2]
    script = repo / "tools" / "make_demo_mslr.py"
    if not script.is_file():
        pytest.skip("not a source checkout")
    spec = importlib.util.spec_from_file_location("make_demo_mslr", script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # dataclasses look the module up
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "OUT_DIR", tmp_path)
    monkeypatch.setattr(module, "REPO_ROOT", tmp_path)
    module.main()
    for rater, path in paths.items():
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), rater


@needs_shared
def test_demo_header_is_the_official_one() -> None:
    for rater, path in mslr_demo_files().items():
        real = MSLR_DIR / "annotations" / f"cochrane_facets_{rater}.tsv"
        assert path.read_bytes().split(b"\r\n")[0] == real.read_bytes().split(b"\r\n")[0]


def test_demo_task_builds() -> None:
    from inspect_plural.tasks.panels import mslr_cochrane

    task = mslr_cochrane(demo=True)
    assert len(task.dataset) == 24
    assert task.metadata and task.metadata["demo"] is True
    assert task.metadata["data_source"] == "demo"
    assert task.dataset.name == "mslr_cochrane_demo"
    sampled = mslr_cochrane(demo=True, sample_per_system=2)
    assert len(sampled.dataset) == 12
    ids = [str(s.id) for s in sampled.dataset]
    assert Counter(i.split("/")[0] for i in ids) == {s: 2 for s in DEMO_SYSTEMS}
    assert ids == [str(s.id) for s in mslr_cochrane(demo=True, sample_per_system=2).dataset]
    with pytest.raises(ValueError, match="fewer than 5"):
        mslr_cochrane(demo=True, sample_per_system=5)
    with pytest.raises(ValueError, match="not both"):
        mslr_cochrane(demo=True, data_dir="somewhere")
