"""Inspect tasks, one module per task family."""

from inspect_plural.tasks._batch import BATCH_SUPPORT, BatchSupport, batch_table
from inspect_plural.tasks.annotator import COMMON_OPTIONS, METHODS, build_samples, perspective_task
from inspect_plural.tasks.annotator._annotator_samples import (
    record_to_sample as perspective_record_to_sample,
)

# the generic ``perspective`` task is not re-exported here: the name would hide the module
# inspect_plural.tasks.perspective (import it from inspect_plural or tasks.extension)
from inspect_plural.tasks.extension import annotator_task
from inspect_plural.tasks.lewidi import armis, convabuse, csc, mp, paraphrase, varierrnli
from inspect_plural.tasks.panels import mslr_cochrane, storysparkqa
from inspect_plural.tasks.perse import (
    per_doc,
    per_mpst,
    preference_record_to_sample,
    review_record_to_sample,
)
from inspect_plural.tasks.personaeval import (
    personaeval_drama,
    personaeval_expertise,
    personaeval_literary,
    personaeval_task,
    record_to_sample,
)
from inspect_plural.tasks.perspective import (
    brexit,
    dices,
    dp,
    epic,
    md_agreement,
    mhs,
    opinionqa,
)
from inspect_plural.tasks.rating import RATING_METHODS, rated_record_to_sample, rating_task

__all__ = [
    "BATCH_SUPPORT",
    "BatchSupport",
    "batch_table",
    "annotator_task",
    "armis",
    "convabuse",
    "csc",
    "mp",
    "paraphrase",
    "varierrnli",
    "per_doc",
    "per_mpst",
    "preference_record_to_sample",
    "review_record_to_sample",
    "RATING_METHODS",
    "mslr_cochrane",
    "rated_record_to_sample",
    "rating_task",
    "storysparkqa",
    "COMMON_OPTIONS",
    "METHODS",
    "brexit",
    "build_samples",
    "dices",
    "dp",
    "epic",
    "md_agreement",
    "mhs",
    "opinionqa",
    "personaeval_drama",
    "personaeval_expertise",
    "personaeval_literary",
    "personaeval_task",
    "perspective_record_to_sample",
    "perspective_task",
    "record_to_sample",
]
