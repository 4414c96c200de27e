"""How a rating task is built (MSLR-Cochrane, StorySparkQA): options, protocol, task.

``_options`` declares and checks the options before any data is read, ``_protocol``
resolves the paper's or our sampling settings per method, and ``_task`` turns rated
outputs into samples and the ``Task`` (:func:`rating_task`). The dataset tasks are in
:mod:`inspect_plural.tasks.panels`.
"""

from inspect_plural.tasks.rating._options import (
    check_rating_options,
)
from inspect_plural.tasks.rating._protocol import (
    PAPER_SAMPLE_PER_SYSTEM,
)
from inspect_plural.tasks.rating._task import (
    RATING_METHODS,
    rated_record_to_sample,
    rating_task,
)

__all__ = [
    "PAPER_SAMPLE_PER_SYSTEM",
    "RATING_METHODS",
    "check_rating_options",
    "rated_record_to_sample",
    "rating_task",
]
