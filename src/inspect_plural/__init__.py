"""inspect_plural: pluralistic evaluation as Inspect tasks, solvers and scorers."""

from inspect_plural.answer_format import (
    AnswerFormat,
    DistributionFormat,
    LabelFormat,
    declare_answer_format,
    declared_answer_format,
)
from inspect_plural.prediction import ModelAnswer, Prediction
from inspect_plural.records import (
    Annotator,
    AnnotatorSampleMetadata,
    Item,
    Judgment,
    LabeledExample,
    LabelScale,
    RatedOutput,
    RoleCandidate,
    RoleExample,
    RoleItem,
    RoleSampleMetadata,
    SampleMetadata,
)
from inspect_plural.scorers import annotator_scorer, role_scorer
from inspect_plural.solvers import (
    annotator_majority,
    item_majority,
    llm_judge,
    personalized_judge,
    role_identification,
)
from inspect_plural.sources import AnnotatedCorpus
from inspect_plural.splits import CorpusSplit, cinemetric_split, perseval_split
from inspect_plural.tasks import (
    brexit,
    dices,
    dp,
    epic,
    md_agreement,
    mhs,
    opinionqa,
    personaeval_drama,
    personaeval_expertise,
    personaeval_literary,
    perspective_task,
)

__version__ = "0.1.0"

__all__ = [
    "AnnotatedCorpus",
    "Annotator",
    "AnnotatorSampleMetadata",
    "AnswerFormat",
    "CorpusSplit",
    "DistributionFormat",
    "Item",
    "Judgment",
    "LabelFormat",
    "LabelScale",
    "LabeledExample",
    "ModelAnswer",
    "Prediction",
    "RatedOutput",
    "RoleCandidate",
    "RoleExample",
    "RoleItem",
    "RoleSampleMetadata",
    "SampleMetadata",
    "__version__",
    "annotator_majority",
    "annotator_scorer",
    "brexit",
    "cinemetric_split",
    "dices",
    "dp",
    "epic",
    "item_majority",
    "llm_judge",
    "md_agreement",
    "mhs",
    "opinionqa",
    "personalized_judge",
    "perseval_split",
    "perspective_task",
    "declare_answer_format",
    "declared_answer_format",
    "personaeval_drama",
    "personaeval_expertise",
    "personaeval_literary",
    "role_identification",
    "role_scorer",
]
