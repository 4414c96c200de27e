"""Dataset sources: official files to records (one module per dataset)."""

from inspect_plural.sources._corpus import JUDGMENT_COLUMNS, AnnotatedCorpus
from inspect_plural.sources._paths import (
    DATA_DIR_ENV,
    DataFileError,
    DataFolder,
    DataNotFoundError,
    DataRowError,
    data_folder,
    data_root,
)
from inspect_plural.sources.brexit import BREXIT_HF_REPO, BREXIT_HF_REVISION, load_brexit
from inspect_plural.sources.dices import DICES_COMMIT, DICES_REPO, load_dices
from inspect_plural.sources.dp import DP_FILE, load_dp
from inspect_plural.sources.epic import EPIC_HF_REPO, EPIC_HF_REVISION, load_epic
from inspect_plural.sources.lewidi import (
    LEWIDI_COMMIT,
    LEWIDI_REPO,
    load_armis,
    load_convabuse,
    load_csc,
    load_mp,
    load_paraphrase,
    load_varierrnli,
)
from inspect_plural.sources.md_agreement import MD_AGREEMENT_FILES, load_md_agreement
from inspect_plural.sources.mhs import MHS_HF_REPO, MHS_HF_REVISION, load_mhs
from inspect_plural.sources.mslr import (
    MSLR_DIMENSIONS,
    MSLR_REPO,
    MSLR_REVISION,
    MSLR_TASK_DESCRIPTION,
    load_mslr,
    sample_per_system,
)
from inspect_plural.sources.opinionqa import OPINIONQA_WAVES, load_opinionqa
from inspect_plural.sources.personaeval import (
    PERSONAEVAL_HF_REPO,
    PERSONAEVAL_HF_REVISION,
    PERSONAEVAL_TRACKS,
    load_personaeval,
    read_personaeval_csv,
)
from inspect_plural.sources.storysparkqa import (
    STORYSPARKQA_DIMENSIONS,
    STORYSPARKQA_HF_REPO,
    STORYSPARKQA_REVISION,
    STORYSPARKQA_TASK_DESCRIPTION,
    load_ratings,
    load_storysparkqa,
    load_storysparkqa_sections,
)

__all__ = [
    "BREXIT_HF_REPO",
    "BREXIT_HF_REVISION",
    "DICES_COMMIT",
    "DICES_REPO",
    "DP_FILE",
    "EPIC_HF_REPO",
    "EPIC_HF_REVISION",
    "JUDGMENT_COLUMNS",
    "LEWIDI_COMMIT",
    "LEWIDI_REPO",
    "MD_AGREEMENT_FILES",
    "MHS_HF_REPO",
    "MHS_HF_REVISION",
    "OPINIONQA_WAVES",
    "PERSONAEVAL_HF_REPO",
    "PERSONAEVAL_HF_REVISION",
    "PERSONAEVAL_TRACKS",
    "AnnotatedCorpus",
    "DATA_DIR_ENV",
    "DataFileError",
    "DataFolder",
    "DataNotFoundError",
    "DataRowError",
    "data_folder",
    "data_root",
    "load_armis",
    "load_brexit",
    "load_convabuse",
    "load_csc",
    "load_mp",
    "load_paraphrase",
    "load_varierrnli",
    "load_dices",
    "load_dp",
    "load_epic",
    "load_md_agreement",
    "load_mhs",
    "load_opinionqa",
    "load_personaeval",
    "read_personaeval_csv",
    "MSLR_DIMENSIONS",
    "MSLR_REPO",
    "MSLR_REVISION",
    "MSLR_TASK_DESCRIPTION",
    "load_mslr",
    "sample_per_system",
    "STORYSPARKQA_DIMENSIONS",
    "STORYSPARKQA_HF_REPO",
    "STORYSPARKQA_REVISION",
    "STORYSPARKQA_TASK_DESCRIPTION",
    "load_ratings",
    "load_storysparkqa",
    "load_storysparkqa_sections",
]
