"""Every method passes the task's sampling settings on every call, whatever model answers.

A model given with ``--model-role judge=...`` (or ``persona_builder``, ``persona``,
``moderator``, ``aggregator``, ``referee``, ``summarizer``) does not inherit the task's
``GenerateConfig``: Inspect merges the task's config into the *evaluated* model's calls
only. So each method passes its temperature, token cap and seed explicitly; this test
runs every method with every role played by a separate model and reads the config of
each call from the log's model events.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai import eval
from tests.conftest import FAST_LOG, log_samples, model_events, scripted_model

from inspect_plural.solvers.geval import DEFAULT_TEMPERATURE as GEVAL_TEMPERATURE

pytestmark = pytest.mark.e2e

ROLES = (
    "judge",
    "persona_builder",
    "persona",
    "moderator",
    "aggregator",
    "referee",
    "summarizer",
)

CASES: list[tuple[str, dict[str, Any], float]] = [
    ("brexit", {"method": "llm_judge"}, 0.0),
    ("brexit", {"method": "personalized_judge"}, 0.0),
    ("brexit", {"method": "cinemetric"}, 0.0),
    ("brexit", {"method": "trait_ensemble"}, 0.0),
    ("brexit", {"method": "retrieval_examples"}, 0.0),
    ("brexit", {"method": "cinemetric", "protocol": "paper"}, 1.0),
    ("brexit", {"method": "llm_judge", "temperature": 0.3}, 0.3),
    ("personaeval_literary", {}, 0.0),
    ("personaeval_literary", {"self_consistency": 3}, 0.7),
    ("mslr_cochrane", {"method": "maj_eval", "max_rounds": 1}, 0.0),
    ("mslr_cochrane", {"method": "chateval"}, 0.0),
    # G-Eval samples n answers by design, at its own temperature (geval_temperature)
    ("mslr_cochrane", {"method": "geval", "geval_mode": "sampling"}, GEVAL_TEMPERATURE),
    ("per_mpst", {"method": "perse_review"}, 0.0),
    ("per_mpst", {"method": "perse_review", "protocol": "paper"}, 0.8),
    ("per_doc", {"method": "perse_aspect"}, 0.0),
]


@pytest.mark.parametrize(("task", "options", "temperature"), CASES)
def test_every_call_carries_the_tasks_settings_under_model_roles(
    task: str, options: dict[str, Any], temperature: float, tmp_path: Path
) -> None:
    [log] = eval(
        f"inspect_plural/{task}",
        task_args={"demo": True, **options},
        model="plural/random",
        model_roles={role: "plural/random" for role in ROLES},
        limit=2,
        epochs=1,
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    events = [e for s in log_samples(log) for e in model_events(s)]
    assert events, "no model call was made"
    for event in events:
        config = event.config
        assert event.role in ROLES, f"{event.role}: a call outside the roles"
        assert config.temperature == pytest.approx(temperature), (event.role, config)
        assert config.max_tokens is not None, (event.role, config)


def test_an_unbound_role_is_the_evaluated_model_named_by_its_role(tmp_path: Path) -> None:
    """role_model's explicit fallback: the evaluated model answers, and the log says as what."""
    [log] = eval(
        "inspect_plural/brexit",
        task_args={"demo": True, "method": "llm_judge"},
        model="plural/random",
        limit=2,
        epochs=1,
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    calls = [(e.role, str(e.model)) for s in log_samples(log) for e in model_events(s)]
    assert calls == [("judge", "plural/random")] * 2
    assert log.stats.role_usage.keys() == {"judge"}


def test_a_bound_role_answers_instead_of_the_evaluated_model(tmp_path: Path) -> None:
    [log] = eval(
        "inspect_plural/brexit",
        task_args={"demo": True, "method": "llm_judge"},
        model="plural/random",
        model_roles={"judge": scripted_model(["1", "0"])},
        limit=2,
        epochs=1,
        log_dir=str(tmp_path),
        display="none",
        **FAST_LOG,
    )
    assert log.status == "success", log.error
    calls = [(e.role, str(e.model)) for s in log_samples(log) for e in model_events(s)]
    assert calls == [("judge", "mockllm/model")] * 2
    assert log.eval.model_roles is not None and log.eval.model_roles.keys() == {"judge"}
