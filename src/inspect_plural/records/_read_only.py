"""Read-only metadata values: what a sample stores is never copied, only shared.

Inspect deep-copies a sample's metadata each time it starts the sample (the sample, then
its ``TaskState`` twice) and keeps one copy per sample in each score it hands the
metrics, until the eval ends. A sample's stored metadata is its record: methods read it
and never change it, so copying its nested values buys nothing. :func:`read_only`
stores them as :class:`ReadOnlyDict` and :class:`ReadOnlyList`: a ``dict`` and a
``list`` in every respect a reader sees (``isinstance``, equality, JSON, the log), except
that changing one raises :class:`TypeError`, and copying one (``copy.copy``,
``copy.deepcopy``) returns the value itself. Each copy of the metadata is then a new
top-level dict that shares the values, and a value several samples share (a run's
scale, an annotator's traits) stays one object however often it is copied.

Why not the standard library's or a package's frozen mapping: ``types.MappingProxyType``
is not a ``dict`` (pydantic, ``json`` and readers that check ``isinstance(value, dict)``
would refuse it) and cannot be deep-copied at all; ``frozendict`` (2.5.1, checked) is
still deep-copied, value by value, and has no list to go with it.

Measured on MP's item samples (``uniform``, 500 and 1,500 items): 28 KB of memory an
item against 34 KB with copied values; bare Inspect's is 21 KB (issue 32).
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["ReadOnlyDict", "ReadOnlyList", "read_only", "read_only_values"]

_MESSAGE = (
    "a sample's stored metadata is read-only (its values are shared, not copied): "
    "change a copy, e.g. dict(value) or list(value)"
)


def _refuse(*_args: Any, **_kwargs: Any) -> NoReturn:
    raise TypeError(_MESSAGE)


class ReadOnlyDict(dict[str, Any]):
    """A ``dict`` that cannot change, so a copy of it is itself."""

    __slots__ = ()

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> ReadOnlyDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyDict:
        return self

    def __reduce__(self) -> tuple[type[ReadOnlyDict], tuple[dict[str, Any]]]:
        # pickled by value: the default would rebuild it with __setitem__
        return (ReadOnlyDict, (dict(self),))


class ReadOnlyList(list[Any]):
    """A ``list`` that cannot change, so a copy of it is itself."""

    __slots__ = ()

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __copy__(self) -> ReadOnlyList:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyList:
        return self

    def __reduce__(self) -> tuple[type[ReadOnlyList], tuple[list[Any]]]:
        return (ReadOnlyList, (list(self),))


def read_only(value: Any) -> Any:
    """A value whose dicts and lists, at every depth, are read-only (the rest as it is).

    Args:
        value: A JSON-like value: dicts with string keys, lists, scalars. A value that
            is read-only already is returned as it is (so values samples share stay
            one object).

    Returns:
        The value with each ``dict`` a :class:`ReadOnlyDict` and each ``list`` a
        :class:`ReadOnlyList`.
    """
    if isinstance(value, ReadOnlyDict | ReadOnlyList):
        return value
    if isinstance(value, dict):
        return ReadOnlyDict({key: read_only(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return ReadOnlyList(read_only(item) for item in value)
    return value


def read_only_values(metadata: dict[str, Any]) -> dict[str, Any]:
    """A sample's metadata to store: a plain dict, its values :func:`read_only`.

    The dict itself stays a plain one: a solver may add keys to its state's copy.

    Args:
        metadata: The metadata as its schema dumps it.

    Returns:
        A new dict of the same keys.
    """
    return {key: read_only(value) for key, value in metadata.items()}
