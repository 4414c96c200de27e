"""DICES-350 / DICES-990 (Aroyo et al. 2023): raters' harm judgments of chatbot conversations.

``_load`` is the loader (``load_dices``), ``_read`` reads the release's files and
``_columns`` names their columns.
"""

from inspect_plural.sources.dices._columns import (
    DICES_COLUMN_ALIASES,
    DICES_COLUMNS,
    DICES_EXPERT_FIELDS,
    DICES_TRAITS,
)
from inspect_plural.sources.dices._load import (
    DICES_COMMIT,
    DICES_FILES,
    DICES_REPO,
    DICES_URL,
    load_dices,
)
from inspect_plural.sources.dices._read import (
    DICES_ANSWERS,
    DICES_DEFAULT_LABEL,
    UNKNOWN,
    dices_label_columns,
    dices_scale,
    read_dices_csv,
)

__all__ = [
    "DICES_ANSWERS",
    "DICES_COLUMNS",
    "DICES_COLUMN_ALIASES",
    "DICES_COMMIT",
    "DICES_DEFAULT_LABEL",
    "DICES_EXPERT_FIELDS",
    "DICES_FILES",
    "DICES_REPO",
    "DICES_TRAITS",
    "DICES_URL",
    "UNKNOWN",
    "dices_label_columns",
    "dices_scale",
    "load_dices",
    "read_dices_csv",
]
