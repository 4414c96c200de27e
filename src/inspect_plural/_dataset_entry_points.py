"""Which installed dataset adapter a name means: the entry points, read once, by name.

See :mod:`inspect_plural.adapters` for what an adapter is. A built-in dataset keeps its
name whatever else is installed; a third-party adapter named like one is reachable only
as ``package:name`` and a warning names both; a bare name two third-party packages both
register must be given qualified.
"""

from __future__ import annotations

import functools
import logging
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from inspect_plural.errors import UserError

__all__ = [
    "BUILT_IN_PACKAGE",
    "ENTRY_POINT_GROUP",
    "DatasetPluginError",
    "available_datasets",
    "describe_entry_point",
    "plugin_identity",
    "resolve_dataset",
]

logger = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "inspect_plural.datasets"
"""The entry-point group dataset adapters register in."""

BUILT_IN_PACKAGE = "inspect-plural"
"""The distribution whose adapters are the built-in datasets (normalised name)."""


class DatasetPluginError(UserError, ValueError):
    """A dataset plugin is missing, cannot be loaded, or yields malformed records.

    A :class:`~inspect_plural.errors.UserError`: Inspect prints it without a traceback.

    Args:
        plugin: The plugin's name, with the package and object that provide it.
        problem: What is wrong.

    """

    def __init__(self, plugin: str, problem: str) -> None:
        self.plugin = plugin
        super().__init__(f"dataset plugin {plugin}: {problem}")


def _normalised(package: str) -> str:
    return re.sub(r"[-_.]+", "-", package).lower()


def _package(entry: EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    return _normalised(dist.name) if dist is not None else ""


def _is_built_in(entry: EntryPoint) -> bool:
    package = _package(entry)
    if package:
        return package == BUILT_IN_PACKAGE
    return entry.value.startswith("inspect_plural.")


def _qualified(entry: EntryPoint) -> str:
    return f"{_package(entry) or entry.value.split('.')[0]}:{entry.name}"


@dataclass(frozen=True)
class _Installed:
    """The adapters one scan found: by name (bare and qualified) and the ambiguous names."""

    by_name: dict[str, EntryPoint]
    ambiguous: dict[str, list[str]]


@functools.lru_cache(maxsize=8)
def _scan(path: tuple[str, ...]) -> _Installed:
    """Read the entry points once per ``sys.path`` (``path`` is only the cache key)."""
    built_in: dict[str, EntryPoint] = {}
    others: dict[str, list[EntryPoint]] = {}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if _is_built_in(entry):
            built_in.setdefault(entry.name, entry)
        else:
            others.setdefault(entry.name, []).append(entry)
    by_name = dict(built_in)
    ambiguous: dict[str, list[str]] = {}
    for name, entries in others.items():
        if name in built_in:
            for entry in entries:
                logger.warning(
                    "dataset plugin %s has the name of the built-in dataset %r (%s): %r is "
                    "the built-in; the plugin is %r",
                    describe_entry_point(entry),
                    name,
                    built_in[name].value,
                    name,
                    _qualified(entry),
                )
        elif len(entries) == 1:
            by_name[name] = entries[0]
        else:
            ambiguous[name] = sorted(_qualified(e) for e in entries)
    for entry in [*built_in.values(), *(e for es in others.values() for e in es)]:
        by_name.setdefault(_qualified(entry), entry)
    return _Installed(by_name, ambiguous)


def _installed() -> _Installed:
    return _scan(tuple(sys.path))


def available_datasets() -> dict[str, EntryPoint]:
    """The installed dataset adapters: name -> entry point.

    Built-in datasets under their own names; a third-party adapter under its name unless
    a built-in or another package has it; every adapter under ``package:name`` too.
    """
    return dict(_installed().by_name)


def _listed(found: Mapping[str, EntryPoint]) -> list[str]:
    """The names to list in a message: qualified ones only where the bare name is taken."""
    return sorted(
        name
        for name, entry in found.items()
        if ":" not in name or found.get(entry.name) is not entry
    )


def resolve_dataset(name: str) -> EntryPoint:
    """The entry point a dataset name resolves to (see the module docstring for the rules).

    Args:
        name: A dataset name (``brexit``) or a qualified one (``my-package:brexit``; the
            package part is matched as pip matches names, so ``my_package:brexit`` too).

    Returns:
        The entry point.

    Raises:
        DatasetPluginError: No adapter has the name, or several third-party ones do.
    """
    installed = _installed()
    package, colon, bare = name.partition(":")
    key = f"{_normalised(package)}:{bare}" if colon else name
    if key in installed.by_name:
        return installed.by_name[key]
    if name in installed.ambiguous:
        raise DatasetPluginError(
            repr(name),
            f"is registered by several packages; name one: {installed.ambiguous[name]}",
        )
    raise DatasetPluginError(
        repr(name),
        f"not installed; installed dataset plugins ({ENTRY_POINT_GROUP}): "
        f"{_listed(installed.by_name)}",
    )


def describe_entry_point(entry: EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    package = f" from package {dist.name} {dist.version}" if dist is not None else ""
    return f"{entry.name!r} ({entry.value}{package})"


def plugin_identity(name: str) -> dict[str, str]:
    """Which adapter a dataset name resolves to: entry point, package and version.

    Args:
        name: The adapter's name, bare or qualified.

    Returns:
        ``name``, ``entry_point`` (``module:object``), ``package`` and ``version``
        (empty when the entry point has no distribution).
    """
    entry = resolve_dataset(name)
    dist = getattr(entry, "dist", None)
    return {
        "name": name,
        "entry_point": entry.value,
        "package": dist.name if dist is not None else "",
        "version": dist.version if dist is not None else "",
    }
