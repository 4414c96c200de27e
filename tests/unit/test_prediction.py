from __future__ import annotations

from inspect_ai.util import Store

from inspect_plural.prediction import ModelAnswer, Prediction


def test_write_to_replaces_an_earlier_prediction() -> None:
    store = Store()
    Prediction(store=Store(), method="first", label="a", parse_ok=True).write_to(store)
    second = Prediction(
        store=Store(),
        method="second",
        label="b",
        answers=[ModelAnswer(raw="x", parse_ok=False, error="no JSON")],
    ).write_to(store)
    assert (second.method, second.label, second.parse_ok) == ("second", "b", False)
    reread = Prediction(store=store)
    assert reread.label == "b" and reread.answers[0].error == "no JSON"
