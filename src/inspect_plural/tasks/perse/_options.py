"""The ``-T`` options of ``per_mpst`` and ``per_doc``, their checks, and the sampling protocols.

Every option is a :class:`~inspect_plural.options.TaskOption`; the tasks check
what they were given with :func:`check_perse_options` before they read any data. An
option that configures one method fails, naming it, when another method runs; an
option whose effect another option removes (``review_words`` with
``review_content=false``, ``shuffle_reviews`` with fewer than two prior reviews) fails
too, so nothing a user asks for is silently ignored.

``protocol`` chooses the generation settings of the LLM methods:

- ``default``: deterministic, temperature 0, seeded, at most 600 new tokens;
- ``paper``: PERSE's published sampling, temperature 0.8 and at most 600 new tokens
  (§4.2: "For inference, we set the temperature to 0.8 and limit the maximum generation
  length to 600"), seeded. The released ``src/inference.py`` also defaults to
  temperature 0.8, with ``max_new_tokens`` 512.

``temperature`` and ``max_tokens`` adjust the ``default`` protocol; with ``paper`` they
are refused (the run would no longer be the paper's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from inspect_ai.model import GenerateConfig
from inspect_ai.solver import Solver
from pydantic import BaseModel, ConfigDict

from inspect_plural.errors import OptionError
from inspect_plural.options import TaskOption, check_options, metrics_option
from inspect_plural.prompts import PromptTemplateError, load_template
from inspect_plural.scorers.personal import PERSONAL_PRESETS
from inspect_plural.solvers.perse import (
    ASPECT_FIELDS,
    ASPECT_TEMPLATE,
    perse_aspect,
    perse_review,
    review_template,
)
from inspect_plural.solvers.perse._baselines import (
    PAIRWISE_UNSUPPORTED,
    matrix_factorization,
    prior_average,
)
from inspect_plural.sources.perse import SPLIT_MODES, resolve_aspects
from inspect_plural.structured import structured_option

__all__ = [
    "DEFAULT_SEED",
    "LLM_METHODS",
    "PER_DOC_METHODS",
    "PER_DOC_OPTIONS",
    "PER_MPST_METHODS",
    "PER_MPST_OPTIONS",
    "PROTOCOLS",
    "GenerateSettings",
    "Protocol",
    "check_perse_options",
    "generate_settings",
    "given_options",
    "method_settings",
]

DEFAULT_SEED = 42

Protocol = Literal["default", "paper"]
PROTOCOLS: tuple[Protocol, ...] = ("default", "paper")
"""Values of the ``protocol`` option."""

PER_MPST_METHODS: dict[str, Callable[..., Solver]] = {
    "perse_review": perse_review,
    "prior_average": prior_average,
    "matrix_factorization": matrix_factorization,
}
"""Methods of ``per_mpst`` (``-T method=NAME``)."""
PER_DOC_METHODS: dict[str, Callable[..., Solver]] = {
    "perse_aspect": perse_aspect,
    "prior_average": prior_average,
}
"""Methods of ``per_doc`` (``-T method=NAME``)."""
LLM_METHODS = frozenset({"perse_review", "perse_aspect"})
"""The methods that call a model (the others make no call, so no protocol applies)."""


class GenerateSettings(BaseModel):
    """The generation settings a run applies on every model call, and where they come from.

    Attributes:
        temperature: Sampling temperature.
        max_tokens: Most new tokens.
        seed: Generation seed.
        source: Why these values (the protocol, or the options that changed them).
    """

    model_config = ConfigDict(frozen=True)

    temperature: float
    max_tokens: int
    seed: int
    source: str

    def config(self) -> GenerateConfig:
        """The settings as Inspect's generate config (passed explicitly on every call)."""
        return GenerateConfig(
            temperature=self.temperature, max_tokens=self.max_tokens, seed=self.seed
        )


PAPER_SOURCE = (
    "PERSE §4.2 (temperature 0.8, at most 600 generated tokens); the released "
    "src/inference.py also samples at 0.8 (max_new_tokens 512)"
)
DEFAULT_TEMPERATURE = 0.0
PAPER_TEMPERATURE = 0.8
MAX_TOKENS = 600


def generate_settings(
    protocol: Protocol, temperature: float | None, max_tokens: int | None, seed: int
) -> GenerateSettings:
    """The generation settings of a run of an LLM method.

    Args:
        protocol: ``default`` or ``paper`` (module docstring).
        temperature: The ``temperature`` option (None: the protocol's).
        max_tokens: The ``max_tokens`` option (None: the protocol's).
        seed: The task's seed.

    Returns:
        The settings.

    Raises:
        OptionError: ``temperature`` or ``max_tokens`` with ``protocol=paper``.
    """
    if protocol == "paper":
        for name, value, paper in (
            ("temperature", temperature, PAPER_TEMPERATURE),
            ("max_tokens", max_tokens, MAX_TOKENS),
        ):
            if value is not None:
                raise OptionError(
                    name,
                    f"protocol=paper sets {name} {paper:g} (PERSE §4.2)",
                    f"drop -T {name}, or -T protocol=paper to set it yourself",
                )
        return GenerateSettings(
            temperature=PAPER_TEMPERATURE, max_tokens=MAX_TOKENS, seed=seed, source=PAPER_SOURCE
        )
    changed = [
        n for n, v in (("temperature", temperature), ("max_tokens", max_tokens)) if v is not None
    ]
    return GenerateSettings(
        temperature=DEFAULT_TEMPERATURE if temperature is None else float(temperature),
        max_tokens=MAX_TOKENS if max_tokens is None else int(max_tokens),
        seed=seed,
        source="protocol=default (deterministic)"
        + (f", changed by -T {', '.join(changed)}" if changed else ""),
    )


def _shared(llm_method: str) -> list[TaskOption]:
    return [
        TaskOption("data_dir", None, "str", help="folder with the release's JSON-lines files"),
        TaskOption("demo", False, "bool", help="the demo rows written for this package"),
        TaskOption("split", "auto", "str", choices=SPLIT_MODES, help="reviewer split"),
        TaskOption(
            "valid_fraction", 0.1, "float", low=0.0, high=1.0, help="share of reviewers held out"
        ),
        TaskOption(
            "metrics_preset",
            "default",
            "str",
            choices=tuple(PERSONAL_PRESETS),
            help="perse: the official get_score.py/get_comparison.py rules",
        ),
        metrics_option(),
        TaskOption("protocol", "default", "str", choices=PROTOCOLS, help="generation settings"),
        TaskOption("temperature", None, "float", low=0.0, method=llm_method),
        TaskOption("max_tokens", None, "int", low=1, method=llm_method),
        TaskOption("prompts", None, "str", method=llm_method, help="replacement templates"),
        structured_option(llm_method, default=None),
        TaskOption("seed", DEFAULT_SEED, "int", help="split, baselines and generation"),
    ]


PER_MPST_OPTIONS: tuple[TaskOption, ...] = (
    *_shared("perse_review"),
    TaskOption("k", 3, "int", low=0, help="prior reviews per sample (0: zero-shot)"),
    TaskOption("method", "perse_review", "str", choices=tuple(PER_MPST_METHODS)),
    TaskOption("review_words", None, "int", low=1, method="perse_review"),
    TaskOption(
        "review_content",
        None,
        "bool",
        method="perse_review",
        help="false: prior plots with scores only (the paper's w/o review content)",
    ),
    TaskOption(
        "shuffle_reviews",
        None,
        "int",
        low=1,
        method="perse_review",
        help="N epochs, each showing the prior reviews in a seeded shuffled order",
    ),
    TaskOption("mf_factors", None, "int", low=0, method="matrix_factorization"),
    TaskOption("mf_reg", None, "float", low=0.0, method="matrix_factorization"),
)
"""The options of ``per_mpst``."""

PER_DOC_OPTIONS: tuple[TaskOption, ...] = (
    *_shared("perse_aspect"),
    TaskOption("aspects", None, "list", help="I,A,S,C,E or names (default: all five)"),
    TaskOption("method", "perse_aspect", "str", choices=(*PER_DOC_METHODS, "matrix_factorization")),
    TaskOption("both_orders", None, "bool", method="perse_aspect"),
)
"""The options of ``per_doc`` (``matrix_factorization`` is a choice only to be refused
with the paper's reason)."""


def _method_fit(specs: Sequence[TaskOption], given: Mapping[str, Any], method: str) -> None:
    for spec in specs:
        if spec.method and spec.method != method and given.get(spec.name) is not None:
            raise OptionError(
                spec.name,
                f"configures method {spec.method}, not {method}",
                f"drop it, or run -T method={spec.method}",
            )


def _check_prompts(folder: str, templates: Sequence[Callable[[], str]]) -> None:
    if not Path(folder).is_dir():
        raise OptionError("prompts", f"folder not found: {folder}")
    for load in templates:
        try:
            load()
        except PromptTemplateError as ex:
            raise OptionError("prompts", str(ex)) from None


def _check_mpst(options: dict[str, Any], given: Mapping[str, Any]) -> None:
    k, method = int(options["k"]), str(options["method"])
    content = options["review_content"] is not False
    if options["shuffle_reviews"] is not None and k < 2:
        raise OptionError("shuffle_reviews", f"needs k of at least 2 to shuffle, not k={k}")
    if not content and k == 0:
        raise OptionError("review_content", "k=0 shows no prior review to strip")
    if not content and given.get("review_words") is not None:
        raise OptionError("review_words", "review_content=false shows no review text")
    if method == "matrix_factorization" and options["split"] == "all":
        raise OptionError(
            "split", "split=all leaves no training reviewers for matrix_factorization"
        )
    if method == "perse_review" and options["prompts"] is not None:
        folder = str(options["prompts"])
        _check_prompts(folder, [lambda: review_template(k, content, folder)])


def _check_doc(options: dict[str, Any]) -> None:
    if options["method"] == "matrix_factorization":
        raise OptionError("method", PAIRWISE_UNSUPPORTED)
    try:
        options["aspects"] = resolve_aspects(options["aspects"])
    except ValueError as ex:
        raise OptionError("aspects", str(ex)) from None
    if options["method"] == "perse_aspect" and options["prompts"] is not None:
        folder = str(options["prompts"])
        _check_prompts(
            folder,
            [lambda: load_template(ASPECT_TEMPLATE, ASPECT_FIELDS, ASPECT_FIELDS, folder)],
        )


def check_perse_options(task: str, given: Mapping[str, Any]) -> dict[str, Any]:
    """Check and parse every option given to ``per_mpst`` or ``per_doc``, reading no data.

    Args:
        task: ``per_mpst`` or ``per_doc``.
        given: The options as given (explicit parameters left at None are not given).

    Returns:
        Every option: parsed where given, its default otherwise (``aspects`` resolved
        to keys for ``per_doc``).

    Raises:
        OptionError: An unknown option (with the closest names), a bad value, an option
            of another method, or options that contradict each other.
    """
    specs = PER_MPST_OPTIONS if task == "per_mpst" else PER_DOC_OPTIONS
    options = check_options(task, specs, given)
    if not 0 < options["valid_fraction"] <= 1:
        raise OptionError("valid_fraction", f"must be in (0, 1], not {options['valid_fraction']}")
    if options["demo"] and options["data_dir"] is not None:
        raise OptionError("data_dir", "use either demo=true or data_dir, not both")
    _method_fit(specs, given, str(options["method"]))
    if task == "per_mpst":
        _check_mpst(options, given)
    else:
        _check_doc(options)
    return options


def given_options(explicit: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The options a caller gave: explicit parameters not left at None, and the rest.

    Method options default to None (their value depends on the method and protocol),
    so a method option is given exactly when it is not None.
    """
    named = {k: v for k, v in explicit.items() if k != "options" and v is not None}
    return {**named, **options}


def method_settings(method: str, options: dict[str, Any]) -> GenerateSettings | None:
    """The generation settings of the method's run (None for a method without calls)."""
    if method not in LLM_METHODS:
        return None
    return generate_settings(
        options["protocol"], options["temperature"], options["max_tokens"], options["seed"]
    )
