"""PERSE (Wang et al., "Learning Personalized Story Evaluation"): Per-MPST and Per-DOC.

The official release (``dl.fbaipublicfiles.com/perse/{PerMPST,PerDOC}.tar.gz``,
CC BY-NC 4.0) cannot be downloaded here, so both loaders read the user's copy from a
folder (``data/per_mpst`` and ``data/per_doc`` by default) holding JSON-lines files in
the layout of the repository's samples (``facebookresearch/PerSE`` at
:data:`PERSE_REVISION`):

- **Per-MPST**: files named ``PerMPST.k{K}.<anything>.jsonl``; one line per instance,
  ``examples`` = K prior reviews then the target, each with ``reviewer_name``,
  ``movie_id``, ``movie_title``, ``summ_plot``, ``clean_review`` and ``score`` (1–10).
  A task asking for ``k`` reads the ``k{k}`` files, or keeps the first ``k`` prior
  reviews of the smallest larger ``K``.
- **Per-DOC**: files named ``PerDOC.<aspect>.<anything>.jsonl`` where ``<aspect>`` is
  ``I``/``A``/``S``/``C``/``E`` (or the question keys ``Q1``/``Q3``/``Q4``/``Q5``/``Q6``).
  Lines hold ``review_id`` (the annotator), a rendered ``prompt`` and the ``completion``
  (fenced ``{"Choice": "Plot A" | "Plot B",}``, trailing comma included). The plots and
  the annotator's example are read back from the prompt's ``[The Start of ...]`` markers.

A file whose name has a ``train`` or ``valid``/``dev``/``test`` part declares the
release's own split; :func:`split_by_reviewer` otherwise splits reviewers 9:1 with the
seed (PERSE §4.1: validation reviewers are unseen in training).
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, NamedTuple, TypeVar

from pydantic import ValidationError

from inspect_plural.records import (
    LabelScale,
    PairExample,
    PairwisePreference,
    PersonalReview,
    PlotPair,
    ScoredReview,
)
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, local_folder

__all__ = [
    "CHOICES",
    "PERDOC_ASPECTS",
    "PERDOC_RELEASE_URL",
    "PERMPST_RELEASE_URL",
    "PERSE_REPO",
    "PERSE_REVISION",
    "SCORE_HIGH",
    "SCORE_LOW",
    "SCORE_SCALE",
    "SPLIT_MODES",
    "Aspect",
    "LoadedRows",
    "PerseSplit",
    "SplitMode",
    "clean_review",
    "load_per_doc",
    "load_per_mpst",
    "parse_perdoc_prompt",
    "resolve_aspects",
    "split_by_reviewer",
]

logger = logging.getLogger(__name__)

PERSE_REPO = "facebookresearch/PerSE"
"""The official repository (code and the sample files)."""
PERSE_REVISION = "cbe1b4890179c3f50e01e5203cc3b4b207c2cffb"
"""The repository commit whose sample files define the layout read here."""
PERMPST_RELEASE_URL = "https://dl.fbaipublicfiles.com/perse/PerMPST.tar.gz"
"""Where the full Per-MPST release is published (fetch it yourself; CC BY-NC 4.0)."""
PERDOC_RELEASE_URL = "https://dl.fbaipublicfiles.com/perse/PerDOC.tar.gz"
"""Where the full Per-DOC release is published (fetch it yourself; CC BY-NC 4.0)."""

SCORE_LOW = 1
"""Lowest Per-MPST score."""
SCORE_HIGH = 10
"""Highest Per-MPST score."""
SCORE_SCALE = LabelScale(
    kind="interval",
    low=SCORE_LOW,
    high=SCORE_HIGH,
    description="The reviewer's score of the story, from 1 (lowest) to 10 (highest).",
)
"""The Per-MPST score scale."""

CHOICES: tuple[Literal["Plot A"], Literal["Plot B"]] = ("Plot A", "Plot B")
"""The two answers of a Per-DOC comparison."""

SplitMode = Literal["auto", "seeded", "release", "all"]
"""How reviewers are split: see :func:`split_by_reviewer`."""
SPLIT_MODES: tuple[SplitMode, ...] = ("auto", "seeded", "release", "all")
"""The values of :data:`SplitMode`."""


class Aspect(NamedTuple):
    """A Per-DOC aspect: its key, file code, question key, name and question."""

    key: str
    code: str
    question_key: str
    title: str
    question: str


PERDOC_ASPECTS: dict[str, Aspect] = {
    a.key: a
    for a in (
        Aspect(
            "interestingness",
            "I",
            "Q1",
            "Interestingness",
            "Which of the two plots do you find more interesting overall?",
        ),
        Aspect(
            "adaptability",
            "A",
            "Q3",
            "Adaptability",
            "Which plot would make the more interesting book or film if a full story were "
            "written from it?",
        ),
        Aspect(
            "surprise",
            "S",
            "Q4",
            "Surprise",
            "Which plot builds more suspense and holds more surprises?",
        ),
        Aspect(
            "character_development",
            "C",
            "Q5",
            "Character development",
            "In which plot do you care more about, or identify more with, the characters "
            "and what happens to them?",
        ),
        Aspect("ending", "E", "Q6", "Ending", "Which plot ends better?"),
    )
}
"""The five Per-DOC aspects (PERSE App. A.2), by key. Questions in our own words."""

_CODES = {
    **{a.code.lower(): a.key for a in PERDOC_ASPECTS.values()},
    **{a.question_key.lower(): a.key for a in PERDOC_ASPECTS.values()},
}
_MPST_FILE = re.compile(r"^permpst\.k(\d+)\..*\.jsonl$", re.IGNORECASE)
_DOC_FILE = re.compile(r"^perdoc\.([a-z0-9]+)\..*\.jsonl$", re.IGNORECASE)
_TRAIN = {"train", "training"}
_VALID = {"valid", "validation", "val", "dev", "test"}
_CHOICE = re.compile(r"""["']?choice["']?\s*:\s*["']?\s*(plot\s*[ab])\b""", re.IGNORECASE)
_PREFERENCE = re.compile(
    r"\[The Start of User Preference\](?P<example>.*?)\[The End of User Preference\]"
    r"(?P<query>.*)",
    re.DOTALL,
)
_PREMISE = re.compile(r"^\s*Premise\s+(.*?)\s*(?=Settings\s|Characters\s|Outline\s|$)", re.DOTALL)

T = TypeVar("T")


# --------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------


def clean_review(review: str, max_words: int = 150) -> str:
    """A review as PERSE shows it in prompts: quotes removed, at most ``max_words`` words.

    The review is cut after its last full stop within the first ``max_words`` words
    (one is added at the end first, so a short review is kept whole). When those words
    hold no full stop they are kept as they are; the official code returns an empty
    review then.

    Args:
        review: The review text.
        max_words: Word budget (space-separated tokens).

    Returns:
        The shortened review.
    """
    text = review.replace('"', "").replace("'", "").strip()
    if not text:
        return text
    if not text.endswith("."):
        text += "."
    text = " ".join(text.split(" ")[:max_words])
    end = text.rfind(".")
    return text[: end + 1] if end >= 0 else text


def _declared_split(name: str) -> Literal["train", "valid", ""]:
    parts = set(re.split(r"[._\-]", name.lower()))
    if parts & _TRAIN:
        return "train"
    if parts & _VALID:
        return "valid"
    return ""


def _read_lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    with path.open(encoding="utf-8") as handle:
        for row, line in enumerate(handle):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as ex:
                raise DataRowError(path, row, "(line)", f"not valid JSON: {ex}") from None
            if not isinstance(value, dict):
                raise DataRowError(path, row, "(line)", "not a JSON object")
            yield row, value


def _field(path: Path, row: int, value: dict[str, Any], name: str, kind: type[T]) -> T:
    if name not in value:
        raise DataRowError(path, row, name, "missing")
    found = value[name]
    if not isinstance(found, kind):
        raise DataRowError(path, row, name, f"expected {kind.__name__}, got {found!r:.60}")
    return found


def _demo_folder(name: str) -> Path:
    return Path(str(resources.files("inspect_plural").joinpath("demo").joinpath(name)))


@dataclass(frozen=True)
class LoadedRows:
    """Records read from a dataset's files, each with the split its file declares.

    Attributes:
        records: The records, in file order.
        declared: Per record, ``train``, ``valid`` or ``""`` (the file declares none).
        files: The files read (names only).
        summary: Counts for the task metadata (duplicates dropped, truncation).

    """

    records: list[Any]
    declared: list[Literal["train", "valid", ""]]
    files: list[str]
    summary: dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------------------
# Per-MPST
# --------------------------------------------------------------------------------------


def _mpst_files(folder: Path, k: int) -> tuple[list[Path], int]:
    """The Per-MPST files to read for ``k``, and the K they were written for."""
    by_k: dict[int, list[Path]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        match = _MPST_FILE.match(path.name)
        if match:
            by_k.setdefault(int(match.group(1)), []).append(path)
    if k in by_k:
        return by_k[k], k
    larger = sorted(size for size in by_k if size > k)
    if not larger:
        found = sorted(by_k) or "none"
        raise DataNotFoundError(
            f"no Per-MPST file with k >= {k} in {folder} (files PerMPST.k<K>.<split>.jsonl; "
            f"found k: {found}). Download {PERMPST_RELEASE_URL}, unpack it and put its "
            f"JSON-lines files in {folder}, or point -T data_dir at them."
        )
    return by_k[larger[0]], larger[0]


def _scored_review(path: Path, row: int, item: Any, index: int) -> ScoredReview:
    where = f"examples[{index}]"
    if not isinstance(item, dict):
        raise DataRowError(path, row, where, "not an object")
    for name in ("reviewer_name", "movie_id", "summ_plot", "clean_review", "score"):
        if name not in item:
            raise DataRowError(path, row, f"{where}.{name}", "missing")
    score = item["score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise DataRowError(path, row, f"{where}.score", f"not a number: {score!r:.40}")
    if not SCORE_LOW <= score <= SCORE_HIGH:
        raise DataRowError(
            path, row, f"{where}.score", f"{score} is outside {SCORE_LOW}..{SCORE_HIGH}"
        )
    try:
        return ScoredReview(
            item_id=str(item["movie_id"]),
            title=str(item.get("movie_title") or ""),
            plot=str(item["summ_plot"]),
            review=str(item["clean_review"]),
            score=float(score),
        )
    except ValidationError as ex:
        raise DataRowError(path, row, where, str(ex.errors()[0]["msg"])) from None


def _personal_review(path: Path, row: int, value: dict[str, Any], k: int) -> PersonalReview:
    examples = _field(path, row, value, "examples", list)
    if len(examples) < 2:
        raise DataRowError(path, row, "examples", "needs prior reviews and a target")
    reviews = [_scored_review(path, row, item, i) for i, item in enumerate(examples)]
    reviewers = {str(item["reviewer_name"]) for item in examples}
    if len(reviewers) != 1:
        raise DataRowError(path, row, "examples", f"several reviewers: {sorted(reviewers)}")
    reviewer = reviewers.pop()
    if len(reviews) - 1 < k:
        raise DataRowError(path, row, "examples", f"{len(reviews) - 1} prior reviews, k={k}")
    target = reviews[-1]
    return PersonalReview(
        id=f"{reviewer}/{target.item_id}",
        reviewer_id=reviewer,
        history=reviews[:k],
        target=target,
    )


def load_per_mpst(data_dir: str | Path | None = None, k: int = 3, demo: bool = False) -> LoadedRows:
    """Read Per-MPST instances with ``k`` prior reviews each.

    Rows that repeat an earlier row (same reviewer, target and prior stories) are
    dropped, as the official scripts drop repeated prompts; an instance whose id repeats
    with other prior stories gets a ``#2``, ``#3`` suffix.

    Args:
        data_dir: Folder with the ``PerMPST.k{K}.*.jsonl`` files (default:
            ``data/per_mpst``).
        k: Prior reviews per instance (1–5 in the paper).
        demo: Read the demo files written for this package instead (``k`` up to 5).

    Returns:
        The :class:`~inspect_plural.records.PersonalReview` records.

    Raises:
        DataNotFoundError: No file for ``k`` (the message says how to get the release).
        DataRowError: A malformed row (names the file, row and field).
        ValueError: ``k`` < 1, or ``demo`` together with ``data_dir``.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    if demo and data_dir is not None:
        raise ValueError("use either demo=true or data_dir, not both")
    folder = _demo_folder("per_mpst") if demo else local_folder(data_dir, "per_mpst")
    if not folder.is_dir():
        raise DataNotFoundError(
            f"Per-MPST folder not found: {folder}. Download {PERMPST_RELEASE_URL}, unpack it "
            "and put its PerMPST.k<K>.<split>.jsonl files there (or pass -T data_dir=...; "
            "the repository's sample file works too), or run with -T demo=true."
        )
    paths, written_k = _mpst_files(folder, k)
    records: list[PersonalReview] = []
    declared: list[Literal["train", "valid", ""]] = []
    seen: set[tuple[str, str, tuple[str, ...]]] = set()
    ids: Counter[str] = Counter()
    duplicates = 0
    for path in paths:
        split = _declared_split(path.name)
        for row, value in _read_lines(path):
            record = _personal_review(path, row, value, k)
            key = (
                record.reviewer_id,
                record.target.item_id,
                tuple(h.item_id for h in record.history),
            )
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            ids[record.id] += 1
            if ids[record.id] > 1:
                record = record.model_copy(update={"id": f"{record.id}#{ids[record.id]}"})
            records.append(record)
            declared.append(split)
    if not records:
        raise DataNotFoundError(f"no Per-MPST rows in {[p.name for p in paths]} ({folder})")
    return LoadedRows(
        records=records,
        declared=declared,
        files=[p.name for p in paths],
        summary={
            "k": k,
            "written_for_k": written_k,
            "truncated": written_k != k,
            "rows": len(records),
            "duplicates_dropped": duplicates,
        },
    )


# --------------------------------------------------------------------------------------
# Per-DOC
# --------------------------------------------------------------------------------------


def resolve_aspects(aspects: str | Sequence[str] | None) -> list[str]:
    """Aspect keys from a task option: keys, names, codes (``I``) or question keys (``Q1``).

    Args:
        aspects: A comma-separated string or a list; None or ``all``: all five.

    Returns:
        The aspect keys, in the paper's order, without repeats.

    Raises:
        ValueError: An unknown aspect.
    """
    if aspects is None or aspects == "all" or aspects == ["all"]:
        return list(PERDOC_ASPECTS)
    given = aspects.split(",") if isinstance(aspects, str) else list(aspects)
    wanted: set[str] = set()
    for raw in given:
        name = raw.strip().lower().replace(" ", "_").replace("-", "_")
        if not name:
            continue
        key = name if name in PERDOC_ASPECTS else _CODES.get(name)
        if key is None:
            titles = {a.title.lower().replace(" ", "_"): a.key for a in PERDOC_ASPECTS.values()}
            key = titles.get(name)
        if key is None:
            raise ValueError(
                f"unknown Per-DOC aspect {raw!r}; one of {list(PERDOC_ASPECTS)} (or I, A, S, C, E)"
            )
        wanted.add(key)
    if not wanted:
        raise ValueError("no aspect given")
    return [key for key in PERDOC_ASPECTS if key in wanted]


def _plot(text: str, letter: str) -> str | None:
    match = re.search(
        rf"\[The Start of Plot {letter}\](.*?)\[The End of Plot {letter}\]", text, re.DOTALL
    )
    return match.group(1).strip() if match else None


def _premise(plot: str) -> str:
    match = _PREMISE.match(plot)
    return match.group(1).strip() if match else ""


def _choice(text: str) -> Literal["Plot A", "Plot B"] | None:
    found = _CHOICE.findall(text)
    if not found:
        return None
    letter = found[-1].strip()[-1].upper()
    return "Plot A" if letter == "A" else "Plot B"


def parse_perdoc_prompt(prompt: str) -> tuple[PairExample, PlotPair]:
    """Read the annotator's example and the pair to compare back from a Per-DOC prompt.

    Args:
        prompt: The rendered prompt of one Per-DOC row.

    Returns:
        The example (pair and choice) and the query pair.

    Raises:
        ValueError: A marker or the example's choice is missing (the message names it).
    """
    match = _PREFERENCE.search(prompt)
    if match is None:
        raise ValueError("no [The Start of User Preference] ... [The End of User Preference]")
    example, query = match.group("example"), match.group("query")
    plots: dict[str, str] = {}
    for where, text in (("example", example), ("query", query)):
        for letter in ("A", "B"):
            plot = _plot(text, letter)
            if plot is None:
                raise ValueError(
                    f"no [The Start of Plot {letter}] ... [The End of Plot {letter}] "
                    f"in the {where} part"
                )
            plots[f"{where}_{letter}"] = plot
    choice = _choice(example)
    if choice is None:
        raise ValueError('no "Choice": "Plot A|B" in the user preference')
    return (
        PairExample(
            pair=PlotPair(
                premise=_premise(plots["example_A"]),
                plot_a=plots["example_A"],
                plot_b=plots["example_B"],
            ),
            choice=choice,
        ),
        PlotPair(
            premise=_premise(plots["query_A"]),
            plot_a=plots["query_A"],
            plot_b=plots["query_B"],
        ),
    )


def _doc_files(folder: Path, aspects: Sequence[str]) -> dict[str, list[Path]]:
    by_aspect: dict[str, list[Path]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        match = _DOC_FILE.match(path.name)
        if match and _CODES.get(match.group(1).lower()) in aspects:
            by_aspect.setdefault(_CODES[match.group(1).lower()], []).append(path)
    missing = [a for a in aspects if a not in by_aspect]
    if missing:
        codes = ", ".join(f"{PERDOC_ASPECTS[a].code} ({a})" for a in missing)
        raise DataNotFoundError(
            f"no Per-DOC file for aspect(s) {codes} in {folder} (files "
            f"PerDOC.<I|A|S|C|E>.<split>.jsonl). Download {PERDOC_RELEASE_URL}, unpack it "
            "and put its JSON-lines files there, or choose -T aspects=... among the files "
            "you have (the repository sample has Interestingness only: -T aspects=I)."
        )
    return by_aspect


def load_per_doc(
    data_dir: str | Path | None = None,
    aspects: str | Sequence[str] | None = None,
    demo: bool = False,
) -> LoadedRows:
    """Read Per-DOC comparisons for the given aspects.

    Args:
        data_dir: Folder with the ``PerDOC.<aspect>.*.jsonl`` files (default:
            ``data/per_doc``).
        aspects: Aspects to read (see :func:`resolve_aspects`; None: all five).
        demo: Read the demo files written for this package instead.

    Returns:
        The :class:`~inspect_plural.records.PairwisePreference` records.

    Raises:
        DataNotFoundError: The folder or an aspect's file is missing.
        DataRowError: A malformed row (names the file, row and field).
        ValueError: An unknown aspect, or ``demo`` together with ``data_dir``.
    """
    if demo and data_dir is not None:
        raise ValueError("use either demo=true or data_dir, not both")
    keys = resolve_aspects(aspects)
    folder = _demo_folder("per_doc") if demo else local_folder(data_dir, "per_doc")
    if not folder.is_dir():
        raise DataNotFoundError(
            f"Per-DOC folder not found: {folder}. Download {PERDOC_RELEASE_URL}, unpack it "
            "and put its PerDOC.<aspect>.<split>.jsonl files there (or pass -T data_dir=...), "
            "or run with -T demo=true."
        )
    by_aspect = _doc_files(folder, keys)
    records: list[PairwisePreference] = []
    declared: list[Literal["train", "valid", ""]] = []
    ids: Counter[str] = Counter()
    seen: set[tuple[str, str, str]] = set()
    duplicates = 0
    files: list[str] = []
    for key in keys:
        for path in by_aspect[key]:
            files.append(path.name)
            split = _declared_split(path.name)
            for row, value in _read_lines(path):
                annotator = value.get("review_id")
                if not isinstance(annotator, (str, int)) or isinstance(annotator, bool):
                    raise DataRowError(path, row, "review_id", "missing or not an id")
                annotator = str(annotator)
                prompt = value.get("prompt")
                if isinstance(prompt, list) and prompt and isinstance(prompt[0], str):
                    prompt = prompt[0]
                if not isinstance(prompt, str):
                    raise DataRowError(path, row, "prompt", "expected a string or [string]")
                if (key, annotator, prompt) in seen:
                    duplicates += 1
                    continue
                seen.add((key, annotator, prompt))
                try:
                    example, pair = parse_perdoc_prompt(prompt)
                except ValueError as ex:
                    raise DataRowError(path, row, "prompt", str(ex)) from None
                choice = _choice(str(_field(path, row, value, "completion", str)))
                if choice is None:
                    raise DataRowError(path, row, "completion", 'no "Choice": "Plot A|B"')
                base = f"{key}/{annotator}/{value.get('idx', row)}"
                ids[base] += 1
                records.append(
                    PairwisePreference(
                        id=base if ids[base] == 1 else f"{base}#{ids[base]}",
                        annotator_id=annotator,
                        aspect=key,
                        pair=pair,
                        choice=choice,
                        example=example,
                    )
                )
                declared.append(split)
    if not records:
        raise DataNotFoundError(f"no Per-DOC rows in {files} ({folder})")
    return LoadedRows(
        records=records,
        declared=declared,
        files=files,
        summary={"aspects": keys, "rows": len(records), "duplicates_dropped": duplicates},
    )


# --------------------------------------------------------------------------------------
# Reviewer split
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PerseSplit:
    """Records split by reviewer into training and validation.

    Attributes:
        valid: The records to evaluate (one sample each), in load order.
        train: The training reviewers' records (what a baseline may fit on).
        protocol: ``release`` (the files' own split), ``seeded`` or ``all``.
        summary: Counts for the task metadata.

    """

    valid: list[Any]
    train: list[Any]
    protocol: Literal["release", "seeded", "all"]
    summary: dict[str, Any]


def _reviewer(record: Any) -> str:
    return str(record.reviewer_id if isinstance(record, PersonalReview) else record.annotator_id)


def _seeded_valid(reviewers: Iterable[str], valid_fraction: float, seed: int) -> set[str]:
    ids = sorted(set(reviewers))
    if not ids:
        return set()
    shuffled = list(ids)
    random.Random(seed).shuffle(shuffled)
    n_valid = min(len(ids), max(1, round(len(ids) * valid_fraction)))
    return set(shuffled[:n_valid])


def split_by_reviewer(
    rows: LoadedRows,
    mode: SplitMode = "auto",
    valid_fraction: float = 0.1,
    seed: int = 42,
) -> PerseSplit:
    """Split records by reviewer: no validation reviewer is ever a training reviewer.

    Args:
        rows: The loaded records with their declared splits.
        mode: ``release``: the split the file names declare (every file must declare
            one); ``seeded``: ``valid_fraction`` of the reviewers (at least one), drawn
            with ``seed`` from the sorted ids; ``auto``: ``release`` when every file
            declares a split, else ``seeded``; ``all``: every record is evaluated and
            nothing is training data.
        valid_fraction: Share of reviewers held out (PERSE: 0.1), for ``seeded``.
        seed: Seed of the seeded split.

    Returns:
        The split.

    Raises:
        ValueError: An unknown mode, ``release`` without declared splits, a reviewer on
            both sides of a declared split, or a fraction outside (0, 1].
    """
    if mode not in SPLIT_MODES:
        raise ValueError(f"unknown split {mode!r}; one of {list(SPLIT_MODES)}")
    if not 0 < valid_fraction <= 1:
        raise ValueError(f"valid_fraction must be in (0, 1], not {valid_fraction}")
    declared = all(d for d in rows.declared)
    if mode == "release" and not declared:
        raise ValueError(
            "split=release needs files that declare their split (train/valid in the file "
            f"name); got {rows.files}"
        )
    protocol: Literal["release", "seeded", "all"]
    if mode == "all":
        protocol, valid, train = "all", list(rows.records), []
    elif mode == "release" or (mode == "auto" and declared):
        protocol = "release"
        valid = [r for r, d in zip(rows.records, rows.declared) if d == "valid"]
        train = [r for r, d in zip(rows.records, rows.declared) if d == "train"]
        both = sorted({_reviewer(r) for r in valid} & {_reviewer(r) for r in train})
        if both:
            raise ValueError(
                f"reviewers in both the training and the validation files: {both[:5]}"
                f"{' ...' if len(both) > 5 else ''}; use -T split=seeded to re-split"
            )
    else:
        protocol = "seeded"
        held_out = _seeded_valid((_reviewer(r) for r in rows.records), valid_fraction, seed)
        valid = [r for r in rows.records if _reviewer(r) in held_out]
        train = [r for r in rows.records if _reviewer(r) not in held_out]
    summary = {
        "protocol": protocol,
        "valid_fraction": valid_fraction if protocol == "seeded" else None,
        "valid_reviewers": len({_reviewer(r) for r in valid}),
        "valid_rows": len(valid),
        "train_reviewers": len({_reviewer(r) for r in train}),
        "train_rows": len(train),
    }
    logger.info("PERSE split: %s", summary)
    return PerseSplit(valid=valid, train=train, protocol=protocol, summary=summary)
