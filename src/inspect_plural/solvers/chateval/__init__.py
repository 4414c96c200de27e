"""ChatEval: referees with fixed roles discuss one output, then score it (a MAJ-Eval baseline).

``_solver`` is the ``@solver``; ``_roles`` the referees' roles file and role sets,
``_prompts`` the templates and their rendering, ``_records`` what a discussion keeps.
"""

from inspect_plural.solvers.chateval._prompts import (
    NO_HISTORY,
)
from inspect_plural.solvers.chateval._records import (
    ChatEvalRecord,
    ChatEvalTurn,
)
from inspect_plural.solvers.chateval._roles import (
    CHATEVAL_ROLE_SETS,
    ROLES,
    Referee,
    load_referees,
)
from inspect_plural.solvers.chateval._solver import (
    CHATEVAL_STRATEGIES,
    chateval,
)

__all__ = [
    "CHATEVAL_ROLE_SETS",
    "CHATEVAL_STRATEGIES",
    "NO_HISTORY",
    "ROLES",
    "ChatEvalRecord",
    "ChatEvalTurn",
    "Referee",
    "chateval",
    "load_referees",
]
