"""The structured prediction every method writes and every scorer reads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any, ClassVar

from inspect_ai.util import Store, StoreModel
from pydantic import BaseModel, Field
from pydantic_core import to_jsonable_python
from typing_extensions import Self

from inspect_plural.parsing import FailureReason, ReadAs

__all__ = ["ModelAnswer", "PanelScores", "Prediction", "StoredRecord", "main_failure"]

_SNAPSHOT = "inspect_plural_snapshot"
"""Validation-context flag of :meth:`StoredRecord.read`."""


class ModelAnswer(BaseModel):
    """One model call's answer, as parsed.

    Attributes:
        raw: The model's full text output.
        parse_ok: Whether the answer could be parsed.
        error: Why parsing failed (None when it did not).
        distribution: The parsed distribution over the options, when asked for one.
        label: The parsed label (top-1 option for distributions).
        renormalised: True when the probabilities did not sum to 1 and were rescaled.
        persona: Who answered, for panels and ensembles (a movie character, a trait).
        aspect: The aspect of that persona the answer says it used, when asked for.
        scores: The parsed score per dimension, for rating answers.
        review: The review written with the answer (review-enhanced evaluation).
        order: The presentation order the answer was given under (``AB`` or ``BA``),
            for pairwise answers asked in both orders.
        read_as: How the answer was read (``json``, ``text`` or ``ranked``; see
            :data:`inspect_plural.parsing.ReadAs`); None when it could not be read, or
            for records written before the field existed.
        schema_name: The name of the JSON schema structured output constrained the answer
            to (``label``, ``distribution``, ...; see :mod:`inspect_plural.structured`);
            None when the call was not constrained.
        failure: Why the answer is not one (``echo``, ``copied_example``, ``hedge``,
            ``truncated``, ...; see :data:`inspect_plural.parsing.FailureReason`); None
            when it parsed, or for records written before the field existed.

    """

    raw: str
    parse_ok: bool
    error: str | None = None
    distribution: dict[str, float] | None = None
    label: str | None = None
    renormalised: bool = False
    persona: str | None = None
    aspect: str | None = None
    scores: dict[str, float] | None = None
    review: str | None = None
    order: str | None = None
    read_as: ReadAs | None = None
    schema_name: str | None = None
    failure: FailureReason | None = None


def main_failure(reasons: Iterable[FailureReason | None]) -> FailureReason | None:
    """The failure reason of a prediction: the most frequent of its answers' (first on ties).

    Args:
        reasons: The failure reasons of its failed answers (None entries are skipped).

    Returns:
        The reason, or None when there is none.
    """
    counts = Counter(r for r in reasons if r is not None)
    return counts.most_common(1)[0][0] if counts else None


class PanelScores(BaseModel):
    """One panel's scores behind a rating prediction (a stakeholder group, a referee team).

    Attributes:
        initial: Member -> dimension -> score before any discussion (parsed scores only).
        final: Member -> dimension -> score at the end (parsed scores only).
        scores: The panel's score per dimension (the mean of the final scores).
        model_calls: Calls the panel made for this sample.
        tokens: Input plus output tokens of those calls.

    """

    initial: dict[str, dict[str, float]] = Field(default_factory=dict)
    final: dict[str, dict[str, float]] = Field(default_factory=dict)
    scores: dict[str, float] = Field(default_factory=dict)
    model_calls: int = 0
    tokens: int = 0


def _prefix(cls: type[StoreModel], instance: str | None) -> str:
    """The store-key prefix of a record's fields (as ``StoreModel`` names them)."""
    return f"{cls.__name__}:" + (f"{instance}:" if instance is not None else "")


@cache
def _sparse_defaults(cls: type[StoredRecord]) -> dict[str, Any]:
    """Each sparse field's default (a default factory is inspected on every call, so once)."""
    return {
        name: cls.model_fields[name].get_default(call_default_factory=True)
        for name in cls.sparse_fields
    }


class _DetachedStore(Store):
    """The scratch store of a :meth:`StoredRecord.read` or ``detached`` snapshot."""


class StoredRecord(StoreModel):
    """A store model written in one step and read as one validated snapshot.

    Inspect's ``StoreModel`` validates a field again (building a new ``TypeAdapter``)
    each time a non-scalar field is read, and writes the result back to the store, so
    code that reads a record field by field pays for it on every sample. Records are
    therefore written with :meth:`write_to` and read with :meth:`read`.
    """

    sparse_fields: ClassVar[frozenset[str]] = frozenset()
    """Fields :meth:`write_to` leaves out of the store while they hold their default.

    Inspect logs every stored key of every record as a change in the sample's events
    (several times over), so a record written for every sample keeps its rarely-used
    fields out of the store until they are set.
    """

    def model_post_init(self, context: Any) -> None:
        """Bind to the store as ``StoreModel`` does, except for :meth:`read` snapshots."""
        if isinstance(context, dict) and context.get(_SNAPSHOT):
            # a detached snapshot: an empty scratch store, so every field read is the
            # value pydantic validated (no per-read coercion)
            self.__dict__["store"] = _DetachedStore()
            self.__dict__["instance"] = context.get("instance")
            return
        super().model_post_init(context)

    def __getattribute__(self, name: str) -> Any:
        """A snapshot's field comes from its own values, not via ``StoreModel``'s store lookup."""
        if name[0] != "_" and not name.startswith("model_"):
            values = object.__getattribute__(self, "__dict__")
            if name in values and type(values.get("store")) is _DetachedStore:
                return values[name]
        return super().__getattribute__(name)

    @classmethod
    def read(cls, store: Store, instance: str | None = None) -> Self:
        """A validated, detached copy of the record held in ``store``.

        All fields are validated in one step; reading them costs nothing. Changes to the
        copy do not reach ``store`` (use ``store_as`` to change a record in place).

        Args:
            store: The sample's store (``state.store``).
            instance: The record's instance name, if it was stored under one.

        Returns:
            The record (defaults for fields the store does not hold).
        """
        prefix = _prefix(cls, instance)
        data = {
            name: store.get(prefix + name)
            for name in cls.model_fields
            if name not in ("store", "instance") and prefix + name in store
        }
        return cls.model_validate(data, context={_SNAPSHOT: True, "instance": instance})

    @classmethod
    def detached(cls, **fields: Any) -> Self:
        """A record on no sample's store, to fill and then :meth:`write_to` one.

        The fields are validated as usual; unlike ``Prediction(store=Store(), ...)``
        nothing is copied into a scratch store (which ``write_to`` does not need).

        Args:
            **fields: The record's fields.

        Returns:
            The record.
        """
        return cls.model_validate(fields, context={_SNAPSHOT: True, "instance": None})

    def write_to(self, store: Store) -> None:
        """Replace the record of this kind held in ``store`` by this one.

        Build the record with :meth:`detached`, ``Prediction.detached(...)``, then
        write it in one step; this replaces an earlier method's record in a composed
        chain instead of silently keeping it. Fields in :attr:`sparse_fields` that hold
        their default are removed from the store rather than written.

        Args:
            store: The sample's store (``state.store``).
        """
        # plain attribute access: StoreModel routes every attribute read via the store
        cls = type(self)
        values = object.__getattribute__(self, "__dict__")
        prefix = _prefix(cls, values.get("instance"))
        sparse = _sparse_defaults(cls)
        for name in cls.model_fields:
            if name in ("store", "instance"):
                continue
            value = values[name]
            if name in sparse and value == sparse[name]:
                if prefix + name in store:
                    store.delete(prefix + name)  # reads give the default
                continue
            # as JSON values, not model objects, and without the nested models' unset
            # (None) fields: Inspect copies, diffs and logs the store after every solver
            # step, several times over; reads restore the defaults
            store.set(prefix + name, to_jsonable_python(value, exclude_none=True))


class Prediction(StoredRecord):
    """A method's final answer for one sample, kept in the sample store.

    Scorers read this and never re-parse model text, so any scorer applies to any
    method. Unparseable answers stay here with ``parse_ok=False``. How each answer was
    read (JSON, free text, a ranked list) is recorded on it (``answers[i].read_as``),
    so a preset that accepts only JSON can tell.

    Attributes:
        method: Name of the solver that wrote it.
        label: Predicted label (top-1 option for distributions).
        score: Predicted numeric score, for rating tasks (``overall`` when rated on
            several dimensions).
        scores: Predicted score per dimension, for rating tasks (on the method's scale;
            a dimension the method could not score is absent).
        distribution: Predicted probability over the label space or candidates.
        parse_ok: Whether a usable answer was obtained.
        error: Why not, when ``parse_ok`` is False.
        renormalised: True when the final distribution had to be rescaled.
        rationale: Free-text reasoning that accompanied the answer.
        answers: Every model answer behind this prediction (K for self-consistency).
        aggregate: How several answers were combined (``single``, ``majority``, ``mean``).
        model_calls: Number of model calls the method made for this sample.
        tokens: Input plus output tokens of those calls (0 when not counted).
        panels: Per panel (stakeholder group, referee team), its members' initial and
            final scores, for agreement metrics and cost per group.
        initial_scores: The prediction per dimension before any discussion (debates).
        flags: Notes on how the prediction was made.
        failure: Why there is no prediction, when ``parse_ok`` is False (the most
            frequent reason of its failed answers, or the method's own: ``no_panel``,
            ``build_failed``).

    """

    method: str = Field(default="")
    label: str | None = Field(default=None)
    score: float | None = Field(default=None)
    distribution: dict[str, float] | None = Field(default=None)
    parse_ok: bool = Field(default=False)
    error: str | None = Field(default=None)
    renormalised: bool = Field(default=False)
    rationale: str | None = Field(default=None)
    answers: list[ModelAnswer] = Field(default_factory=list)
    aggregate: str = Field(default="single")
    model_calls: int = Field(default=0)
    scores: dict[str, float] = Field(default_factory=dict)
    tokens: int = Field(default=0)
    panels: dict[str, PanelScores] = Field(default_factory=dict)
    initial_scores: dict[str, float] = Field(default_factory=dict)
    flags: list[str] = Field(default_factory=list)
    failure: FailureReason | None = Field(default=None)

    sparse_fields: ClassVar[frozenset[str]] = frozenset(
        {
            "distribution",
            "answers",
            "model_calls",
            "score",
            "error",
            "renormalised",
            "aggregate",
            "rationale",
            "scores",
            "tokens",
            "panels",
            "initial_scores",
            "flags",
            "failure",
        }
    )
