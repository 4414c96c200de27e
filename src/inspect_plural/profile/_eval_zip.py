"""A log's samples read straight from its ``.eval`` file: only the fields the profile uses.

Inspect's ``read_eval_log(path, exclude_fields=...)`` leaves out a sample's events with a
streaming JSON parser written in Python, event by event; on a full-budget run that
parser took four fifths of ``profile show``'s time (the events are two thirds of a
sample's bytes). A ``.eval`` file is a zip with one JSON document per sample
(``samples/<id>_epoch_<n>.json``) and the samples' summaries (``summaries.json``).
Inspect writes a sample's fields in the order :class:`~inspect_ai.log.EvalSample`
declares them, ``scores``, ``metadata`` and ``store`` before ``events``, so this reader
decodes a sample's top-level fields one at a time with the standard library's decoder
(in C) and stops once it holds the fields it needs: the events are never parsed. A
field written in another order is decoded all the same (slower, never wrong). Whether a
sample errored is read from its summary (``error`` comes after the events).

A log this cannot read so (a ``.json`` log, a remote one, one without ``summaries.json``)
gives None, and the caller reads it with Inspect.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalSpec

if sys.version_info < (3, 14):  # zstd members (Inspect's default); native from 3.14
    import zipfile_zstd  # type: ignore[import-untyped]  # noqa: F401

__all__ = ["SampleFields", "read_header", "read_sample_fields"]

NEEDED = frozenset({"id", "epoch", "scores", "metadata", "store"})
"""Top-level sample fields the profile reads (``error`` comes from the summaries)."""
SAMPLES_DIR = "samples/"
SUMMARIES = "summaries.json"
HEADER = "header.json"

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _skip(text: str, i: int) -> int:
    """The first position from ``i`` that is not JSON whitespace."""
    match = _SPACE.match(text, i)
    return match.end() if match else i


@dataclass
class SampleFields:
    """The fields of one sample that the profile reads.

    Attributes:
        id: The sample id.
        epoch: The epoch.
        scores: Scorer name -> the score as written (``value``, ``metadata``, ...).
        metadata: The sample's metadata.
        store: The sample's store.
        errored: Whether the sample has an error.
    """

    id: str | int
    epoch: int
    scores: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    store: dict[str, Any] = field(default_factory=dict)
    errored: bool = False


def _fields(text: str, needed: frozenset[str] = NEEDED) -> dict[str, Any]:
    """The top-level fields of a JSON object up to the last needed one.

    Worked example: ``{"id": 1, "scores": {}, "events": [...]}`` with needed
    ``{"id", "scores"}`` gives ``{"id": 1, "scores": {}}`` and never reads the events.
    """
    out: dict[str, Any] = {}
    i = _skip(text, 0)
    if text[i : i + 1] != "{":
        raise ValueError("a sample is not a JSON object")
    i = _skip(text, i + 1)
    while text[i] != "}" and not needed <= out.keys():
        key, i = _DECODER.raw_decode(text, i)
        i = _skip(text, i)
        if text[i] != ":":
            raise ValueError(f"expected ':' at character {i}")
        out[key], i = _DECODER.raw_decode(text, _skip(text, i + 1))
        i = _skip(text, i)
        if text[i] == ",":
            i = _skip(text, i + 1)
    return out


def _sort_key(sample: SampleFields) -> tuple[int, str]:
    """Inspect's sample order (``sort_samples``): epoch, then the id (numbers zero-filled)."""
    sid = sample.id
    return sample.epoch, sid if isinstance(sid, str) else str(sid).zfill(20)


def _errored(summaries: list[Mapping[str, Any]]) -> dict[tuple[str, int], bool]:
    return {
        (str(s.get("id")), int(s.get("epoch", 1))): s.get("error") is not None for s in summaries
    }


def _local_eval(path: str) -> Path | None:
    file = Path(path.removeprefix("file://"))
    return file if file.suffix == ".eval" and file.is_file() else None


def read_header(path: str) -> tuple[str, EvalSpec] | None:
    """A finished local ``.eval`` log's status and eval spec, or None when it cannot.

    Reads ``header.json`` alone (an unfinished log has none: None, and Inspect reads its
    journal).
    """
    file = _local_eval(path)
    if file is None:
        return None
    with zipfile.ZipFile(file) as archive:
        if HEADER not in archive.namelist():
            return None
        header = json.loads(archive.read(HEADER))
    return str(header.get("status", "started")), EvalSpec.model_validate(header["eval"])


def read_sample_fields(path: str) -> list[SampleFields] | None:
    """A local ``.eval`` log's samples (Inspect's order), or None when it cannot.

    Args:
        path: The log file.

    Returns:
        One entry per sample (a sample re-logged under the same name: its last record,
        as Inspect reads it), or None for a log this reader does not handle.
    """
    file = _local_eval(path)
    if file is None:
        return None
    with zipfile.ZipFile(file) as archive:
        names = list(dict.fromkeys(archive.namelist()))
        if SUMMARIES not in names:
            return None
        errored = _errored(json.loads(archive.read(SUMMARIES)))
        samples = []
        for name in names:
            if name.startswith(SAMPLES_DIR) and name.endswith(".json"):
                data = _fields(archive.read(name).decode("utf-8"))
                sample = SampleFields(
                    id=data["id"],
                    epoch=int(data.get("epoch", 1)),
                    scores=data.get("scores") or {},
                    metadata=data.get("metadata") or {},
                    store=data.get("store") or {},
                )
                known = errored.get((str(sample.id), sample.epoch))
                if known is None:  # no summary of this sample: let Inspect read the log
                    return None
                sample.errored = known
                samples.append(sample)
    samples.sort(key=_sort_key)
    return samples
