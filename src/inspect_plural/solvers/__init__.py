"""Methods, one module per method family; each is a composable ``@solver``."""

from inspect_plural.solvers.role_identification import aggregate_answers, role_identification

__all__ = ["aggregate_answers", "role_identification"]
