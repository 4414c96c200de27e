"""CINEMETRIC: annotators matched to movie characters who role-play the judgment and vote.

``_panel`` builds an annotator's movie-character panel (once), ``_cache`` stores it on
disk with its label; ``_solver`` is the ``@solver`` that role-plays and votes.
"""

from inspect_plural.solvers.cinemetric._panel import (
    CharacterPanel,
    MovieCharacter,
)
from inspect_plural.solvers.cinemetric._solver import (
    cinemetric,
)

__all__ = [
    "CharacterPanel",
    "MovieCharacter",
    "cinemetric",
]
