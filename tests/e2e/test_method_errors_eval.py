"""Annotator-level methods refused before any model call: unknown methods, options of
another method, settings that cannot work, bogus answer formats."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval

from inspect_plural.tasks import perspective
from inspect_plural.tasks.annotator._options import METHOD_OPTIONS, METHODS

pytestmark = pytest.mark.e2e


# --------------------------------------------------------------------------- errors


def test_unknown_method_is_refused_by_name() -> None:
    with pytest.raises(
        ValueError, match=r"option method: 'movie_critic' is not one of .*cinemetric"
    ):
        perspective.brexit(demo=True, method="movie_critic")


@pytest.mark.parametrize("option", sorted(METHOD_OPTIONS))
def test_option_of_another_method_is_refused(option: str) -> None:
    spec = METHOD_OPTIONS[option]
    other = {
        "cinemetric": "trait_ensemble",
        "trait_ensemble": "retrieval_examples",
        "retrieval_examples": "cinemetric",
        "distribution_judge": "llm_judge",
        "stakeholder_panel": "llm_judge",
    }[spec.method]
    # None is "not given": give a value of the option's kind
    value = spec.default if spec.default is not None else (2 if spec.kind == "int" else "group")
    if spec.default is None and spec.choices:
        value = spec.choices[0]  # a value the option accepts
    with pytest.raises(
        ValueError, match=rf"option {option}: configures method {spec.method}, not {other}"
    ):
        perspective.brexit(demo=True, method=other, **{option: value})


def test_option_of_another_method_is_refused_through_eval(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError, match="option character_names: configures method cinemetric, not llm"
    ):
        eval(
            "inspect_plural/brexit",
            task_args={"demo": True, "method": "llm_judge", "character_names": False},
            model="plural/random",
            log_dir=str(tmp_path),
            display="none",
        )
    assert not list(tmp_path.glob("*.eval"))  # refused before any sample ran


def test_retrieval_without_examples_is_refused() -> None:
    with pytest.raises(ValueError, match=r"retrieval_examples needs .*adaptation=none"):
        perspective.brexit(
            demo=True, method="retrieval_examples", split="perseval", adaptation="none", named=True
        )


IMPOSSIBLE = [
    pytest.param(
        "md_agreement",
        {"method": "cinemetric", "training_examples": False},
        "training_examples=false selects characters from traits alone: it needs named=true",
        id="cinemetric-traits-only-unnamed",
    ),
    pytest.param(
        "epic",
        {"method": "personalized_judge", "named": False},
        "personalized_judge shows the annotator's traits: it needs named=true",
        id="personalized-judge-unnamed",
    ),
    pytest.param(
        "epic",
        {"method": "trait_ensemble", "named": False},
        "trait_ensemble impersonates the annotator's own traits: it needs named=true",
        id="trait-ensemble-own-unnamed",
    ),
    pytest.param(
        "epic",
        {"method": "trait_ensemble", "trait_scope": "everyone"},
        "option trait_scope: 'everyone' is not one of own, all",
        id="trait-scope-bogus",
    ),
    pytest.param(
        "brexit",
        {"method": "cinemetric", "n_personas": 6},
        "n_personas <= n_candidates",
        id="cinemetric-panel-larger-than-candidates",
    ),
    pytest.param(
        "brexit",
        {"method": "retrieval_examples", "retrieval_k": 0},
        "option retrieval_k: must be at least 1, not 0",
        id="retrieval-k-zero",
    ),
]


@pytest.mark.parametrize(("task", "options", "message"), IMPOSSIBLE)
def test_impossible_method_settings_fail_before_any_call(
    task: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        getattr(perspective, task)(demo=True, **options)


@pytest.mark.parametrize("method", list(METHODS))
def test_bogus_answer_format_is_refused(method: str) -> None:
    with pytest.raises(ValueError, match=r"option answer_format: 'bogus' is not one of"):
        perspective.brexit(demo=True, method=method, answer_format="bogus")
