"""PersonaEval (Zhou et al. 2025): official CSVs to :class:`RoleItem` records.

The official data is the Hugging Face dataset ``lingfengzhou/PersonaEval`` with one
CSV per track (``Literary.csv``, ``Drama.csv``, ``Expertise.csv``). Each row has the
full prompt (``prompt``), the true speaker (``gt``) and the candidates ``option1..4``
with ``option1_profile..option4_profile`` (``option5``/``option5_profile`` too for
Expertise).
"""

from __future__ import annotations

import csv
import os
import re
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from inspect_plural.records import RoleCandidate, RoleItem
from inspect_plural.sources._hub import hub_offline_reason, sha256_of
from inspect_plural.sources._once import data_logger
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_folder, data_root
from inspect_plural.sources._read import read_csv_file, require_columns

__all__ = [
    "PERSONAEVAL_HF_REPO",
    "PERSONAEVAL_HF_REVISION",
    "PERSONAEVAL_TRACKS",
    "PersonaEvalData",
    "load_personaeval",
    "personaeval_columns",
    "personaeval_file",
    "read_personaeval_csv",
    "write_personaeval_csv",
]

PERSONAEVAL_HF_REPO = "lingfengzhou/PersonaEval"
"""Hugging Face dataset holding the official CSVs."""

PERSONAEVAL_HF_REVISION = os.environ.get("INSPECT_PLURAL_PERSONAEVAL_REVISION", "main")
"""Revision downloaded from the hub. Override with ``-T revision=SHA`` (or the environment
variable) to pin a commit; the commit actually downloaded is recorded in the task metadata."""

PERSONAEVAL_TRACKS: dict[str, tuple[str, int]] = {
    "literary": ("Literary.csv", 4),
    "drama": ("Drama.csv", 4),
    "expertise": ("Expertise.csv", 5),
}
"""Track name -> (official file name, number of candidates)."""

logger = data_logger(__name__)

LOCAL_SUBDIR = "personaeval"
"""Sub-folder of the data root searched for the official CSVs."""

_CONVERSATION = re.compile(
    r"^#+[ \t]*Conversation[ \t]*$(?P<body>.*?)^#+[ \t]*Task[ \t]*$",
    re.MULTILINE | re.DOTALL | re.IGNORECASE,
)


def demo_file(track: str) -> Path:
    """The demo CSV for a track, shipped as package data (written for this package)."""
    filename, _ = PERSONAEVAL_TRACKS[track]
    resource = resources.files("inspect_plural").joinpath(f"demo/personaeval/demo_{filename}")
    return Path(str(resource))


def extract_conversation(prompt: str) -> str:
    """The dialogue part of a PersonaEval prompt.

    The official prompts put the dialogue under a ``# Conversation`` heading followed by
    a ``# Task`` heading; a text without those headings is taken whole.

    Args:
        prompt: The CSV's ``prompt`` cell.

    Returns:
        The conversation text.

    """
    match = _CONVERSATION.search(prompt)
    return (match.group("body") if match else prompt).strip()


def _missing_message(track: str, searched: list[Path], reason: str) -> str:
    filename, _ = PERSONAEVAL_TRACKS[track]
    where = ", ".join(str(p) for p in searched) or "(no local folder given)"
    return (
        f"PersonaEval track '{track}' needs the official file {filename}, which was not "
        f"found (searched: {where}; hub: {reason}).\n"
        "Provide it in either of two ways:\n"
        f"  1. download {filename} from the Hugging Face dataset {PERSONAEVAL_HF_REPO} "
        f"(files Literary.csv, Drama.csv, Expertise.csv) and put it in "
        f"{data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER;\n"
        "  2. run with network access to the Hugging Face hub, and the task downloads and "
        "caches it.\n"
        "Or run the offline demo rows: -T demo=true."
    )


class PersonaEvalData(NamedTuple):
    """A loaded track: the records, where they came from, and the local folder read.

    Attributes:
        items: One record per row.
        origin: The source, for the log's ``data_source``.
        folder: The local folder, without an absolute path (``data_folder``); empty for
            the demo rows and the hub.
    """

    items: list[RoleItem]
    origin: str
    folder: str = ""


def personaeval_file(
    track: str, data_dir: str | Path | None = None, revision: str | None = None
) -> tuple[Path, str, str]:
    """Locate (or download) the official CSV of a track.

    Search order: ``data_dir``; ``<data root>/personaeval``; the Hugging Face hub.

    Args:
        track: ``literary``, ``drama`` or ``expertise``.
        data_dir: A folder holding the official CSV.
        revision: Hub revision to download (default :data:`PERSONAEVAL_HF_REVISION`).

    Returns:
        The file's path, a description of where it came from, and the local folder's
        path-free label (empty for a download).

    Raises:
        DataNotFoundError: When no copy can be found or downloaded.

    """
    filename, _ = PERSONAEVAL_TRACKS[track]
    local = data_folder(data_dir, LOCAL_SUBDIR)
    folders = [local.path]
    if (local.path / filename).is_file():
        return local.path / filename, f"local {filename}", local.label
    if data_dir:
        raise DataNotFoundError(_missing_message(track, folders, "not tried"))

    reason = hub_offline_reason()
    if reason:
        raise DataNotFoundError(_missing_message(track, folders, reason))
    try:
        from huggingface_hub import hf_hub_download

        path = hf_hub_download(
            repo_id=PERSONAEVAL_HF_REPO,
            filename=filename,
            repo_type="dataset",
            revision=revision or PERSONAEVAL_HF_REVISION,
            etag_timeout=5,
        )
    except Exception as ex:  # network, auth or missing-file errors all mean "not available"
        raise DataNotFoundError(
            _missing_message(track, folders, f"{type(ex).__name__}: {ex}".strip()[:300])
        ) from ex
    snapshot = Path(path).parent.name
    return Path(path), f"hub {PERSONAEVAL_HF_REPO}@{snapshot}/{filename}", ""


def read_personaeval_csv(path: str | Path, track: str) -> list[RoleItem]:
    """Read one official (or demo) PersonaEval CSV into records.

    Args:
        path: The CSV file.
        track: The track it belongs to (sets the number of candidates and ids).

    Returns:
        One :class:`RoleItem` per row, ids ``<track>-<row>`` (stable across runs).

    Raises:
        DataRowError: A row misses a field, or its ``gt`` is not among its options.
        DataFileError: The file cannot be read, or lacks required columns.

    """
    _, n_options = PERSONAEVAL_TRACKS[track]
    option_cols = [f"option{i}" for i in range(1, n_options + 1)]
    profile_cols = [f"{c}_profile" for c in option_cols]
    required = ["prompt", "gt", *option_cols, *profile_cols]
    frame = read_csv_file(
        path,
        f"the PersonaEval {track} CSV with columns {', '.join(required)}",
        dtype=str,
        keep_default_na=False,
        usecols=lambda c: c in required,
    )
    require_columns(frame.columns, required, path, f"the PersonaEval {track} CSV")
    frame = frame[required].apply(lambda col: col.str.strip())

    for col in ["prompt", "gt", *option_cols]:
        empty = frame.index[frame[col] == ""]
        if len(empty):
            raise DataRowError(path, int(empty[0]), col, "empty value")
    options = frame[option_cols].to_numpy()
    gt_found = (options == frame["gt"].to_numpy()[:, None]).any(axis=1)
    if not gt_found.all():
        row = int(gt_found.argmin())
        raise DataRowError(
            path, row, "gt", f"{frame['gt'].iloc[row]!r} is not among {list(options[row])}"
        )

    has_headings = frame["prompt"].map(lambda text: _CONVERSATION.search(text) is not None)
    if not has_headings.all():
        logger.warning(
            "%s: %d of %d prompts have no '# Conversation' ... '# Task' headings; their whole "
            "prompt is used as the conversation (consider -T prompt_source=dataset)",
            Path(path).name,
            int((~has_headings).sum()),
            len(frame),
        )
    items: list[RoleItem] = []
    profiles = frame[profile_cols].to_numpy()
    for row, (prompt, gt) in enumerate(zip(frame["prompt"], frame["gt"])):
        try:
            items.append(
                RoleItem(
                    id=f"{track}-{row:05d}",
                    track=track,
                    conversation=extract_conversation(prompt),
                    source_prompt=prompt,
                    candidates=[
                        RoleCandidate(name=name, profile=profile)
                        for name, profile in zip(options[row], profiles[row])
                    ],
                    true_role=gt,
                )
            )
        except ValueError as ex:
            raise DataRowError(path, row, "option1..", str(ex)) from ex
    return items


def personaeval_columns(n_options: int) -> list[str]:
    """The official CSV columns, in order, for a track with ``n_options`` candidates."""
    columns = ["prompt", "gt"]
    for j in range(1, n_options + 1):
        columns += [f"option{j}", f"option{j}_profile"]
    return columns


def write_personaeval_csv(path: str | Path, items: Iterable[RoleItem]) -> Path:
    """Write records in the official CSV schema (the inverse of :func:`read_personaeval_csv`).

    Used for demo, fixture and benchmark files; ``prompt`` is the record's source prompt
    (or its conversation when it has none). All records need the same number of candidates.

    Args:
        path: The file to write.
        items: The records.

    Returns:
        The path written.
    """
    rows = list(items)
    n_options = len(rows[0].candidates) if rows else 4
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=personaeval_columns(n_options))
        writer.writeheader()
        for item in rows:
            if len(item.candidates) != n_options:
                raise ValueError(f"{item.id}: {len(item.candidates)} candidates, not {n_options}")
            row = {"prompt": item.source_prompt or item.conversation, "gt": item.true_role}
            for j, candidate in enumerate(item.candidates, 1):
                row[f"option{j}"] = candidate.name
                row[f"option{j}_profile"] = candidate.profile
            writer.writerow(row)
    return Path(path)


def load_personaeval(
    track: str,
    data_dir: str | Path | None = None,
    demo: bool = False,
    revision: str | None = None,
) -> PersonaEvalData:
    """Load a PersonaEval track.

    Args:
        track: ``literary``, ``drama`` or ``expertise``.
        data_dir: Folder with the official CSV (optional).
        demo: Use the demo rows shipped with the package instead of the official data.
        revision: Hub revision when downloading.

    Returns:
        The records, a description of their source, and the local folder read.

    """
    if track not in PERSONAEVAL_TRACKS:
        raise ValueError(f"unknown PersonaEval track {track!r}; one of {list(PERSONAEVAL_TRACKS)}")
    if demo:
        path = demo_file(track)
        origin = f"demo data written for inspect_plural ({path.name})"
        return PersonaEvalData(read_personaeval_csv(path, track), origin)
    path, origin, folder = personaeval_file(track, data_dir, revision)
    origin += f" (sha256 {sha256_of(path)[:16]})"
    return PersonaEvalData(read_personaeval_csv(path, track), origin, folder)
