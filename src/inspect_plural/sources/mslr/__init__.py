"""MSLR-Cochrane: experts' facet ratings of generated review summaries (MAJ-Eval's data).

``_load`` is the loader (``load_mslr``), ``_read`` reads the rating files, ``_facets``
and ``_dimensions`` map the experts' facets to the rated dimensions.
"""

from inspect_plural.sources.mslr._dimensions import (
    MSLR_CONTENT_LABEL,
    MSLR_CONTEXT_LABEL,
    MSLR_DIMENSIONS,
    MSLR_TASK_DESCRIPTION,
    facet_agreement,
    overall_score,
    pio_consistency,
    rater_scores,
)
from inspect_plural.sources.mslr._facets import (
    MSLR_FACETS,
    FacetAnswer,
    parse_facet,
)
from inspect_plural.sources.mslr._load import (
    MSLR_FILES,
    MSLR_RATERS,
    MSLR_REPO,
    MSLR_REVISION,
    MSLR_URL,
    git_blob_sha1,
    load_mslr,
    mslr_demo_files,
    mslr_files,
)
from inspect_plural.sources.mslr._read import (
    read_mslr,
    sample_per_system,
)

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
