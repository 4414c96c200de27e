"""BM25 retrieval of an annotator's examples, and the trait ensemble's traits and vote."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

import pandas as pd
import pytest
from inspect_ai.model import ModelName
from inspect_ai.solver import TaskState
from rank_bm25 import BM25Okapi

from inspect_plural.prediction import Prediction
from inspect_plural.records import (
    Annotator,
    AnnotatorSampleMetadata,
    Item,
    LabeledExample,
    LabelScale,
)
from inspect_plural.solvers.retrieval import retrieve
from inspect_plural.solvers.trait_ensemble import trait_ensemble, trait_sentence
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.tasks.annotator._methods import _trait_values

SCALE = LabelScale(kind="nominal", labels=["no", "yes"])


def _example(i: int, text: str, label: str = "no") -> LabeledExample:
    return LabeledExample(item=Item(id=f"t{i}", text=text), label=label)


EXAMPLES = [
    _example(0, "the weather is lovely today"),
    _example(1, "brexit vote immigration borders"),
    _example(2, "football match tonight"),
    _example(3, "immigration policy and the brexit referendum vote", "yes"),
    _example(4, "cooking pasta with garlic"),
]


def test_retrieve_ranks_by_bm25_like_the_library() -> None:
    query = "a comment on the brexit vote and immigration"
    got = retrieve(query, EXAMPLES, k=2)
    assert {e.item.id for e in got} == {"t1", "t3"}
    words = [e.item.text.lower().split() for e in EXAMPLES]  # type: ignore[union-attr]
    scores = BM25Okapi(words).get_scores(query.lower().split())
    best = sorted(range(len(EXAMPLES)), key=lambda i: -scores[i])[:2]
    assert [e.item.id for e in got] == [f"t{i}" for i in best]


def test_retrieve_keeps_listed_order_on_ties_and_caps_at_k() -> None:
    got = retrieve("nothing in common", EXAMPLES, k=3)
    assert [e.item.id for e in got] == ["t0", "t1", "t2"]
    assert len(retrieve("brexit", EXAMPLES, k=50)) == len(EXAMPLES)
    assert retrieve("brexit", [], k=3) == []


def test_trait_sentence() -> None:
    assert (
        trait_sentence("age_range", "25 - 34")
        == 'a person whose profile reads "age range: 25 - 34"'
    )
    assert trait_sentence("person", "") == "a person"


def test_trait_values_in_dimension_order_without_unknowns() -> None:
    traits = {"a": {"sex": "F", "age": "UNK"}, "b": {"sex": "M", "age": "30"}, "c": {"sex": "F"}}
    corpus = AnnotatedCorpus(
        name="toy",
        scale=SCALE,
        annotators={a: Annotator(id=a, traits=t) for a, t in traits.items()},
        items={"i": Item(id="i", text="x")},
        judgments=pd.DataFrame(
            {"annotator_id": ["a", "b", "c"], "item_id": ["i"] * 3, "label": [0, 1, 0]}
        ),
        origin="test",
        trait_dimensions=["sex", "age"],
    )
    assert _trait_values(corpus) == [["sex", "F"], ["sex", "M"], ["age", "30"]]


class _Model:
    """Answers each trait prompt with the label mapped to its trait sentence."""

    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers
        self.prompts: list[str] = []

    async def generate(self, input: list[Any], config: Any = None) -> Any:
        text = input[-1].text
        self.prompts.append(text)
        label = next((lab for key, lab in self.answers.items() if key in text), "no")

        class _Out:
            completion = f'```json\n{{"label": "{label}"}}\n```'

        return _Out()


def _state(traits: dict[str, str], named: bool = True) -> TaskState:
    metadata = AnnotatorSampleMetadata(
        dataset="toy",
        annotator_id="a",
        item_id="i",
        traits=traits,
        scale=SCALE,
        item=Item(id="i", text="some text"),
        named=named,
    )
    return TaskState(
        model=ModelName("plural/random"),
        sample_id="a:i",
        epoch=1,
        input="some text",
        messages=[],
        metadata=metadata.model_dump(),
    )


def _solve(monkeypatch: pytest.MonkeyPatch, model: _Model, state: TaskState, **args: Any) -> Any:
    module = importlib.import_module("inspect_plural.solvers.trait_ensemble")
    monkeypatch.setattr(module, "role_model", lambda role: model)
    solver = trait_ensemble(**args)

    async def generate(*a: Any, **k: Any) -> TaskState:
        raise AssertionError("the method calls the model itself")

    return asyncio.run(solver(state, generate))  # type: ignore[arg-type]


def test_own_traits_one_call_each_unknown_skipped_majority(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model = _Model({"sex: F": "yes", "age: 30": "no", "country: IT": "yes"})
    state = _solve(
        monkeypatch, model, _state({"sex": "F", "age": "30", "country": "IT", "job": "UNK"})
    )
    assert len(model.prompts) == 3 and all("job" not in p for p in model.prompts)
    assert state.store.get("Prediction:label") == "yes"
    answers = Prediction.read(state.store).answers
    assert [a.persona for a in answers] == ["sex=F", "age=30", "country=IT"]
    assert state.store.get("Prediction:model_calls") == 3


def test_tie_goes_to_the_first_trait(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _Model({"sex: F": "no", "age: 30": "yes"})
    state = _solve(monkeypatch, model, _state({"sex": "F", "age": "30"}))
    assert state.store.get("Prediction:label") == "no"


def test_no_known_trait_falls_back_to_one_plain_call(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _Model({})
    state = _solve(monkeypatch, model, _state({"sex": "UNK"}))
    assert len(model.prompts) == 1 and "You are a person." in model.prompts[0]
    assert state.store.get("Prediction:aggregate") == "no_traits"


def test_all_scope_applies_every_trait_to_everyone(monkeypatch: pytest.MonkeyPatch) -> None:
    model = _Model({})
    values = [["sex", "F"], ["sex", "M"], ["age", "30"]]
    _solve(monkeypatch, model, _state({}, named=False), trait_scope="all", trait_values=values)
    assert len(model.prompts) == 3
    assert any('"sex: M"' in p for p in model.prompts)


def test_trait_ensemble_refuses_bad_options(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="trait_scope"):
        trait_ensemble(trait_scope="some")
    with pytest.raises(ValueError, match="trait_values"):
        trait_ensemble(trait_scope="all")
    with pytest.raises(ValueError, match="named"):
        _solve(monkeypatch, _Model({}), _state({}, named=False))
