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
    Item,
    Judgment,
    LabelScale,
    RatedOutput,
    RoleCandidate,
    RoleExample,
    RoleItem,
    RoleSampleMetadata,
    SampleMetadata,
)
from inspect_plural.scorers import role_scorer
from inspect_plural.solvers import role_identification
from inspect_plural.tasks import personaeval_drama, personaeval_expertise, personaeval_literary

__version__ = "0.1.0"

__all__ = [
    "AnswerFormat",
    "Annotator",
    "DistributionFormat",
    "Item",
    "Judgment",
    "LabelFormat",
    "LabelScale",
    "ModelAnswer",
    "Prediction",
    "RatedOutput",
    "RoleCandidate",
    "RoleExample",
    "RoleItem",
    "RoleSampleMetadata",
    "SampleMetadata",
    "__version__",
    "declare_answer_format",
    "declared_answer_format",
    "personaeval_drama",
    "personaeval_expertise",
    "personaeval_literary",
    "role_identification",
    "role_scorer",
]
