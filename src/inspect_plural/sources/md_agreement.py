"""MD-Agreement (Leonardelli et al. 2021): offensiveness of tweets, five labels each.

The official files are the LeWiDi 2023 JSON ``MD-Agreement_{train,dev,test}.json``,
public in the LeWiDi repository (``Le-Wi-Di/le-wi-di.github.io``, folder
``LeWiDi_2-2023/``, pinned at :data:`~inspect_plural.sources.lewidi.LEWIDI_COMMIT`) and
copied in the PersEval repository under ``data/MD-Agreement_dataset/``. The loader reads
them from a local folder (``-T data_dir=``, e.g. the folder holding all four LeWiDi 2023
datasets) and never downloads them. About 800 annotators (``Ann1``...) label 10,753
tweets on BLM, Election 2020 and Covid-19; there are no demographics, so the task runs
*unnamed* only. Items are numbered from 0 across train, dev and test in that order, as
PersEval's flattened file numbers them; each keeps its official split
(``item_splits``), soft and hard label.

One test record (id 2038) lists annotator ``Ann448`` twice, both times with 0: the repeat
is dropped (a judgment per annotator and item), so that item's computed distribution
(3/4 vs 1/4) differs from the file's soft label (0.8/0.2), which counts it twice.
"""

from __future__ import annotations

from pathlib import Path

from inspect_plural.records import LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources.lewidi import (
    LEWIDI_COMMIT,
    LEWIDI_RELEASES,
    LEWIDI_REPO,
    MAIN_ANNOTATIONS,
    find_release,
    read_lewidi,
)

__all__ = ["MD_AGREEMENT_FILES", "MD_AGREEMENT_LABELS", "MD_AGREEMENT_SOURCE", "load_md_agreement"]

MD_AGREEMENT_FILES = {
    "train": "MD-Agreement_train.json",
    "dev": "MD-Agreement_dev.json",
    "test": "MD-Agreement_test.json",
}
"""LeWiDi split files, read in this order."""

MD_AGREEMENT_SOURCE = (
    f"the LeWiDi repository (github.com/{LEWIDI_REPO} at commit {LEWIDI_COMMIT}, folder "
    "LeWiDi_2-2023/) or the PersEval repository (github.com/valeriobasile/PersEval, "
    "data/MD-Agreement_dataset)"
)

MD_AGREEMENT_LABELS = {"offensiveness": MAIN_ANNOTATIONS}
"""Label -> its key in the JSON records."""

SCALE = LabelScale(
    kind="nominal",
    labels=["not offensive", "offensive"],
    description="Is this tweet offensive?",
)


def load_md_agreement(
    data_dir: str | Path | None = None, demo: bool = False, label: str = "offensiveness"
) -> AnnotatedCorpus:
    """Load MD-Agreement as records.

    Args:
        data_dir: Folder holding the three JSON files, directly or in an
            ``MD-Agreement/`` or ``MD-Agreement_dataset/`` subfolder (else
            ``<data root>/md_agreement`` or ``<data root>/lewidi/2023``).
        demo: Use the demo files written for this package (same layout).
        label: ``offensiveness`` (the only label).

    Returns:
        The corpus (no annotator traits; each item's domain is its context).

    Raises:
        DataNotFoundError: The files are missing (the message says where to get them).

    """
    if label not in MD_AGREEMENT_LABELS:
        raise ValueError(
            f"unknown MD-Agreement label {label!r}; one of {list(MD_AGREEMENT_LABELS)}"
        )
    found = find_release(LEWIDI_RELEASES["md_agreement"], data_dir, demo)
    files = found.splits
    kind = "demo data written for inspect_plural" if demo else "local Le-Wi-Di JSON"
    return read_lewidi(
        files,
        name="md_agreement",
        field=MD_AGREEMENT_LABELS[label],
        scale=SCALE,
        raw_labels=["0", "1"],
        origin=f"{kind} in {found.folder.name}/ (train sha256 {sha256_of(files[0][1])[:16]})",
        demo=demo,
        id_style="sequence",
        folder=found.label,
    )
