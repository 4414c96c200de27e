"""MSLR-Cochrane human annotations (Wang et al., ACL 2023) as rated outputs.

The official files are two tab-separated sheets in the GitHub repository
``allenai/mslr-annotated-dataset`` (Apache-2.0), pinned at :data:`MSLR_REVISION`, one per
annotator (A1, A2). Each row is one generated summary of a Cochrane review's evidence,
with its target summary and eight multiple-choice answers (facets): fluency; whether the
population, intervention and outcome match the target; the effect direction stated by the
target and by the generated summary; the strength of the claim in each.

Counts of the pinned files: 639 rows (A1 265, A2 374) over 600 summaries (6 systems x 100),
277 reviews; 39 summaries are rated by both annotators; 2 rows have no answer at all (so 2
summaries are unrated) and one generated summary is empty. Every summary is kept.

Dimensions, per annotator (then the gold value is the mean over annotators):

- ``fluency``: the 0-2 answer.
- ``pio_consistency``: the mean of the numeric population / intervention / outcome answers
  (0-2); ``N/A`` and ``Other`` are left out (``pio_na="zero"`` counts ``N/A`` as 0).
- ``effect_direction``: 1 when the target's and the generated summary's categories (+1, 0,
  -1, N/A) are equal, else 0; ``Other`` or an empty answer on either side makes it
  missing. ``other="official"`` applies the rule of the repository's
  ``scripts/1_reorg_data.py`` instead (``Other`` or empty against an answer counts 0).
- ``evidence_strength``: the same rule on the claim strength (0-3 or N/A). The official
  rule also reads ``N/A`` as no answer, so there ``N/A`` against ``N/A`` is missing.
- ``overall``: the mean of the available ones of fluency/2, pio_consistency/2,
  effect_direction and evidence_strength (0-1).

``demo=True`` reads the demo sheets written for this package (``demo/mslr_cochrane/``, made
by ``tools/make_demo_mslr.py``): the official layout with 24 invented summaries (6 invented
systems x 4 invented reviews, 4 rated by both annotators), every text labelled ``[demo]``.

Quirks handled: most generated-summary ``N/A`` effect answers use the *target* wording,
and one strength answer holds the effect-direction ``N/A`` text; both read as ``N/A``.

The code lives in private modules, one concept each, re-exported here unchanged: the
facet answers and their parsing (``_mslr_facets``), the dimensions and how an
annotator's answers give them (``_mslr_dimensions``), and the sheets read into rated
outputs with the per-system draw (``_mslr_read``). This module keeps where the sheets
come from (the pinned files, the local search, the checked download, the demo sheets)
and the loader.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from inspect_plural.records import RatedOutput
from inspect_plural.sources._hub import cache_dir, download_file
from inspect_plural.sources._once import data_logger
from inspect_plural.sources._paths import DataNotFoundError, data_root, local_folder
from inspect_plural.sources.mslr._dimensions import (
    MSLR_CONTENT_LABEL,
    MSLR_CONTEXT_LABEL,
    MSLR_DIMENSIONS,
    MSLR_TASK_DESCRIPTION,
    OtherRule,
    PioNa,
    facet_agreement,
    overall_score,
    pio_consistency,
    rater_scores,
)
from inspect_plural.sources.mslr._facets import MSLR_FACETS, FacetAnswer, parse_facet
from inspect_plural.sources.mslr._read import read_mslr, sample_per_system

__all__ = [
    "MSLR_CONTENT_LABEL",
    "MSLR_CONTEXT_LABEL",
    "MSLR_DIMENSIONS",
    "MSLR_FACETS",
    "MSLR_FILES",
    "MSLR_RATERS",
    "MSLR_REPO",
    "MSLR_REVISION",
    "MSLR_TASK_DESCRIPTION",
    "MSLR_URL",
    "FacetAnswer",
    "facet_agreement",
    "git_blob_sha1",
    "load_mslr",
    "mslr_demo_files",
    "mslr_files",
    "overall_score",
    "parse_facet",
    "pio_consistency",
    "rater_scores",
    "read_mslr",
    "sample_per_system",
]

logger = data_logger(__name__)

MSLR_REPO = "allenai/mslr-annotated-dataset"
"""The official GitHub repository."""

MSLR_REVISION = "3317358f52709dfab13b1896608e6b04945198e5"
"""Pinned commit (2023-05-17)."""

MSLR_RATERS = ("A1", "A2")
"""The annotators, one file each (file-level ids; no traits are published)."""

MSLR_FILES: dict[str, tuple[str, str]] = {
    "A1": (
        "data/Annotations/Data for MSLR Annotation - Cochrane Subtask - A1.tsv",
        "9b3cda2fc300cf4a24a002922a2877a43a9c7226",
    ),
    "A2": (
        "data/Annotations/Data for MSLR Annotation - Cochrane Subtask - A2.tsv",
        "7f3168a22311d9ceeee16a86b64e35b4193f1709",
    ),
}
"""Annotator -> (path in the repository, git blob SHA-1 of the file)."""

MSLR_URL = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
"""Download URL template (the path URL-encoded)."""

LOCAL_SUBDIR = "mslr_cochrane"
"""Sub-folder of the data root searched for the sheets."""

SHARED_NAME = "annotations/cochrane_facets_{rater}.tsv"
"""The sheet's path in the layout without spaces (also used for the download cache)."""

DEMO_PACKAGE_DIR = "demo/mslr_cochrane"
"""Package folder of the demo sheets (``cochrane_facets_{A1,A2}.tsv``)."""


def git_blob_sha1(path: Path) -> str:
    """The git blob SHA-1 of a file: the SHA-1 of ``blob <size>``, a NUL byte, the bytes."""
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _candidates(folder: Path, rater: str) -> list[Path]:
    repo_path = Path(MSLR_FILES[rater][0])
    shared = Path(SHARED_NAME.format(rater=rater))
    return [folder / shared, folder / repo_path, folder / shared.name, folder / repo_path.name]


def _missing(searched: Sequence[Path]) -> str:
    files = ", ".join(f"{SHARED_NAME.format(rater=r)}" for r in MSLR_RATERS)
    urls = " and ".join(_url(r) for r in MSLR_RATERS)
    return (
        f"MSLR-Cochrane needs the two annotation sheets of {MSLR_REPO} (Apache-2.0) at commit "
        f"{MSLR_REVISION}: {urls}. Save them as {files} (or keep the repository's "
        f"data/Annotations/ names) under {data_root() / LOCAL_SUBDIR}/, or pass "
        f"-T data_dir=FOLDER; or run with network access to download them automatically; "
        f"or try the offline demo with -T demo=true. "
        f"Searched: {', '.join(str(p) for p in searched)}."
    )


def _url(rater: str) -> str:
    return MSLR_URL.format(repo=MSLR_REPO, commit=MSLR_REVISION, path=quote(MSLR_FILES[rater][0]))


def _download(rater: str, searched: Sequence[Path]) -> tuple[Path, str]:
    target = cache_dir() / LOCAL_SUBDIR / MSLR_REVISION / SHARED_NAME.format(rater=rater)
    kind = "cached" if target.is_file() else "downloaded"
    path = download_file(_url(rater), target, _missing([*searched, target]))
    expected = MSLR_FILES[rater][1]
    actual = git_blob_sha1(path)
    if actual != expected:
        path.unlink(missing_ok=True)
        raise DataNotFoundError(
            f"{_url(rater)} gave a file with git blob SHA-1 {actual}, not {expected}; the "
            f"copy was deleted.\n{_missing(searched)}"
        )
    return path, f"{kind} from GitHub {MSLR_REPO}@{MSLR_REVISION[:12]}"


def mslr_files(data_dir: str | Path | None = None) -> tuple[dict[str, Path], str]:
    """Locate (or download) the two annotation sheets.

    Search order per sheet: ``data_dir`` (or ``<data root>/mslr_cochrane``), in the layout
    ``annotations/cochrane_facets_{A1,A2}.tsv`` or the repository's
    ``data/Annotations/Data for MSLR Annotation - Cochrane Subtask - {A1,A2}.tsv`` (also
    directly in the folder); then the download cache; then GitHub raw at
    :data:`MSLR_REVISION`, checked against the pinned git blob SHA-1. With ``data_dir``
    nothing is downloaded.

    Args:
        data_dir: A folder holding the sheets.

    Returns:
        Annotator -> path, and a description of the origin for the log.

    Raises:
        DataNotFoundError: A sheet cannot be found or downloaded (offline this fails at
            once and says which files to put where).

    """
    folder = local_folder(data_dir, LOCAL_SUBDIR)
    paths: dict[str, Path] = {}
    origins: list[str] = []
    for rater in MSLR_RATERS:
        searched = _candidates(folder, rater)
        found = next((p for p in searched if p.is_file()), None)
        if found is not None:
            blob = git_blob_sha1(found)
            if blob != MSLR_FILES[rater][1]:
                logger.warning(
                    "%s: git blob SHA-1 %s differs from the pinned %s; reading it anyway",
                    found,
                    blob,
                    MSLR_FILES[rater][1],
                )
            paths[rater] = found
            origins.append(f"{rater}: local {found.name} (blob {blob[:12]})")
            continue
        if data_dir:
            raise DataNotFoundError(_missing(searched))
        paths[rater], kind = _download(rater, searched)
        origins.append(f"{rater}: {kind} (blob {MSLR_FILES[rater][1][:12]})")
    return paths, "; ".join(origins)


def mslr_demo_files() -> dict[str, Path]:
    """The demo sheets written for this package, in the official layout (invented texts).

    Returns:
        Annotator -> path of ``demo/mslr_cochrane/cochrane_facets_{A1,A2}.tsv``.

    Raises:
        DataNotFoundError: A demo sheet is missing from the installed package.

    """
    folder = resources.files("inspect_plural").joinpath(DEMO_PACKAGE_DIR)
    paths: dict[str, Path] = {}
    for rater in MSLR_RATERS:
        path = Path(str(folder.joinpath(f"cochrane_facets_{rater}.tsv")))
        if not path.is_file():
            raise DataNotFoundError(
                f"the MSLR-Cochrane demo sheet {path} is missing from the package"
            )
        paths[rater] = path
    return paths


def load_mslr(
    data_dir: str | Path | None = None,
    other: OtherRule = "missing",
    pio_na: PioNa = "exclude",
    demo: bool = False,
) -> list[RatedOutput]:
    """Load the MSLR-Cochrane human annotations: 600 generated summaries of 6 systems.

    Args:
        data_dir: Folder holding the two sheets (see :func:`mslr_files` for the layouts and
            the search order; without it they may be downloaded).
        other: ``missing`` (default): ``Other`` or empty answers make an agreement
            dimension missing; ``official``: the repository's rule (0 against an answer).
        pio_na: ``exclude`` (default): a PIO ``N/A`` is left out of the mean; ``zero``:
            it counts as 0.
        demo: Read the demo sheets written for this package instead (24 invented
            summaries, see :func:`mslr_demo_files`); read exactly as the real sheets.

    Returns:
        One output per (system, review), sorted by id. Content is the generated summary,
        context and the only reference the target summary, group the review id, system
        the short system id; the 2 unrated summaries have empty ratings.

    Raises:
        DataNotFoundError: The sheets cannot be found or downloaded.
        ValueError: A file is not an MSLR Cochrane annotation sheet, or both ``demo`` and
            ``data_dir`` are given.
        DataRowError: A malformed row.

    """
    if demo and data_dir:
        raise ValueError("pass either data_dir or demo=true, not both")
    if demo:
        return read_mslr(mslr_demo_files(), other=other, pio_na=pio_na)
    paths, _ = mslr_files(data_dir)
    return read_mslr(paths, other=other, pio_na=pio_na)
