"""Options of tasks, solvers and scorers (``-T``, ``-S``): declared, typed, checked first.

Every task declares its options as :class:`TaskOption` specs and calls
:func:`check_options` on everything it was given *before it reads any data*, so that an
unknown or misspelled option fails at once with the closest valid names ("did you mean
few_shot?") instead of being ignored (Inspect only warns about a parameter a task does
not take) or failing later as a missing file. Values are parsed with their types and
ranges, and every failure is an :class:`~inspect_plural.errors.OptionError` naming the
option, which Inspect prints in a few lines without a traceback.

Inspect reads ``-T`` values as YAML (``3`` is an int, ``true`` a bool, ``a,b`` a
string), and the Python API passes them as given, so parsing accepts both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from inspect_plural.errors import OptionError, closest

__all__ = [
    "MAX_HEADLINE_METRICS",
    "METRICS_LEVELS",
    "MethodOption",
    "MetricsLevel",
    "TaskOption",
    "as_bool",
    "check_options",
    "metrics_option",
    "option_value",
    "parse_option",
    "user_options",
]

RESERVED = ("version",)
"""Keyword parameters of the task factories that are not ``-T`` options of a built-in task."""

MetricsLevel = Literal["headline", "full"]
METRICS_LEVELS: tuple[MetricsLevel, ...] = ("headline", "full")
"""Values of every task's ``metrics`` option: the paper's headline numbers (default), or
every breakdown as well (per class, per trait value, per group, per annotator)."""

MAX_HEADLINE_METRICS = 25
"""At most this many metric values in a task's log under ``metrics=headline``."""

Kind = Literal["bool", "int", "float", "str", "list", "int_list", "raw"]


@dataclass(frozen=True)
class TaskOption:
    """One ``-T`` option of a task: its type, default, allowed values and meaning.

    Attributes:
        name: The option's name.
        default: Its default (None: automatic, or absent).
        kind: ``bool``, ``int``, ``float``, ``str``, ``list`` (comma-separated strings),
            ``int_list`` (comma-separated integers) or ``raw`` (a string, list or
            mapping kept as given, for a method whose own parser reads it).
        choices: The allowed values of a ``str`` (or each item of a ``list``) option.
        low: The smallest allowed number.
        high: The largest allowed number.
        help: What it does, one line (shown in errors and docs).
        method: The method it configures, when it configures a single method.
    """

    name: str
    default: Any = None
    kind: Kind = "str"
    choices: tuple[Any, ...] | None = None
    low: float | None = None
    high: float | None = None
    help: str = ""
    method: str | None = None


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "yes", "1"):
        return True
    if text in ("false", "no", "0"):
        return False
    raise OptionError(name, f"must be true or false, not {value!r}")


def as_bool(name: str, value: Any) -> bool:
    """A boolean option, given as a bool or as the strings true/false/yes/no/1/0."""
    return _bool(name, value)


def _number(spec: TaskOption, value: Any) -> float | int:
    cast = int if spec.kind == "int" else float
    if isinstance(value, bool):
        raise OptionError(spec.name, f"must be {_kind_name(spec)}, not {value!r}")
    try:
        if cast is int and isinstance(value, float):
            if not value.is_integer():
                raise ValueError
            number: float | int = int(value)
        else:
            number = cast(str(value).strip()) if isinstance(value, str) else cast(value)
    except (TypeError, ValueError):
        raise OptionError(spec.name, f"must be {_kind_name(spec)}, not {value!r}") from None
    if spec.low is not None and number < spec.low:
        raise OptionError(spec.name, f"must be at least {_fmt(spec.low)}, not {number}")
    if spec.high is not None and number > spec.high:
        raise OptionError(spec.name, f"must be at most {_fmt(spec.high)}, not {number}")
    return number


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _kind_name(spec: TaskOption) -> str:
    return {
        "bool": "true or false",
        "int": "an integer",
        "float": "a number",
        "str": "a string",
        "list": "a comma-separated list",
        "int_list": "a comma-separated list of integers",
        "raw": "a string, a list or a mapping",
    }[spec.kind]


def _items(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        return list(value)
    return [v.strip() for v in str(value).split(",") if v.strip()]


def _check_choice(spec: TaskOption, value: Any) -> None:
    if spec.choices is not None and value not in spec.choices:
        options = ", ".join(str(c) for c in spec.choices)
        near = closest(str(value), [str(c) for c in spec.choices], n=1)
        hint = f"did you mean {near[0]}? " if near else ""
        raise OptionError(spec.name, f"{value!r} is not one of {options}", f"{hint}".strip())


def parse_option(spec: TaskOption, value: Any) -> Any:
    """An option's value as its declared type, checked against its choices and range.

    Args:
        spec: The option.
        value: The value as given (YAML-parsed from ``-T``, or from Python).

    Returns:
        The parsed value (None stays None: the option's automatic default).

    Raises:
        OptionError: The value has the wrong type or is out of range.
    """
    if value is None:
        return None
    if spec.kind == "raw":  # read by the method's own parser (e.g. inline profiles)
        return value
    if spec.kind == "bool":
        return _bool(spec.name, value)
    if spec.kind in ("int", "float"):
        number = _number(spec, value)
        if spec.choices is not None and number not in spec.choices:
            allowed = ", ".join(str(c) for c in spec.choices)
            raise OptionError(spec.name, f"must be one of {allowed}, not {number}")
        return number
    if spec.kind in ("list", "int_list"):
        items = _items(value)
        if spec.kind == "int_list":
            item_spec = TaskOption(spec.name, kind="int", low=spec.low, high=spec.high)
            return [_number(item_spec, item) for item in items]
        parsed = [str(item) for item in items]
        for item in parsed:
            _check_choice(spec, item)
        return parsed
    if isinstance(value, (dict, list, tuple)):
        raise OptionError(spec.name, f"must be {_kind_name(spec)}, not {value!r}")
    # YAML reads -T x=true as a bool: a string option whose choices are "true"/"false"
    text = str(value).lower() if isinstance(value, bool) else str(value)
    _check_choice(spec, text)
    return text


def check_options(
    task: str,
    specs: Iterable[TaskOption],
    given: Mapping[str, Any],
    reserved: Sequence[str] = (),
) -> dict[str, Any]:
    """Check and parse every option given to a task, before it reads any data.

    Args:
        task: The task's name, for messages.
        specs: The options the task accepts.
        given: The options as given (explicit parameters and ``**options`` together).
        reserved: Parameters a caller may pass that are not options (passed through).

    Returns:
        Every declared option: the parsed value where given, its default otherwise.

    Raises:
        OptionError: An unknown option (with the closest valid names) or a bad value.
    """
    by_name = {spec.name: spec for spec in specs}
    for name in given:
        if name in by_name or name in reserved:
            continue
        near = closest(name, by_name)
        hint = (
            f"did you mean {' or '.join(near)}?"
            if near
            else f"valid options: {', '.join(sorted(by_name))}."
        )
        raise OptionError(name, f"not an option of {task}", hint)
    parsed: dict[str, Any] = {}
    for name, spec in by_name.items():
        if name in given and given[name] is not None:
            parsed[name] = parse_option(spec, given[name])
        else:
            parsed[name] = spec.default
    return parsed


def metrics_option(help: str = "") -> TaskOption:
    """The ``metrics`` option every task takes: ``headline`` (default) or ``full``."""
    return TaskOption(
        "metrics",
        "headline",
        "str",
        choices=METRICS_LEVELS,
        help=help
        or "headline: the paper's numbers, parse failures, calls and tokens (at most "
        f"{MAX_HEADLINE_METRICS}); full: also every breakdown (per class, trait value, "
        "group, annotator)",
    )


class MethodOption(NamedTuple):
    """A task option that configures one method (``-T name=value``)."""

    method: str
    parameter: str
    default: Any
    kind: type


def option_value(option: str, spec: MethodOption, value: Any) -> Any:
    """A method option's value as its type, with an error that names the option."""
    if spec.kind is bool:
        return as_bool(option, value)
    if spec.kind is list:
        if isinstance(value, (list, tuple)):
            return [str(v) for v in value]
        return [v.strip() for v in str(value).split(",") if v.strip()]
    try:
        return spec.kind(value)
    except (TypeError, ValueError):
        raise OptionError(option, f"must be of type {spec.kind.__name__}, not {value!r}") from None


def user_options(options: dict[str, Any]) -> dict[str, Any]:
    """A built-in task's ``-T`` options, refusing the factories' own parameters.

    The version of a built-in task is its ``eval.yaml``'s, not a user option.
    """
    reserved = sorted(set(options) & set(RESERVED))
    if reserved:
        raise OptionError(reserved[0], "is not a task option: the version comes from eval.yaml")
    return options
