"""The record model shared by every layer of inspect_plural.

Every dataset is normalised into these few pydantic types by its module in
``inspect_plural.sources``; tasks turn them into Inspect ``Sample`` objects whose
``metadata`` follows :class:`SampleMetadata` (or a subclass), read back with
``state.metadata_as(...)``. Solvers and scorers depend on this module only.

The records live in private modules, one concept each, and are imported from here: the
record base and the label scale (``_base``), annotator-level records (``_annotator``),
role identification (``_role``), ratings (``_rating``), PERSE (``_perse``), the
sample-metadata schemas (``_sample_metadata``), the read-only values samples store
(``_read_only``) and the run's shared sample context that annotator-level samples keep
their annotator's examples in (``_context``).
"""

from __future__ import annotations

from inspect_plural.records._annotator import Annotator, Item, Judgment, LabeledExample
from inspect_plural.records._base import LabelScale
from inspect_plural.records._context import (
    AnnotatorContext,
    SampleContext,
    annotator_sample,
    register_context,
    require_examples,
    sample_context,
)
from inspect_plural.records._perse import (
    MovieFactors,
    PairExample,
    PairwisePreference,
    PersonalReview,
    PlotPair,
    ScoredReview,
    TrainingFactors,
)
from inspect_plural.records._rating import RatedOutput, RatingDimension
from inspect_plural.records._read_only import (
    ReadOnlyDict,
    ReadOnlyList,
    read_only,
    read_only_values,
)
from inspect_plural.records._role import RoleCandidate, RoleExample, RoleItem
from inspect_plural.records._sample_metadata import (
    OMITTED_AT_DEFAULT,
    AnnotatorSampleKeys,
    AnnotatorSampleMetadata,
    PairSampleMetadata,
    RatedSampleMetadata,
    ReviewSampleMetadata,
    RoleSampleMetadata,
    SampleMetadata,
    compact,
)

__all__ = [
    "OMITTED_AT_DEFAULT",
    "AnnotatorContext",
    "AnnotatorSampleKeys",
    "AnnotatorSampleMetadata",
    "Annotator",
    "Item",
    "Judgment",
    "LabelScale",
    "LabeledExample",
    "MovieFactors",
    "PairExample",
    "PairSampleMetadata",
    "PairwisePreference",
    "PersonalReview",
    "PlotPair",
    "RatedOutput",
    "ReadOnlyDict",
    "ReadOnlyList",
    "RatedSampleMetadata",
    "RatingDimension",
    "RoleCandidate",
    "RoleExample",
    "RoleItem",
    "RoleSampleMetadata",
    "ReviewSampleMetadata",
    "SampleContext",
    "SampleMetadata",
    "ScoredReview",
    "TrainingFactors",
    "annotator_sample",
    "compact",
    "read_only",
    "read_only_values",
    "register_context",
    "require_examples",
    "sample_context",
]
