"""Where local data lives (one meaning of ``data_dir``), and the errors a source raises.

``-T data_dir=FOLDER`` and ``INSPECT_PLURAL_DATA_DIR=FOLDER`` mean the same: either the
dataset's own folder or the data root holding it (its subfolder, ``brexit/``, is used when
there is one). A folder the user names that does not exist is an error, never a silent
fall-back. Without either, the data root is ``./data``.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass
from pathlib import Path

from inspect_plural.errors import UserError

__all__ = [
    "DATA_DIR_ENV",
    "DataBase",
    "DataFileError",
    "DataFolder",
    "DataNotFoundError",
    "DataRowError",
    "EmptyDataFileError",
    "check_path",
    "data_base",
    "data_folder",
    "data_root",
    "local_folder",
    "os_problem",
    "shown_path",
]

DATA_DIR_ENV = "INSPECT_PLURAL_DATA_DIR"
"""Environment variable naming the local data root or a dataset's folder (default ``./data``)."""

DEFAULT_ROOT = "data"


class DataNotFoundError(UserError, FileNotFoundError):
    """The files a task needs are not available; the message says how to get them.

    A :class:`~inspect_plural.errors.UserError`: Inspect prints the message without a
    traceback.
    """


class DataFileError(UserError, ValueError):
    """A data file that cannot be read as what it should be (printed without a traceback).

    Args:
        path: The file (or hub id).
        problem: What is wrong, with the line where there is one.
        hint: What to do (optional, a line of its own).
    """

    def __init__(self, path: Path | str, problem: str, hint: str = "") -> None:
        self.path = str(path)
        super().__init__(f"{path}: {problem}" + (f"\n{hint}" if hint else ""))


class DataRowError(UserError, ValueError):
    """A row of a data file is malformed (printed without a traceback, as a user error).

    Args:
        path: The file.
        row: 0-based data row (the header is not counted).
        field: The offending column.
        problem: What is wrong with it.

    """

    def __init__(self, path: Path | str, row: int, field: str, problem: str) -> None:
        self.path, self.row, self.field = str(path), row, field
        super().__init__(
            f"{path}: data row {row} (0-based, header not counted), field {field!r}: {problem}"
        )


class EmptyDataFileError(UserError, ValueError):
    """A data file is empty, or has a header and no rows."""


_OS_PROBLEMS = {
    errno.ENAMETOOLONG: "a part of the path is longer than the file system allows (255 bytes)",
    errno.EACCES: "permission denied",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENOENT: "no such file",
    errno.ELOOP: "too many symbolic links",
}


def shown_path(path: Path | str, width: int = 120) -> str:
    """A path as printed: cut in the middle when very long (a 300-character part)."""
    text = str(path)
    return text if len(text) <= width else f"{text[: width // 2]}...{text[-width // 3 :]}"


def os_problem(path: Path | str, ex: OSError, what: str) -> DataFileError:
    """A short error for a file or folder the system would not open or look up."""
    problem = _OS_PROBLEMS.get(ex.errno or 0, ex.strerror or type(ex).__name__)
    hint = "Give a path whose every part is shorter." if ex.errno == errno.ENAMETOOLONG else ""
    return DataFileError(shown_path(path), f"cannot read {what}: {problem}.", hint)


def check_path(path: Path | str, what: str = "this path") -> Path:
    """A user's path, checked to be one the system can look up (it need not exist).

    ``Path.exists()`` and ``is_file()`` raise (not return False) for a name part over the
    file system's limit, so a path a user gives is checked here before anything else.

    Args:
        path: The path.
        what: What it is, for the message (``the data folder``).

    Returns:
        The path.

    Raises:
        DataFileError: The path cannot be looked up (a part too long, permission denied).
    """
    path = Path(path)
    try:
        path.exists()
    except OSError as ex:
        raise os_problem(path, ex, what) from None
    return path


def data_root() -> Path:
    """The local data root: ``$INSPECT_PLURAL_DATA_DIR`` or ``./data``."""
    return Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_ROOT)


@dataclass(frozen=True)
class DataBase:
    """The folder the user named for data (or the default root), checked to exist.

    Attributes:
        path: The folder.
        source: Where it was named: ``data_dir`` (the option), ``INSPECT_PLURAL_DATA_DIR``
            or ``default``.
    """

    path: Path
    source: str

    @property
    def given(self) -> bool:
        """Whether the user named it (the default ``./data`` is not checked to exist)."""
        return self.source != "default"

    def label(self, folder: Path) -> str:
        """A folder under this base, described without an absolute path (for logs).

        A relative base is shown as given (``data/brexit``, ``../shared/data/brexit``);
        an absolute one by the name it was given under (``<data_dir>/brexit``,
        ``<INSPECT_PLURAL_DATA_DIR>``), whose value the user knows (and Inspect records
        ``-T`` values in the task arguments).
        """
        head = f"<{self.source}>" if self.path.is_absolute() else self.path.as_posix()
        try:
            rest = folder.relative_to(self.path).as_posix()
        except ValueError:
            return folder.name
        return head if rest == "." else f"{head}/{rest}"


def data_base(data_dir: str | Path | None, subdir: str = "brexit") -> DataBase:
    """The folder named by ``-T data_dir``, else by the variable, else ``./data``.

    Args:
        data_dir: The option's value (None or empty: not given).
        subdir: The dataset's folder under a data root, for the message.

    Returns:
        The base folder.

    Raises:
        DataNotFoundError: A folder the user named does not exist or is a file.
        DataFileError: Its path cannot be looked up (a part too long).
    """
    if data_dir:
        base = DataBase(Path(data_dir), "data_dir")
        how = "option data_dir"
    elif os.environ.get(DATA_DIR_ENV):
        base = DataBase(Path(os.environ[DATA_DIR_ENV]), DATA_DIR_ENV)
        how = f"the variable {DATA_DIR_ENV}"
    else:
        return DataBase(Path(DEFAULT_ROOT), "default")
    check_path(base.path, f"the folder of {how}")
    if not base.path.exists():
        raise DataNotFoundError(
            f"{how}: the folder {shown_path(base.path)} does not exist.\n"
            f"Give the dataset's own folder or the data root holding it as {subdir}/, or "
            "use -T demo=true for the offline demo rows."
        )
    if not base.path.is_dir():
        raise DataNotFoundError(
            f"{how}: {shown_path(base.path)} is a file; give the folder that holds the "
            "dataset's files, or the data root holding that folder."
        )
    return base


@dataclass(frozen=True)
class DataFolder:
    """The folder a dataset's files are read from.

    Attributes:
        path: The folder (it may not exist when it is the default ``data/<dataset>``).
        label: The folder described without an absolute path, for the log's
            ``data_folder`` (see :meth:`DataBase.label`).
        searched: The folders looked at, for a message when the files are not there.
    """

    path: Path
    label: str
    searched: tuple[Path, ...] = ()


def data_folder(data_dir: str | Path | None, subdir: str) -> DataFolder:
    """Where the user's copy of a dataset lives: one rule for the option and the variable.

    The named folder's ``<subdir>/`` when it has one (the data root was named), else the
    named folder itself (the dataset's own folder); without a name, ``./data/<subdir>``.

    Args:
        data_dir: The ``data_dir`` option (None: the variable, else ``./data``).
        subdir: The dataset's folder under a data root (``brexit``).

    Returns:
        The folder and its path-free label.

    Raises:
        DataNotFoundError: A named folder does not exist.
    """
    base = data_base(data_dir, subdir)
    folder = base.path / subdir
    if base.given and not folder.is_dir():
        return DataFolder(base.path, base.label(base.path), (folder, base.path))
    return DataFolder(folder, base.label(folder), (folder,))


def local_folder(data_dir: str | Path | None, subdir: str) -> Path:
    """The folder of :func:`data_folder`, without its label."""
    return data_folder(data_dir, subdir).path
