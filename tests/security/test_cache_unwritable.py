"""A cache that cannot be written never stops a run (issue 29 item 3).

Before: ``write_entry`` raised ``NotADirectoryError`` / ``IsADirectoryError`` / ``OSError
30`` after the panel's model calls were paid, the sample errored and by default the run
stopped, with no path in the message. Now the write is skipped with one warning per
folder naming the path, and the result is used from memory.
"""

from __future__ import annotations

import errno
import logging
import tempfile
from pathlib import Path

import pytest
from inspect_ai import eval
from tests.conftest import FAST_LOG, log_samples

from inspect_plural import _disk_cache
from inspect_plural._disk_cache import cache_dir, read_entry, write_entry
from inspect_plural.tasks import brexit

CACHE_LOGGER = "inspect_plural._disk_cache"


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_disk_cache, "_warned", set(), raising=False)


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == CACHE_LOGGER]


def test_a_cache_root_that_is_a_file_warns_once_naming_the_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "cache-file"
    root.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(root))
    with caplog.at_level(logging.WARNING, logger=CACHE_LOGGER):
        assert write_entry("panels", "a" * 64, "{}") is None
        assert write_entry("panels", "b" * 64, "{}") is None
    [warning] = _warnings(caplog)
    assert str(root / "panels") in warning and "INSPECT_PLURAL_CACHE" in warning
    assert read_entry("panels", "a" * 64) is None  # a miss, not an error


def test_a_folder_where_the_entry_goes_is_skipped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    (cache_dir("panels") / ("c" * 64 + ".json")).mkdir(parents=True)
    with caplog.at_level(logging.WARNING, logger=CACHE_LOGGER):
        assert write_entry("panels", "c" * 64, "{}") is None
    [warning] = _warnings(caplog)
    assert "c" * 64 + ".json" in warning
    assert not list(cache_dir("panels").glob("*.tmp"))  # the temporary file is removed
    assert write_entry("panels", "d" * 64, "{}") is not None  # other entries still stored


def test_a_read_only_file_system_is_skipped(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with caplog.at_level(logging.WARNING, logger=CACHE_LOGGER):
        assert write_entry("personas", "e" * 64, "{}") is None
    [warning] = _warnings(caplog)
    assert "Read-only file system" in warning and str(cache_dir("personas")) in warning


@pytest.mark.e2e
def test_a_cinemetric_run_with_the_cache_on_a_file_completes_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root = tmp_path / "cache-file"
    root.write_text("", encoding="utf-8")
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(root))
    with caplog.at_level(logging.WARNING, logger=CACHE_LOGGER):
        [log] = eval(
            brexit(demo=True, method="cinemetric"),
            model="plural/random",
            limit=6,
            display="none",
            log_dir=str(tmp_path / "logs"),
            **FAST_LOG,
        )
    assert log.status == "success"
    samples = log_samples(log)
    assert all(s.error is None and s.scores for s in samples)
    [warning] = _warnings(caplog)
    assert str(root / "panels") in warning
