"""Repeated rows in a release: which one is kept, and a warning that counts the conflicts.

Releases repeat things: an item's text on every annotator's row, a person's traits on
every judgment, now and then a judgment twice. A loader keeps one row per key; when the
repeats of a key disagree (two texts for one item id, two ages for one person, two labels
for one judgment), keeping one changes the data, so it is never silent: one warning per
file and kind names how many keys disagree, of how many, with an example.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np

from inspect_plural.sources._once import data_logger

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["dedupe_judgments", "kept_rows"]

logger = data_logger(__name__)


def _conflicts(keys: pd.Series | pd.DataFrame, values: pd.DataFrame) -> list[str]:
    """The keys whose rows hold more than one distinct value in some column of ``values``."""
    import pandas as pd

    frame = keys.to_frame() if isinstance(keys, pd.Series) else keys
    repeated = frame.duplicated(keep=False).to_numpy()
    if not repeated.any():
        return []
    names = [f"_key{i}" for i in range(frame.shape[1])]
    subset = values.loc[repeated].map(_hashable).reset_index(drop=True)
    subset[names] = frame.loc[repeated].to_numpy()
    counts = subset.groupby(names, sort=False, dropna=False).nunique(dropna=False)
    bad = counts.index[(counts.to_numpy() > 1).any(axis=1)]
    return [str(k) for k in bad]


def _hashable(value: object) -> object:
    """A value groupby can count (lists and dicts, as DP's survey answers can be, as text)."""
    return repr(value) if isinstance(value, list | dict | set) else value


def kept_rows(
    keys: pd.Series,
    values: pd.DataFrame | pd.Series,
    source: str,
    what: str,
    keep: Literal["first", "last"] = "first",
) -> np.ndarray:
    """The rows kept, one per key, warning when the repeats of a key disagree.

    Args:
        keys: The key of each row (an item id, an annotator id).
        values: What should be the same on every row of a key (the text, the traits).
        source: The file (or dataset), named in the warning.
        what: What the keys and values are, for the warning (``"item ids with a
            different post or reply"``).
        keep: Keep each key's first or last row.

    Returns:
        A boolean mask over the rows: True for the row kept for each key.
    """
    import pandas as pd

    keys = keys.reset_index(drop=True)
    frame = (values.to_frame() if isinstance(values, pd.Series) else values).reset_index(drop=True)
    mask: np.ndarray = ~keys.duplicated(keep=keep).to_numpy()
    if mask.all():
        return mask
    conflicting = _conflicts(keys, frame)
    if conflicting:
        logger.warning(
            "%s: %d of %d %s (e.g. %r); the %s row of each is kept",
            source,
            len(conflicting),
            int(mask.sum()),
            what,
            conflicting[0],
            keep,
        )
    return mask


def dedupe_judgments(
    frame: pd.DataFrame, source: str = "", keys: Sequence[str] = ("annotator_id", "item_id")
) -> tuple[pd.DataFrame, int]:
    """Keep the first judgment of each (annotator, item) pair, counting what is dropped.

    Args:
        frame: The judgments (``annotator_id``, ``item_id``, ``label``).
        source: The file or dataset, named in the warning.
        keys: The columns that identify a judgment.

    Returns:
        The frame without repeats, and how many rows were dropped. A warning gives the
        number dropped and how many of them carry a different label from the one kept.
    """
    duplicated = frame.duplicated(subset=list(keys), keep="first")
    dropped = int(duplicated.sum())
    if dropped:
        conflicting = len(_conflicts(frame[list(keys)], frame[["label"]]))
        logger.warning(
            "%s%d repeated (annotator, item) judgments dropped, keeping the first; %d "
            "(annotator, item) pairs had different labels",
            f"{source}: " if source else "",
            dropped,
            conflicting,
        )
    return frame.loc[~duplicated].reset_index(drop=True), dropped
