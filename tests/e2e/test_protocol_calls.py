"""Every method makes exactly its protocol's minimum of model calls (counted at the API).

The quick matrix of ``python -m benchmarks --quick --only calls`` (every method of every task family
on demo data, with variants such as self-consistency, both orders and personas created
from a document, and the ``panel`` scorer on a task unrelated to the package) runs with
``bench/counting``, which answers as ``plural/random`` and
counts each call that reaches the model API under the sample that made it. Each run's
calls must equal :mod:`benchmarks.protocol`'s minimum (worked examples of which are in
``tests/unit/test_protocol_minimum.py``), and the API's count must equal the log's.
"""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks._counting import COUNTER
from benchmarks.calls import PERSONA_DOCUMENT, execute, quick_runs
from benchmarks.protocol import NO_CALLS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("calls")
    document = folder / "stakeholders.md"
    document.write_text(PERSONA_DOCUMENT, encoding="utf-8")
    COUNTER.reset()
    with pytest.MonkeyPatch.context() as patch:
        # cold persona and panel caches: shared work is done (and counted) in this run
        patch.setenv("INSPECT_PLURAL_CACHE", str(folder / "cache"))
        result = execute(quick_runs([str(document)]), str(folder / "logs"))
    assert COUNTER.outside().calls == 0, "calls made outside any sample"
    return result


def test_the_matrix_covers_every_method_family(rows: list[dict[str, Any]]) -> None:
    methods = {row["method"].split(" ")[0] for row in rows}
    assert {
        "llm_judge",
        "personalized_judge",
        "cinemetric",
        "trait_ensemble",
        "retrieval_examples",
        "maj_eval",
        "geval",
        "chateval",
        "perse_review",
        "perse_aspect",
        "role_identification",
        "annotator_majority",
        "rouge_l",
        "panel",
    } <= methods
    assert any("persona_docs" in row["method"] for row in rows)
    # the distribution target: the direct method (steered too), the no-call baselines
    # and per-annotator methods pooled inside the item
    pooled = {r["method"].split(" ")[0] for r in rows if "target=distribution" in r["method"]}
    assert {
        "distribution_judge",
        "uniform",
        "label_prior",
        "item_majority",
        "llm_judge",
        "cinemetric",
        "stakeholder_panel",
    } <= pooled
    assert any("steer=" in r["method"] for r in rows)
    # the stakeholder panel: the default one (a persona per trait value), from inline
    # profiles and from a document
    panels = {r["method"] for r in rows if r["method"].startswith("stakeholder_panel")}
    assert "stakeholder_panel (target=distribution)" in panels
    assert any("profiles" in m for m in panels) and any("persona_docs" in m for m in panels)
    panel = [row for row in rows if row["family"] == "panel"]
    assert any("profiles" in r["method"] for r in panel), "inline profiles expanded"
    assert any("rounds=2" in r["method"] for r in panel), "the panel's debate"
    assert any("persona_docs" in r["method"] for r in panel), "personas from documents"
    assert any("self_consistency=3" in row["method"] for row in rows)


def test_every_run_makes_exactly_the_protocol_minimum(rows: list[dict[str, Any]]) -> None:
    failed = [f"{r['task']} {r['method']}: {r.get('error')}" for r in rows if "error" in r]
    assert not failed
    off = {
        f"{r['task']} {r['method']}": (r["calls"], r["minimum"], r.get("evidence"))
        for r in rows
        if r["excess"] != 0
    }
    assert not off, off
    # not vacuous: a method that calls a model needs at least one call per sample
    for row in rows:
        if row["method"].split(" ")[0] in NO_CALLS:
            assert row["calls"] == 0, row["method"]
        else:
            assert row["minimum"] >= row["samples"] > 0, row["method"]


def test_the_api_count_equals_the_log(rows: list[dict[str, Any]]) -> None:
    assert all(r["api_equals_log"] for r in rows), [
        f"{r['task']} {r['method']}" for r in rows if not r["api_equals_log"]
    ]
