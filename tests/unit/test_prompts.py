from __future__ import annotations

from pathlib import Path

import pytest

from inspect_plural.prompts import PromptTemplateError
from inspect_plural.records import RoleCandidate, RoleExample, RoleSampleMetadata
from inspect_plural.solvers.role_identification import json_skeleton, render_role_prompt

CANDIDATES = [
    RoleCandidate(name="Ann Vale", profile="A sailor."),
    RoleCandidate(name="Bo", profile="A cook."),
]


def _metadata(**kwargs: object) -> RoleSampleMetadata:
    base: dict[str, object] = {
        "dataset": "personaeval_literary",
        "item_id": "literary-00001",
        "conversation": "[Character1: Cy]\nHello.\n[Character2]\nAhoy.",
        "candidates": CANDIDATES,
        "true_role": "Ann Vale",
        "source_prompt": "THE DATASET PROMPT",
    }
    base.update(kwargs)
    return RoleSampleMetadata.model_validate(base)


def test_default_prompt_has_the_papers_structure() -> None:
    prompt = render_role_prompt(_metadata())
    sections = ["# Conversation", "# Task", "# Character Candidates", "# Response Format"]
    positions = [prompt.index(s) for s in sections]
    assert positions == sorted(positions)
    assert "## 1. Ann Vale\nA sailor." in prompt and "## 2. Bo\nA cook." in prompt
    # a filled example over the literal names (made-up, drawn per sample), never a
    # placeholder to copy
    assert f"```json\n{json_skeleton(_metadata())}\n```" in prompt
    assert '"Ann Vale": 0.' in json_skeleton(_metadata())
    assert "<" not in prompt
    assert "step by step" in prompt
    assert "step by step" not in render_role_prompt(_metadata(), reasoning=False)
    assert "Solved example" not in prompt


def test_few_shot_examples_show_the_solution() -> None:
    example = RoleExample(conversation="Example talk.", candidates=CANDIDATES, true_role="Bo")
    prompt = render_role_prompt(_metadata(examples=[example, example]))
    assert prompt.count("## Solved example") == 2
    assert '"Bo": 1.0' in prompt and '"Ann Vale": 0.0' in prompt
    assert prompt.index("Solved example") < prompt.index("# Conversation")


def test_user_templates_override_and_are_checked(tmp_path: Path) -> None:
    (tmp_path / "role_identification.txt").write_text(
        "WHO? {conversation}\n{candidates}\nJSON braces {{}}", encoding="utf-8"
    )
    prompt = render_role_prompt(_metadata(), prompts=str(tmp_path))
    assert prompt.startswith("WHO? [Character1: Cy]") and prompt.endswith("JSON braces {}")

    (tmp_path / "role_identification.txt").write_text("{conversation} {unknown}", encoding="utf-8")
    with pytest.raises(PromptTemplateError, match="unknown"):
        render_role_prompt(_metadata(), prompts=str(tmp_path))  # the edited file is re-read


def test_missing_required_field_and_missing_folder(tmp_path: Path) -> None:
    (tmp_path / "role_identification.txt").write_text("only {candidates}", encoding="utf-8")
    with pytest.raises(PromptTemplateError, match="required"):
        render_role_prompt(_metadata(), prompts=str(tmp_path))
    with pytest.raises(PromptTemplateError, match="not found"):
        render_role_prompt(_metadata(), prompts=str(tmp_path / "absent"))


def test_dataset_prompt_is_used_verbatim() -> None:
    assert render_role_prompt(_metadata(), prompt_source="dataset") == "THE DATASET PROMPT"
    with pytest.raises(ValueError, match="no dataset prompt"):
        render_role_prompt(_metadata(source_prompt=None), prompt_source="dataset")
