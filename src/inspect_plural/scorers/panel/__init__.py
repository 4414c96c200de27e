"""The ``panel`` scorer: a stakeholder panel grades the output of any Inspect task.

``_scorer`` is the ``@scorer`` (its options and the calls it makes), ``_rubric`` the
dimensions a panel scores, ``_score`` what the personas are shown and the score written
per sample, ``_metrics`` the corpus metrics, ``_summary`` a log's panel scores summarised
for the report. Who sits on the panel (a persona file, documents, inline profiles) is
:mod:`inspect_plural.stakeholders._panel`.
"""

from inspect_plural.scorers.panel._metrics import panel_metrics
from inspect_plural.scorers.panel._score import PanelGroup, PanelRecord, render_graded
from inspect_plural.scorers.panel._scorer import (
    DEFAULT_TASK_DESCRIPTION,
    GRADER_ROLE,
    PANEL_OPTIONS,
    panel,
)
from inspect_plural.scorers.panel._summary import (
    ContestedSample,
    PanelAgreement,
    PanelCell,
    PanelSummary,
    panel_summary,
)

__all__ = [
    "DEFAULT_TASK_DESCRIPTION",
    "GRADER_ROLE",
    "PANEL_OPTIONS",
    "ContestedSample",
    "PanelAgreement",
    "PanelCell",
    "PanelGroup",
    "PanelRecord",
    "PanelSummary",
    "panel",
    "panel_metrics",
    "panel_summary",
    "render_graded",
]
