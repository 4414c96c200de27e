"""Each declared answer format's JSON schema, and the config a structured call sends.

The schemas are what a server that constrains decoding must follow, so each must hold
exactly the answer's parts (labels as an enum, a probability per option, scores as
integers in range), be closed (the subset every provider's structured output takes) and
survive Inspect's ``JSONSchema``; formats that are not JSON by design get none.
"""

from __future__ import annotations

import json
import random

import pytest
from inspect_ai.model import GenerateConfig, get_model

from inspect_plural._schema_instance import random_instance
from inspect_plural.answer_format import (
    CharacterListFormat,
    DistributionFormat,
    JsonFormat,
    LabelFormat,
    NumberFormat,
    ScoreLinesFormat,
    TextFormat,
)
from inspect_plural.parsing import parse_characters, parse_distribution, parse_label
from inspect_plural.rating_parsing import parse_review
from inspect_plural.structured import (
    FREE_TEXT_MAX_CHARS,
    answer_schema,
    constrain,
    field_key,
    structured_mode,
    structured_value,
)


def _random_answer(schema: dict[str, object], seed: int) -> str:
    return json.dumps(random_instance(schema, random.Random(seed)))


def test_a_label_is_an_enum_after_the_reasoning_the_prompt_asks_for() -> None:
    schema = answer_schema(LabelFormat(labels=["Leave", "Remain"], reasoning=True))
    assert schema is not None and schema.name == "label"
    body = schema.json_schema
    assert list(body["properties"]) == ["reasoning", "label"]
    assert body["properties"]["label"] == {"type": "string", "enum": ["Leave", "Remain"]}
    assert body["required"] == ["reasoning", "label"] and body["additionalProperties"] is False
    bare = answer_schema(LabelFormat(labels=["VALID", "INVALID"], style="bare"))
    assert bare is not None and list(bare.json_schema["properties"]) == ["label"]
    for seed in range(20):
        parsed = parse_label(_random_answer(body, seed), ["Leave", "Remain"])
        assert parsed.ok and parsed.read_as == "json"


def test_cinemetric_lines_become_keys_then_the_answer() -> None:
    fmt = LabelFormat(labels=["a", "b"], style="lines", fields=["Reasoning", "Character's aspect"])
    schema = answer_schema(fmt)
    assert schema is not None and schema.name == "label_lines"
    assert list(schema.json_schema["properties"]) == ["reasoning", "characters_aspect", "answer"]
    assert field_key("User’s aspect") == "users_aspect"


@pytest.mark.parametrize("reasoning", [False, True])
def test_a_distribution_has_one_probability_per_option(reasoning: bool) -> None:
    options = ["Ann", "Bo", "Cy"]
    schema = answer_schema(DistributionFormat(options=options, reasoning=reasoning))
    assert schema is not None and schema.name == "distribution"
    body = schema.json_schema
    probabilities = body["properties"]["probabilities"] if reasoning else body
    assert probabilities["required"] == options
    for option in options:
        assert probabilities["properties"][option] == {"type": "number", "minimum": 0, "maximum": 1}
    for seed in range(20):
        parsed = parse_distribution(_random_answer(body, seed), options)
        assert parsed.ok and parsed.read_as == "json", parsed.error


def test_a_character_list_has_the_count_asked_for() -> None:
    schema = answer_schema(CharacterListFormat(count=4))
    assert schema is not None
    characters = schema.json_schema["properties"]["characters"]
    assert characters["minItems"] == characters["maxItems"] == 4
    text = _random_answer(schema.json_schema, 0)
    assert len(parse_characters(text)) == 4


def test_integer_scores_are_also_an_enum_and_refs_are_inlined() -> None:
    fmt = JsonFormat(
        name="review",
        json_schema={
            "type": "object",
            "properties": {
                "review": {"type": "string", "title": "Review"},
                "score": {"$ref": "#/$defs/Score"},
            },
            "required": ["score"],
            "$defs": {"Score": {"type": "integer", "minimum": 1, "maximum": 10}},
        },
    )
    schema = answer_schema(fmt)
    assert schema is not None and schema.name == "review"
    body = schema.json_schema
    assert "$defs" not in body and "title" not in body["properties"]["review"]
    assert body["properties"]["score"]["enum"] == list(range(1, 11))
    assert body["required"] == ["review", "score"]
    for seed in range(20):
        parsed = parse_review(_random_answer(body, seed), 1, 10)
        assert parsed.ok and parsed.score is not None and 1 <= parsed.score <= 10


@pytest.mark.parametrize(
    "fmt",
    [NumberFormat(), ScoreLinesFormat(titles=["Coherence"]), TextFormat()],
)
def test_answers_that_are_not_json_by_design_are_not_constrained(fmt: object) -> None:
    assert answer_schema(fmt) is None  # type: ignore[arg-type]
    config = GenerateConfig(max_tokens=5)
    assert constrain(config, fmt, True) == (config, None)  # type: ignore[arg-type]


def test_inspects_response_schema_keeps_the_enum_and_ranges() -> None:
    schema = answer_schema(
        JsonFormat(
            json_schema={"properties": {"x": {"type": "integer", "minimum": 1, "maximum": 5}}}
        )
    )
    assert schema is not None
    sent = schema.response_schema()
    assert sent.strict is True and sent.name == "answer"
    dumped = sent.json_schema.model_dump(exclude_none=True)
    assert dumped["properties"]["x"] == {
        "type": "integer",
        "enum": [1, 2, 3, 4, 5],
        "minimum": 1,
        "maximum": 5,
    }


def test_the_json_object_dialect_bounds_free_text_only() -> None:
    schema = answer_schema(LabelFormat(labels=["x", "y"], reasoning=True))
    assert schema is not None
    body = schema.json_object()
    assert body["type"] == "json_object"
    properties = body["schema"]["properties"]
    assert properties["reasoning"]["maxLength"] == FREE_TEXT_MAX_CHARS
    assert "maxLength" not in properties["label"]
    # llama-cpp-python ignores number ranges: a probability is one of 0.0, 0.01, ..., 1.0
    distribution = answer_schema(DistributionFormat(options=["a", "b"]))
    assert distribution is not None
    probability = distribution.json_object()["schema"]["properties"]["a"]
    assert probability["enum"][:3] == [0.0, 0.01, 0.02] and probability["enum"][-1] == 1.0
    assert len(probability["enum"]) == 101
    assert "enum" not in distribution.json_schema["properties"]["a"]  # not in response_schema


@pytest.mark.parametrize(
    ("value", "parsed", "mode"),
    [
        (None, False, "off"),
        (False, False, "off"),
        ("false", False, "off"),
        (True, True, "response_schema"),
        ("true", True, "response_schema"),
        ("json_object", "json_object", "json_object"),
    ],
)
def test_the_option_values(value: object, parsed: object, mode: str) -> None:
    assert structured_value(value) == parsed
    assert structured_mode(value) == mode


def test_a_bad_option_value_is_refused() -> None:
    with pytest.raises(ValueError, match="json_object"):
        structured_value("grammar")


def test_configs_per_mode_and_server() -> None:
    fmt = LabelFormat(labels=["x", "y"])
    base = GenerateConfig(temperature=0.0, max_tokens=64, extra_body={"top_k": 5})
    assert constrain(base, fmt, False) == (base, None)
    config, name = constrain(base, fmt, True)
    assert name == "label" and config.response_schema is not None
    assert config.max_tokens == 64 and config.extra_body == {"top_k": 5}
    config, name = constrain(base, fmt, "json_object")
    assert name == "label" and config.response_schema is None
    assert config.extra_body is not None and config.extra_body["top_k"] == 5
    assert config.extra_body["response_format"]["type"] == "json_object"
    # llama-cpp-python's server refuses OpenAI's json_schema: its provider gets its dialect
    llama = get_model("llama-cpp-python/smollm2", base_url="http://127.0.0.1:9/v1")
    config, name = constrain(base, fmt, True, llama)
    assert name == "label" and config.response_schema is None
    assert config.extra_body is not None and "response_format" in config.extra_body


# SmolLM2-135M, constrained to the label schema, echoed the prompt's example block in
# its reasoning string (raw line breaks and all): the answer is one valid JSON object
# and must be read as that object, not cut apart at the fence or brace inside it.
ECHOED = '{ "reasoning": ");\n```json\n{", '


def test_a_whole_json_answer_is_read_whole_whatever_its_strings_hold() -> None:
    labels = ["not hate speech", "hate speech"]
    label = parse_label(ECHOED + '"label": "hate speech"}', labels)
    assert label.ok and label.label == "hate speech" and label.read_as == "json"
    text = ECHOED + '"probabilities": {"not hate speech": 0.25, "hate speech": 0.75}}'
    distribution = parse_distribution(text, labels)
    assert distribution.ok and distribution.read_as == "json", distribution.error
    assert distribution.distribution == {"not hate speech": 0.25, "hate speech": 0.75}
    review = parse_review('{"review": "A ```json\n{ fence", "score": 7}', 1, 10)
    assert review.ok and review.score == 7 and review.review == "A ```json\n{ fence"
