"""PERSE's tasks: Per-MPST (a reviewer's score of a new plot) and Per-DOC (the preferred plot).

``_options`` declares and checks the options before any data is read, ``_samples`` turns
records into samples, and ``_tasks`` holds the two ``@task`` functions.
"""

from inspect_plural.tasks.perse._options import (
    PER_DOC_METHODS,
    PER_MPST_METHODS,
)
from inspect_plural.tasks.perse._samples import (
    preference_record_to_sample,
    review_record_to_sample,
)
from inspect_plural.tasks.perse._tasks import (
    per_doc,
    per_mpst,
)

__all__ = [
    "PER_DOC_METHODS",
    "PER_MPST_METHODS",
    "per_doc",
    "per_mpst",
    "preference_record_to_sample",
    "review_record_to_sample",
]
