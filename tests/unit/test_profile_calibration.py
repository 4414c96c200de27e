"""The distributional headline's interval is calibrated: a chance model sits at chance.

The end-to-end validity run (tests/e2e/test_profile.py) checks one seeded draw of
``plural/random``, and one draw of a 95% interval misses its chance level with
probability 0.05: on the demo rows (10-24 items a dataset) the chance model's default
seed happens to draw such a miss in the distributional mode (-0.196 [-0.386, -0.037];
its 10 ARMIS answers paired with their items are worse than 98% of their permutations).
This test checks the property the validity claim rests on, over many draws and without
a model call: answers drawn as ``plural/random`` draws them (a flat Dirichlet per item,
independent of the item) on the demo items of every distributional cell, scored with the
profile's own functions (the logged distance, the shuffled reference, the stratified item
skill and the report's bootstrap), give an estimate centred on 0 whose 95% interval
contains 0 at about the stated rate; and an answer that knows its item is told apart.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from inspect_plural.item_records import item_sample
from inspect_plural.profile._cells import CELLS
from inspect_plural.profile._intervals import paired_value, skill_statistic
from inspect_plural.profile._logs import Row
from inspect_plural.profile._skill import item_distances, shuffled_reference
from inspect_plural.profile._tasks import build_cell
from inspect_plural.report import Bootstrap

pytestmark = [pytest.mark.validity, pytest.mark.slow]  # about 15 s of CPU

RUNS = 200
"""Simulated chance-model runs (the coverage's standard error is about 0.016)."""


@pytest.fixture(scope="module")
def demo_items() -> list[list[Row]]:
    """Each demo distributional cell's items, as the profile reads them (no answer yet)."""
    datasets = []
    for cell in CELLS:
        if cell.mode != "distributional" or cell.role != "judge":
            continue
        built = build_cell(cell, "standard", demo=True)
        if not built.measured:
            continue
        rows = []
        for sample in built.samples:
            meta = item_sample(sample.metadata or {})
            assert meta.scale is not None
            rows.append(
                Row(
                    id=str(sample.id),
                    values={},
                    labels=list(meta.scale.labels),
                    kind=meta.scale.kind,
                    gold=dict(meta.gold),
                    base_labels=list(meta.base_labels),
                )
            )
        datasets.append(rows)
    assert len(datasets) >= 4  # ARMIS, Brexit, CSC, Paraphrase and more
    return datasets


def _headline(
    datasets: list[list[Row]], rng: np.random.Generator, knows: float, key: str
) -> tuple[float, float, float]:
    """One simulated run: each answer a flat Dirichlet draw mixed with the item's gold."""
    own, ref, codes = [], [], []
    for code, rows in enumerate(datasets):
        answered = []
        for row in rows:
            noise = rng.dirichlet(np.ones(len(row.labels)))
            gold = np.array([(row.gold or {}).get(label, 0.0) for label in row.labels])
            if row.base_labels or gold.sum() <= 0:  # label sets: the answer is over sets
                gold = noise
            p = knows * gold / gold.sum() + (1 - knows) * noise
            answered.append(dataclasses.replace(row, distribution=dict(zip(row.labels, p))))
        own.extend(item_distances(answered, answered))
        ref.extend(shuffled_reference(answered))
        codes.extend([code] * len(answered))
    value = paired_value(
        Bootstrap(resamples=500),
        [np.array(own), np.array(ref), np.array(codes, dtype=float)],
        skill_statistic,
        key,
    )
    assert value.estimate is not None and value.low is not None and value.high is not None
    return value.estimate, value.low, value.high


def test_a_chance_model_sits_at_chance_at_the_stated_rate(demo_items: list[list[Row]]) -> None:
    rng = np.random.default_rng(2026)
    runs = [_headline(demo_items, rng, 0.0, f"chance/{i}") for i in range(RUNS)]
    estimates = np.array([e for e, _, _ in runs])
    covered = np.mean([low <= 0.0 <= high for _, low, high in runs])
    # centred on chance: the mean of 200 runs within 4 standard errors of 0
    assert abs(estimates.mean()) < 4 * estimates.std() / np.sqrt(RUNS)
    # 95% intervals: at least 90% contain chance (a calibrated interval fails this
    # with probability under 0.1%; one half as wide as it should be covers ~68%)
    assert covered >= 0.90, covered


def test_an_answer_that_knows_its_item_is_told_apart(demo_items: list[list[Row]]) -> None:
    rng = np.random.default_rng(7)
    runs = [_headline(demo_items, rng, 0.5, f"half/{i}") for i in range(50)]
    assert np.mean([low > 0.0 for _, low, _ in runs]) >= 0.9
