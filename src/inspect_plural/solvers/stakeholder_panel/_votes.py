"""How a stakeholder panel's votes become an item's distribution and each annotator's label.

**Pooling rule** (:func:`pool_votes`). Every persona votes one label. Each stakeholder
group's shares are its personas' vote shares (every persona of the group counts the
same); the item's distribution is the mean of the groups' shares (every group counts the
same, however many personas it has). A persona whose answer could not be read is left
out and counted (``StakeholderVotes.unparsed``), never given a default label; a group
with no readable vote is left out (the others share its weight); no readable vote at
all is a recorded failure (no distribution). Worked example: groups A (votes x, x, y),
B (y) and C (x, unreadable) give A = (2/3, 1/3), B = (0, 1), C = (1, 0) and
x = (2/3 + 0 + 1) / 3 = 5/9, y = (1/3 + 1 + 0) / 3 = 4/9, one unparsed.

**Per-annotator rule** (:func:`annotator_runs`), for the perspectivist metrics: an
annotator's predicted label is the vote of the personas that *stand for* one of their
(visible) trait values: a default persona stands for its trait value (``gender=woman``),
a given persona whose stakeholder group is named after a trait value (``woman``) or a
trait group (``gender=woman``; case, spacing and punctuation ignored) stands for that
value. Their votes are pooled by the same rule and the most voted label is the
annotator's; ties go to the label the whole panel voted most, then to the first in scale
order. An annotator no persona stands for (no known trait, traits hidden with
``-T named=false``, or no persona of their groups voted) gets the panel's majority: the
most likely label of the item's distribution (first in scale order on ties).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from inspect_plural.item_records import AnnotatorRun, ItemAnnotator, group_key
from inspect_plural.prediction import ModelAnswer
from inspect_plural.solvers.stakeholder_panel._records import PanelMember, PersonaVote
from inspect_plural.stakeholders.records import name_key

__all__ = [
    "SKIPPED_VALUES",
    "annotator_runs",
    "group_shares",
    "pool_votes",
    "stands_for",
    "top_label",
    "votes_of",
]

SKIPPED_VALUES = ("", "UNK")
"""Trait values no persona stands for (unknown)."""
_DIGITS = 12
"""Shares are compared at this many decimals (ties within rounding are ties)."""


def votes_of(members: Sequence[PanelMember], answers: Sequence[ModelAnswer]) -> list[PersonaVote]:
    """Each persona's vote from its parsed answer (None when it could not be read).

    Args:
        members: The panel.
        answers: One answer per member, in panel order.

    Returns:
        The votes, in panel order.
    """
    return [
        PersonaVote(
            persona=member.name,
            group=member.group,
            label=answer.label if answer.parse_ok else None,
            error=None if answer.parse_ok else (answer.error or "unreadable answer"),
        )
        for member, answer in zip(members, answers, strict=True)
    ]


def group_shares(
    votes: Sequence[PersonaVote], labels: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Each group's vote shares over the labels, for the groups with a readable vote.

    Args:
        votes: The votes (unreadable ones and labels off the scale are left out).
        labels: The scale's labels.

    Returns:
        Group -> label -> share (in order of the groups' first vote).
    """
    counts: dict[str, Counter[str]] = {}
    for vote in votes:
        if vote.label is not None and vote.label in labels:
            counts.setdefault(vote.group, Counter())[vote.label] += 1
    return {
        group: {label: tally[label] / sum(tally.values()) for label in labels}
        for group, tally in counts.items()
    }


def pool_votes(votes: Sequence[PersonaVote], labels: Sequence[str]) -> dict[str, float] | None:
    """The item's distribution: the mean over groups of each group's vote shares.

    Args:
        votes: The votes.
        labels: The scale's labels.

    Returns:
        Label -> share (sums to 1), or None when no vote could be read.
    """
    shares = group_shares(votes, labels)
    if not shares:
        return None
    return {label: sum(s[label] for s in shares.values()) / len(shares) for label in labels}


def top_label(
    shares: Mapping[str, float], labels: Sequence[str], tiebreak: Mapping[str, float] | None = None
) -> str:
    """The most likely label; ties to the larger ``tiebreak`` share, then scale order.

    Args:
        shares: Label -> share.
        labels: The scale's labels, in order.
        tiebreak: Label -> share deciding ties (the whole panel's distribution).

    Returns:
        The label.
    """
    breaker = tiebreak or {}
    return max(
        labels,
        key=lambda label: (
            round(shares.get(label, 0.0), _DIGITS),
            round(breaker.get(label, 0.0), _DIGITS),
            -labels.index(label),
        ),
    )


def stands_for(member: PanelMember, dimension: str, value: str) -> bool:
    """Whether a persona stands for the trait value ``dimension=value``.

    Args:
        member: The persona.
        dimension: A trait dimension.
        value: One of its values.

    Returns:
        A default persona: its own trait group is that one. A given persona: its group
        is named ``value`` or ``dimension=value`` (case, spacing and punctuation ignored).
    """
    key = group_key(dimension, value)
    if member.trait is not None:
        return member.trait == key
    return name_key(member.group) in (name_key(value), name_key(key))


def _matched(
    annotator: ItemAnnotator, members: Sequence[PanelMember], votes: Sequence[PersonaVote]
) -> tuple[list[PersonaVote], list[str]]:
    """The votes of the personas that stand for one of the annotator's known trait values."""
    known = [(d, v) for d, v in annotator.traits.items() if v not in SKIPPED_VALUES]
    chosen: list[PersonaVote] = []
    matched: list[str] = []
    for member, vote in zip(members, votes, strict=True):
        hits = [group_key(d, v) for d, v in known if stands_for(member, d, v)]
        if hits:
            chosen.append(vote)
            matched += [h for h in hits if h not in matched]
    return chosen, matched


def annotator_runs(
    annotators: Sequence[ItemAnnotator],
    members: Sequence[PanelMember],
    votes: Sequence[PersonaVote],
    labels: Sequence[str],
    panel: Mapping[str, float] | None,
) -> list[AnnotatorRun]:
    """Each annotator's predicted label by the per-annotator rule (module docstring).

    Args:
        annotators: The item's annotators (their visible traits).
        members: The panel.
        votes: One vote per member.
        labels: The scale's labels.
        panel: The item's pooled distribution (None: no readable vote).

    Returns:
        One run per annotator (no calls of its own): the label, and in ``rationale``
        the trait groups whose personas decided it, or that it is the panel's majority.
    """
    runs = []
    majority = top_label(panel, labels) if panel else None
    for annotator in annotators:
        chosen, matched = _matched(annotator, members, votes)
        own = pool_votes(chosen, labels)
        if own is not None:
            label: str | None = top_label(own, labels, panel)
            read = sum(1 for v in chosen if v.label in labels)
            rationale = f"the {read} vote(s) of the personas for {', '.join(matched)}"
        else:
            label = majority
            rationale = "the panel's majority: " + (
                "no persona of their trait groups voted"
                if matched
                else "no persona stands for them"
            )
        runs.append(
            AnnotatorRun(
                annotator_id=annotator.annotator_id,
                label=label,
                parse_ok=label is not None,
                error=None if label is not None else "no persona's vote could be read",
                rationale=rationale if label is not None else None,
            )
        )
    return runs
