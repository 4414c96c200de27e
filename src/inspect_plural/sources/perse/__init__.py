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

from inspect_plural.sources.perse._common import (
    CHOICES,
    PERDOC_ASPECTS,
    PERDOC_RELEASE_URL,
    PERMPST_RELEASE_URL,
    PERSE_REPO,
    PERSE_REVISION,
    SCORE_HIGH,
    SCORE_LOW,
    SCORE_SCALE,
    Aspect,
    LoadedRows,
    clean_review,
)
from inspect_plural.sources.perse._doc import load_per_doc, parse_perdoc_prompt, resolve_aspects
from inspect_plural.sources.perse._mpst import load_per_mpst
from inspect_plural.sources.perse._split import (
    SPLIT_MODES,
    PerseSplit,
    SplitError,
    SplitMode,
    split_by_reviewer,
)

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
    "SplitError",
    "SplitMode",
    "clean_review",
    "load_per_doc",
    "load_per_mpst",
    "parse_perdoc_prompt",
    "resolve_aspects",
    "split_by_reviewer",
]
