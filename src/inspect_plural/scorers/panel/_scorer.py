"""``inspect_plural/panel``: a stakeholder panel grades the output of any Inspect task.

In Python, ``Task(..., scorer=[match(), panel(personas="parents: a parent; ...")])``;
from the shell, on an existing log of any task::

    inspect score LOG --scorer inspect_plural/panel --model-role grader=openai/gpt-4.1
        -S personas="parents: a parent; teachers: a kindergarten teacher"
        -S dimensions="helpfulness:1-5,safety:1-5"

Every persona scores the sample's output independently (all concurrently); with
``rounds`` >= 1 each stakeholder group then runs MAJ-Eval's moderated debate and
aggregation (the same code as the ``maj_eval`` solver,
:mod:`inspect_plural.solvers.debate._group`). Calls per sample: the personas, plus with
a debate per group of two or more each round's turns and moderator picks (a round's
last speaker needs no pick) and one aggregation (a group of one: 1 + 1). Personas come
from a file, from documents or from inline profiles
(:mod:`inspect_plural.stakeholders._panel`), built once per run. Every call answers
under the ``grader`` model role, falling back to the eval's model (in ``inspect score``:
the log's). The score and its metrics are in :mod:`._score` and :mod:`._metrics`;
``docs/panel.md`` is the user's guide.
"""

from __future__ import annotations

import re
from typing import Any

from inspect_ai.model import CachePolicy, GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState
from inspect_ai.util import span

from inspect_plural._concurrency import SharedBuilds
from inspect_plural.errors import OptionError, UserError
from inspect_plural.models import role_model
from inspect_plural.options import TaskOption, check_options, metrics_option
from inspect_plural.scorers._agreement import ALPHA_LEVELS
from inspect_plural.scorers._cost import cost
from inspect_plural.scorers.panel._metrics import panel_metrics
from inspect_plural.scorers.panel._rubric import rubric_dimensions
from inspect_plural.scorers.panel._score import (
    PanelGroup,
    PanelRecord,
    group_keys,
    panel_score,
    render_graded,
)
from inspect_plural.solvers.debate import (
    DebateRoles,
    DebateSettings,
    DebateTemplates,
    GradingInput,
    check_templates,
    debate_groups,
)
from inspect_plural.stakeholders import PERSONA_SEED, PersonaFileError, PersonaSet, persona_config
from inspect_plural.stakeholders._panel import PanelPersonas, build_panel, persona_source
from inspect_plural.structured import structured_option, structured_value

__all__ = ["DEFAULT_TASK_DESCRIPTION", "GRADER_ROLE", "PANEL_OPTIONS", "panel"]

GRADER_ROLE = "grader"
"""The model role every panel call answers under (Inspect's convention for graders)."""
DEFAULT_TASK_DESCRIPTION = "Respond to the input shown below as well as possible."
"""What the personas are told the graded output was for, when the user says nothing."""
DEFAULT_MAX_TOKENS = 1024
"""Tokens a persona's answer (feedback and scores) may take."""
CONTENT_LABEL = "response"
INDEPENDENT = DebateTemplates(agent="panel_agent.txt", phase1="panel_score.txt")
"""Templates of independent scoring (``rounds=0``): no mention of a discussion."""
_EXPIRY = re.compile(r"^\d+[smhDWMY]$")
NAME = "inspect_plural/panel"

PANEL_OPTIONS = (
    TaskOption("personas", help="a persona file, a shipped set, or 'profile; group: profile'"),
    TaskOption("persona_docs", kind="list", help="documents to create the personas from"),
    TaskOption("groups", kind="list", help="only these stakeholder groups"),
    TaskOption("n_personas", kind="int", low=1, help="at most this many personas per group"),
    TaskOption("dimensions", help="'name:LOW-HIGH,...' (default: overall:1-5)"),
    TaskOption("rubric", help="a YAML/JSON rubric file (names, descriptions, scales)"),
    TaskOption("use_target", False, "bool", help="show the sample's target to the panel"),
    TaskOption("task_description", help="what the graded output was for"),
    TaskOption("rounds", 0, "int", low=0, high=10, help="debate rounds (0: independent)"),
    TaskOption("closing_call", False, "bool", help="ask personas still active at the end"),
    TaskOption("alpha_level", "interval", choices=ALPHA_LEVELS, help="alpha's level"),
    metrics_option("headline: per-group means only when they fit in 25 values; full: always"),
    TaskOption("cache", False, help="Inspect's cache for every call: true, or an expiry (1W)"),
    TaskOption("temperature", 0.0, "float", low=0, help="sampling temperature"),
    TaskOption("seed", PERSONA_SEED, "int", help="generation seed (+ epoch - 1)"),
    TaskOption("max_tokens", DEFAULT_MAX_TOKENS, "int", low=1, help="tokens per answer"),
    TaskOption("prompts", help="folder of replacement prompt templates"),
    structured_option(),
)
"""The scorer's ``-S`` options (checked, with "did you mean" for a misspelt one)."""
_RAW = ("personas", "dimensions", "cache")
"""Options whose values are read by their own parsers (a list, a mapping, true or 1W)."""


def _cache(value: Any) -> bool | CachePolicy | None:
    """None (the eval's own cache applies), True, or a policy with an expiry."""
    if isinstance(value, bool):
        return True if value else None
    text = str(value).strip()
    if text.lower() in ("true", "yes", "1"):
        return True
    if text.lower() in ("false", "no", "0", ""):
        return None
    if _EXPIRY.match(text):
        return CachePolicy(expiry=text)
    raise UserError(f"option cache: must be true, false or an expiry such as 1W, not {value!r}")


def _list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


@scorer(metrics=[panel_metrics(), cost()])
def panel(
    personas: str | list[str] | dict[str, Any] | None = None,
    persona_docs: str | list[str] | None = None,
    groups: str | list[str] | None = None,
    n_personas: int | None = None,
    dimensions: str | list[Any] | dict[str, Any] | None = None,
    rubric: str | None = None,
    use_target: bool = False,
    task_description: str | None = None,
    rounds: int = 0,
    closing_call: bool = False,
    alpha_level: str = "interval",
    metrics: str = "headline",
    cache: bool | str = False,
    temperature: float | None = 0.0,
    seed: int | None = PERSONA_SEED,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    prompts: str | None = None,
    structured: bool | str = False,
    **options: Any,
) -> Scorer:
    """A stakeholder panel scores any task's output (issue 22; ``docs/panel.md``).

    Args:
        personas: A persona file (written by ``inspect-plural personas``), a shipped set
            (``storysparkqa``), or inline profiles (``"a nurse; patients: a patient with
            diabetes"``, or a list), expanded into personas once per run.
        persona_docs: Documents to create the personas from (MAJ-Eval's creation, once
            per run, cached on disk); instead of ``personas``.
        groups: Only these stakeholder groups.
        n_personas: At most this many personas per group.
        dimensions: ``"name:LOW-HIGH,..."`` (a bare name is 1–5); default ``overall``
            on 1–5. Or ``rubric``.
        rubric: A YAML or JSON rubric file: names, descriptions, scales.
        use_target: Show the sample's target to the personas as a reference answer.
        task_description: What the graded output was produced for.
        rounds: MAJ-Eval debate rounds per group; 0 (default): independent scoring only.
        closing_call: After the last round, ask personas still active once more.
        alpha_level: ``interval``, ``ordinal`` or ``nominal`` (inter-persona alpha).
        metrics: ``headline`` or ``full`` (per-group means always logged).
        cache: Inspect's cache on every call: ``true`` or an expiry (``1D``, ``2W``).
        temperature: Sampling temperature of every call.
        seed: Generation seed (``seed + epoch - 1`` per epoch; persona creation: ``seed``
            at temperature 0).
        max_tokens: Tokens a persona's answer may take.
        prompts: Folder of replacement prompt templates.
        structured: Constrain every JSON answer (scores, turns, moderator picks,
            syntheses, personas from profiles) to its schema: ``true`` (Inspect's
            structured output) or ``json_object`` (llama-cpp-python's dialect).
        **options: Nothing else: a misspelt option fails with the closest names.

    Returns:
        The scorer.
    """
    given = {
        "personas": personas,
        "persona_docs": persona_docs,
        "groups": groups,
        "n_personas": n_personas,
        "dimensions": dimensions,
        "rubric": rubric,
        "use_target": use_target,
        "task_description": task_description,
        "rounds": rounds,
        "closing_call": closing_call,
        "alpha_level": alpha_level,
        "metrics": metrics,
        "cache": cache,
        "temperature": temperature,
        "seed": seed,
        "max_tokens": max_tokens,
        "prompts": prompts,
        "structured": structured,
        **options,
    }
    try:
        return _panel(given)
    except (UserError, ValueError) as ex:
        # not a ValueError: Inspect's scorer loader reads one as "scorer not found"
        raise UserError(f"{NAME}: {ex}") from None


def _panel(given: dict[str, Any]) -> Scorer:
    checked = {k: v for k, v in given.items() if k not in _RAW}
    opts = check_options("the scorer", PANEL_OPTIONS, checked)
    source = persona_source(given["personas"], _list(opts["persona_docs"]))
    dims = rubric_dimensions(given["dimensions"], opts["rubric"])
    wanted = opts["groups"] or None
    if source.persona_set is not None:  # a file: check the groups now
        try:
            source.persona_set.select(groups=wanted, n_personas=opts["n_personas"])
        except ValueError as ex:
            raise OptionError("groups", str(ex)) from None
    rounds, seed = int(opts["rounds"]), opts["seed"]
    structured = structured_value(opts["structured"])
    base = DebateSettings(
        max_rounds=rounds,
        closing_call=bool(opts["closing_call"]),
        prompts=opts["prompts"],
        cache=_cache(given["cache"]),
        roles=DebateRoles(persona=GRADER_ROLE, moderator=GRADER_ROLE, aggregator=GRADER_ROLE),
        templates=INDEPENDENT if rounds == 0 else DebateTemplates(),
        structured=structured,
    )
    check_templates(base)
    task = opts["task_description"] or DEFAULT_TASK_DESCRIPTION
    builds: SharedBuilds[tuple[PanelPersonas, PersonaSet]] = SharedBuilds(fatal=(PersonaFileError,))

    async def panel_once() -> tuple[PanelPersonas, PersonaSet, bool]:
        """The run's panel, built by the first sample that asks (True for that one)."""
        made_here = False

        async def build() -> tuple[PanelPersonas, PersonaSet]:
            nonlocal made_here
            made_here = True
            async with span("panel personas"):
                made = await build_panel(
                    source,
                    task,
                    role_model(GRADER_ROLE),
                    persona_config(seed),
                    opts["prompts"],
                    structured,
                )
            try:
                selected = made.persona_set.select(groups=wanted, n_personas=opts["n_personas"])
            except ValueError as ex:
                raise UserError(f"{NAME}: option groups: {ex}") from None
            return made, selected

        made, selected = await builds.get("panel", f"{NAME}'s persona panel", build)
        return made, selected, made_here

    async def score(state: TaskState, target: Target) -> Score:
        made, selected, here = await panel_once()  # a failed build: a sample error
        keys = group_keys([g.name for g in selected.groups])
        members = [
            PanelGroup(name=g.name, key=keys[g.name], personas=g.personas) for g in selected.groups
        ]
        record = PanelRecord(
            origin=made.origin,
            dimensions=dims,
            groups=members,
            rounds=rounds,
            closing_call=base.closing_call,
            use_target=bool(opts["use_target"]),
            alpha_level=opts["alpha_level"],
            metrics=opts["metrics"],
            creation_calls=made.calls if here else 0,
            notes=made.persona_set.notes,
        )
        grading = GradingInput(
            content=render_graded(state, target if record.use_target else None),
            content_label=CONTENT_LABEL,
            task_description=task,
            dimensions=dims,
            example_key=f"{state.sample_id}:{state.epoch}",
        )
        config = GenerateConfig(
            temperature=opts["temperature"],
            seed=None if seed is None else seed + state.epoch - 1,
            max_tokens=opts["max_tokens"],
        )
        debates = await debate_groups(
            selected.groups, grading, base.model_copy(update={"config": config})
        )
        return panel_score(debates, record, made.calls if here else 0, made.tokens if here else 0)

    return score
