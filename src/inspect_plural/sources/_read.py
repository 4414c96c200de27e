"""The one reader of a user's data files: text, JSON, JSON lines and CSV, with short errors.

Every loader reads its files through these functions, so every mistake a user can make
with a file ends the same way: a :class:`~inspect_plural.sources.DataFileError` (a
:class:`~inspect_plural.errors.UserError`, printed without a traceback) naming the file,
the line where there is one, what was expected and what to do. The cases: a file that
cannot be opened (missing, a folder, a name part too long, no permission), a file that is
not UTF-8 (never decoded with replacement characters), JSON that does not parse or is
nested too deeply, a CSV that does not tokenise, and columns or fields that are missing.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_plural.sources._paths import (
    DataFileError,
    DataRowError,
    EmptyDataFileError,
    os_problem,
    shown_path,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "decode_text",
    "parse_json_field",
    "read_csv_file",
    "read_json_file",
    "read_json_lines",
    "read_parquet_file",
    "read_text_file",
    "require_columns",
]

UTF8_HINT = "Save it as UTF-8 (e.g. iconv -f latin1 -t utf-8 OLD > NEW) and run again."


def _utf8_problem(data: bytes, ex: UnicodeDecodeError) -> str:
    line = data.count(b"\n", 0, ex.start) + 1
    column = ex.start - (data.rfind(b"\n", 0, ex.start) + 1) + 1
    return f"byte 0x{data[ex.start]:02x} at line {line}, column {column}"


def not_utf8(path: Path | str, expected: str, data: bytes | None = None) -> DataFileError:
    """The error for a file that is not UTF-8, naming the first bad byte's line."""
    where = ""
    if data is None:
        try:
            data = Path(path).read_bytes()
        except OSError:
            data = b""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as ex:
        where = f" ({_utf8_problem(data, ex)})"
    return DataFileError(
        shown_path(path), f"the file is not UTF-8 text{where}; it should be {expected}.", UTF8_HINT
    )


def read_text_file(path: Path | str, expected: str) -> str:
    """A user's text file, decoded as UTF-8 (a byte-order mark is dropped), or refused.

    Args:
        path: The file.
        expected: What it should hold, for the message ("the HS-Brexit Le-Wi-Di JSON").

    Returns:
        The text.

    Raises:
        DataFileError: The file cannot be opened or is not UTF-8.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as ex:
        raise os_problem(path, ex, "the file") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise not_utf8(path, expected, data) from None


_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _utf16_without_bom(data: bytes) -> str | None:
    """``utf-16-le``/``-be`` when every other byte is NUL, as in mostly-ASCII UTF-16 text."""
    if len(data) < 2 or len(data) % 2:
        return None
    even, odd = data[0::2], data[1::2]
    half = len(data) // 2
    if odd.count(0) >= 0.9 * half and even.count(0) == 0:
        return "utf-16-le"
    if even.count(0) >= 0.9 * half and odd.count(0) == 0:
        return "utf-16-be"
    return None


def decode_text(path: Path | str, expected: str) -> tuple[str, str]:
    """A user's document in whatever common encoding it is in, or a refusal naming it.

    For free text such as the documents personas are created from: UTF-8 (with or
    without a byte-order mark), UTF-16 or UTF-32 with a byte-order mark, UTF-16 without
    one (every other byte NUL), else Windows-1252 (Latin-1 with the curly quotes and the
    euro sign), which decodes any byte but 0x81, 0x8D, 0x8F, 0x90, 0x9D; a file with NUL
    bytes that is none of these is binary and refused. Never decoded with replacement
    characters.

    Args:
        path: The file.
        expected: What it should be, for the refusal.

    Returns:
        The text and the encoding it was read with (``utf-8`` for plain UTF-8).

    Raises:
        DataFileError: The file cannot be opened, or is binary or undecodable.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as ex:
        raise os_problem(path, ex, "the file") from None
    found = next((name for bom, name in _BOMS if data.startswith(bom)), None)
    candidates = [found] if found else ["utf-8", _utf16_without_bom(data), "cp1252"]
    for encoding in candidates:
        if encoding is None or (encoding == "cp1252" and b"\x00" in data):
            continue
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        return text.removeprefix("\ufeff"), "utf-8" if encoding == "utf-8-sig" else encoding
    raise DataFileError(
        shown_path(path),
        f"cannot be read as text in UTF-8, UTF-16 or Windows-1252 (binary?); it should be "
        f"{expected}.",
        "Save it as UTF-8 text (or give a .pdf, which is read with pypdf).",
    )


def _parse_json(
    text: str,
    path: Path | str,
    expected: str,
    hook: Callable[[list[tuple[str, Any]]], Any] | None,
    row: int | None = None,
    field: str = "(line)",
) -> Any:
    """Parse a file's text, or one row's line or field (``row``, 0-based: a DataRowError)."""
    try:
        return json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as ex:
        if row is not None:
            problem = f"not valid JSON at column {ex.colno} ({ex.msg}); expected {expected}"
            raise DataRowError(shown_path(path), row, field, problem) from None
        problem = f"not valid JSON at line {ex.lineno} ({ex.msg}); it should be {expected}."
        raise DataFileError(shown_path(path), problem) from None
    except RecursionError:
        deep = "the JSON is nested too deeply to read (over about 1,000 levels)"
        if row is not None:
            raise DataRowError(shown_path(path), row, field, deep) from None
        raise DataFileError(
            shown_path(path),
            f"{deep}; it should be {expected}.",
            "Check that it is the release's own file (no release nests this deep).",
        ) from None


def read_json_file(
    path: Path | str,
    expected: str,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    repair: Callable[[str], str] | None = None,
) -> Any:
    """A user's JSON file, parsed, or a short error naming the file and the line.

    Args:
        path: The file.
        expected: What it should hold, for the message.
        object_pairs_hook: Passed to :func:`json.loads` (e.g. to refuse repeated keys).
        repair: A text fix tried once when the strict parse fails (trailing commas).

    Returns:
        The parsed value.

    Raises:
        DataFileError: Not readable, not UTF-8, not JSON, or nested too deeply.
    """
    text = read_text_file(path, expected)
    if repair is None:
        return _parse_json(text, path, expected, object_pairs_hook)
    try:
        return _parse_json(text, path, expected, object_pairs_hook)
    except DataFileError as first:
        try:
            return _parse_json(repair(text), path, expected, object_pairs_hook)
        except DataFileError:
            raise first from None


def parse_json_field(text: str, path: Path | str, row: int, field: str, expected: str) -> Any:
    """A row's field that holds JSON written as a string, parsed, or a short row error.

    Args:
        text: The field's text.
        path: The file the row is in.
        row: The row (0-based).
        field: The field's name.
        expected: What the field should hold, for the message.

    Returns:
        The parsed value.

    Raises:
        DataRowError: The field is not JSON, or is nested too deeply.
    """
    return _parse_json(text, path, expected, None, row=row, field=field)


def read_json_lines(path: Path | str, expected: str) -> list[tuple[int, Any]]:
    """A user's JSON-lines file: each non-blank line parsed, with its 0-based line number.

    A line that does not parse is a :class:`DataRowError` naming the line (0-based, as
    the row of every other error about a JSON-lines file).

    Args:
        path: The file.
        expected: What each line should hold, for the message.

    Returns:
        ``(line number, value)`` per non-blank line.

    Raises:
        DataFileError: Not readable, or not UTF-8.
        DataRowError: A line that is not JSON, or nested too deeply.
    """
    text = read_text_file(path, expected)
    return [
        (n, _parse_json(line, path, expected, None, row=n))
        for n, line in enumerate(text.splitlines())
        if line.strip()
    ]


def read_csv_file(path: Path | str, expected: str, **kwargs: Any) -> pd.DataFrame:
    """Read a user's CSV (or TSV) data file, failing with a short message when it is bad.

    Args:
        path: The file.
        expected: What it should hold, for the message (e.g. "the PersonaEval CSV with
            columns prompt, gt, option1..option4").
        **kwargs: Passed to :func:`pandas.read_csv`.

    Returns:
        The frame (at least one row, unless ``nrows=0`` asked for the header alone).

    Raises:
        EmptyDataFileError: The file holds nothing, or only a header row.
        DataFileError: The file cannot be opened, is not UTF-8, or does not tokenise.
    """
    import pandas as pd

    try:
        frame: pd.DataFrame = pd.read_csv(path, **kwargs)
    except pd.errors.EmptyDataError:
        raise EmptyDataFileError(f"{path}: the file is empty; it should be {expected}.") from None
    except UnicodeDecodeError:
        raise not_utf8(path, expected) from None
    except pd.errors.ParserError as ex:
        detail = str(ex).strip().splitlines()[-1][:200]
        raise DataFileError(
            shown_path(path), f"not a readable table ({detail}); it should be {expected}."
        ) from None
    except OSError as ex:
        raise os_problem(path, ex, "the file") from None
    if frame.empty and kwargs.get("nrows") != 0:
        raise EmptyDataFileError(
            f"{path}: the file has a header but no data rows; it should be {expected}."
        )
    return frame


def read_parquet_file(
    path: Path | str, expected: str, columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """Read a user's parquet file (only ``columns``, each checked to be there).

    Args:
        path: The file.
        expected: What it should hold, for the message.
        columns: The columns to read (all when None); a missing one is an error.

    Returns:
        The frame.

    Raises:
        DataFileError: The file cannot be opened, is not parquet, or lacks a column.
    """
    import pandas as pd
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    try:
        names = pq.read_schema(path).names
        if columns is not None:
            require_columns(names, columns, path, expected)
        return pd.read_parquet(path, columns=None if columns is None else list(columns))
    except DataFileError:
        raise
    except OSError as ex:
        if ex.errno is not None:
            raise os_problem(path, ex, "the file") from None
        raise DataFileError(shown_path(path), f"not a readable parquet file ({ex}).") from None
    except ValueError as ex:  # pyarrow's ArrowInvalid
        detail = str(ex).strip().splitlines()[0][:200] if str(ex).strip() else type(ex).__name__
        raise DataFileError(
            shown_path(path), f"not a readable parquet file ({detail}); it should be {expected}."
        ) from None


def _listed(names: Iterable[object], limit: int = 12) -> str:
    texts = [str(n) for n in names]
    shown = ", ".join(texts[:limit])
    return shown + (f", ... ({len(texts)} in all)" if len(texts) > limit else "")


def require_columns(
    columns: Iterable[object],
    required: Sequence[str],
    source: Path | str,
    expected: str,
    kind: str = "column",
) -> None:
    """Refuse a table (or JSON records) that lacks required columns (fields).

    Args:
        columns: The columns the file has.
        required: The columns it must have.
        source: The file (or hub id), named in the message.
        expected: What the file should be ("a HS-Brexit hub CSV").
        kind: ``column`` or ``field``.

    Raises:
        DataFileError: Some are missing; the message lists them and the ones found.
    """
    present = list(columns)
    missing = [c for c in required if c not in present]
    if missing:
        raise DataFileError(
            shown_path(source),
            f"missing {kind}(s) {_listed(missing)}; it has {_listed(present) or 'none'}.",
            f"It should be {expected}, with the {kind}s {_listed(required)}.",
        )
