"""Shared fixtures. Nothing here touches the network."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inspect_plural.records import RoleCandidate, RoleItem
from inspect_plural.sources.personaeval import write_personaeval_csv

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("INSPECT_LOG_LEVEL", "warning")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


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
