"""The real-model benchmark sections, offline: what they read from logs and when they run.

``python -m benchmarks --only real`` and ``--only real_latency`` need a local server, so
CI never runs them; these tests check the parts that need none: the message without a
server, the grouping of parse failures, the busy-time union, and that neither section
runs in ``--quick`` or the default full run.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import __main__ as suite
from benchmarks import real, real_latency
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalSample
from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage
from inspect_ai.scorer import Score


def test_without_a_server_the_section_says_what_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOCAL_BASE_URL", raising=False)
    found = real.server()
    assert isinstance(found, str) and "LOCAL_BASE_URL" in found
    result = real.run()
    assert "skipped" in result and real.summary(result) == [f"skipped: {found}"]
    assert "skipped" in real_latency.run()


def test_a_server_that_does_not_answer_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOCAL_BASE_URL", "http://127.0.0.1:9/v1")
    found = real.server()
    assert isinstance(found, str) and "127.0.0.1:9" in found


def test_failures_are_grouped_by_cause_without_their_specifics() -> None:
    assert real.cause("'Maybe' is not one of ['Leave', 'Remain']") == "… is not one of …"
    assert real.cause("1.4 for 'Ann' is not a probability (above 1); no answer") == (
        "N for … is not a probability (above N)"
    )


def test_busy_time_is_the_union_of_the_calls() -> None:
    assert real_latency.busy_seconds([]) == 0.0
    assert real_latency.busy_seconds([(0.0, 1.0), (0.5, 2.0), (3.0, 4.0)]) == 3.0
    assert real_latency.busy_seconds([(5.0, 6.0), (0.0, 1.0)]) == 2.0


def test_every_method_runs_and_those_with_json_answers_run_twice() -> None:
    families = {r.family for r in real.RUNS}
    assert families == {"annotator", "personaeval", "rating", "perse", "panel"}
    once = {r.method for r in real.RUNS if not r.json_answers}
    assert {"geval", "chateval", "rouge_l", "annotator_majority", "prior_average"} <= once
    run = real.RUNS[0].call_run("json_object")
    assert run.options["structured"] == "json_object" and run.data == "demo"


def test_the_real_sections_run_only_when_named(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[str] = []
    monkeypatch.setattr(suite, "run_suite", lambda quick, sections, path: ran.extend(sections))
    for argv, expected in (
        (["benchmarks"], False),
        (["benchmarks", "--quick"], False),
        (["benchmarks", "--quick", "--only", "real", "fuzz"], False),
        (["benchmarks", "--only", "real"], True),
    ):
        ran.clear()
        monkeypatch.setattr("sys.argv", argv)
        with pytest.raises(SystemExit):
            suite.main()
        assert ("real" in ran) is expected, argv
        assert ("real_latency" in ran) is False


def test_every_run_builds_its_task_offline() -> None:
    # the sweep runs only by hand against a server, so a task option that changes under
    # it (distribution_judge came to need -T target=distribution) is caught here
    for real_run in real.RUNS:
        for mode in (None, "json_object") if real_run.json_answers else (None,):
            task = real_run.call_run(mode).build()
            assert len(task.dataset) > 0, real_run
    for workload in real_latency.WORKLOADS:
        assert len(workload.build().dataset) == workload.limit, workload
    methods = {(r.method, r.options.get("target")) for r in real.RUNS}
    assert {("distribution_judge", "distribution"), ("stakeholder_panel", "distribution")} <= (
        methods
    )


def test_a_run_that_cannot_be_built_is_a_row_and_the_sweep_goes_on(
    tmp_path: Path,
) -> None:
    refused = real.RealRun("annotator", "brexit", "distribution_judge", limit=2)
    baseline = real.RealRun(
        "annotator", "brexit", "annotator_majority", limit=2, json_answers=False
    )
    rows = real.execute([refused, baseline], "plural/random", "true", str(tmp_path))
    assert [r["status"] for r in rows] == ["not built", "not built", "success"]
    error = rows[0]["error"]
    assert error.startswith("OptionError: ") and "target=distribution" in error
    assert rows[2]["samples"] == 2 and rows[2]["calls"] == 0
    summary = real.summary({"model": "m", "structured": "true", "rows": rows})
    assert summary[0] == "m: 1 of 3 runs finished"


def test_a_panel_sample_with_unread_persona_answers_counts_as_failed() -> None:
    # the panel scorer keeps parse_failures among its values (metadata), not in the
    # shown value: reading the shown value counted every panel sample as fine
    def sample(failures: float) -> EvalSample:
        score = Score(
            value={"helpfulness": 4.0},
            metadata={"values": {"helpfulness": 4.0, "parse_failures": failures}},
        )
        return EvalSample(id=1, epoch=1, input="x", target="", scores={"panel": score})

    assert real._sample_failed(sample(2.0)) == "2 persona answers unparsed"
    assert real._sample_failed(sample(0.0)) is None


def test_input_tokens_count_the_prompt_the_server_had_cached() -> None:
    # Inspect's input_tokens leaves out a prompt cache's tokens (llama-server: a repeated
    # prompt read "2" input tokens); the sweep counts the whole prompt and says how much
    # of it was cached
    def call(uncached: int, cached: int | None, output: int) -> ModelEvent:
        out = ModelOutput.from_content("m", "x")
        out.usage = ModelUsage(
            input_tokens=uncached,
            output_tokens=output,
            total_tokens=uncached + (cached or 0) + output,
            input_tokens_cache_read=cached,
        )
        return ModelEvent(
            model="m", input=[], tools=[], tool_choice="none", config=GenerateConfig(), output=out
        )

    events = [call(2, 214, 45), call(191, None, 10)]
    sample = EvalSample(id=1, epoch=1, input="x", target="", events=events)
    assert real._tokens([sample]) == (407, 55, 214)
