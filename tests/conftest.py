"""Shared fixtures. Nothing here touches the network."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from inspect_ai.log import EvalLog, EvalSample
from inspect_ai.model import GenerateConfig, Model, ModelAPI, ModelOutput, ModelUsage, get_model

from inspect_plural.records import RoleCandidate, RoleItem
from inspect_plural.scorers._values import values_of
from inspect_plural.sources._once import forget_data_warnings
from inspect_plural.sources.personaeval import write_personaeval_csv

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("INSPECT_LOG_LEVEL", "warning")

# Property tests draw the same examples on every run, so CI cannot go red on a draw no
# one has seen; ``HYPOTHESIS_PROFILE=explore`` draws fresh ones (and keeps failures in
# .hypothesis/ to replay). ``python -m benchmarks fuzz`` covers 10,000 seeded outputs
# per parser besides.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

SHARED_DATA = Path(
    os.environ.get("INSPECT_PLURAL_SHARED_DATA")
    or Path(__file__).resolve().parents[2] / "shared" / "data"
)
"""The real data beside the repository (``../shared/data``); a git worktree elsewhere
points at it with ``$INSPECT_PLURAL_SHARED_DATA``. Tests that need it skip without it."""
PLUGIN_EXAMPLE = Path(__file__).resolve().parent / "plugin_example"
"""An example third-party package with a dataset adapter and its own task."""


@pytest.fixture(autouse=True, scope="session")
def _logs_outside_the_repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Evals that name no log dir write to a temporary folder, never the repository's logs/."""
    previous = os.environ.get("INSPECT_LOG_DIR")
    os.environ["INSPECT_LOG_DIR"] = str(tmp_path_factory.mktemp("inspect_logs"))
    yield
    if previous is None:
        os.environ.pop("INSPECT_LOG_DIR", None)
    else:
        os.environ["INSPECT_LOG_DIR"] = previous


@pytest.fixture(autouse=True)
def _persona_cache_per_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test gets an empty ``$INSPECT_PLURAL_CACHE``: persona sets and CINEMETRIC
    panels stored by one test (or by a user's earlier runs) never serve another."""
    monkeypatch.setenv("INSPECT_PLURAL_CACHE", str(tmp_path / "plural-cache"))


@pytest.fixture(autouse=True)
def _data_warnings_per_test() -> None:
    """Each test sees a loader's warnings afresh (a process says each one once)."""
    forget_data_warnings()


@pytest.fixture(scope="session")
def toy_plugin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Install the example plugin package (offline) into a temporary folder on sys.path.

    pip builds it with the environment's setuptools (``--no-build-isolation``, a dev
    dependency) and installs it with its entry points, as a user's ``pip install`` would;
    ``--no-index --no-deps`` keeps it offline. The folder leaves sys.path afterwards.
    """
    # Inspect namespaces a task by its package only for code under a site-packages folder
    target = tmp_path_factory.mktemp("plugin") / "site-packages"
    # a copy, so that the build's by-products never land in the repository
    source = shutil.copytree(PLUGIN_EXAMPLE, tmp_path_factory.mktemp("plugin_src") / "src")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
        check=False,
    )
    assert result.returncode == 0, f"installing the example plugin failed:\n{result.stderr}"
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    yield target
    sys.path.remove(str(target))
    for name in [m for m in sys.modules if m == "plural_toy" or m.startswith("plural_toy.")]:
        del sys.modules[name]
    importlib.invalidate_caches()


class ScriptedModelAPI(ModelAPI):
    """Base of the tests' scripted model APIs: the constructor Inspect calls, no credentials.

    Subclasses implement ``generate`` and may set ``connections`` (the provider's
    ``max_connections``; None keeps Inspect's default).
    """

    connections: int | None = None

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 (the ModelAPI convention)
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)

    def max_connections(self) -> int:
        return self.connections if self.connections is not None else super().max_connections()

    def reply(self, content: str, input_tokens: int = 10, output_tokens: int = 5) -> ModelOutput:
        """An answer of this model, with usage set (:func:`offline_output`)."""
        return offline_output(content, self.model_name, input_tokens, output_tokens)


def offline_output(
    content: str, model: str = "mockllm/model", input_tokens: int = 10, output_tokens: int = 5
) -> ModelOutput:
    """A scripted answer with its usage set: without usage, Inspect counts the tokens with
    tiktoken, which downloads its encoding (nothing may download in tests)."""
    output = ModelOutput.from_content(model=model, content=content)
    output.usage = ModelUsage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=input_tokens + output_tokens,
    )
    return output


def scripted_model(answers: list[str], input_tokens: int = 10, output_tokens: int = 5) -> Model:
    """Inspect's ``mockllm/model`` giving ``answers`` in order (:func:`offline_output`)."""
    outputs = [offline_output(a, "mockllm/model", input_tokens, output_tokens) for a in answers]
    return get_model("mockllm/model", custom_outputs=outputs, memoize=False)


FAST_LOG: dict[str, Any] = {"log_realtime": False, "log_buffer": 1000}
"""eval() options that keep end-to-end tests fast (the log is written once, at the end)."""


def log_samples(log: EvalLog) -> list[EvalSample]:
    """The samples of a log read back with its samples."""
    assert log.samples
    return log.samples


def log_metrics(log: EvalLog) -> dict[str, float]:
    """Every metric of every scorer of a log, by name."""
    assert log.results is not None
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


def score_value(sample: EvalSample) -> dict[str, float]:
    """Every number of a sample's single score (shown in its value, or in its metadata)."""
    assert sample.scores, f"{sample.id} was not scored"
    [score] = sample.scores.values()
    assert isinstance(score.value, dict)
    return values_of(score)


def model_events(sample: EvalSample) -> list[Any]:
    """The model-call events of a sample."""
    return [e for e in sample.events if e.event == "model"]


def write_personaeval_fixture(folder: Path, track: str, n_rows: int, n_options: int) -> Path:
    """Write a FIXTURE csv in the official PersonaEval schema (text written for tests)."""
    filename = {"literary": "Literary.csv", "drama": "Drama.csv", "expertise": "Expertise.csv"}
    items = []
    for i in range(n_rows):
        names = [f"Fixture Person {i}-{chr(65 + j)}" for j in range(n_options)]
        conversation = (
            f"[Character1: Narrator]\n[Begin]\nOpening line {i}.\n[End]\n\n"
            f"[Character2]\n[Begin]\nReply line {i}.\n[End]"
        )
        items.append(
            RoleItem(
                id=f"{track}-{i:05d}",
                track=track,
                conversation=conversation,
                source_prompt=(
                    f"Fixture prompt.\n\n# Conversation\n\n{conversation}\n\n# Task\n\nPick one.\n"
                ),
                candidates=[
                    RoleCandidate(name=name, profile=f"Fixture profile of {name}.")
                    for name in names
                ],
                true_role=names[i % n_options],
            )
        )
    return write_personaeval_csv(folder / filename[track], items)


@pytest.fixture
def personaeval_dir(tmp_path: Path) -> Path:
    """A folder with fixture CSVs for all three tracks (Expertise with five options)."""
    write_personaeval_fixture(tmp_path, "literary", 12, 4)
    write_personaeval_fixture(tmp_path, "drama", 8, 4)
    write_personaeval_fixture(tmp_path, "expertise", 10, 5)
    return tmp_path
