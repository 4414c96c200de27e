"""Methods, one module per method family; each is a composable ``@solver``."""

from inspect_plural.solvers.baselines import annotator_majority, item_majority, majority_label
from inspect_plural.solvers.judge import llm_judge, personalized_judge, render_judge_prompt
from inspect_plural.solvers.role_identification import aggregate_answers, role_identification

__all__ = [
    "aggregate_answers",
    "annotator_majority",
    "item_majority",
    "llm_judge",
    "majority_label",
    "personalized_judge",
    "render_judge_prompt",
    "role_identification",
]
