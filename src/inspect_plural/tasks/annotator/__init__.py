"""How an annotator-level task is built, for both targets, in the order it runs.

1. Options (:mod:`._options`): every option declared and checked before any data is
   read (``check_annotator_options``); the dataset's loader then reads the corpus.
2. Split: the split protocol (``lewidi``, ``cinemetric``, ``perseval``) applied to the
   corpus (``_split`` in :mod:`._task`, over :mod:`inspect_plural.splits`).
3. Method (:mod:`._methods`): checked against the split and built into a solver.
4. Samples: per annotator (``target=annotator``, :mod:`._annotator_samples`) or per item
   (``target=distribution``, :mod:`._item_samples`), from the parts both show
   (:mod:`._sample_parts`).
5. Task: scorer, metrics and metadata (:func:`perspective_task`,
   :mod:`._distribution_task`), with the viewer configuration of
   :mod:`inspect_plural.tasks._viewer`.

The dataset tasks that call it are in :mod:`inspect_plural.tasks.perspective`,
:mod:`inspect_plural.tasks.lewidi` and :mod:`inspect_plural.tasks.extension`.
"""

from inspect_plural.tasks.annotator._annotator_samples import (
    build_samples,
    record_to_sample,
)
from inspect_plural.tasks.annotator._distribution_task import (
    distribution_task,
)
from inspect_plural.tasks.annotator._item_samples import (
    build_item_samples,
    label_set_base,
)
from inspect_plural.tasks.annotator._options import (
    COMMON_OPTIONS,
    COMMON_SPECS,
    ITEM_METHODS,
    METHOD_OPTIONS,
    METHOD_SPECS,
    METHODS,
    TARGETS,
    check_annotator_options,
    dataset_specs,
)
from inspect_plural.tasks.annotator._task import (
    perspective_task,
)

__all__ = [
    "COMMON_OPTIONS",
    "COMMON_SPECS",
    "ITEM_METHODS",
    "METHODS",
    "METHOD_OPTIONS",
    "METHOD_SPECS",
    "TARGETS",
    "build_item_samples",
    "build_samples",
    "check_annotator_options",
    "dataset_specs",
    "distribution_task",
    "label_set_base",
    "perspective_task",
    "record_to_sample",
]
