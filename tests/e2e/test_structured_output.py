"""``-T structured=true`` sends each JSON answer's schema, and the answers still parse.

Every method of every family runs on its demo data with ``plural/random``, which
answers a call that carries a schema the way a server that constrains decoding does:
a random instance of the schema and nothing else. Each model event of the log is read
back: a call whose declared answer is JSON carries that answer's schema
(``config.response_schema``, or llama-cpp-python's ``response_format`` in
``config.extra_body`` with ``structured=json_object``), a call whose answer is not JSON
by design carries none, and every prediction parses and records the schema's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.scorer import match
from inspect_ai.solver import generate
from tests.conftest import FAST_LOG, log_samples, model_events

from inspect_plural.answer_format import declared_answer_format
from inspect_plural.errors import OptionError
from inspect_plural.prediction import Prediction
from inspect_plural.scorers import panel
from inspect_plural.scorers._values import values_of
from inspect_plural.solvers.debate._records import PanelDebate
from inspect_plural.structured import FREE_TEXT_MAX_CHARS, answer_schema

pytestmark = pytest.mark.e2e

CASES: list[tuple[str, dict[str, Any]]] = [
    ("brexit", {"method": "llm_judge"}),
    ("brexit", {"method": "llm_judge", "answer_format": "distribution", "reasoning": False}),
    ("brexit", {"method": "personalized_judge"}),
    ("brexit", {"method": "cinemetric"}),
    ("brexit", {"method": "trait_ensemble"}),
    ("brexit", {"method": "retrieval_examples"}),
    ("personaeval_literary", {}),
    ("mslr_cochrane", {"method": "maj_eval", "max_rounds": 1}),
    ("per_mpst", {"method": "perse_review"}),
    ("per_doc", {"method": "perse_aspect", "both_orders": True}),
]


def _eval(task: str, options: dict[str, Any], folder: Path) -> EvalLog:
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={"demo": True, **options},
        model="plural/random",
        limit=3,
        log_dir=str(folder),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    return log


def _sent_schema(event: Any) -> tuple[str | None, dict[str, Any] | None]:
    """The schema a call carried (either dialect): its name and body."""
    config = event.config
    if config.response_schema is not None:
        schema = config.response_schema
        return schema.name, schema.json_schema.model_dump(exclude_none=True)
    response_format = (config.extra_body or {}).get("response_format")
    if response_format is not None:
        assert response_format["type"] == "json_object"
        return "json_object", response_format["schema"]
    return None, None


def _expected(event: Any) -> str | None:
    declared = declared_answer_format(list(event.input))
    assert declared is not None, "every package call declares its answer format"
    schema = answer_schema(declared)
    return None if schema is None else schema.name


def _answers_schemas(sample: EvalSample) -> list[str | None]:
    prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
    names = [a.schema_name for a in prediction.answers]
    debate = PanelDebate.read(sample.store)  # type: ignore[arg-type]
    for group in debate.groups:
        names += [e.schema_name for e in group.initial]
    return names


@pytest.mark.parametrize(("task", "options"), CASES)
def test_structured_true_sends_each_json_answers_schema(
    task: str, options: dict[str, Any], tmp_path: Path
) -> None:
    log = _eval(task, {**options, "structured": True}, tmp_path)
    assert log.eval.metadata is not None
    samples = log_samples(log)
    sent: set[str] = set()
    for sample in samples:
        for event in model_events(sample):
            name, body = _sent_schema(event)
            assert name == _expected(event), (sample.id, event.config)
            assert body is not None
            assert body.get("additionalProperties") is False, body
            assert set(body["required"]) == set(body["properties"]), body
            sent.add(name)
        prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
        assert prediction.parse_ok, (sample.id, prediction.error)
        recorded = [n for n in _answers_schemas(sample) if n is not None]
        assert recorded, "each constrained answer records its schema"
        assert set(recorded) <= sent
    assert sent, "no call carried a schema"


def test_structured_is_off_by_default(tmp_path: Path) -> None:
    log = _eval("brexit", {"method": "cinemetric"}, tmp_path)
    for sample in log_samples(log):
        for event in model_events(sample):
            assert _sent_schema(event) == (None, None)
        prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
        assert all(a.schema_name is None for a in prediction.answers)
    assert (log.eval.metadata or {})["structured"] == "off"


def test_json_object_sends_llama_cpp_pythons_dialect_with_bounded_text(tmp_path: Path) -> None:
    log = _eval("brexit", {"method": "cinemetric", "structured": "json_object"}, tmp_path)
    assert (log.eval.metadata or {})["structured"] == "json_object"
    names = set()
    for sample in log_samples(log):
        for event in model_events(sample):
            assert event.config.response_schema is None
            name, body = _sent_schema(event)
            assert name == "json_object" and body is not None
            names.add(_expected(event))
            if _expected(event) == "characters":
                items = body["properties"]["characters"]
                assert items["minItems"] == items["maxItems"] == 5
                assert items["items"]["properties"]["reasoning"]["maxLength"] == (
                    FREE_TEXT_MAX_CHARS
                )
        prediction = Prediction.read(sample.store)  # type: ignore[arg-type]
        assert prediction.parse_ok, prediction.error
        assert {a.schema_name for a in prediction.answers} == {"label_lines"}
        assert all(a.aspect for a in prediction.answers), "the aspect is read from the JSON"
    assert names == {"characters", "label", "label_lines"}


@pytest.mark.parametrize("method", ["geval", "chateval"])
def test_methods_whose_answers_are_not_json_refuse_structured(method: str) -> None:
    from inspect_plural.tasks import mslr_cochrane

    with pytest.raises(OptionError, match="configures method maj_eval"):
        mslr_cochrane(demo=True, method=method, structured=True)


def test_a_bad_value_names_the_choices() -> None:
    from inspect_plural.tasks import brexit

    with pytest.raises(OptionError, match="json_object"):
        brexit(demo=True, structured="grammar")


def test_the_panel_scorer_constrains_personas_turns_and_picks(tmp_path: Path) -> None:
    scorer = panel(
        personas="parents: a parent; parents: a grandmother; teachers: a teacher",
        rounds=1,
        structured=True,
    )
    task = Task(
        dataset=[Sample(id=i, input=f"Question {i}?", target="yes") for i in range(2)],
        solver=generate(),
        scorer=[match(), scorer],
        name="plain_qa",
    )
    [log] = eval(
        task,
        model="plural/random",
        model_args={"any_prompt": True},
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    sent = set()
    for sample in log_samples(log):
        for event in model_events(sample):
            if declared_answer_format(list(event.input)) is None:
                continue  # the evaluated task's own generate()
            name, _ = _sent_schema(event)
            assert name == _expected(event)
            sent.add(name)
        assert sample.scores is not None
        assert values_of(sample.scores["panel"])["parse_failures"] == 0
    assert sent == {"persona", "scores", "moderator_pick", "debate_turn", "synthesis"}
