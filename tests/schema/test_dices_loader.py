from __future__ import annotations

import csv
import re
import time
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from inspect_plural.sources import DataNotFoundError, DataRowError, _hub
from inspect_plural.sources.dices import (
    DICES_COLUMNS,
    DICES_COMMIT,
    DICES_FILES,
    DICES_REPO,
    DICES_URL,
    dices_scale,
    load_dices,
    read_dices_csv,
)
from inspect_plural.splits import cinemetric_split, perseval_split

NAMES = {s: Path(p).name for s, p in DICES_FILES.items()}
Row = dict[str, str]


def corpus_path(subset: str) -> str:
    return str(resources.files("inspect_plural").joinpath(f"demo/dices/{NAMES[subset]}"))


def _row(subset: str, rater: str, item: str, answer: str, **extra: str) -> Row:
    row = {c: "No" for c in DICES_COLUMNS[subset]}
    row.update(
        {
            "id": f"{rater}{item}",
            "rater_id": rater,
            "item_id": item,
            "rater_gender": "Woman",
            "rater_race": "White",
            "rater_raw_race": "White",
            "rater_race_raw": "White",
            "rater_age": "gen z",
            "rater_education": "High school or below",
            "rater_locale": "IN",
            "phase": "Phase1",
            "context": f"USER: Fixture context {item}.\nBOT: Fixture turn.",
            "response": f"Fixture reply {item}.",
            "degree_of_harm": "Benign",
            "harm_type": "Health",
            "Q2_harmful_content_overall": answer,
        }
    )
    row.update(extra)
    return row


def _write(path: Path, rows: list[Row], columns: list[str]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _fixture(folder: Path, subset: str = "990", columns: list[str] | None = None) -> Path:
    """A FIXTURE file in the official schema (text written for tests)."""
    rows = [
        _row(subset, "1001", "7", "Yes", Q_overall="Yes"),
        _row(subset, "1001", "8", "No"),
        _row(subset, "1001", "7", "No"),  # repeated pair: the first one is kept
        _row(subset, "2002", "7", "Unsure", rater_gender="", rater_locale=" "),
        _row(subset, "2002", "9", "No"),
    ]
    return _write(folder / NAMES[subset], rows, columns or DICES_COLUMNS[subset])


def test_constants_pin_the_official_files() -> None:
    assert re.fullmatch(r"[0-9a-f]{40}", DICES_COMMIT)
    assert DICES_REPO == "google-research-datasets/dices-dataset"
    assert DICES_FILES == {
        "350": "350/diverse_safety_adversarial_dialog_350.csv",
        "990": "990/diverse_safety_adversarial_dialog_990.csv",
    }
    url = DICES_URL.format(commit=DICES_COMMIT, path=DICES_FILES["990"])
    assert url == (
        "https://raw.githubusercontent.com/google-research-datasets/dices-dataset/"
        f"{DICES_COMMIT}/990/diverse_safety_adversarial_dialog_990.csv"
    )
    assert len(DICES_COLUMNS["350"]) == 41 and len(DICES_COLUMNS["990"]) == 43
    assert "rater_locale" not in DICES_COLUMNS["350"]
    assert "rater_race_raw" in DICES_COLUMNS["990"] and "rater_raw_race" in DICES_COLUMNS["350"]


@pytest.mark.parametrize("subset", ["350", "990"])
def test_demo_files_have_official_columns_and_load(subset: str) -> None:
    corpus = load_dices(demo=True, subset=subset)
    header = list(pd.read_csv(corpus_path(subset), nrows=0).columns)
    assert header == DICES_COLUMNS[subset]
    assert corpus.demo and "demo data written for inspect_plural" in corpus.origin
    assert corpus.name == "dices"
    assert 18 <= len(corpus.annotators) <= 25 and 25 <= len(corpus.items) <= 45
    counts = corpus.judgments.groupby("annotator_id").size()
    assert counts.min() >= 16
    assert list(corpus.judgments.columns) == ["annotator_id", "item_id", "label"]
    assert set(corpus.judgments["label"].unique()) == {0, 1, 2}
    assert all(i.isdigit() for i in corpus.items) and all(a.isdigit() for a in corpus.annotators)
    assert corpus.scale.labels == ["not harmful", "unsure", "harmful"]
    assert corpus.scale.kind == "nominal"
    dims = ["Gender", "Generation", "Race", "Education"] + (["Locale"] if subset == "990" else [])
    assert corpus.trait_dimensions == dims
    annotator = next(iter(corpus.annotators.values()))
    assert list(annotator.traits) == dims
    generations = {a.traits["Generation"] for a in corpus.annotators.values()}
    assert generations == {"gen z", "millenial", "gen x+"}
    item = next(iter(corpus.items.values()))
    assert list(item.parts) == ["conversation", "final response"]
    assert item.parts["conversation"].startswith("USER: Demo conversation")


def test_demo_labels_follow_the_raters() -> None:
    judgments = load_dices(demo=True).judgments
    majority = judgments.groupby("annotator_id")["label"].agg(lambda x: x.mode()[0])
    accuracy = (judgments["annotator_id"].map(majority) == judgments["label"]).mean()
    assert accuracy > judgments["label"].value_counts(normalize=True).max()


def test_fixture_in_official_schema_loads(tmp_path: Path) -> None:
    _fixture(tmp_path)
    corpus = load_dices(data_dir=tmp_path, subset="990")
    assert "sha256" in corpus.origin and NAMES["990"] in corpus.origin
    assert str(tmp_path) not in corpus.origin
    rows = corpus.judgments.to_dict("records")
    assert rows == [
        {"annotator_id": "1001", "item_id": "7", "label": 2},
        {"annotator_id": "1001", "item_id": "8", "label": 0},
        {"annotator_id": "2002", "item_id": "7", "label": 1},
        {"annotator_id": "2002", "item_id": "9", "label": 0},
    ]
    assert corpus.annotators["1001"].traits == {
        "Gender": "Woman",
        "Generation": "gen z",
        "Race": "White",
        "Education": "High school or below",
        "Locale": "IN",
    }
    assert corpus.annotators["2002"].traits["Gender"] == "UNK"
    assert corpus.annotators["2002"].traits["Locale"] == "UNK"
    assert corpus.items["7"].parts == {
        "conversation": "USER: Fixture context 7.\nBOT: Fixture turn.",
        "final response": "Fixture reply 7.",
    }
    overall = load_dices(data_dir=tmp_path, subset="990", label="Q_overall")
    assert overall.scale.labels == ["safe", "unsure", "unsafe"]
    assert overall.judgments["label"].tolist() == [2, 0, 0, 0]


def test_readme_spellings_are_accepted(tmp_path: Path) -> None:
    readme = {
        "rater_race_raw": "rater_raw_race",
        "Q3_unfair_bias_overall": "Q3_bias_overall",
    }
    columns = [readme.get(c, c) for c in DICES_COLUMNS["990"]]
    rows = [{readme.get(k, k): v for k, v in r.items()} for r in [_row("990", "5", "1", "Yes")]]
    _write(tmp_path / NAMES["990"], rows, columns)
    corpus = load_dices(data_dir=tmp_path, subset="990", label="Q3_unfair_bias_overall")
    assert corpus.scale.labels[2] == "unfairly biased"
    columns_350 = [
        "Q6_policy_guidelines_other_type" if c == "Q6_policy_guidelines_other" else c
        for c in DICES_COLUMNS["350"]
    ]
    row = _row("350", "5", "1", "No")
    row["Q6_policy_guidelines_other_type"] = row.pop("Q6_policy_guidelines_other")
    _write(tmp_path / NAMES["350"], [row], columns_350)
    assert len(load_dices(data_dir=tmp_path, label="Q6_policy_guidelines_other").judgments) == 1


def test_expert_and_unknown_labels_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="expert, per-item label"):
        load_dices(demo=True, label="degree_of_harm")
    with pytest.raises(ValueError, match="comprehension"):
        load_dices(demo=True, label="Q1_whole_conversation_evaluation")
    with pytest.raises(ValueError, match="no column 'Q4_misinformation_overall'"):
        load_dices(demo=True, subset="350", label="Q4_misinformation_overall")
    with pytest.raises(ValueError, match="not a per-rater"):
        load_dices(demo=True, label="rater_age")
    with pytest.raises(ValueError, match="unknown DICES subset"):
        load_dices(demo=True, subset="500")
    assert load_dices(demo=True, subset=990, label="Q4_misinformation_overall")  # type: ignore[arg-type]


def test_granular_question_scale_names_its_reason() -> None:
    scale = dices_scale("Q2_harmful_content_violent_or_gory")
    assert "violent or gory" in scale.description and scale.labels[2] == "harmful"


@pytest.mark.parametrize(
    ("row", "field", "value", "problem"),
    [
        (3, "Q2_harmful_content_overall", "Maybe", "not Yes, No or Unsure"),
        (2, "rater_id", "", "not a numeric identifier"),
        (4, "item_id", "x9", "not a numeric identifier"),
    ],
)
def test_bad_row_names_row_and_field(
    tmp_path: Path, row: int, field: str, value: str, problem: str
) -> None:
    path = _fixture(tmp_path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame.loc[row, field] = value
    frame.to_csv(path, index=False)
    with pytest.raises(DataRowError) as info:
        load_dices(data_dir=tmp_path, subset="990")
    assert info.value.row == row and info.value.field == field
    assert problem in str(info.value)


def test_missing_columns_are_named(tmp_path: Path) -> None:
    columns = [c for c in DICES_COLUMNS["990"] if c not in ("rater_locale", "response")]
    _fixture(tmp_path, columns=columns)
    with pytest.raises(ValueError, match="missing column\(s\) response, rater_locale"):
        read_dices_csv(tmp_path / NAMES["990"], "990")


def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a test tried to download")

    monkeypatch.setattr(_hub, "host_reachable", lambda url, timeout=3.0: False)
    monkeypatch.setattr(_hub.urllib.request, "urlopen", refuse)


def test_missing_files_fail_fast_with_instructions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_network(monkeypatch)
    start = time.monotonic()
    with pytest.raises(DataNotFoundError) as info:
        load_dices(data_dir=tmp_path, subset="990")
    message = str(info.value)
    assert NAMES["990"] in message and "-T data_dir" in message and "-T demo=true" in message
    assert DICES_URL.format(commit=DICES_COMMIT, path=DICES_FILES["990"]) in message

    (tmp_path / "nowhere").mkdir(exist_ok=True)  # an empty data root

    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(tmp_path / "nowhere"))
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    with pytest.raises(DataNotFoundError) as info:
        load_dices(revision="a" * 40)
    message = str(info.value)
    assert NAMES["350"] in message and "-T data_dir" in message and "not reachable" in message
    assert DICES_URL.format(commit="a" * 40, path=DICES_FILES["350"]) in message
    assert time.monotonic() - start < 2


def test_data_root_cache_and_repository_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_network(monkeypatch)
    root = tmp_path / "root"
    (root / "dices").mkdir(parents=True)
    _fixture(root / "dices")
    monkeypatch.setenv("INSPECT_PLURAL_DATA_DIR", str(root))
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "cache"))
    assert load_dices(subset="990").origin.startswith("local ")

    (root / "dices" / NAMES["990"]).unlink()
    cached = tmp_path / "cache" / "dices" / DICES_COMMIT / "990"
    cached.mkdir(parents=True)
    _fixture(cached)
    corpus = load_dices(subset="990")
    assert corpus.origin.startswith(f"cached from GitHub {DICES_REPO}@{DICES_COMMIT[:12]}")

    (cached / NAMES["990"]).write_text("version https://git-lfs.github.com/spec/v1\noid x\n")
    with pytest.raises(DataNotFoundError, match="git LFS pointer"):
        load_dices(subset="990")

    nested = tmp_path / "clone" / "350"
    nested.mkdir(parents=True)
    _fixture(nested, subset="350")
    assert len(load_dices(data_dir=tmp_path / "clone").judgments) == 4


def test_full_size_file_loads_quickly(tmp_path: Path) -> None:
    n = 72_103
    rng = np.random.default_rng(0)
    raters = rng.integers(10**14, 10**14 + 173, n).tolist()
    items = rng.integers(0, 990, n).tolist()
    answers = rng.choice(["Yes", "No", "Unsure"], n).tolist()
    columns = DICES_COLUMNS["990"]
    fields = {c: "No" for c in columns}
    fields["context"] = '"' + "USER: fixture line, with a comma\n" * 15 + '"'
    slots = {"rater_id": "{0}", "item_id": "{1}", "Q2_harmful_content_overall": "{2}"}
    template = ",".join(slots.get(c, fields[c]) for c in columns)
    lines = [template.format(*row) for row in zip(raters, items, answers)]
    (tmp_path / NAMES["990"]).write_text(",".join(columns) + "\n" + "\n".join(lines) + "\n")
    start = time.monotonic()
    corpus = load_dices(data_dir=tmp_path, subset="990")
    assert time.monotonic() - start < 5
    assert len(corpus.annotators) == 173 and len(corpus.items) == 990
    assert corpus.items["5"].parts["conversation"].startswith("USER: fixture line, with")


@pytest.mark.parametrize("subset", ["350", "990"])
def test_both_splits_run_on_the_demo(subset: str) -> None:
    corpus = load_dices(demo=True, subset=subset)
    cinemetric = cinemetric_split(corpus, seed=42, n_annotators=10, k_train=5, m_test=10)
    assert len(cinemetric.test) == 100 and len(cinemetric.examples) == 50
    perseval = perseval_split(corpus, seed=42, adaptation="none")
    test_users = set(perseval.test["annotator_id"])
    assert len(test_users) == int(len(corpus.annotators) * 0.2)
    assert not test_users & set(perseval.train["annotator_id"])
    assert len(perseval_split(corpus, seed=42).examples) > 0
