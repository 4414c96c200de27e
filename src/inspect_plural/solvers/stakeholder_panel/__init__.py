"""``stakeholder_panel``: a MAJ-Eval stakeholder panel labels an item; its votes give the shares.

``_members`` decides who sits on the panel (made once per run), ``_votes`` turns votes into
the item's distribution and each annotator's label, ``_records`` is what is kept and
``_solver`` the ``@solver``.
"""

from inspect_plural.solvers.stakeholder_panel._records import (
    PanelMember,
    PersonaVote,
    StakeholderVotes,
)
from inspect_plural.solvers.stakeholder_panel._solver import (
    AGGREGATE,
    DEFAULT_TASK_DESCRIPTION,
    PANEL_SPAN,
    render_vote_prompt,
    stakeholder_panel,
    vote_summary,
)

__all__ = [
    "AGGREGATE",
    "DEFAULT_TASK_DESCRIPTION",
    "PANEL_SPAN",
    "PanelMember",
    "PersonaVote",
    "StakeholderVotes",
    "render_vote_prompt",
    "stakeholder_panel",
    "vote_summary",
]
