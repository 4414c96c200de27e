"""Shared fixtures. Nothing here touches the network."""

from __future__ import annotations

import csv
import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("INSPECT_LOG_LEVEL", "warning")

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def write_personaeval_fixture(folder: Path, track: str, n_rows: int, n_options: int) -> Path:
    """Write a FIXTURE csv in the official PersonaEval schema (text written for tests)."""
    filename = {"literary": "Literary.csv", "drama": "Drama.csv", "expertise": "Expertise.csv"}
    columns = ["prompt", "gt"]
    for j in range(1, n_options + 1):
        columns += [f"option{j}", f"option{j}_profile"]
    rows = []
    for i in range(n_rows):
        names = [f"Fixture Person {i}-{chr(65 + j)}" for j in range(n_options)]
        row = {
            "prompt": (
                "Fixture prompt.\n\n# Conversation\n\n[Character1: Narrator]\n[Begin]\n"
                f"Opening line {i}.\n[End]\n\n[Character2]\n[Begin]\nReply line {i}.\n[End]"
                "\n\n# Task\n\nPick one.\n"
            ),
            "gt": names[i % n_options],
        }
        for j, name in enumerate(names, 1):
            row[f"option{j}"] = name
            row[f"option{j}_profile"] = f"Fixture profile of {name}."
        rows.append(row)
    path = folder / filename[track]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.fixture
def personaeval_dir(tmp_path: Path) -> Path:
    """A folder with fixture CSVs for all three tracks (Expertise with five options)."""
    write_personaeval_fixture(tmp_path, "literary", 12, 4)
    write_personaeval_fixture(tmp_path, "drama", 8, 4)
    write_personaeval_fixture(tmp_path, "expertise", 10, 5)
    return tmp_path
