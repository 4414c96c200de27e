"""MSLR-Cochrane's sheets -> rated outputs, and the reproducible draw per system.

:func:`read_mslr` checks each sheet's 15 columns against the official header, parses
every facet answer, joins the annotators' rows of one (system, review) summary, and
makes one :class:`~inspect_plural.records.RatedOutput` per summary with each
annotator's dimension values and raw answers. :func:`sample_per_system` draws ``n``
rated outputs per system.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from inspect_plural.records import RatedOutput
from inspect_plural.sources._paths import DataFileError, DataRowError
from inspect_plural.sources._read import read_csv_file
from inspect_plural.sources.mslr._dimensions import (
    MSLR_DIMENSIONS,
    OtherRule,
    PioNa,
    rater_scores,
)
from inspect_plural.sources.mslr._facets import (
    FACET_RANGES,
    MSLR_FACETS,
    FacetAnswer,
    parse_facet,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_mslr", "sample_per_system"]

_COLUMNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("exp_id", ("expid",)),
    ("review_id", ("reviewid",)),
    ("target", ("target",)),
    ("generated", ("generated",)),
    ("fluency", ("fluent",)),
    ("population", ("population",)),
    ("intervention", ("intervention",)),
    ("outcome", ("outcome",)),
    ("pio_comment", ("comment",)),
    ("ed_target", ("effect direction", "target")),
    ("ed_generated", ("effect direction", "generated")),
    ("ed_comment", ("comment",)),
    ("strength_target", ("strength", "target")),
    ("strength_generated", ("strength", "generated")),
    ("strength_comment", ("comment",)),
)
"""The 15 columns in order: our name and words the header text must contain (lower case)."""

_COMMENTS = ("pio_comment", "ed_comment", "strength_comment")


def _read_sheet(path: Path) -> pd.DataFrame:
    """One sheet with our column names, every cell a string (empty when blank)."""
    import pandas as pd

    frame = read_csv_file(
        path, "an MSLR facet annotation TSV", sep="\t", dtype=str, keep_default_na=False
    )
    header = [str(c) for c in frame.columns]
    extra = [c for c in header[len(_COLUMNS) :] if c.strip() and not c.startswith("Unnamed:")]
    if len(header) < len(_COLUMNS) or extra:
        raise DataFileError(
            path,
            f"expected the {len(_COLUMNS)} columns of an MSLR Cochrane annotation sheet, "
            f"found {len(header)}: {', '.join(header)[:300]}",
        )
    for position, (name, words) in enumerate(_COLUMNS):
        text = header[position].lower().replace(" ", "")
        if not all(w.replace(" ", "") in text for w in words):
            raise DataFileError(
                path,
                f"column {position + 1} is {header[position][:80]!r}; an MSLR Cochrane "
                f"annotation sheet has the {name} column there (its header mentions "
                f"{' and '.join(repr(w) for w in words)})",
            )
    renamed: pd.DataFrame = pd.DataFrame(
        {name: frame[column] for (name, _), column in zip(_COLUMNS, header)}
    )
    return renamed


def _parse_column(path: Path, frame: pd.DataFrame, facet: str) -> list[FacetAnswer]:
    answers: list[FacetAnswer] = []
    allowed = FACET_RANGES[facet]
    for row, text in enumerate(frame[facet].tolist()):
        try:
            answer = parse_facet(text)
        except ValueError as ex:
            raise DataRowError(path, row, facet, str(ex)) from ex
        if isinstance(answer, int) and answer not in allowed:
            raise DataRowError(path, row, facet, f"{answer} is outside {allowed}")
        answers.append(answer)
    return answers


@dataclass
class _Summary:
    system: str
    review: str
    target: str
    generated: str
    answers: dict[str, dict[str, FacetAnswer]] = field(default_factory=dict)
    raw: dict[str, dict[str, str]] = field(default_factory=dict)


def _add_row(
    path: Path,
    row: int,
    record: Mapping[str, str],
    summaries: dict[tuple[str, str], _Summary],
    targets: dict[str, str],
) -> _Summary:
    """The summary a row rates, checking its ids and texts against earlier rows."""
    exp_id, review = record["exp_id"].strip(), record["review_id"].strip()
    if not exp_id or not review:
        raise DataRowError(path, row, "ExpID" if not exp_id else "ReviewID", "empty")
    target, generated = record["target"].strip(), record["generated"].strip()
    if targets.setdefault(review, target) != target:
        raise DataRowError(
            path, row, "Target Summary", f"differs from the target of {review} read earlier"
        )
    key = (exp_id[-6:], review)
    summary = summaries.setdefault(key, _Summary(key[0], review, target, generated))
    if summary.generated != generated:
        raise DataRowError(
            path,
            row,
            "Generated Summary",
            f"differs from the text of {key[0]}/{review} read earlier",
        )
    return summary


def _collect(paths: Mapping[str, Path]) -> dict[tuple[str, str], _Summary]:
    """Every summary of the sheets with each annotator's parsed and raw answers."""
    summaries: dict[tuple[str, str], _Summary] = {}
    targets: dict[str, str] = {}
    for rater, path in paths.items():
        frame = _read_sheet(path)
        parsed = {facet: _parse_column(path, frame, facet) for facet in MSLR_FACETS}
        for row, record in enumerate(frame.to_dict("records")):
            cells = {str(k): str(v) for k, v in record.items()}
            summary = _add_row(path, row, cells, summaries, targets)
            if rater in summary.answers:
                raise DataRowError(
                    path, row, "ReviewID", f"{summary.system}/{summary.review} is rated twice"
                )
            summary.answers[rater] = {facet: parsed[facet][row] for facet in MSLR_FACETS}
            summary.raw[rater] = {facet: cells[facet] for facet in MSLR_FACETS} | {
                c: cells[c] for c in _COMMENTS if cells[c].strip()
            }
    return summaries


def _rated_output(summary: _Summary, other: OtherRule, pio_na: PioNa) -> RatedOutput:
    ratings: dict[str, dict[str, float]] = {}
    for rater in sorted(summary.answers):
        for name, value in rater_scores(summary.answers[rater], other, pio_na).items():
            ratings.setdefault(name, {})[rater] = value
    order = [d.name for d in MSLR_DIMENSIONS]
    return RatedOutput(
        id=f"{summary.system}/{summary.review}",
        content=summary.generated,
        context=summary.target,
        references=[summary.target],
        ratings={name: ratings[name] for name in order if name in ratings},
        group=summary.review,
        system=summary.system,
        raw={rater: summary.raw[rater] for rater in sorted(summary.raw)},
    )


def read_mslr(
    paths: Mapping[str, Path],
    other: OtherRule = "missing",
    pio_na: PioNa = "exclude",
) -> list[RatedOutput]:
    """Read annotation sheets into one rated output per (system, review).

    Args:
        paths: Annotator id -> sheet.
        other: ``missing`` (default) or ``official`` rule for ``Other`` and empty answers
            of the agreement dimensions (see :func:`facet_agreement`).
        pio_na: ``exclude`` (default) or ``zero``: how a PIO ``N/A`` counts.

    Returns:
        The outputs sorted by id (``"{system}/{ReviewID}"``), unrated ones included.

    Raises:
        ValueError: A file is not an MSLR Cochrane annotation sheet.
        DataRowError: A malformed answer, an empty id, a summary rated twice by one
            annotator, or summary texts that differ between rows.

    """
    if other not in ("missing", "official"):
        raise ValueError(f"other must be 'missing' or 'official', not {other!r}")
    if pio_na not in ("exclude", "zero"):
        raise ValueError(f"pio_na must be 'exclude' or 'zero', not {pio_na!r}")
    summaries = _collect(paths)
    return [_rated_output(summaries[key], other, pio_na) for key in sorted(summaries)]


def sample_per_system(outputs: Iterable[RatedOutput], n: int, seed: int = 42) -> list[RatedOutput]:
    """Draw ``n`` rated outputs per system, reproducibly and whatever the input order.

    For each system in sorted order, ``random.Random(f"{seed}:{system}")`` samples ``n``
    of the sorted ids of that system's rated outputs (those with at least one rating).

    Args:
        outputs: The outputs (each with a ``system``).
        n: How many per system.
        seed: The seed.

    Returns:
        The drawn outputs, system by system in sorted order, each system's in draw order.

    Raises:
        ValueError: ``n`` is negative, an output has no system, or a system has fewer than
            ``n`` rated outputs.

    """
    if n < 0:
        raise ValueError(f"n must be >= 0, not {n}")
    by_system: dict[str, dict[str, RatedOutput]] = {}
    for output in outputs:
        if output.system is None:
            raise ValueError(f"output {output.id} has no system")
        rated = by_system.setdefault(output.system, {})
        if any(output.ratings.values()):
            rated[output.id] = output
    drawn: list[RatedOutput] = []
    for system in sorted(by_system):
        rated = by_system[system]
        if len(rated) < n:
            raise ValueError(f"system {system} has {len(rated)} rated outputs, fewer than {n}")
        ids = random.Random(f"{seed}:{system}").sample(sorted(rated), n)
        drawn.extend(rated[i] for i in ids)
    return drawn
