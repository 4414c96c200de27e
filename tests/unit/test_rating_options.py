"""Options of the rating tasks: checked before any data is read, short user errors, the
sampling protocols and what the task metadata records.

Each error case calls the task function as ``inspect eval`` does and asserts the error
type (a :class:`~inspect_plural.errors.UserError`, which Inspect prints without a
traceback) and that the message names the option or the file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from inspect_ai._util.registry import registry_info
from tests.conftest import SHARED_DATA

from inspect_plural.errors import OptionError, UserError
from inspect_plural.sources.storysparkqa import RATINGS_COLUMNS
from inspect_plural.tasks import panels
from inspect_plural.tasks.panels import mslr_cochrane, storysparkqa
from inspect_plural.tasks.rating import _protocol as _rating_protocol
from inspect_plural.tasks.rating._options import RATING_METHOD_NAMES, RATING_METHOD_OPTIONS
from inspect_plural.tasks.rating._protocol import maj_eval_paper_temperature
from inspect_plural.tasks.rating._task import RATING_METHODS, headline_coefficients

TASKS = {"mslr_cochrane": mslr_cochrane, "storysparkqa": storysparkqa}


@pytest.fixture
def no_data(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading any data fails the test: options must be refused first."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("data was read before the options were checked")

    for name in ("load_mslr", "mslr_files", "read_mslr", "load_storysparkqa"):
        monkeypatch.setattr(panels, name, refuse)


# --------------------------------------------------------------------------------------
# strict options, before any data
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", sorted(TASKS))
@pytest.mark.usefixtures("no_data")
def test_a_misspelled_option_suggests_the_right_one(task: str) -> None:
    with pytest.raises(OptionError, match=r"option demoo: not an option of") as info:
        TASKS[task](demo=True, demoo=True)
    assert "did you mean demo?" in str(info.value)
    assert len(str(info.value).splitlines()) <= 10
    with pytest.raises(OptionError, match="did you mean max_rounds"):
        TASKS[task](demo=True, max_round=2)


@pytest.mark.parametrize(
    ("options", "option", "problem"),
    [
        ({"max_rounds": "abc"}, "max_rounds", "must be an integer, not 'abc'"),
        ({"max_rounds": 0}, "max_rounds", "must be at least 1"),
        ({"temperature": "warm"}, "temperature", "must be a number"),
        ({"method": "gevl"}, "method", "did you mean geval?"),
        ({"alpha_level": "ratio"}, "alpha_level", "'ratio' is not one of"),
        ({"metrics": "all"}, "metrics", "'all' is not one of headline, full"),
        ({"protocol": "papers"}, "protocol", "did you mean paper?"),
        ({"simple_roles": "maybe"}, "simple_roles", "must be true or false"),
        ({"chateval_strategy": "round_robin", "method": "chateval"}, "chateval_strategy", ""),
        ({"geval_n": 5}, "geval_n", "configures method geval, not maj_eval"),
        ({"method": "rouge_l", "personas": "x.json"}, "personas", "configures method maj_eval"),
        ({"metrics_preset": "maj_eval", "absolute": False}, "absolute", "fixes absolute=true"),
        (
            {"metrics_preset": "maj_eval", "correlation": "per_item"},
            "correlation",
            "fixes correlation=pooled",
        ),
        (
            {"method": "geval", "geval_official": True, "geval_mode": "logprobs"},
            "geval_official",
            "cannot run with geval_mode=logprobs",
        ),
        ({"groups": "Nurses"}, "groups", "unknown stakeholder group(s) ['Nurses']"),
        ({"personas": "/nowhere/personas.json"}, "personas", "persona file not found"),
        ({"persona_docs": "/nowhere/paper.txt"}, "persona_docs", "/nowhere/paper.txt: no such"),
        ({"prompts": "/nowhere"}, "prompts", "/nowhere is not a folder"),
        ({"version": "9-Z"}, "version", "is not a task option"),
    ],
)
@pytest.mark.usefixtures("no_data")
def test_bad_values_name_the_option(options: dict[str, Any], option: str, problem: str) -> None:
    for build in TASKS.values():
        with pytest.raises(OptionError) as info:
            build(demo=True, **options)
        message = str(info.value)
        assert message.startswith(f"option {option}: "), message
        assert problem in message
        assert len(message.splitlines()) <= 10


def test_dataset_options_are_checked_too(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="option sample_per_system: must be at least 1"):
        mslr_cochrane(demo=True, sample_per_system=0)
    with pytest.raises(OptionError, match="option mslr_other: 'other' is not one of"):
        mslr_cochrane(demo=True, mslr_other="other")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="option data_dir: give data_dir or demo=true, not both"):
        mslr_cochrane(demo=True, data_dir=str(tmp_path))
    # the demo has 4 summaries per system: the option is named, not a traceback
    with pytest.raises(OptionError, match="option sample_per_system: .*fewer than 5"):
        mslr_cochrane(demo=True, sample_per_system=5)
    with pytest.raises(OptionError, match="option ratings: give ratings=FILE or demo=true"):
        storysparkqa(demo=True, ratings=str(tmp_path / "r.csv"))


# --------------------------------------------------------------------------------------
# a ratings file that cannot hold ratings
# --------------------------------------------------------------------------------------


HEADER_ONLY = "the ratings file has a header but no ratings"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("", "the ratings file is empty"),
        ("\n\n", "the ratings file is empty"),
        (",".join(RATINGS_COLUMNS) + "\n", HEADER_ONLY),
        (",".join(RATINGS_COLUMNS) + "\n,,,,,,,,,\n", HEADER_ONLY),
        ("qa_id,question\nq1,Why?\n", "the ratings file has no column story_name, section_id"),
    ],
)
@pytest.mark.usefixtures("no_data")
def test_an_unusable_ratings_file_is_a_short_user_error(
    tmp_path: Path, content: str, problem: str
) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UserError) as info:
        storysparkqa(ratings=str(path))
    message = str(info.value)
    assert message.startswith(f"{path}: {problem}")
    assert "header row (qa_id, story_name, section_id" in message  # what it should contain
    assert "docs/storysparkqa_ratings.md" in message
    assert len(message.splitlines()) <= 10
    with pytest.raises(UserError, match="ratings: .*missing.csv does not exist"):
        storysparkqa(ratings=str(tmp_path / "missing.csv"))


# --------------------------------------------------------------------------------------
# what the task records, and the protocols
# --------------------------------------------------------------------------------------


def test_metadata_records_method_protocol_and_metrics() -> None:
    task = storysparkqa(demo=True, max_rounds=2, metrics="full")
    meta = task.metadata or {}
    assert registry_info(task.solver).name == "inspect_plural/maj_eval" and "method" not in meta
    assert meta["method_options"] == {"max_rounds": 2}
    assert meta["protocol"] == "default"
    assert meta["metrics"] == "full"
    assert meta["metrics_preset"] == "default"
    assert meta["absolute"] is False and meta["correlation"] == "pooled"
    settings = meta["protocol_settings"]
    assert (settings["temperature"], settings["seed"]) == (0.0, 42)
    assert task.config.temperature == 0.0
    preset = mslr_cochrane(demo=True, metrics_preset="maj_eval").metadata or {}
    assert (preset["metrics_preset"], preset["absolute"], preset["correlation"]) == (
        "maj_eval",
        True,
        "pooled",
    )


@pytest.mark.parametrize(
    ("model", "temperature"),
    [
        ("openai-api/sglang/Qwen3-235B-A22B", 0.6),
        ("hf/Qwen/Qwen3-8B", 0.6),
        ("anthropic/claude-3-7-sonnet-latest", 1.0),
        ("bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0", 1.0),
        ("openai/gpt-4.1", 1.0),
        (None, 1.0),
    ],
)
def test_maj_eval_paper_temperature_by_family(model: str | None, temperature: float) -> None:
    value, source = maj_eval_paper_temperature(model)
    assert value == temperature
    assert "MAJ-Eval §4.4" in source


def test_paper_protocol_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_rating_protocol, "role_model_name", lambda role: "vllm/Qwen/Qwen3-32B")
    task = storysparkqa(demo=True, protocol="paper")
    settings = (task.metadata or {})["protocol_settings"]
    assert (settings["protocol"], settings["temperature"], settings["seed"]) == ("paper", 0.6, 42)
    assert settings["model"] == "vllm/Qwen/Qwen3-32B"
    assert task.config.temperature == 0.6
    # an explicit temperature wins over the protocol, and says so
    given = storysparkqa(demo=True, protocol="paper", temperature=0.2).metadata or {}
    assert given["protocol_settings"]["temperature"] == 0.2
    assert "option temperature" in given["protocol_settings"]["source"]
    # G-Eval: the official sampling unless its mode or official flag is given
    geval = storysparkqa(demo=True, protocol="paper", method="geval").metadata or {}
    assert geval["protocol_settings"]["method_options"] == {"geval_official": True}
    monkeypatch.setattr(_rating_protocol, "role_model_name", lambda role: "anthropic/claude-3-7")
    claude = storysparkqa(demo=True, protocol="paper", method="geval").metadata or {}
    assert claude["protocol_settings"]["method_options"] == {
        "geval_official": True,
        "geval_temperature": 1.0,  # Anthropic refuses the official 2
    }
    mine = storysparkqa(demo=True, protocol="paper", method="geval", geval_mode="logprobs")
    assert (mine.metadata or {})["protocol_settings"]["method_options"] == {}
    chat = storysparkqa(demo=True, protocol="paper", method="chateval").metadata or {}
    assert chat["protocol_settings"]["temperature"] == 0.0
    assert "max_tokens 512" in chat["protocol_settings"]["source"]
    # the demo keeps all its summaries; only real data gets the paper's 17 per system
    demo = mslr_cochrane(demo=True, protocol="paper")
    assert len(demo.dataset) == 24
    assert (demo.metadata or {})["protocol_settings"]["dataset_options"] == {}


@pytest.mark.skipif(not (SHARED_DATA / "mslr_cochrane").is_dir(), reason="no shared MSLR data")
def test_paper_protocol_draws_the_papers_102_summaries() -> None:
    task = mslr_cochrane(data_dir=str(SHARED_DATA / "mslr_cochrane"), protocol="paper")
    assert len(task.dataset) == 102  # 17 per system, MAJ-Eval §4.1
    meta = task.metadata or {}
    assert meta["sample_per_system"] == 17
    assert meta["protocol_settings"]["dataset_options"] == {"sample_per_system": 17}
    mine = mslr_cochrane(
        data_dir=str(SHARED_DATA / "mslr_cochrane"), protocol="paper", sample_per_system=2
    )
    assert len(mine.dataset) == 12


def test_headline_fits_the_cap() -> None:
    assert headline_coefficients(5) is None  # 15 + 3 = 18 values
    assert headline_coefficients(7) is None  # 21 + 3 = 24
    assert headline_coefficients(8) == ["spearman"]  # 24 + 3 would be 27


def test_method_names_are_declared_once() -> None:
    assert tuple(RATING_METHODS) == RATING_METHOD_NAMES
    assert {spec.method for spec in RATING_METHOD_OPTIONS} <= set(RATING_METHOD_NAMES)
