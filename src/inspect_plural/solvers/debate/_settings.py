"""What a group debate grades and how it runs: the input, the settings, the templates.

:class:`GradingInput` is the neutral description of what a stakeholder panel grades;
:class:`DebateSettings` says how the debate of :mod:`inspect_plural.solvers.debate._group`
runs (rounds, closing calls, generation config, cache, model roles, templates).
"""

from __future__ import annotations

from inspect_ai.model import CachePolicy, GenerateConfig
from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.prompts import load_template
from inspect_plural.records import RatingDimension
from inspect_plural.structured import Structured

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
    "GradingInput",
    "check_templates",
]

AGENT = "maj_agent.txt"
PHASE1 = "maj_phase1.txt"
DEBATE = "maj_debate.txt"
CLOSING = "maj_closing.txt"
MODERATOR = "maj_moderator.txt"
AGGREGATE = "maj_aggregate.txt"
_FIELDS: dict[str, tuple[set[str], set[str]]] = {
    "agent": (
        {"name", "persona", "content_label", "task_description", "dimensions", "content"},
        {"persona", "dimensions", "content"},
    ),
    "phase1": ({"response_format"}, {"response_format"}),
    "debate": (
        {"evaluations", "transcript", "name", "response_format"},
        {"transcript", "response_format"},
    ),
    "closing": ({"transcript", "name", "response_format"}, {"response_format"}),
    "moderator": (
        {
            "group",
            "task_description",
            "dimensions",
            "candidates",
            "disagreement",
            "unheard",
            "transcript",
            "response_format",
        },
        {"candidates", "response_format"},
    ),
    "aggregate": (
        {"group", "task_description", "dimensions", "evaluations", "average", "response_format"},
        {"evaluations", "response_format"},
    ),
}
"""Per part of the protocol: the template fields it may use and those it must use."""
MISMATCH_TOLERANCE = 0.5
"""How far the aggregator's average may be from the computed one before it is flagged."""


class GradingInput(BaseModel):
    """What a panel grades, whatever task it comes from.

    Attributes:
        content: The "what to grade" block every persona is shown (Markdown sections:
            the context, the content; for the scorer, the input, target and output).
        content_label: What the graded content is called in prompts (``generated
            summary``, ``response``).
        task_description: The task the content was produced for.
        dimensions: The dimensions to score, each with the scale the personas score it
            on (``low``..``high``, integers).
        example_key: What the prompts' example scores are drawn for (the sample;
            :mod:`inspect_plural.prompts._examples`).

    """

    model_config = ConfigDict(frozen=True)

    content: str
    content_label: str
    task_description: str
    dimensions: list[RatingDimension] = Field(min_length=1)
    example_key: str = ""


class DebateTemplates(BaseModel):
    """The prompt template file of each part of the protocol (``prompts/`` or the user's)."""

    model_config = ConfigDict(frozen=True)

    agent: str = AGENT
    phase1: str = PHASE1
    debate: str = DEBATE
    closing: str = CLOSING
    moderator: str = MODERATOR
    aggregate: str = AGGREGATE


class DebateRoles(BaseModel):
    """The Inspect model role each part answers under (unbound: the active model)."""

    model_config = ConfigDict(frozen=True)

    persona: str = "persona"
    moderator: str = "moderator"
    aggregator: str = "aggregator"


class DebateSettings(BaseModel):
    """How a group debate runs.

    Attributes:
        max_rounds: Debate rounds at most; 0: independent scoring only (no debate, no
            aggregation call).
        simple_roles: A one-line role per group replaces each persona's attributes.
        closing_call: Ask personas still active after ``max_rounds`` for a final
            evaluation.
        prompts: Folder of replacement prompt templates.
        config: Generation config of every call.
        cache: Inspect's cache for every call (None: whatever the eval uses).
        roles: The model role of each part.
        templates: The template file of each part.
        structured: Constrain every answer to its JSON schema: ``True`` (Inspect's
            structured output) or ``"json_object"`` (llama-cpp-python's dialect).

    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    max_rounds: int = Field(default=3, ge=0)
    simple_roles: bool = False
    closing_call: bool = False
    prompts: str | None = None
    config: GenerateConfig = Field(default_factory=GenerateConfig)
    cache: bool | CachePolicy | None = None
    roles: DebateRoles = Field(default_factory=DebateRoles)
    templates: DebateTemplates = Field(default_factory=DebateTemplates)
    structured: Structured = False

    def template(self, part: str) -> str:
        """The checked template text of one part (``agent``, ``phase1``, ...)."""
        fields, required = _FIELDS[part]
        return load_template(getattr(self.templates, part), fields, required, self.prompts)


def check_templates(settings: DebateSettings) -> None:
    """Load every template the settings use, so a bad one fails before any sample.

    Raises:
        PromptTemplateError: A template is missing or uses other fields.
    """
    for part in _FIELDS:
        settings.template(part)
