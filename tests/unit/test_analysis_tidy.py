"""A tidy ``samples_df`` (issue 28 item 6): no all-empty column, one column per trait,
label text beside each index, and a long form with one row per (sample, score key)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from tests.unit.report_logs import write_run
from tests.unit.report_runs import annotator_rows, annotator_run, role_run

from inspect_plural.analysis import samples_df, trait_name
from inspect_plural.analysis._columns import SAMPLE_COLUMNS

CORRECT = [1, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1]


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    rows = annotator_rows(CORRECT, failed=[1])
    for i, (_, metadata) in enumerate(rows):  # one dataset spells AGE, another Age
        metadata["metric_traits"] = {"AGE": "18-29" if i % 2 else "30-49", "Country of birth": "UK"}
    write_run(folder, "a", annotator_run([0] * 12, task="epic"))
    run = annotator_run(CORRECT, task="mhs")
    run.rows = rows
    write_run(folder, "b", run)
    lower = annotator_run(CORRECT, task="dp")
    for _, metadata in lower.rows:
        metadata["metric_traits"] = {"Age": "65+"}
    write_run(folder, "c", lower)
    probs = np.random.default_rng(0).dirichlet(np.ones(4), 4)
    role = role_run("literary", probs, [0, 1, 2, 3])
    for _, metadata in role.rows:
        metadata["candidates"] = [{"name": n} for n in ("Ann", "Bo", "Cy", "Di")]
    write_run(folder, "role", role)
    return folder


def test_trait_names_have_one_spelling() -> None:
    assert {trait_name(x) for x in ("AGE", "Age", "age", " age ")} == {"age"}
    assert trait_name("Country of birth") == "country_of_birth"


def test_no_all_empty_column_and_one_column_per_trait(logs: Path) -> None:
    frame = samples_df(logs)
    assert not [c for c in frame.columns if frame[c].isna().all()]
    traits = sorted(c for c in frame.columns if c.startswith("trait_"))
    assert traits == ["trait_age", "trait_country_of_birth"]
    assert set(frame.loc[frame["task"] == "dp", "trait_age"]) == {"65+"}
    assert set(frame.loc[frame["task"] == "mhs", "trait_age"]) == {"18-29", "30-49"}
    assert "error" not in frame  # no sample errored: the column is empty, so left out
    # what Inspect's own reader gives for the same logs: a column per spelling, empties
    from inspect_ai.analysis import samples_df as raw_samples_df

    raw = raw_samples_df(str(logs), columns=SAMPLE_COLUMNS, quiet=True)
    assert {"trait_AGE", "trait_Age"} <= set(raw.columns) and raw["error"].isna().all()


def test_label_text_beside_each_index(logs: Path) -> None:
    frame = samples_df(logs)
    columns = list(frame.columns)
    assert columns[columns.index("score_pred") + 1] == "pred_label"
    assert columns[columns.index("score_gold") + 1] == "gold_label"
    annotator = frame[frame["task"] == "mhs"].sort_values("id")
    for _, row in annotator.iterrows():
        assert row["gold_label"] == f"L{int(row['score_gold'])}"
        if row["score_parse_ok"] == 1.0:
            assert row["pred_label"] == f"L{int(row['score_pred'])}"
        else:  # a failed answer (pred -1) has no label
            assert pd.isna(row["pred_label"])
    role = frame[frame["task"] == "personaeval_literary"].sort_values("id")
    names = ["Ann", "Bo", "Cy", "Di"]
    assert list(role["gold_label"]) == [names[int(i)] for i in role["score_gold_index"]]


def test_long_form_has_one_row_per_sample_and_score_key(logs: Path) -> None:
    wide = samples_df(logs)
    long = samples_df(logs, long=True)
    scores = [c for c in wide.columns if c.startswith("score_")]
    assert len(long) == int(wide[scores].notna().to_numpy().sum())
    assert {"score_key", "score"} <= set(long.columns) and not long["score"].isna().any()
    first = wide.iloc[0]
    mine = long[(long["id"] == first["id"]) & (long["log"] == first["log"])]
    assert dict(zip(mine["score_key"], mine["score"])) == {
        c.removeprefix("score_"): first[c] for c in scores if not np.isnan(first[c])
    }
