"""The report's sections: one per task family, and the runs and cost tables.

``_annotator`` (annotator tasks, PersonaEval), ``_panel`` (LeWiDi, the persona panel),
``_ratings`` (rating tasks, PERSE) and ``_runs`` (runs, cost, other metrics).
"""

from inspect_plural.report.sections._annotator import (
    annotator_section,
    personaeval_section,
)
from inspect_plural.report.sections._panel import (
    lewidi_section,
    panel_section,
)
from inspect_plural.report.sections._ratings import (
    perse_section,
    ratings_section,
)
from inspect_plural.report.sections._runs import (
    cost_table,
    failures_section,
    metrics_section,
    other_section,
    runs_table,
)

__all__ = [
    "annotator_section",
    "cost_table",
    "failures_section",
    "lewidi_section",
    "metrics_section",
    "other_section",
    "panel_section",
    "perse_section",
    "personaeval_section",
    "ratings_section",
    "runs_table",
]
