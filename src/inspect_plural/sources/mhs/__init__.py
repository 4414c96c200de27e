"""Measuring Hate Speech (Kennedy et al. 2020): the annotators' hate-speech ratings.

``_load`` is the loader (``load_mhs``), ``_read`` reads the release's rows,
``_columns`` and ``_mappings`` name its columns and map their values to traits.
"""

from inspect_plural.sources.mhs._columns import (
    EDUCATION_VALUES,
    GENDER_COLUMNS,
    IDEOLOGY_VALUES,
    INCOME_VALUES,
    MHS_COLUMNS,
    MHS_REQUIRED_COLUMNS,
    RACE_VALUES,
    RELIGION_VALUES,
    SEXUALITY_VALUES,
    SURVEY_ITEMS,
    complete_mhs_frame,
)
from inspect_plural.sources.mhs._load import (
    MHS_FILES,
    MHS_HF_REPO,
    MHS_HF_REVISION,
    load_mhs,
)
from inspect_plural.sources.mhs._mappings import (
    MHS_EDUCATION,
    MHS_IDEOLOGY,
    MHS_INCOME,
    MHS_LABELS,
    MHS_TRAIT_DIMENSIONS,
    UNKNOWN,
    generation_of_age,
)
from inspect_plural.sources.mhs._read import (
    read_mhs_frame,
)

__all__ = [
    "EDUCATION_VALUES",
    "GENDER_COLUMNS",
    "IDEOLOGY_VALUES",
    "INCOME_VALUES",
    "MHS_COLUMNS",
    "MHS_EDUCATION",
    "MHS_FILES",
    "MHS_HF_REPO",
    "MHS_HF_REVISION",
    "MHS_IDEOLOGY",
    "MHS_INCOME",
    "MHS_LABELS",
    "MHS_REQUIRED_COLUMNS",
    "MHS_TRAIT_DIMENSIONS",
    "RACE_VALUES",
    "RELIGION_VALUES",
    "SEXUALITY_VALUES",
    "SURVEY_ITEMS",
    "UNKNOWN",
    "complete_mhs_frame",
    "generation_of_age",
    "load_mhs",
    "read_mhs_frame",
]
