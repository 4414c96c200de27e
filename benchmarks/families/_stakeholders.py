"""The fuzz benchmark's stakeholders family: MAJ-Eval's persona construction.

:data:`STAKEHOLDERS` writes the answers of each step (stakeholders extracted from a
document, groups, personas) and checks ``parse_extraction`` (named stakeholders that
record their document), ``parse_grouping`` (named groups, None rather than an empty
list) and ``parse_personas`` (objects only); no parsed string may hold a surrogate.
"""

from __future__ import annotations

import json
import random
from typing import Any

from benchmarks._generator import ascii_escaped, fence, prose
from benchmarks.families._base import Family, record_storable, require
from inspect_plural.stakeholders.create import parse_extraction, parse_grouping, parse_personas

__all__ = ["STAKEHOLDERS"]


def _stakeholder_answer(rng: random.Random, document: str) -> str:
    name = rng.choice(["Patients", "Clinicians", "Policy makers", prose(rng)])
    perspective = {"perspective": prose(rng), "evidence": [prose(rng)]}
    style = rng.randrange(4)
    body: Any
    if style == 0:  # step 1, the paper's shape
        body = {name: {"characteristics": prose(rng), "perspectives": [perspective]}}
    elif style == 1:  # step 1, a wrapped list
        body = {"stakeholders": [{"name": name, "perspectives": [prose(rng)]}]}
    elif style == 2:  # step 1b, groups
        group = {"name": name, "members": [name], "perspectives": [perspective]}
        body = {"groups": [group, {**group, "documents": [document]}]}
    else:  # step 2, personas
        persona = {"name": "Alex", "Demographic Information": prose(rng), "Perspective": "p"}
        body = {name: [persona]} if rng.random() < 0.5 else {"personas": [persona]}
    return prose(rng) + "\n" + fence(rng, json.dumps(body, ensure_ascii=ascii_escaped(rng)))


def _extraction(text: str, document: str) -> bool:
    found = parse_extraction(text, document)
    if found is None:
        return False
    for stakeholder in found:
        require(bool(stakeholder.name.strip()), "a stakeholder without a name")
        require(stakeholder.document == document, "the document is not recorded")
        require(record_storable(stakeholder), f"{stakeholder.name!r:.60}: a surrogate")
    return True


def _grouping(text: str, document: str) -> bool:
    groups = parse_grouping(text)
    if groups is None:
        return False
    require(len(groups) > 0, "an empty list instead of None")
    require(all(group.name for group in groups), "a group without a name")
    require(all(record_storable(group) for group in groups), "a group with a surrogate")
    return True


def _personas(text: str, document: str) -> bool:
    personas = parse_personas(text)
    require(all(isinstance(p, dict) for p in personas), "a persona that is not an object")
    return bool(personas)


STAKEHOLDERS: Family[str] = Family(
    name="stakeholders",
    contexts=("doc-1", "Cochrane review"),
    valid=_stakeholder_answer,
    keys=lambda document: [
        "Patients",
        "stakeholders",
        "groups",
        "personas",
        "name",
        "characteristics",
        "perspectives",
        "perspective",
        "evidence",
        "members",
        "Demographic Information",
    ],  # fmt: skip
    parsers=(
        ("parse_extraction", _extraction),
        ("parse_grouping", _grouping),
        ("parse_personas", _personas),
    ),
)
