"""MAJ-Eval's group debate, shared by the ``maj_eval`` solver and the ``panel`` scorer.

``_group`` runs one group's debate (independent scoring, moderated turns, synthesis) on
any content; ``_settings`` says what is graded and how (input, settings, templates),
``_calls`` makes and counts the model calls, ``_text`` writes what the debaters are
shown, ``_score_format`` the scores a persona gives, ``_rules`` the pure pieces
(disagreement, the moderator's fallback, call budgets) and ``_records`` what is kept.
"""

from inspect_plural.solvers.debate._group import (
    debate_groups,
)
from inspect_plural.solvers.debate._records import (
    DebateTurn,
    Evaluation,
    GroupDebate,
    PanelDebate,
    StakeholderPanel,
)
from inspect_plural.solvers.debate._settings import (
    AGENT,
    AGGREGATE,
    CLOSING,
    DEBATE,
    MISMATCH_TOLERANCE,
    MODERATOR,
    PHASE1,
    DebateRoles,
    DebateSettings,
    DebateTemplates,
    GradingInput,
    check_templates,
)

__all__ = [
    "AGENT",
    "AGGREGATE",
    "CLOSING",
    "DEBATE",
    "MISMATCH_TOLERANCE",
    "MODERATOR",
    "PHASE1",
    "DebateRoles",
    "DebateSettings",
    "DebateTemplates",
    "DebateTurn",
    "Evaluation",
    "GradingInput",
    "GroupDebate",
    "PanelDebate",
    "StakeholderPanel",
    "check_templates",
    "debate_groups",
]
