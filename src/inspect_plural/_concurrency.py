"""Concurrent model calls under spans named for what each one is.

Inspect's ``collect()`` runs awaitables concurrently but opens a span named ``task-1``,
``task-2``, ... around each, which is what Inspect View then shows. The package's
concurrent work (a panel's role-plays, a candidate's validation, a group's personas)
runs through :func:`gather` instead, each awaitable wrapped by :func:`named` in a span
that says what it is (``Marge Gunderson (Fargo)``, ``validation of ...``).

Work that a run does once and many samples share (an annotator's CINEMETRIC panel, a
task's persona set) goes through :class:`SharedBuilds`: one build per key per run under
a lock, tried :data:`BUILD_ATTEMPTS` times at most, and a failure is shared as well, so
the samples waiting on it fail with its reason (:class:`BuildFailed`, a sample error)
instead of paying for it again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar, cast

import anyio
from inspect_ai.log import transcript
from inspect_ai.util import LimitExceededError, span

from inspect_plural._inspect_private import PrerequisiteError

__all__ = ["BUILD_ATTEMPTS", "BuildFailed", "SharedBuilds", "gather", "named"]

T = TypeVar("T")

BUILD_ATTEMPTS = 2
"""Attempts at a shared build (a panel, a persona set) before it counts as failed: the
first and one retry. Each attempt's model calls keep Inspect's own retries of 429/5xx."""
_REASON_CHARS = 300


async def gather(*tasks: Awaitable[T]) -> list[T]:
    """Run awaitables concurrently and return their results in order (no ``task-N`` span).

    As with ``collect()``, an awaitable that fails cancels the others and its exception
    is raised as it is, not wrapped in the task group's ``ExceptionGroup`` (so callers
    and Inspect still see, say, a ``LimitExceededError`` or a provider's error).

    Args:
        *tasks: The awaitables.

    Returns:
        Their results, in the order given.

    Raises:
        Exception: The first exception an awaitable raised.
    """
    results: list[T | None] = [None] * len(tasks)
    errors: list[Exception] = []

    async def run(index: int, task: Awaitable[T]) -> None:
        try:
            results[index] = await task
        except Exception as ex:  # cancellation is a BaseException and passes through
            errors.append(ex)
            group.cancel_scope.cancel()

    async with anyio.create_task_group() as group:
        for index, task in enumerate(tasks):
            group.start_soon(run, index, task)
    if errors:
        raise errors[0]
    return cast(list[T], results)


async def named(name: str, task: Awaitable[T]) -> T:
    """Await ``task`` inside a span called ``name`` (what Inspect View shows).

    Args:
        name: The span's name.
        task: The awaitable.

    Returns:
        Its result.
    """
    async with span(name):
        return await task


def _reason(error: Exception) -> str:
    """An error as a short reason: a provider's own error rather than Inspect's wrapper.

    Inspect wraps a provider's error in one whose text opens with the whole request (the
    prompt, up to 200 lines); the provider's error it was raised from (``Error code: 400
    - ...``) is what says why.
    """
    cause = error.__cause__
    if hasattr(error, "provider_message") and isinstance(cause, Exception):
        error = cause
    return f"{type(error).__name__}: {error}"[:_REASON_CHARS]


class BuildFailed(Exception):
    """A shared build failed every attempt; every sample that needs it fails with this.

    Args:
        what: What was built (``character panel for annotator 3``).
        attempts: Attempts made.
        reason: The last attempt's error, as text.
    """

    def __init__(self, what: str, attempts: int, reason: str) -> None:
        self.what, self.attempts, self.reason = what, attempts, reason
        super().__init__(f"{what} failed ({attempts} attempts): {reason}")


class SharedBuilds(Generic[T]):
    """One build per key per run, shared by every sample that asks; failures too.

    The first sample to ask builds under the key's lock while the others wait; an
    exception is retried up to ``attempts`` times in all (each noted in that sample's
    transcript), then stored and raised as :class:`BuildFailed` to every sample that
    asks for the key, with no new call. A user error, a sample limit and a cancellation
    are not build failures: they propagate at once and nothing is stored.

    Args:
        attempts: Attempts per key (:data:`BUILD_ATTEMPTS`).
        fatal: Further exceptions that are the user's to fix (a persona file that does
            not exist), raised at once like a user error.
    """

    def __init__(
        self, attempts: int = BUILD_ATTEMPTS, fatal: tuple[type[Exception], ...] = ()
    ) -> None:
        self.attempts = attempts
        self.fatal: tuple[type[Exception], ...] = (PrerequisiteError, LimitExceededError, *fatal)
        self._built: dict[Hashable, T] = {}
        self._failed: dict[Hashable, BuildFailed] = {}
        self._locks: dict[Hashable, anyio.Lock] = {}

    @property
    def failures(self) -> int:
        """Keys whose build failed."""
        return len(self._failed)

    def known(self, key: Hashable) -> T | None:
        """The value built for ``key``, if any (no lock, no build)."""
        return self._built.get(key)

    async def get(self, key: Hashable, what: str, build: Callable[[], Awaitable[T]]) -> T:
        """The value for ``key``: built now (by this sample) or earlier (by another).

        Args:
            key: What identifies the build within the run.
            what: What is built, for the failure's reason.
            build: Makes the value (called at most ``attempts`` times per run).

        Raises:
            BuildFailed: Every attempt failed (now, or for an earlier sample).
        """
        async with self._locks.setdefault(key, anyio.Lock()):
            if key in self._built:
                return self._built[key]
            if key in self._failed:
                failed = self._failed[key]  # a new instance: each sample its own traceback
                raise BuildFailed(failed.what, failed.attempts, failed.reason)
            reason = ""
            for attempt in range(1, self.attempts + 1):
                try:
                    value = await build()
                except self.fatal:
                    raise
                except Exception as error:
                    reason = _reason(error)
                    transcript().info(
                        f"{what}: attempt {attempt} of {self.attempts} failed ({reason})",
                        source="shared build",
                    )
                    continue
                self._built[key] = value
                return value
            self._failed[key] = BuildFailed(what, self.attempts, reason)
            raise self._failed[key]
