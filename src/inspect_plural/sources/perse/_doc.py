"""Per-DOC files: an annotator's earlier comparison of two plots on an aspect, and a new pair.

Files named ``PerDOC.<aspect>.<anything>.jsonl`` where ``<aspect>`` is ``I``/``A``/``S``/
``C``/``E`` (or the question keys ``Q1``/``Q3``/``Q4``/``Q5``/``Q6``). Lines hold
``review_id`` (the annotator), a rendered ``prompt`` and the ``completion`` (fenced
``{"Choice": "Plot A" | "Plot B",}``, trailing comma included). The plots and the
annotator's example are read back from the prompt's ``[The Start of ...]`` markers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from inspect_plural.records import PairExample, PairwisePreference, PlotPair
from inspect_plural.sources._paths import DataNotFoundError, DataRowError, local_folder
from inspect_plural.sources.perse._common import (
    ASPECT_CODES,
    PERDOC_ASPECTS,
    PERDOC_RELEASE_URL,
    LoadedRows,
    declared_split,
    demo_folder,
    read_lines,
    required_field,
)

__all__ = ["load_per_doc", "parse_perdoc_prompt", "resolve_aspects"]

_DOC_FILE = re.compile(r"^perdoc\.([a-z0-9]+)\..*\.jsonl$", re.IGNORECASE)
_CHOICE = re.compile(r"""["']?choice["']?\s*:\s*["']?\s*(plot\s*[ab])\b""", re.IGNORECASE)
_PREFERENCE = re.compile(
    r"\[The Start of User Preference\](?P<example>.*?)\[The End of User Preference\]"
    r"(?P<query>.*)",
    re.DOTALL,
)
_PREMISE = re.compile(r"^\s*Premise\s+(.*?)\s*(?=Settings\s|Characters\s|Outline\s|$)", re.DOTALL)


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
        key = name if name in PERDOC_ASPECTS else ASPECT_CODES.get(name)
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
        if match and ASPECT_CODES.get(match.group(1).lower()) in aspects:
            by_aspect.setdefault(ASPECT_CODES[match.group(1).lower()], []).append(path)
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
    folder = demo_folder("per_doc") if demo else local_folder(data_dir, "per_doc")
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
            split = declared_split(path.name)
            for row, value in read_lines(path):
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
                choice = _choice(str(required_field(path, row, value, "completion", str)))
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
