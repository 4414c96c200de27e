"""Methods, one module per method family; each is a composable ``@solver``."""

from inspect_plural.solvers.baselines import annotator_majority, item_majority, majority_label
from inspect_plural.solvers.chateval import ChatEvalRecord, ChatEvalTurn, chateval
from inspect_plural.solvers.cinemetric import CharacterPanel, MovieCharacter, cinemetric
from inspect_plural.solvers.distribution_baselines import (
    label_prior,
    lewidi_most_frequent,
    lewidi_random,
    uniform,
)
from inspect_plural.solvers.distribution_judge import distribution_judge
from inspect_plural.solvers.geval import GEvalDimension, GEvalRecord, geval
from inspect_plural.solvers.judge import llm_judge, personalized_judge, render_judge_prompt
from inspect_plural.solvers.maj_eval import (
    DebateTurn,
    GroupDebate,
    PanelDebate,
    StakeholderPanel,
    maj_eval,
)
from inspect_plural.solvers.perse import (
    matrix_factorization,
    perse_aspect,
    perse_review,
    prior_average,
)
from inspect_plural.solvers.retrieval import retrieval_examples, retrieve
from inspect_plural.solvers.role_identification import aggregate_answers, role_identification
from inspect_plural.solvers.rouge import RougeRecord, rouge_l
from inspect_plural.solvers.stakeholder_panel import StakeholderVotes, stakeholder_panel
from inspect_plural.solvers.trait_ensemble import trait_ensemble

__all__ = [
    "matrix_factorization",
    "perse_aspect",
    "perse_review",
    "prior_average",
    "rouge_l",
    "RougeRecord",
    "maj_eval",
    "StakeholderPanel",
    "PanelDebate",
    "GroupDebate",
    "DebateTurn",
    "geval",
    "GEvalRecord",
    "GEvalDimension",
    "chateval",
    "ChatEvalTurn",
    "ChatEvalRecord",
    "CharacterPanel",
    "MovieCharacter",
    "aggregate_answers",
    "annotator_majority",
    "cinemetric",
    "distribution_judge",
    "label_prior",
    "lewidi_most_frequent",
    "lewidi_random",
    "uniform",
    "item_majority",
    "llm_judge",
    "majority_label",
    "personalized_judge",
    "render_judge_prompt",
    "retrieval_examples",
    "retrieve",
    "role_identification",
    "stakeholder_panel",
    "StakeholderVotes",
    "trait_ensemble",
]
