from __future__ import annotations

import copy

from inspect_ai.util import Store

from inspect_plural.prediction import ModelAnswer, PanelScores, Prediction


def test_write_to_replaces_an_earlier_prediction() -> None:
    store = Store()
    Prediction(store=Store(), method="first", label="a", parse_ok=True).write_to(store)
    Prediction(
        store=Store(),
        method="second",
        label="b",
        answers=[ModelAnswer(raw="x", parse_ok=False, error="no JSON")],
    ).write_to(store)
    # the fields only, namespaced by class (no bookkeeping key such as the instance)
    assert all(key.startswith("Prediction:") for key, _ in store.items())
    assert "Prediction:instance" not in store
    reread = Prediction(store=store)
    assert (reread.method, reread.label, reread.parse_ok) == ("second", "b", False)
    assert reread.answers[0].error == "no JSON"


def _stored() -> Store:
    store = Store()
    Prediction(
        store=Store(),
        method="m",
        label="a",
        distribution={"a": 0.75, "b": 0.25},
        parse_ok=True,
        answers=[ModelAnswer(raw="r", parse_ok=True, label="a")],
        panels={"teachers": PanelScores(scores={"overall": 3.0}, model_calls=2)},
        model_calls=2,
    ).write_to(store)
    return store


def test_read_equals_the_bound_record_and_leaves_the_store_untouched() -> None:
    store = _stored()
    before = copy.deepcopy(dict(store.items()))
    snapshot = Prediction.read(store)
    bound = Prediction(store=copy.deepcopy(store))  # store_as coerces in place: on a copy
    for name in Prediction.model_fields:
        if name not in ("store", "instance"):
            assert getattr(snapshot, name) == getattr(bound, name), name
    assert isinstance(snapshot.answers[0], ModelAnswer)
    assert isinstance(snapshot.panels["teachers"], PanelScores)
    # a snapshot is detached: changing it does not reach the sample's store
    snapshot.label = "b"
    assert snapshot.label == "b"  # read back from the snapshot's own values
    assert dict(store.items()) == before
    assert Prediction.read(store).label == "a"
    # a record bound to a store still reads through it (StoreModel's behaviour)
    bound_store = copy.deepcopy(store)
    bound_again = Prediction(store=bound_store)
    bound_store.set("Prediction:label", "c")
    assert bound_again.label == "c"


def test_read_gives_defaults_for_a_missing_record_and_reads_instances() -> None:
    empty = Prediction.read(Store())
    assert (empty.label, empty.parse_ok, empty.answers, empty.model_calls) == (None, False, [], 0)
    store = Store()
    Prediction(store=Store(), instance="judge", label="x", parse_ok=True).write_to(store)
    assert "Prediction:judge:label" in store and "Prediction:label" not in store
    assert Prediction.read(store, instance="judge").label == "x"
    assert Prediction.read(store).label is None


def test_sparse_fields_at_their_default_stay_out_of_the_store() -> None:
    store = Store()
    Prediction(store=Store(), method="first", rationale="why", tokens=12).write_to(store)
    assert store.get("Prediction:rationale") == "why" and store.get("Prediction:tokens") == 12
    # a later record at the default removes the earlier value instead of keeping it
    Prediction(store=Store(), method="second").write_to(store)
    assert "Prediction:rationale" not in store and "Prediction:tokens" not in store
    assert "Prediction:error" not in store and "Prediction:panels" not in store
    # what says whether and what it answered is always there, default or not
    assert store.get("Prediction:parse_ok") is False and store.get("Prediction:label") is None
    # a 0-call method's empty answers, call count and distribution are not (issue 32:
    # each stored key costs every sample three logged changes); reads give the defaults
    for name in ("answers", "model_calls", "distribution"):
        assert f"Prediction:{name}" not in store
    snapshot = Prediction.read(store)
    assert (snapshot.method, snapshot.rationale, snapshot.tokens) == ("second", None, 0)
    assert (snapshot.answers, snapshot.model_calls, snapshot.distribution) == ([], 0, None)
    assert Prediction(store=store).model_calls == 0 and Prediction(store=store).answers == []
    assert Prediction(store=store).rationale is None


def test_how_each_answer_was_read_is_kept_without_a_new_store_key() -> None:
    store = Store()
    answers = [
        ModelAnswer(raw="{...}", parse_ok=True, label="a", read_as="json"),
        ModelAnswer(raw="1. a\n2. b", parse_ok=True, label="a", read_as="ranked"),
        ModelAnswer(raw="It is a.", parse_ok=True, label="a", read_as="text"),
        ModelAnswer(raw="?", parse_ok=False, error="no label found"),
    ]
    Prediction.detached(method="m", label="a", parse_ok=True, answers=answers).write_to(store)
    keys = {key for key, _ in store.items()}
    assert not any("read_as" in key for key in keys)  # a field of each answer, not a key
    stored = store.get("Prediction:answers")
    assert [a.get("read_as") for a in stored] == ["json", "ranked", "text", None]
    assert "read_as" not in stored[3]  # unset: left out, as every None field
    reread = Prediction.read(store)
    assert [a.read_as for a in reread.answers] == ["json", "ranked", "text", None]
