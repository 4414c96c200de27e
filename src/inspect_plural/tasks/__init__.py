"""Inspect tasks, one module per task family."""

from inspect_plural.tasks.personaeval import (
    personaeval_drama,
    personaeval_expertise,
    personaeval_literary,
    personaeval_task,
    record_to_sample,
)

__all__ = [
    "personaeval_drama",
    "personaeval_expertise",
    "personaeval_literary",
    "personaeval_task",
    "record_to_sample",
]
