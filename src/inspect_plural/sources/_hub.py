"""Downloads of official data (Hugging Face hub, pinned GitHub files), failing fast offline.

Nothing here runs at import time. Each function first checks that the host is reachable
(a 3-second TCP probe, and ``HF_HUB_OFFLINE`` for the hub) so that an offline run fails
at once with the caller's explanation instead of after minutes of retries.
"""

from __future__ import annotations

import hashlib
import os
import socket
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from inspect_plural.sources._paths import DataNotFoundError

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "cache_dir",
    "download_file",
    "host_reachable",
    "hub_dataframe",
    "hub_offline_reason",
    "sha256_of",
]


def host_reachable(url: str, timeout: float = 3.0) -> bool:
    """Whether a TCP connection to the URL's host on port 443 succeeds within ``timeout``."""
    host = urlparse(url).hostname or url
    try:
        with socket.create_connection((host, 443), timeout=timeout):
            return True
    except OSError:
        return False


def hub_offline_reason() -> str | None:
    """Why the Hugging Face hub cannot be used now (None when it can)."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes"):
        return "HF_HUB_OFFLINE is set"
    if not host_reachable(os.environ.get("HF_ENDPOINT", "https://huggingface.co")):
        return "the hub is not reachable"
    return None


def hub_dataframe(
    repo: str,
    revision: str,
    missing: str,
    split: str | None = None,
    data_files: str | list[str] | None = None,
) -> tuple[pd.DataFrame, str]:
    """Load a Hugging Face dataset (all splits concatenated unless ``split``) as a frame.

    Args:
        repo: The dataset id.
        revision: The pinned revision.
        missing: The caller's explanation of how to provide the data, used in the error.
        split: One split to load, or None for every split in the hub's order (with a
            ``split`` column added).
        data_files: Optional data files within the repository.

    Returns:
        The frame and a description of its origin.

    Raises:
        DataNotFoundError: When the hub cannot be used or the download fails.

    """
    import pandas as pd

    reason = hub_offline_reason()
    if reason:
        raise DataNotFoundError(f"{missing}\n(hub {repo}: {reason})")
    try:
        from datasets import load_dataset

        loaded = load_dataset(repo, revision=revision, split=split, data_files=data_files)
    except Exception as ex:  # network, auth or missing-file errors all mean "not available"
        raise DataNotFoundError(f"{missing}\n(hub {repo}: {type(ex).__name__}: {ex})") from ex
    if split is not None:
        frame = loaded.to_pandas()
    else:
        frames = []
        for name, part in loaded.items():
            piece = part.to_pandas()
            piece["split"] = name
            frames.append(piece)
        frame = pd.concat(frames, ignore_index=True)
    return frame, f"hub {repo}@{revision}"


def cache_dir() -> Path:
    """Where downloads are kept: ``$INSPECT_PLURAL_CACHE`` or ``~/.cache/inspect_plural``."""
    root = os.environ.get("INSPECT_PLURAL_CACHE")
    return Path(root) if root else Path.home() / ".cache" / "inspect_plural"


def download_file(url: str, target: Path, missing: str, timeout: float = 60.0) -> Path:
    """Download ``url`` to ``target`` once (kept for later runs).

    Args:
        url: A pinned URL (e.g. GitHub raw at a commit SHA).
        target: Where to keep it.
        missing: The caller's explanation of how to provide the file, used in the error.
        timeout: Seconds before the download is abandoned.

    Returns:
        The local path.

    Raises:
        DataNotFoundError: When the host is unreachable or the download fails.

    """
    if target.is_file():
        return target
    if not host_reachable(url):
        raise DataNotFoundError(f"{missing}\n({urlparse(url).hostname} is not reachable)")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(partial, "wb") as out:
            while block := response.read(1 << 20):
                out.write(block)
    except OSError as ex:
        partial.unlink(missing_ok=True)
        raise DataNotFoundError(f"{missing}\n(download of {url} failed: {ex})") from ex
    partial.replace(target)
    return target


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, for the origin recorded in the log."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
