"""The ``-T`` options of the rating tasks: declared, parsed and cross-checked before any data.

:data:`RATING_OPTIONS` are shared by every rating task, :data:`RATING_METHOD_OPTIONS`
configure one method each (``TaskOption.method``). :func:`check_rating_options` parses
them all (unknown names fail with the closest valid ones), then checks what only makes
sense together: an option of another method, an option the metrics preset fixes,
persona files and documents that do not exist, stakeholder groups the persona set does
not have. Every failure is an :class:`~inspect_plural.errors.OptionError` naming the
option, printed by Inspect in a few lines without a traceback.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from inspect_plural.errors import OptionError
from inspect_plural.options import (
    MetricsLevel,
    TaskOption,
    check_options,
    metrics_option,
)
from inspect_plural.scorers import RATING_PRESETS
from inspect_plural.scorers._agreement import ALPHA_LEVELS
from inspect_plural.scorers.ratings import ALPHA_DIMENSIONS
from inspect_plural.solvers.chateval import CHATEVAL_ROLE_SETS, CHATEVAL_STRATEGIES
from inspect_plural.solvers.geval import GEVAL_MODES
from inspect_plural.solvers.rouge import ROUGE_TYPES
from inspect_plural.stakeholders import (
    DEFAULT_PERSONA_SETS,
    PersonaFileError,
    load_personas,
    select_personas,
)
from inspect_plural.structured import structured_option
from inspect_plural.tasks.rating._protocol import PROTOCOLS, Protocol

__all__ = [
    "METHOD_PARAMETERS",
    "RATING_METHOD_NAMES",
    "RATING_METHOD_OPTIONS",
    "RATING_OPTIONS",
    "RatingOptions",
    "check_rating_options",
]

RATING_METHOD_NAMES = ("maj_eval", "geval", "chateval", "rouge_l")
"""Methods selectable with ``-T method=NAME`` on every rating task."""

RATING_OPTIONS: tuple[TaskOption, ...] = (
    TaskOption("method", "maj_eval", choices=RATING_METHOD_NAMES, help="the rating method"),
    TaskOption(
        "protocol",
        "default",
        choices=PROTOCOLS,
        help="default: temperature 0, seeded; paper: the papers' published sampling settings",
    ),
    TaskOption(
        "temperature", None, "float", low=0.0, help="sampling temperature (wins over protocol)"
    ),
    TaskOption("prompts", None, help="folder of replacement prompt templates"),
    metrics_option(),
    TaskOption(
        "metrics_preset",
        "default",
        choices=tuple(RATING_PRESETS),
        help="default: signed correlations; maj_eval: the paper's absolute Spearman tables",
    ),
    TaskOption(
        "correlation",
        None,
        choices=("pooled", "per_item"),
        help="pooled (default): over all outputs; per_item: within each review or story",
    ),
    TaskOption("absolute", None, "bool", help="report absolute correlations"),
    TaskOption("alpha_level", "interval", choices=ALPHA_LEVELS, help="Krippendorff level"),
    TaskOption(
        "alpha_dimensions", "overall", choices=ALPHA_DIMENSIONS, help="alpha on overall or all"
    ),
)
"""Options every rating task takes."""

RATING_METHOD_OPTIONS: tuple[TaskOption, ...] = (
    TaskOption("personas", None, method="maj_eval", help="persona file or shipped set"),
    TaskOption("persona_docs", None, "list", method="maj_eval", help="documents to build from"),
    TaskOption("groups", None, "list", method="maj_eval", help="only these stakeholder groups"),
    TaskOption("n_personas", None, "int", low=1, method="maj_eval", help="personas per group"),
    TaskOption("max_rounds", 3, "int", low=1, method="maj_eval", help="debate rounds at most"),
    TaskOption("simple_roles", False, "bool", method="maj_eval", help="one-line roles ablation"),
    TaskOption("closing_call", False, "bool", method="maj_eval", help="ask still-active personas"),
    structured_option("maj_eval"),
    TaskOption("geval_mode", "auto", choices=GEVAL_MODES, method="geval", help="scoring mode"),
    TaskOption("geval_n", 20, "int", low=1, method="geval", help="samples per dimension"),
    TaskOption("geval_temperature", None, "float", low=0.0, method="geval", help="sampling T"),
    TaskOption("geval_official", False, "bool", method="geval", help="official code's sampling"),
    TaskOption("chateval_strategy", "one_by_one", choices=CHATEVAL_STRATEGIES, method="chateval"),
    TaskOption("chateval_roles", "two", choices=tuple(CHATEVAL_ROLE_SETS), method="chateval"),
    TaskOption("chateval_rounds", 2, "int", low=1, method="chateval", help="discussion rounds"),
    TaskOption("rouge_type", "rougeL", choices=ROUGE_TYPES, method="rouge_l"),
    TaskOption("rouge_stemmer", False, "bool", method="rouge_l", help="Porter stemming"),
)
"""Options of single rating methods (``TaskOption.method``)."""

METHOD_PARAMETERS: dict[str, str] = {
    "geval_mode": "mode",
    "geval_n": "n",
    "geval_temperature": "temperature",
    "geval_official": "official",
    "chateval_strategy": "strategy",
    "chateval_roles": "roles",
    "chateval_rounds": "rounds",
    "rouge_stemmer": "use_stemmer",
}
"""Method options whose solver parameter has another name (the rest: the same name)."""


class RatingOptions(BaseModel):
    """The parsed rating options of one task.

    Attributes:
        method: The rating method.
        protocol: ``default`` or ``paper``.
        temperature: The ``temperature`` option (None: the protocol's).
        prompts: A folder of replacement prompt templates.
        metrics: ``headline`` or ``full``.
        metrics_preset: ``default`` or ``maj_eval``.
        correlation: ``pooled`` or ``per_item`` (the preset's when it fixes one).
        absolute: Absolute correlations (the preset's when it fixes it).
        alpha_level: Krippendorff level.
        alpha_dimensions: ``overall`` or ``all``.
        method_options: The chosen method's options the user gave, by option name.
    """

    model_config = ConfigDict(frozen=True)

    method: str
    protocol: Protocol
    temperature: float | None
    prompts: str | None
    metrics: MetricsLevel
    metrics_preset: str
    correlation: str
    absolute: bool
    alpha_level: str
    alpha_dimensions: str
    method_options: dict[str, Any] = Field(default_factory=dict)


def _given(name: str, given: Mapping[str, Any]) -> bool:
    return given.get(name) is not None


def _check_method(method: str, given: Mapping[str, Any]) -> None:
    for spec in RATING_METHOD_OPTIONS:
        if _given(spec.name, given) and spec.method != method:
            raise OptionError(
                spec.name,
                f"configures method {spec.method}, not {method}",
                f"Add -T method={spec.method}, or drop {spec.name}.",
            )


def _check_preset(preset: str, given: Mapping[str, Any], parsed: Mapping[str, Any]) -> None:
    config = RATING_PRESETS[preset]
    fixed = {"correlation": config.correlation, "absolute": config.absolute}
    for name, value in fixed.items():
        if value is not None and _given(name, given) and parsed[name] != value:
            raise OptionError(
                name,
                f"metrics_preset={preset} fixes {name}={str(value).lower()} "
                f"({config.source}), not {str(parsed[name]).lower()}",
                f"Drop {name}, or use metrics_preset=default.",
            )


def _check_files(parsed: Mapping[str, Any], dataset: str) -> None:
    if parsed["prompts"] is not None and not Path(parsed["prompts"]).is_dir():
        raise OptionError("prompts", f"{parsed['prompts']} is not a folder")
    if parsed["method"] != "maj_eval":
        return
    if parsed["personas"] and parsed["persona_docs"]:
        raise OptionError(
            "persona_docs", "give personas=FILE or persona_docs=..., not both", "Drop one."
        )
    for doc in parsed["persona_docs"] or []:
        if not Path(doc).is_file():
            raise OptionError("persona_docs", f"{doc}: no such file")
    if parsed["persona_docs"]:
        return  # created at run time: groups cannot be checked yet
    source = parsed["personas"] or (dataset if dataset in DEFAULT_PERSONA_SETS else None)
    if source is None:
        return
    try:
        persona_set = load_personas(source)
    except PersonaFileError as ex:
        raise OptionError("personas", str(ex)) from None
    if parsed["groups"]:
        try:
            select_personas(persona_set, groups=parsed["groups"])
        except ValueError as ex:
            raise OptionError("groups", str(ex)) from None


def check_rating_options(
    task: str,
    given: Mapping[str, Any],
    dataset_options: Iterable[TaskOption] = (),
    dataset: str | None = None,
) -> tuple[RatingOptions, dict[str, Any]]:
    """Parse and cross-check a rating task's options; read no data.

    Args:
        task: The task's name, for messages.
        given: Every option as given (explicit parameters and ``**options``).
        dataset_options: The task's own options (``demo``, ``data_dir``, ...).
        dataset: The dataset name, whose shipped persona set ``groups`` is checked
            against (default: ``task``).

    Returns:
        The rating options, and every option's parsed value by name (the dataset's
        own included; defaults where not given).

    Raises:
        OptionError: An unknown option, a bad value, an option of another method, an
            option the preset fixes, or a persona file, document, group or prompt
            folder that does not exist.
    """
    specs = [*dataset_options, *RATING_OPTIONS, *RATING_METHOD_OPTIONS]
    parsed = check_options(task, specs, given)
    method = str(parsed["method"])
    _check_method(method, given)
    preset = str(parsed["metrics_preset"])
    _check_preset(preset, given, parsed)
    if (
        _given("geval_official", given)
        and parsed["geval_official"]
        and parsed["geval_mode"] == "logprobs"
    ):
        raise OptionError(
            "geval_official",
            "samples (the official code reads no logprobs), so it cannot run with "
            "geval_mode=logprobs",
            "Drop one of them.",
        )
    _check_files(parsed, dataset or task)
    config = RATING_PRESETS[preset]
    correlation = config.correlation or parsed["correlation"] or "pooled"
    absolute = config.absolute if config.absolute is not None else bool(parsed["absolute"])
    options = RatingOptions(
        method=method,
        protocol=parsed["protocol"],
        temperature=parsed["temperature"],
        prompts=parsed["prompts"],
        metrics=parsed["metrics"],
        metrics_preset=preset,
        correlation=correlation,
        absolute=absolute,
        alpha_level=parsed["alpha_level"],
        alpha_dimensions=parsed["alpha_dimensions"],
        method_options={
            spec.name: parsed[spec.name]
            for spec in RATING_METHOD_OPTIONS
            if spec.method == method and _given(spec.name, given)
        },
    )
    return options, parsed
