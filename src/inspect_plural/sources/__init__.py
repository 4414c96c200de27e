"""Dataset sources: official files to records (one module per dataset)."""

from inspect_plural.sources._paths import DataNotFoundError, DataRowError, data_root
from inspect_plural.sources.personaeval import (
    PERSONAEVAL_HF_REPO,
    PERSONAEVAL_HF_REVISION,
    PERSONAEVAL_TRACKS,
    load_personaeval,
    read_personaeval_csv,
)

__all__ = [
    "PERSONAEVAL_HF_REPO",
    "PERSONAEVAL_HF_REVISION",
    "PERSONAEVAL_TRACKS",
    "DataNotFoundError",
    "DataRowError",
    "data_root",
    "load_personaeval",
    "read_personaeval_csv",
]
