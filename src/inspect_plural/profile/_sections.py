"""Each mode's section as text tables: the cells behind the headline, linking to the logs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspect_plural.profile._cells import Mode
from inspect_plural.profile._opinionqa import WORST
from inspect_plural.profile._results import CellResult, Difference, Profile
from inspect_plural.profile._text import (
    TextCell,
    TextTable,
    log_links,
    model_label,
    number,
    value_text,
)

__all__ = ["SECTIONS", "differences_table", "not_measured_table", "section_tables"]


def _logs(result: CellResult, out: Path) -> TextCell:
    return log_links(result.logs, out)


def _steerable(results: Sequence[CellResult], out: Path) -> list[TextTable]:
    perseval = TextTable(
        "PersEval datasets: paired gains on the same samples",
        ["model", "dataset", "comparison", "accuracy gain", "macro-F1 gain", "accuracy", "logs"],
        notes=["gain = steered minus plain; chance 0 (a model that ignores who it is told about)"],
    )
    opinionqa = TextTable(
        "OpinionQA steerability (Santurkar et al.): best steering style per group",
        [
            "model",
            "gain, mean over groups",
            "mean over groups: unsteered → steered",
            "styles",
            "per group: unsteered → steered (style)",
            "logs",
        ],
        notes=[
            "steered = the best style per group (its mean representativeness over the "
            "questions); the best of several styles is optimistic by construction (the "
            "published definition)"
        ],
    )
    for r in results:
        if r.group == "opinionqa":
            groups: dict[str, Any] = r.extra.get("groups", {})
            per_group = "; ".join(
                f"{g}: {number(v['unsteered'])} → {number(v['steered'])} ({v['best_style']})"
                for g, v in groups.items()
            )
            opinionqa.rows.append(
                [
                    r.model,
                    value_text(r),
                    f"{number(r.extra.get('unsteered_mean'))} → "
                    f"{number(r.extra.get('steered_mean'))}",
                    ", ".join(r.extra.get("styles", [])),
                    per_group,
                    _logs(r, out),
                ]
            )
            continue
        accuracy = (
            f"{number(r.extra.get('accuracy_steered'))} vs {number(r.extra.get('accuracy_plain'))}"
        )
        perseval.rows.append(
            [
                r.model,
                r.group,
                r.metric.split(", ", 1)[-1],
                value_text(r),
                value_text(r.extra.get("macro_f1_gain")),
                accuracy,
                _logs(r, out),
            ]
        )
    return [t for t in (perseval, opinionqa) if t.rows]


def _distributional(results: Sequence[CellResult], out: Path) -> list[TextTable]:
    lewidi = TextTable(
        "LeWiDi datasets: soft-label distance beside the baselines on the same items",
        ["dataset", "row", "distance", "skill vs uniform", "item skill", "logs"],
        notes=[
            "distance: LeWiDi 2025's (Wasserstein on ordinal scales, else Manhattan); lower is "
            "better. Skill vs uniform: 1 - distance / uniform's (below 0: worse than the "
            "uniform distribution). Item skill: 1 - distance / the distance to other items' "
            "predictions (0 for anything that ignores the item)."
        ],
    )
    opinionqa = TextTable(
        "OpinionQA representativeness per group (unsteered)",
        ["model", "mean over groups", f"{WORST} worst-represented groups", "logs"],
    )
    for r in results:
        if r.group == "opinionqa":
            groups: dict[str, Any] = r.extra.get("groups", {})
            worst = "; ".join(
                f"{g} {number(groups[g]['estimate'])}" for g in r.extra.get("worst_groups", [])
            )
            opinionqa.rows.append([r.model, value_text(r), worst, _logs(r, out)])
            continue
        lewidi.rows.append(
            [
                r.group,
                f"{model_label(r.model)} ({r.key.rsplit('/', 1)[-1]})",
                value_text(r),
                value_text(r.extra.get("skill_vs_uniform")),
                value_text(r.extra.get("item_skill")),
                _logs(r, out),
            ]
        )
    return [t for t in (lewidi, opinionqa) if t.rows]


def _jury(results: Sequence[CellResult], out: Path) -> list[TextTable]:
    table = TextTable(
        "Persona panels (stakeholder_panel) against the people's label distributions",
        [
            "model",
            "dataset",
            "distance (uniform)",
            "item skill",
            "alpha",
            "error correlation",
            "effective judges",
            "logs",
        ],
        notes=[
            "error: how often a random annotator of the item disagrees with a persona's vote; "
            "effective judges = n / (1 + (n - 1) r) for n personas with mean error correlation r "
            "(a negative r counts as 0: at most n)"
        ],
    )
    for r in results:
        n_eff = r.extra.get("effective_judges")
        personas = r.extra.get("personas", 0)
        table.rows.append(
            [
                r.model,
                r.group,
                value_text(r, r.chance),
                value_text(r.extra.get("item_skill")),
                value_text(r.extra.get("alpha")),
                value_text(r.extra.get("error_correlation")),
                f"{value_text(n_eff)} of {personas} personas"
                if n_eff
                else f"{personas} persona(s)",
                _logs(r, out),
            ]
        )
    return [table] if table.rows else []


def _role(results: Sequence[CellResult], out: Path) -> list[TextTable]:
    table = TextTable(
        "PersonaEval tracks: top-1 accuracy and calibration",
        ["model", "track", "top-1 accuracy", "ECE (lower is better)", "logs"],
    )
    for r in results:
        table.rows.append(
            [
                r.model,
                r.group,
                value_text(r, r.chance),
                value_text(r.extra.get("ece")),
                _logs(r, out),
            ]
        )
    return [table] if table.rows else []


SECTIONS: dict[Mode, Callable[[Sequence[CellResult], Path], list[TextTable]]] = {
    "steerable": _steerable,
    "distributional": _distributional,
    "jury": _jury,
    "role": _role,
}


def section_tables(profile: Profile, mode: Mode, out: Path) -> list[TextTable]:
    """The tables of one mode's section."""
    return SECTIONS[mode](profile.cells.get(mode, []), out)


def differences_table(differences: Sequence[Difference]) -> TextTable:
    """Paired differences between models, per mode."""
    table = TextTable(
        "Differences between models (paired: the same samples, items or questions)",
        ["mode", "difference", "metric", "estimate", "interval excludes 0"],
    )
    for d in differences:
        excludes = d.has_interval and ((d.low or 0) > 0 or (d.high or 0) < 0)
        table.rows.append(
            [
                d.mode,
                f"{d.model_a} - {d.model_b}",
                d.metric,
                value_text(d),
                ("yes" if excludes else "no") if d.has_interval else "",
            ]
        )
    return table


def not_measured_table(profile: Profile) -> TextTable:
    """Cells without a number, and why."""
    return TextTable(
        "Not measured",
        ["cell", "why"],
        [[nm.key, nm.note] for nm in profile.not_measured],
    )
