"""The documents personas are created from: read from files, cut into parts.

A ``.txt``/``.md`` file is read as text, a ``.pdf`` with ``pypdf`` when installed; a
document longer than ``max_doc_chars`` is cut into parts, one extraction call each.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from inspect_plural.sources._paths import DataNotFoundError, check_path
from inspect_plural.sources._read import decode_text

__all__ = [
    "DEFAULT_MAX_DOC_CHARS",
    "DOCUMENT_SUFFIXES",
    "Document",
    "read_document",
    "read_documents",
    "split_document",
]

DEFAULT_MAX_DOC_CHARS = 60_000
"""The longest document (in characters) read in one extraction call."""
DOCUMENT_SUFFIXES = (".txt", ".md", ".markdown", ".pdf")
"""The file types :func:`read_document` reads."""

ENCODING_NAMES = {
    "cp1252": "Windows-1252 (Latin-1)",
    "utf-16": "UTF-16",
    "utf-16-le": "UTF-16 (little-endian, no byte-order mark)",
    "utf-16-be": "UTF-16 (big-endian, no byte-order mark)",
    "utf-32": "UTF-32",
}
"""How each encoding :func:`~inspect_plural.sources._read.decode_text` detects is named."""

logger = logging.getLogger(__name__)


class Document(BaseModel):
    """A document to extract stakeholders from.

    Attributes:
        name: A short name (the file name), shown to the model and recorded.
        text: The full text.

    """

    name: str
    text: str

    @property
    def sha256(self) -> str:
        """SHA-256 of the text (UTF-8)."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


def read_document(path: str | Path) -> Document:
    """Read a ``.txt`` or ``.md`` file as text, or a ``.pdf`` with ``pypdf`` if installed.

    Text that is not UTF-8 is read in the encoding detected (UTF-16, Windows-1252), with
    a warning naming the file and the encoding; a binary file is refused.

    Args:
        path: The file.

    Returns:
        The document, named by its file name.

    Raises:
        FileNotFoundError: No such file.
        ValueError: An unsupported file type, or a PDF without ``pypdf``.
        DataFileError: A text file that is binary or cannot be decoded.
    """
    file = check_path(path, "the document")
    if not file.is_file():
        raise DataNotFoundError(f"{file}: document not found (a file of {DOCUMENT_SUFFIXES}).")
    suffix = file.suffix.lower()
    if suffix == ".pdf":
        try:
            from pypdf import PdfReader  # type: ignore[import-not-found, unused-ignore]
        except ImportError as ex:
            raise ValueError(
                f"{file}: reading PDF needs the optional package pypdf "
                "(pip install 'inspect-plural[pdf]'), "
                "or convert the document to .txt first"
            ) from ex
        reader = PdfReader(str(file))
        text = "\n\n".join((page.extract_text() or "") for page in reader.pages)
    elif suffix in DOCUMENT_SUFFIXES:
        text, encoding = decode_text(file, "a text document to create personas from")
        if encoding != "utf-8":
            logger.warning("%s: not UTF-8; read as %s", file, ENCODING_NAMES[encoding])
    else:
        raise ValueError(
            f"{file}: unsupported document type {suffix or '(none)'!r}; give "
            + ", ".join(DOCUMENT_SUFFIXES)
        )
    return Document(name=file.name, text=text)


def read_documents(paths: Sequence[str | Path]) -> list[Document]:
    """Read several documents (see :func:`read_document`), keeping their order."""
    return [read_document(path) for path in paths]


def split_document(document: Document, max_chars: int) -> list[Document]:
    """Split a long document into parts of at most ``max_chars`` characters.

    Paragraphs (blank-line separated) are kept whole where they fit; a longer paragraph
    is cut at whitespace. A document that fits is returned as it is; an empty one gives
    no part.

    Args:
        document: The document.
        max_chars: The largest part.

    Returns:
        The parts, named ``"<name> (part i of n)"`` when there are several.
    """
    if max_chars < 1:
        raise ValueError(f"max_doc_chars must be positive, not {max_chars}")
    text = document.text.strip()
    if not text:
        return []
    if len(text) <= max_chars:
        return [Document(name=document.name, text=text)]
    pieces: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        paragraph = paragraph.strip()
        while len(paragraph) > max_chars:
            cut = paragraph.rfind(" ", 0, max_chars + 1)
            cut = cut if cut > max_chars // 2 else max_chars
            pieces.append(paragraph[:cut].strip())
            paragraph = paragraph[cut:].strip()
        if paragraph:
            pieces.append(paragraph)
    parts: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}\n\n{piece}" if current else piece
        if len(joined) <= max_chars:
            current = joined
        else:
            parts.append(current)
            current = piece
    if current:
        parts.append(current)
    n = len(parts)
    return [
        Document(name=f"{document.name} (part {i} of {n})", text=part)
        for i, part in enumerate(parts, start=1)
    ]
