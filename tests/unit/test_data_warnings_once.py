"""A loader's warning is said once per process, however many tasks read the same data."""

from __future__ import annotations

import logging

import pandas as pd
import pytest

from inspect_plural.sources._dedupe import dedupe_judgments
from inspect_plural.sources._once import forget_data_warnings


def _judgments(repeats: int) -> pd.DataFrame:
    rows = [("a1", "i1", "yes")] + [("a1", "i1", "no")] * repeats + [("a2", "i1", "yes")]
    return pd.DataFrame(rows, columns=["annotator_id", "item_id", "label"])


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "repeated" in r.getMessage()]


def test_the_same_warning_is_said_once_and_a_different_one_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    for _ in range(3):  # e.g. one build of the task per model of an eval set
        frame, dropped = dedupe_judgments(_judgments(1), "md_agreement")
        assert dropped == 1 and len(frame) == 2  # the data is deduplicated every time
    assert _said(caplog) == [
        "md_agreement: 1 repeated (annotator, item) judgments dropped, keeping the first; "
        "1 (annotator, item) pairs had different labels"
    ]
    dedupe_judgments(_judgments(2), "md_agreement")  # another count: another message
    dedupe_judgments(_judgments(1), "other.csv")  # another file
    assert len(_said(caplog)) == 3
    forget_data_warnings()
    dedupe_judgments(_judgments(1), "md_agreement")
    assert len(_said(caplog)) == 4
