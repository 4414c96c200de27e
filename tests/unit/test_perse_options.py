"""The options of ``per_mpst`` and ``per_doc``: declared, checked before data, never ignored.

Every failure here is an :class:`~inspect_plural.errors.OptionError` naming the option
(Inspect prints it without a traceback). Tasks are built with a data folder that does
not exist wherever the option check must come first: a data error would mean the data
was read before the options were checked.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from inspect_ai._util.registry import registry_info

from inspect_plural.errors import OptionError, UserError
from inspect_plural.tasks.perse import per_doc, per_mpst
from inspect_plural.tasks.perse._options import (
    PER_DOC_OPTIONS,
    PER_MPST_OPTIONS,
    check_perse_options,
    generate_settings,
)

MISSING = "/nonexistent/perse-data"
"""A data folder that does not exist: reading it would raise a data error."""

TASKS: dict[str, Callable[..., Any]] = {"per_mpst": per_mpst, "per_doc": per_doc}
SPECS = {"per_mpst": PER_MPST_OPTIONS, "per_doc": PER_DOC_OPTIONS}


def _fails(build: Callable[[], Any], option: str, problem: str = "") -> OptionError:
    with pytest.raises(OptionError) as caught:
        build()
    assert caught.value.option == option
    assert str(caught.value).startswith(f"option {option}: ")
    assert re.search(problem, str(caught.value)), str(caught.value)
    assert len(str(caught.value).splitlines()) <= 10
    return caught.value


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_parameter_is_a_declared_option(task: str) -> None:
    parameters = {
        name
        for name, p in inspect.signature(TASKS[task]).parameters.items()
        if p.kind is not inspect.Parameter.VAR_KEYWORD
    }
    assert parameters == {spec.name for spec in SPECS[task]}
    # the signature's defaults are the declared ones (the log's task_args show them);
    # a method option defaults to None, so it is given exactly when it is not None
    defaults = {n: p.default for n, p in inspect.signature(TASKS[task]).parameters.items()}
    for spec in SPECS[task]:
        assert defaults[spec.name] == spec.default, spec.name
        if spec.method:
            assert spec.default is None, spec.name


@pytest.mark.parametrize(
    ("task", "given", "suggested"),
    [
        ("per_mpst", {"kk": 3}, "did you mean k?"),
        ("per_mpst", {"shuffle_review": 3}, "did you mean shuffle_reviews"),
        ("per_mpst", {"metric": "full"}, "did you mean metrics"),
        ("per_doc", {"both_order": True}, "did you mean both_orders?"),
        ("per_doc", {"aspect": "I"}, "did you mean aspects"),
    ],
)
def test_unknown_options_suggest_the_closest_before_any_data_is_read(
    task: str, given: dict[str, Any], suggested: str
) -> None:
    [name] = given
    error = _fails(lambda: TASKS[task](data_dir=MISSING, **given), name, "not an option of")
    assert suggested in str(error)


@pytest.mark.parametrize(
    ("task", "option", "value", "problem"),
    [
        ("per_mpst", "k", "abc", "must be an integer, not 'abc'"),
        ("per_mpst", "k", -1, "must be at least 0"),
        ("per_mpst", "shuffle_reviews", 0, "must be at least 1"),
        ("per_mpst", "review_content", "maybe", "must be true or false"),
        ("per_mpst", "valid_fraction", 0, r"must be in \(0, 1\]"),
        ("per_mpst", "valid_fraction", 1.5, "must be at most 1"),
        ("per_mpst", "metrics", "all", "'all' is not one of headline, full"),
        ("per_mpst", "protocol", "papers", "did you mean paper?"),
        ("per_mpst", "metrics_preset", "paper", "is not one of default, perse"),
        ("per_mpst", "method", "oracle", "is not one of perse_review"),
        ("per_mpst", "temperature", "hot", "must be a number"),
        ("per_mpst", "split", "random", "is not one of auto, seeded, release, all"),
        ("per_doc", "method", "perse_review", "is not one of perse_aspect, prior_average"),
        ("per_doc", "both_orders", "perhaps", "must be true or false"),
        ("per_doc", "aspects", "humour", "unknown Per-DOC aspect 'humour'"),
        ("per_doc", "max_tokens", 0, "must be at least 1"),
    ],
)
def test_bad_values_name_the_option_before_any_data_is_read(
    task: str, option: str, value: Any, problem: str
) -> None:
    _fails(lambda: TASKS[task](data_dir=MISSING, **{option: value}), option, problem)


def _method_options() -> list[tuple[str, str, str]]:
    cases = []
    for task, specs in SPECS.items():
        methods = next(s for s in specs if s.name == "method").choices or ()
        for spec in specs:
            if spec.method:
                other = next(m for m in methods if m not in (spec.method, "matrix_factorization"))
                cases.append((task, spec.name, other))
    return cases


@pytest.mark.parametrize(("task", "option", "method"), _method_options())
def test_an_option_of_another_method_is_refused(task: str, option: str, method: str) -> None:
    spec = next(s for s in SPECS[task] if s.name == option)
    value = {"bool": True, "int": 3, "float": 0.5, "str": "x", "list": "I"}[spec.kind]
    if spec.choices:
        value = spec.choices[-1]
    _fails(
        lambda: TASKS[task](data_dir=MISSING, method=method, **{option: value}),
        option,
        f"configures method {spec.method}, not {method}",
    )


def test_every_method_option_is_checked() -> None:
    assert {o for _, o, _ in _method_options()} == {
        "temperature",
        "max_tokens",
        "prompts",
        "review_words",
        "review_content",
        "shuffle_reviews",
        "mf_factors",
        "mf_reg",
        "both_orders",
        "structured",
    }


@pytest.mark.parametrize(
    ("build", "option", "problem"),
    [
        (lambda: per_mpst(data_dir=MISSING, k=1, shuffle_reviews=3), "shuffle_reviews", "k=1"),
        (lambda: per_mpst(data_dir=MISSING, k=0, shuffle_reviews=3), "shuffle_reviews", "k=0"),
        (lambda: per_mpst(data_dir=MISSING, k=0, review_content=False), "review_content", "k=0"),
        (
            lambda: per_mpst(data_dir=MISSING, review_content=False, review_words=50),
            "review_words",
            "review_content=false",
        ),
        (
            lambda: per_mpst(data_dir=MISSING, protocol="paper", temperature=0.2),
            "temperature",
            "protocol=paper sets temperature 0.8",
        ),
        (
            lambda: per_doc(data_dir=MISSING, protocol="paper", max_tokens=100),
            "max_tokens",
            "protocol=paper sets max_tokens 600",
        ),
        (
            lambda: per_mpst(data_dir=MISSING, method="matrix_factorization", split="all"),
            "split",
            "no training reviewers",
        ),
        (lambda: per_mpst(data_dir=MISSING, demo=True), "data_dir", "not both"),
        (
            lambda: per_doc(data_dir=MISSING, method="matrix_factorization"),
            "method",
            "cannot apply to pairwise",
        ),
        (lambda: per_mpst(data_dir=MISSING, prompts=MISSING), "prompts", "folder not found"),
    ],
)
def test_contradicting_options_are_refused(
    build: Callable[[], Any], option: str, problem: str
) -> None:
    _fails(build, option, problem)


def test_a_prompt_folder_is_checked_for_the_templates_the_run_uses(tmp_path: Path) -> None:
    (tmp_path / "perse_review_zero_shot.txt").write_text("{plot} {history}", encoding="utf-8")
    _fails(lambda: per_mpst(data_dir=MISSING, k=0, prompts=str(tmp_path)), "prompts", "fields")
    # the k = 3 run does not use that template: the folder passes, the data is then read
    with pytest.raises(UserError, match="perse-data does not exist"):
        per_mpst(data_dir=MISSING, prompts=str(tmp_path))
    (tmp_path / "perse_aspect.txt").write_text("{aspect}", encoding="utf-8")
    _fails(lambda: per_doc(data_dir=MISSING, prompts=str(tmp_path)), "prompts", "required")


def test_good_options_reach_the_data() -> None:
    with pytest.raises(UserError, match="perse-data does not exist"):
        per_mpst(data_dir=MISSING, k=0, metrics="full", protocol="paper", seed=7)
    with pytest.raises(UserError, match="perse-data does not exist"):
        per_doc(data_dir=MISSING, aspects="I,S", both_orders=True, metrics_preset="perse")


def test_parsed_options_take_yaml_and_python_values() -> None:
    options = check_perse_options(
        "per_mpst", {"k": "0", "review_words": 40.0, "demo": "yes", "seed": "7"}
    )
    assert options["k"] == 0 and options["review_words"] == 40
    assert options["demo"] is True and options["seed"] == 7
    assert options["method"] == "perse_review" and options["metrics"] == "headline"
    assert options["protocol"] == "default" and options["shuffle_reviews"] is None
    doc = check_perse_options("per_doc", {"aspects": "ending, I"})
    assert doc["aspects"] == ["interestingness", "ending"]  # resolved, in the paper's order


def test_generate_settings_of_each_protocol() -> None:
    default = generate_settings("default", None, None, 42)
    assert (default.temperature, default.max_tokens, default.seed) == (0.0, 600, 42)
    assert default.source == "protocol=default (deterministic)"
    paper = generate_settings("paper", None, None, 3)
    assert (paper.temperature, paper.max_tokens, paper.seed) == (0.8, 600, 3)
    assert "PERSE §4.2" in paper.source
    tuned = generate_settings("default", 0.0, 50, 1)  # 0.0 is given, not absent
    assert (tuned.temperature, tuned.max_tokens) == (0.0, 50)
    assert tuned.source.endswith("changed by -T temperature, max_tokens")
    config = paper.config()
    assert (config.temperature, config.max_tokens, config.seed) == (0.8, 600, 3)


@pytest.mark.parametrize(
    ("build", "method", "method_options", "generate"),
    [
        (
            lambda: per_mpst(demo=True),
            "perse_review",
            {
                "review_words": 150,
                "review_content": True,
                "shuffle_reviews": None,
                "prompts": None,
                "structured": False,
            },
            {"temperature": 0.0, "max_tokens": 600, "seed": 42},
        ),
        (
            lambda: per_mpst(demo=True, protocol="paper", shuffle_reviews=3, review_content=False),
            "perse_review",
            {
                "review_words": 150,
                "review_content": False,
                "shuffle_reviews": 3,
                "prompts": None,
                "structured": False,
            },
            {"temperature": 0.8, "max_tokens": 600, "seed": 42},
        ),
        (
            lambda: per_mpst(demo=True, method="matrix_factorization", mf_reg=1.0),
            "matrix_factorization",
            {"mf_factors": 10, "mf_reg": 1.0},
            None,
        ),
        (
            lambda: per_doc(demo=True, both_orders=True, protocol="paper", metrics="full"),
            "perse_aspect",
            {"both_orders": True, "prompts": None, "structured": False},
            {"temperature": 0.8, "max_tokens": 600, "seed": 42},
        ),
        (lambda: per_doc(demo=True, method="prior_average"), "prior_average", {}, None),
    ],
)
def test_the_metadata_records_the_method_its_options_protocol_and_metrics(
    build: Callable[[], Any],
    method: str,
    method_options: dict[str, Any],
    generate: dict[str, Any] | None,
) -> None:
    task = build()
    metadata = task.metadata
    assert registry_info(task.solver).name == f"inspect_plural/{method}"
    assert "method" not in metadata and metadata["method_options"] == method_options
    assert metadata["protocol"] == ("paper" if generate and generate["temperature"] else "default")
    assert metadata["metrics_preset"] == "default"
    assert metadata["metrics"] in ("headline", "full")
    if generate is None:
        assert metadata["generate"] is None and task.config.temperature is None
    else:
        applied = {k: metadata["generate"][k] for k in generate}
        assert applied == generate
        assert task.config.temperature == generate["temperature"]
        assert task.config.max_tokens == generate["max_tokens"]
        assert task.config.seed == generate["seed"]
    shuffles = method_options.get("shuffle_reviews") or 1
    assert task.epochs == shuffles
