"""HS-Brexit (Akhtar, Basile & Patti 2021): six annotators, target vs control group.

Two official layouts are read:

- the Le-Wi-Di 2023 JSON files ``HS-Brexit_{train,dev,test}.json`` (labels ``hs``,
  ``offensiveness``, ``aggressiveness``);
- the Hugging Face dataset ``silvia-casola/BREXIT`` (PersEval's source), one row per
  annotator x tweet with ``tweet, instance_id, annotator_group, annotator_id, hs,
  offensiveness, stereotype, aggressiveness`` (the only source of ``stereotype``), from
  the hub or as ``train.csv``/``validation.csv``/``test.csv`` in a local folder.

Item ids are ``<split>-<id>`` with the hub's split names (``train``, ``validation``,
``test``), because ids restart at 1 in every split file. Each item keeps its official
split (``item_splits``, ``validation`` read as ``dev``); the LeWiDi files also give the
file's soft and hard ``hs`` labels. ``-T data_dir=`` may name the folder holding all four
LeWiDi 2023 datasets.
"""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import (
    OFFICIAL_SPLITS,
    AnnotatedCorpus,
    dedupe_judgments,
    kept_rows,
)
from inspect_plural.sources._hub import hub_dataframe, sha256_of
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_folder, data_root
from inspect_plural.sources._read import read_csv_file, require_columns
from inspect_plural.sources.lewidi import MAIN_ANNOTATIONS, SPLIT_ALIASES, read_lewidi

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "BREXIT_HF_REPO",
    "BREXIT_HF_REVISION",
    "BREXIT_LABELS",
    "BREXIT_LEWIDI_FILES",
    "load_brexit",
]

BREXIT_HF_REPO = "silvia-casola/BREXIT"
"""Hugging Face dataset used by PersEval."""

BREXIT_HF_REVISION = "main"
"""Hub revision. No commit SHA could be read offline; pass ``-T revision=SHA`` to pin one."""

BREXIT_LEWIDI_FILES = {
    "train": "HS-Brexit_train.json",
    "validation": "HS-Brexit_dev.json",
    "test": "HS-Brexit_test.json",
}
"""Le-Wi-Di file of each split (the hub calls ``dev`` ``validation``)."""

HUB_SPLIT_FILES = {"train": "train.csv", "validation": "validation.csv", "test": "test.csv"}

HUB_COLUMNS = ("tweet", "instance_id", "annotator_group", "annotator_id")
"""Columns every hub-layout CSV needs, besides the label's own column."""

HUB_EXPECTED = (
    f"a CSV of the Hugging Face dataset {BREXIT_HF_REPO}, one row per annotator and tweet"
)

BREXIT_LABELS: dict[str, tuple[str | None, str]] = {
    "hs": (MAIN_ANNOTATIONS, "Is this tweet hate speech?"),
    "offensiveness": ("offensive language detection", "Is this tweet offensive?"),
    "aggressiveness": ("aggressive language detection", "Is this tweet aggressive?"),
    "stereotype": (None, "Does this tweet contain a stereotype?"),
}
"""Label -> (its key in the Le-Wi-Di JSON, or None when only the hub has it; the question)."""

LEWIDI_ALIASES = {"No": "0", "Yes": "1"}
"""The Le-Wi-Di release spells three offensiveness labels "No" (train items 426 and more)."""

LOCAL_SUBDIR = "brexit"
GROUP_NAMES = {"target": "target group", "control": "control group"}


def _scale(label: str) -> LabelScale:
    _, question = BREXIT_LABELS[label]
    no, yes = {
        "hs": ("not hate speech", "hate speech"),
        "offensiveness": ("not offensive", "offensive"),
        "aggressiveness": ("not aggressive", "aggressive"),
        "stereotype": ("no stereotype", "stereotype"),
    }[label]
    return LabelScale(kind="nominal", labels=[no, yes], description=question)


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/brexit")))


def _missing(label: str, searched: list[Path]) -> str:
    where = ", ".join(str(p) for p in searched)
    return (
        f"HS-Brexit ({label}) needs either the Le-Wi-Di 2023 files "
        f"{', '.join(BREXIT_LEWIDI_FILES.values())} (github.com/Le-Wi-Di/le-wi-di.github.io, "
        f"folder LeWiDi_2-2023/HS-Brexit_dataset) or the Hugging Face dataset {BREXIT_HF_REPO} "
        f"(saved as {', '.join(HUB_SPLIT_FILES.values())}). Searched: {where}. Put them in "
        f"{data_root() / LOCAL_SUBDIR}/ or pass -T data_dir=FOLDER, run with access to the "
        "Hugging Face hub, or use the offline demo rows: -T demo=true."
    )


def read_brexit_hub_frame(frame: pd.DataFrame, label: str, origin: str) -> AnnotatedCorpus:
    """Records from the hub layout (one row per annotator x tweet, a ``split`` column).

    Args:
        frame: The rows, splits concatenated in the order train, validation, test.
        label: ``hs``, ``offensiveness``, ``aggressiveness`` or ``stereotype``.
        origin: Description of the source.

    Returns:
        The corpus.

    """
    import pandas as pd

    require_columns(frame.columns, [*HUB_COLUMNS, label, "split"], origin, HUB_EXPECTED)
    values = pd.to_numeric(frame[label], errors="coerce")
    bad = ~values.isin([0, 1])
    if bad.any():
        row = int(bad.to_numpy().argmax())
        raise DataRowError(origin, row, label, f"{frame[label].iloc[row]!r} is not 0 or 1")
    raw_ids = frame["instance_id"].astype(str)
    item_ids = (
        raw_ids.where(raw_ids.str.contains("-"), frame["split"].astype(str) + "-" + raw_ids)
    ).tolist()
    annotator_ids = frame["annotator_id"].astype(str).tolist()
    judgments = pd.DataFrame(
        {"annotator_id": annotator_ids, "item_id": item_ids, "label": values.astype(int)}
    )
    judgments, _ = dedupe_judgments(judgments, origin)
    ids = pd.Series(item_ids)
    texts = frame["tweet"].astype(str).str.strip().reset_index(drop=True)
    first = kept_rows(ids, texts, origin, "item ids repeat with a different tweet")
    items = {i: Item(id=i, text=t) for i, t in zip(ids[first], texts[first])}
    official = frame["split"].astype(str).replace(SPLIT_ALIASES)
    item_splits = {i: sp for i, sp in zip(item_ids, official.tolist()) if sp in OFFICIAL_SPLITS}
    people = pd.Series(annotator_ids)
    group_names = frame["annotator_group"].astype(str).str.strip().reset_index(drop=True)
    once = kept_rows(people, group_names, origin, "annotators repeat with a different group")
    groups = dict(zip(people[once], group_names[once]))
    annotators = {
        a: Annotator(id=a, traits={"group": GROUP_NAMES.get(g, g)}) for a, g in groups.items()
    }
    return AnnotatedCorpus(
        name="brexit",
        scale=_scale(label),
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=origin,
        trait_dimensions=["group"],
        item_splits=item_splits,
    )


def load_brexit(
    data_dir: str | Path | None = None,
    demo: bool = False,
    label: str = "hs",
    revision: str | None = None,
) -> AnnotatedCorpus:
    """Load HS-Brexit as records.

    Search order: ``data_dir``; ``<data root>/brexit``; the Hugging Face hub. In a folder,
    the Le-Wi-Di JSON files are preferred to the hub-layout CSVs.

    Args:
        data_dir: Folder holding the official files.
        demo: Use the demo files written for this package (Le-Wi-Di layout).
        label: ``hs`` (default), ``offensiveness``, ``aggressiveness`` or ``stereotype``.
        revision: Hub revision when downloading.

    Returns:
        The corpus.

    Raises:
        DataNotFoundError: No copy can be found or downloaded.
        ValueError: An unknown label, or ``stereotype`` from the Le-Wi-Di files.

    """
    import pandas as pd

    if label not in BREXIT_LABELS:
        raise ValueError(f"unknown BREXIT label {label!r}; one of {list(BREXIT_LABELS)}")
    field, _ = BREXIT_LABELS[label]
    found = None if demo else data_folder(data_dir, LOCAL_SUBDIR)
    folders = [_demo_dir()] if found is None else [found.path]
    label_of = "" if found is None else found.label
    for folder in folders:
        json_files = [(s, folder / f) for s, f in BREXIT_LEWIDI_FILES.items()]
        if all(p.is_file() for _, p in json_files):
            if field is None:
                raise ValueError(
                    f"label {label!r} is only in the Hugging Face release {BREXIT_HF_REPO}; "
                    "the Le-Wi-Di files have hs, offensiveness and aggressiveness"
                )
            digest = sha256_of(json_files[0][1])[:16]
            kind = "demo data written for inspect_plural" if demo else "local Le-Wi-Di JSON"
            corpus = read_lewidi(
                json_files,
                name="brexit",
                field=field,
                scale=_scale(label),
                raw_labels=["0", "1"],
                origin=f"{kind} in {folder.name}/ (train sha256 {digest})",
                demo=demo,
                aliases=LEWIDI_ALIASES,
            )
            return replace(corpus, folder=label_of)
        csv_files = [folder / f for f in HUB_SPLIT_FILES.values()]
        if all(p.is_file() for p in csv_files):
            frames = []
            for split, path in zip(HUB_SPLIT_FILES, csv_files):
                columns = [*HUB_COLUMNS, label]
                expected = f"{HUB_EXPECTED}, with the columns {', '.join(columns)}"
                frame = read_csv_file(path, expected, dtype=str, keep_default_na=False)
                require_columns(frame.columns, columns, path, HUB_EXPECTED)
                frames.append(frame.assign(split=split))
            corpus = read_brexit_hub_frame(
                pd.concat(frames, ignore_index=True),
                label,
                f"local hub-layout CSVs in {folder.name}/",
            )
            return replace(corpus, folder=label_of)
    if data_dir or demo:
        raise DataNotFoundError(_missing(label, folders))
    frame, origin = hub_dataframe(
        BREXIT_HF_REPO, revision or BREXIT_HF_REVISION, _missing(label, folders)
    )
    return read_brexit_hub_frame(frame, label, origin)
