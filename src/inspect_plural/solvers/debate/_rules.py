"""Pure pieces of the MAJ-Eval debate: disagreement, the moderator's fallback, call budgets.

Nothing here calls a model, so the moderation and stopping rules are tested directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_plural.parsing import extract_field, extract_json_object, match_option

__all__ = [
    "debate_call_budget",
    "disagreement_summary",
    "fallback_speaker",
    "most_disagreeing",
    "parse_moderator_pick",
]


def _spread(latest: Mapping[str, Mapping[str, float]], dimension: str) -> float:
    values = [scores[dimension] for scores in latest.values() if dimension in scores]
    return max(values) - min(values) if len(values) >= 2 else 0.0


def disagreement_summary(
    latest: Mapping[str, Mapping[str, float]], dimensions: Sequence[str]
) -> str:
    """One line per dimension: the spread of the latest scores and who holds the extremes.

    Args:
        latest: Member -> dimension -> latest score.
        dimensions: The dimensions, in order.

    Returns:
        The summary (dimensions with the widest spread first).
    """
    lines = []
    ordered = sorted(dimensions, key=lambda d: -_spread(latest, d))
    for dimension in ordered:
        held = {name: s[dimension] for name, s in latest.items() if dimension in s}
        if len(held) < 2:
            lines.append(f"- {dimension}: fewer than two scores so far")
            continue
        low = min(held.values())
        high = max(held.values())
        if low == high:
            lines.append(f"- {dimension}: everyone gives {low:g}")
            continue
        lows = ", ".join(n for n, v in held.items() if v == low)
        highs = ", ".join(n for n, v in held.items() if v == high)
        lines.append(f"- {dimension}: spread {high - low:g} ({highs} {high:g}; {lows} {low:g})")
    return "\n".join(lines)


def most_disagreeing(
    candidates: Sequence[str],
    latest: Mapping[str, Mapping[str, float]],
    heard: set[str],
    dimension: str = "overall",
) -> str:
    """The candidate farthest from the group's mean on a dimension.

    Ties go to a candidate not heard yet, then to listed order. Candidates without a
    score on the dimension count as distance 0.

    Args:
        candidates: Who may speak, in listed order.
        latest: Member -> dimension -> latest score (all members, for the mean).
        heard: Members who have spoken in the discussion.
        dimension: The dimension to compare on.

    Returns:
        The chosen candidate.
    """
    values = [s[dimension] for s in latest.values() if dimension in s]
    mean = sum(values) / len(values) if values else 0.0

    def key(item: tuple[int, str]) -> tuple[float, int, int]:
        index, name = item
        scores = latest.get(name, {})
        distance = abs(scores[dimension] - mean) if dimension in scores else 0.0
        return (-distance, 1 if name in heard else 0, index)

    return min(enumerate(candidates), key=key)[1]


def fallback_speaker(
    candidates: Sequence[str],
    latest: Mapping[str, Mapping[str, float]],
    heard: set[str],
    dimensions: Sequence[str],
) -> str:
    """The moderator's rule applied in code, when its answer names no candidate.

    Uses ``overall`` when the group has it, else the first dimension.

    Args:
        candidates: Who may speak, in listed order.
        latest: Member -> dimension -> latest score.
        heard: Members who have spoken in the discussion.
        dimensions: The dimensions, in order.

    Returns:
        The chosen candidate.
    """
    dimension = "overall" if "overall" in dimensions else dimensions[0]
    return most_disagreeing(candidates, latest, heard, dimension)


def parse_moderator_pick(raw: str, candidates: Sequence[str]) -> tuple[str | None, str]:
    """The speaker a moderator's answer names, and the reason it gives.

    Read from the JSON object the prompt asks for (``next_speaker``, ``reason``), else
    from ``Next speaker: NAME`` and ``Reason: ...`` lines. The name is matched to a
    candidate as every option name is (:func:`~inspect_plural.parsing.match_option`:
    case, spacing and punctuation ignored, unambiguous leading words); a name that is
    not a candidate, or is ambiguous, counts as none.

    Args:
        raw: The moderator's answer.
        candidates: Who may speak.

    Returns:
        The candidate (None when the answer names none, so the debate's rule picks
        with :func:`fallback_speaker`) and the reason ("" when none is given).
    """
    obj = extract_json_object(raw) or {}
    named = obj.get("next_speaker")
    reason = obj.get("reason")
    if named is None:
        named = extract_field(raw, "next speaker")
    if reason is None:
        reason = extract_field(raw, "reason")
    speaker = match_option(str(named), list(candidates)) if named is not None else None
    return speaker, "" if reason is None else str(reason)


def debate_call_budget(n_members: int, active_per_round: Sequence[int]) -> int:
    """Model calls of one group for one sample, by the protocol.

    Phase 1 asks every member once. In each debate round every still-active member
    speaks once, and the moderator picks each speaker but the last of the round (the
    last is forced). The aggregator is asked once. A group of one has no debate.

    Args:
        n_members: Members of the group.
        active_per_round: Active members at the start of each round that ran.

    Returns:
        The number of calls.
    """
    if n_members <= 1:
        return n_members + 1
    debate = sum(a + max(a - 1, 0) for a in active_per_round)
    return n_members + debate + 1
