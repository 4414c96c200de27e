"""MD-Agreement (Leonardelli et al. 2021): offensiveness of tweets, five labels each.

The official files are the Le-Wi-Di 2023 JSON ``MD-Agreement_{train,dev,test}.json``
(also in the PersEval repository under ``data/MD-Agreement_dataset/``). Their licence
is "available upon request, non-commercial research only", so users supply them. About
800 annotators (``Ann1``...) label 10,753 tweets on BLM, Election 2020 and Covid-19; there
are no demographics, so the task runs *unnamed* only. Items are numbered from 0 across
train, dev and test in that order, as PersEval's flattened file numbers them.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from inspect_plural.records import LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._paths import DataNotFoundError, data_root, local_folder
from inspect_plural.sources.lewidi import MAIN_ANNOTATIONS, read_lewidi

__all__ = ["MD_AGREEMENT_FILES", "MD_AGREEMENT_LABELS", "MD_AGREEMENT_SOURCE", "load_md_agreement"]

MD_AGREEMENT_FILES = {
    "train": "MD-Agreement_train.json",
    "dev": "MD-Agreement_dev.json",
    "test": "MD-Agreement_test.json",
}
"""Le-Wi-Di split files, read in this order."""

MD_AGREEMENT_SOURCE = (
    "the Le-Wi-Di 2023 repository (github.com/Le-Wi-Di/le-wi-di.github.io, folder "
    "LeWiDi_2-2023/MD-Agreement_dataset) or the PersEval repository "
    "(github.com/valeriobasile/PersEval, data/MD-Agreement_dataset); the dataset is "
    "distributed on request for non-commercial research (dhfbk/annotators-agreement-dataset)"
)

MD_AGREEMENT_LABELS = {"offensiveness": MAIN_ANNOTATIONS}
"""Label -> its key in the JSON records."""

LOCAL_SUBDIR = "md_agreement"

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
        data_dir: Folder holding the three JSON files (else ``<data root>/md_agreement``).
        demo: Use the demo files written for this package (same layout).
        label: ``offensiveness`` (the only label).

    Returns:
        The corpus (no annotator traits; each item's domain is its context).

    Raises:
        DataNotFoundError: The files are missing.

    """
    if label not in MD_AGREEMENT_LABELS:
        raise ValueError(
            f"unknown MD-Agreement label {label!r}; one of {list(MD_AGREEMENT_LABELS)}"
        )
    if demo:
        folder = Path(str(resources.files("inspect_plural").joinpath("demo/md_agreement")))
    else:
        folder = local_folder(data_dir, LOCAL_SUBDIR)
    files = [(split, folder / name) for split, name in MD_AGREEMENT_FILES.items()]
    absent = [p.name for _, p in files if not p.is_file()]
    if absent:
        raise DataNotFoundError(
            f"MD-Agreement needs {', '.join(MD_AGREEMENT_FILES.values())} in {folder} "
            f"(missing: {', '.join(absent)}). Obtain them from {MD_AGREEMENT_SOURCE}; put "
            f"them in {data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER. "
            "Or run the offline demo rows: -T demo=true."
        )
    kind = "demo data written for inspect_plural" if demo else "local Le-Wi-Di JSON"
    return read_lewidi(
        files,
        name="md_agreement",
        field=MD_AGREEMENT_LABELS[label],
        scale=SCALE,
        raw_labels=["0", "1"],
        origin=f"{kind} in {folder.name}/ (train sha256 {sha256_of(files[0][1])[:16]})",
        demo=demo,
        id_style="sequence",
    )
