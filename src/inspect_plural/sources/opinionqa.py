"""OpinionQA (Santurkar et al. 2023): Pew American Trends Panel answers, one respondent each.

The per-respondent answers are the ``human_resp/`` folder of the OpinionQA CodaLab worksheet
(:data:`OPINIONQA_CODALAB_WORKSHEET`). They are Pew ATP data that may not be redistributed,
so they are never downloaded: the user fetches them and points the loader at them.

Layout (one folder per survey wave ``N``)::

    <folder>/American_Trends_Panel_W{N}/responses.csv   # one row per respondent
    <folder>/American_Trends_Panel_W{N}/info.csv        # one row per question
    <folder>/American_Trends_Panel_W{N}/metadata.csv    # the 12 demographic attributes

``<folder>`` may also be the parent of ``human_resp/``. Every ``W{N}`` folder holding
``responses.csv`` and ``info.csv`` is read (the official waves are
:data:`OPINIONQA_WAVES`; other numbers, such as the demo wave 900, are accepted too).

- ``responses.csv``: respondent id ``QKEY``, one column per question key (the answer as
  its option string; empty when the question was not asked), the 12 attributes of
  :data:`OPINIONQA_TRAITS` and a ``WEIGHT_W{N}`` column: the respondent's survey weight,
  kept as :attr:`AnnotatedCorpus.annotator_weights` (1 when the column is absent) so
  group answer distributions can be weighted as the official code does.
- ``info.csv``: ``key`` (e.g. ``CARS5_W27``), ``question``, and the Python literals
  ``option_mapping`` (code -> option), ``references`` (the options, ``'Refused'`` last)
  and ``option_ordinal`` (a number per non-refusal option).
- ``metadata.csv``: ``key`` (attribute) and ``options`` (a list literal); attribute values
  outside these options are ``UNK``, as the official code drops them when grouping.

Records: an annotator is one respondent of one wave, ``W{N}:{QKEY}`` (respondents differ
between waves); an item is one question, keyed by its ``key``, with its own scale in
:attr:`AnnotatedCorpus.item_scales` (the options without ``Refused``; ordinal when
``option_ordinal`` increases strictly, else nominal). ``Refused`` answers and questions not
asked are not judgments: they are dropped (the refusals are counted in the origin).
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.records import Annotator, Item, LabelScale
from inspect_plural.sources._corpus import AnnotatedCorpus, dedupe_judgments
from inspect_plural.sources._hub import sha256_of
from inspect_plural.sources._once import data_logger
from inspect_plural.sources._opinionqa_wave import (
    OPINIONQA_REFUSED,
    OPINIONQA_TRAITS,
    UNKNOWN_TRAIT,
    WEIGHT_COLUMN,
    OpinionQAWave,
    read_opinionqa_wave,
)
from inspect_plural.sources._paths import DataNotFoundError, data_folder, data_root

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "OPINIONQA_CODALAB_WORKSHEET",
    "OPINIONQA_FILES",
    "OPINIONQA_REFUSED",
    "OPINIONQA_TRAITS",
    "OPINIONQA_WAVES",
    "UNKNOWN_TRAIT",
    "WEIGHT_COLUMN",
    "OpinionQAWave",
    "load_opinionqa",
    "read_opinionqa_wave",
]

OPINIONQA_CODALAB_WORKSHEET = "0x6fb693719477478aac73fc07db333f69"
"""CodaLab worksheet of OpinionQA; its ``human_resp/`` folder holds the answers."""

OPINIONQA_WAVES = (26, 27, 29, 32, 34, 36, 41, 42, 43, 45, 49, 50, 54, 82, 92)
"""The official Pew ATP waves (``PEW_SURVEY_LIST`` in tatsu-lab/opinions_qa ``helpers.py``)."""

OPINIONQA_FILES = ("responses.csv", "info.csv", "metadata.csv")
"""Files of one ``American_Trends_Panel_W{N}/`` folder (``metadata.csv`` is optional here)."""

WAVE_FOLDER = re.compile(r"^American_Trends_Panel_W(\d+)$")
LOCAL_SUBDIR = "opinionqa"
PLACEHOLDER_SCALE = LabelScale(
    kind="nominal",
    labels=["A", "B"],
    description="Placeholder: every OpinionQA question has its own scale (item_scales).",
)

logger = data_logger(__name__)


def _demo_dir() -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo/opinionqa")))


def _missing(searched: list[Path], detail: str = "") -> str:
    where = ", ".join(str(p) for p in searched)
    waves = ", ".join(str(w) for w in OPINIONQA_WAVES)
    return (
        "OpinionQA needs the per-respondent Pew American Trends Panel answers, which cannot "
        "be downloaded automatically (Pew ATP terms forbid redistribution). Get them "
        "yourself, accepting the Pew ATP terms of use: download the folder human_resp/ from "
        f"the OpinionQA CodaLab worksheet {OPINIONQA_CODALAB_WORKSHEET} "
        f"(https://worksheets.codalab.org/worksheets/{OPINIONQA_CODALAB_WORKSHEET}). "
        "It holds one folder per wave, American_Trends_Panel_W{N}/ with "
        f"{', '.join(OPINIONQA_FILES)} (N in {waves}); the GitHub repository "
        "tatsu-lab/opinions_qa has info.csv and metadata.csv but not responses.csv. "
        f"Put the wave folders in {data_root() / LOCAL_SUBDIR}/ (or the human_resp/ folder "
        "itself there) or pass -T data_dir=FOLDER, or use the offline demo rows: "
        f"-T demo=true. Searched: {where}." + (f" {detail}" if detail else "")
    )


def _wave_folders(folder: Path) -> dict[int, Path]:
    """The ``American_Trends_Panel_W{N}`` folders in ``folder`` (or in its ``human_resp/``)."""
    found: dict[int, Path] = {}
    for base in (folder, folder / "human_resp"):
        if not base.is_dir():
            continue
        for child in base.iterdir():
            match = WAVE_FOLDER.match(child.name)
            if match and child.is_dir():
                found.setdefault(int(match.group(1)), child)
        if found:
            break
    return dict(sorted(found.items()))


def load_opinionqa(
    data_dir: str | Path | None = None,
    demo: bool = False,
    waves: list[int] | int | str | None = None,
) -> AnnotatedCorpus:
    """Load OpinionQA's per-respondent answers as records.

    Search order: ``data_dir``; ``<data root>/opinionqa``. There is no download: the data
    is user-supplied (see the module docstring and the error message).

    Args:
        data_dir: Folder holding the ``American_Trends_Panel_W{N}/`` folders (or
            ``human_resp/``).
        demo: Use the demo wave written for this package (``W900``).
        waves: Wave numbers to load: a list, one number, or ``"26,27"`` as ``-T`` gives
            it (default: every wave present).

    Returns:
        The corpus: annotators ``W{N}:{QKEY}`` with the 12 attributes as traits and their
        ``WEIGHT_W{N}`` survey weights, items keyed by question key with per-item scales,
        judgments as option indices.

    Raises:
        DataNotFoundError: No wave folder with ``responses.csv`` and ``info.csv`` is found,
            or a requested wave is absent.
        DataFileError: A file cannot be read, or a required column is missing.
        DataRowError: A malformed question or answer.

    """
    import pandas as pd

    local = None if demo else data_folder(data_dir, LOCAL_SUBDIR)
    folder = _demo_dir() if local is None else local.path
    found = _wave_folders(folder)
    complete = {
        w: p
        for w, p in found.items()
        if (p / "responses.csv").is_file() and (p / "info.csv").is_file()
    }
    incomplete = sorted(set(found) - set(complete))
    if isinstance(waves, (int, str)):
        waves = [int(w) for w in str(waves).split(",") if w.strip()]
    if waves is not None:
        wanted = sorted({int(w) for w in waves})
        absent = [w for w in wanted if w not in complete]
        if absent:
            raise DataNotFoundError(
                _missing([folder], f"Requested wave(s) {absent} lack responses.csv/info.csv.")
            )
        complete = {w: complete[w] for w in wanted}
    elif incomplete and complete:
        logger.warning(
            "OpinionQA: skipping wave folder(s) %s without responses.csv and info.csv",
            ", ".join(f"W{w}" for w in incomplete),
        )
    if not complete:
        detail = (
            f"Wave folder(s) {', '.join(f'W{w}' for w in incomplete)} lack responses.csv "
            "and/or info.csv."
            if incomplete
            else ""
        )
        raise DataNotFoundError(_missing([folder], detail))

    frames: list[pd.DataFrame] = []
    annotators: dict[str, Annotator] = {}
    items: dict[str, Item] = {}
    scales: dict[str, LabelScale] = {}
    refused = 0
    sources: list[str] = []
    weights: dict[str, float] = {}
    unweighted: list[str] = []
    for wave, path in complete.items():
        judgments, wave_annotators, wave_items, wave_scales, wave_refused, wave_weights = (
            read_opinionqa_wave(path, wave)
        )
        weights.update(wave_weights)
        if not wave_weights:
            unweighted.append(f"W{wave}")
        repeated = sorted(wave_items.keys() & items.keys())
        if repeated:
            raise ValueError(f"OpinionQA: question key(s) {repeated[:5]} occur in several waves")
        frames.append(judgments)
        annotators.update(wave_annotators)
        items.update(wave_items)
        scales.update(wave_scales)
        refused += wave_refused
        sources.append(f"W{wave} (responses.csv sha256 {sha256_of(path / 'responses.csv')[:16]})")
    judgments, _ = dedupe_judgments(pd.concat(frames, ignore_index=True), "OpinionQA")
    kind = "demo data written for inspect_plural" if demo else "local OpinionQA human_resp"
    origin = f"{kind}: {', '.join(sources)}; {refused} 'Refused' answer(s) dropped (not judgments)"
    if unweighted:
        origin += f"; no survey weights in {', '.join(unweighted)} (weight 1)"
    return AnnotatedCorpus(
        name="opinionqa",
        scale=PLACEHOLDER_SCALE,
        annotators=annotators,
        items=items,
        judgments=judgments,
        origin=origin,
        demo=demo,
        item_scales=scales,
        trait_dimensions=list(OPINIONQA_TRAITS),
        annotator_weights=weights,
        folder="" if local is None else local.label,
    )
