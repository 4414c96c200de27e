"""The protocol minimum: the model calls a method's protocol needs, read from a run's log.

This is the yardstick of the ``calls`` benchmark (a run's calls minus this minimum must
be 0). It is computed from what each sample's record says happened (which personas
said they were done, which CINEMETRIC candidates were valid...), never from the calls
themselves. Shared work is counted once per run, whatever sample did it:

- ``llm_judge``, ``personalized_judge``, ``retrieval_examples``, ``perse_review``: 1
  per sample; ``perse_aspect`` 1, 2 with ``both_orders``; ``role_identification`` K
  (self-consistency); the baselines and ``rouge_l`` 0. Every epoch is a logged sample
  of its own, so ``per_mpst -T shuffle_reviews=N`` (one shuffled order per epoch) needs
  N calls per instance; k = 0 and ``review_content=false`` change the prompt, not the
  calls.
- ``trait_ensemble``: the annotator's known traits (1 when none); with
  ``trait_scope=all``, each (item, trait value of the dataset) once per epoch.
- ``cinemetric``: ``n_personas`` role-play calls per sample (fewer when the panel has
  fewer characters), plus once per annotator 1 selection + 1 validation per candidate
  in each selection round, a further round only while fewer than ``n_personas``
  candidates are VALID (the paper lists five, verifies each, and generates again when
  fewer than three pass); with ``protocol=paper`` once per annotator and run (epoch).
- ``maj_eval``, per stakeholder group and sample: 1 phase-1 call per persona; in each
  debate round, with a active personas, a turns and a − 1 moderator picks (a round's
  last speaker is forced), a shrinking by those who said they were done; 1 aggregation
  (a group of one: 1 + 1), plus one closing call per persona still active with
  ``closing_call``. Personas created from documents: once per run, 1 extraction per
  document chunk + 1 grouping + 1 per group.
- ``geval``: 1 call per dimension (sampling asks for all n samples in one call with
  ``num_choices``; ``auto`` adds 1 for a dimension that got no logprobs).
- ``chateval``: rounds × referees, + rounds − 1 summaries with
  ``simultaneous_summarizer``, + the retries its rule asks for (a final answer whose
  scores do not parse, re-parsed here, up to ``max_retry``).
- the distribution target (one sample per item, :mod:`benchmarks._item_protocol`):
  ``distribution_judge`` 1 per item + 1 per group of the item in each steered dimension
  and steering style (``steer_style``);
  ``uniform``, ``label_prior``, ``lewidi_most_frequent`` and ``lewidi_random`` 0;
  ``stakeholder_panel`` 1 per persona per item, plus
  its panel's creation once per run (1 per profile kept; from documents as
  ``maj_eval``'s; none from a file or the disk cache); a per-annotator method exactly
  its minimum for each of the item's test annotators (their runs inside the item),
  shared work once per run as on the annotator target.
- ``panel`` (the scorer; its record is in the panel score's metadata, its options are
  the scorer's): with ``rounds=0``, 1 call per persona; with ``rounds`` >= 1, per
  stakeholder group as ``maj_eval`` (above). Personas created once per run: from
  documents as ``maj_eval``'s; from inline profiles, 1 call per profile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.log import EvalSample

from benchmarks._item_protocol import (
    ITEM_NO_CALLS,
    PANEL_METHOD,
    annotator_samples,
    expand,
    is_item,
    panel_creation,
    panel_creation_of,
    panel_votes,
    steered_groups,
)
from inspect_plural.rating_parsing import parse_score_lines
from inspect_plural.records import RatingDimension
from inspect_plural.scorers.panel._score import DEBATE_KEY, PANEL_KEY
from inspect_plural.stakeholders._profiles import parse_profiles
from inspect_plural.stakeholders.create import (
    DEFAULT_MAX_DOC_CHARS,
    read_document,
    split_document,
)

__all__ = [
    "CHATEVAL_MAX_RETRY",
    "CHATEVAL_REFEREES",
    "NO_CALLS",
    "ONE_CALL",
    "SKIPPED_TRAITS",
    "attributed_minimum",
    "group_minimum",
    "panel_minimum",
    "panel_record",
    "panel_scorer_minimum",
    "run_minimum",
    "sample_minimum",
    "shared_minimum",
]

NO_CALLS = frozenset(
    {"annotator_majority", "item_majority", "rouge_l", "prior_average", "matrix_factorization"}
    | ITEM_NO_CALLS
)
"""Methods that make no model call."""
ONE_CALL = frozenset({"llm_judge", "personalized_judge", "retrieval_examples", "perse_review"})
"""Methods that make one call per sample."""
SKIPPED_TRAITS = ("", "UNK")
"""Trait values that are not known (no trait-ensemble answer for them)."""
CHATEVAL_REFEREES = {"two": 2, "five": 5}
"""Referees of each ``chateval_roles`` setting."""
CHATEVAL_MAX_RETRY = 3
"""``chateval``'s default ``max_retry``, for a record that does not say (the tasks do not
expose it)."""


def _flag(options: Mapping[str, Any], name: str) -> bool:
    value = options.get(name, False)
    return value if isinstance(value, bool) else str(value).strip().lower() in ("true", "1")


def _known_traits(sample: EvalSample) -> int:
    """The traits the method was shown: a sample that stores its keys only shows its
    ``metric_traits`` when the task is named (``AnnotatorSampleKeys``)."""
    metadata = sample.metadata
    if "traits" in metadata:
        traits = metadata["traits"] or {}
    else:
        traits = (metadata.get("metric_traits") or {}) if metadata.get("named", True) else {}
    return sum(1 for v in traits.values() if v not in SKIPPED_TRAITS)


def _cinemetric_roleplay(sample: EvalSample, options: Mapping[str, Any]) -> int:
    candidates = sample.store.get("CharacterPanel:candidates")
    if candidates is None:  # nothing to match the annotator on: no call
        return 0
    return min(int(options.get("n_personas", 3)), len(candidates))


def panel_minimum(candidates: Sequence[Mapping[str, Any]], n_personas: int, rounds: int) -> int:
    """Selection and validation calls of one annotator's panel, by the protocol.

    Args:
        candidates: The panel's candidates, each with its ``round`` and ``verdict``.
        n_personas: Characters the panel needs.
        rounds: Selection rounds allowed.

    Returns:
        1 selection + 1 validation per candidate in each round, up to the first round
        after which ``n_personas`` candidates are VALID.
    """
    calls = valid = 0
    for number in range(1, rounds + 1):
        proposed = [c for c in candidates if c.get("round") == number]
        calls += 1 + len(proposed)
        valid += sum(1 for c in proposed if c.get("verdict") == "VALID")
        if valid >= n_personas:
            break
    return calls


def group_minimum(group: Mapping[str, Any], max_rounds: int, closing_call: bool) -> int:
    """One MAJ-Eval group's calls for one sample, from who said they were done."""
    members = len(group.get("personas") or [])
    if members <= 1:
        return members + 1
    turns = group.get("turns") or []
    calls = members + 1
    active = members
    for number in range(1, max_rounds + 1):
        calls += active + (active - 1)
        active -= sum(1 for t in turns if t.get("round") == number and t.get("done"))
        if active <= 0:
            break
    if closing_call and active > 0:
        calls += active
    return calls


def panel_record(sample: EvalSample) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The ``panel`` scorer's record in a sample's scores: the panel and the debate."""
    for score in (sample.scores or {}).values():
        metadata = score.metadata or {}
        if PANEL_KEY in metadata:
            return metadata[PANEL_KEY], list(metadata.get(DEBATE_KEY) or [])
    return None


def panel_scorer_minimum(panel: Mapping[str, Any], debate: Sequence[Mapping[str, Any]]) -> int:
    """The ``panel`` scorer's calls for one sample, from the groups' debates it recorded.

    Args:
        panel: The panel (``rounds``, ``closing_call``).
        debate: Per group, its debate (``personas``, ``turns`` with who said they were done).

    Returns:
        One call per persona with ``rounds=0``; else each group's ``maj_eval`` minimum.
    """
    rounds = int(panel.get("rounds", 0))
    if rounds == 0:
        return sum(len(group.get("personas") or []) for group in debate)
    closing = bool(panel.get("closing_call", False))
    return sum(group_minimum(group, rounds, closing) for group in debate)


def _chateval_retries(sample: EvalSample) -> int:
    """Retries ChatEval's rule asks for: unparsed final answers, re-parsed here.

    A final answer whose score lines do not parse is asked again, up to the run's
    ``max_retry`` (kept in the sample's record) times.
    """
    dimensions = [RatingDimension.model_validate(d) for d in sample.metadata["dimensions"]]
    max_retry = int(sample.store.get("ChatEvalRecord:max_retry", CHATEVAL_MAX_RETRY))
    retries = 0
    for turn in sample.store.get("ChatEvalRecord:turns") or []:
        if not turn.get("final"):
            continue
        for attempt in (turn.get("attempts") or [])[:max_retry]:
            if parse_score_lines(attempt, dimensions).ok:
                break
            retries += 1
    return retries


def sample_minimum(method: str, sample: EvalSample, options: Mapping[str, Any]) -> int:
    """The calls one sample needs by the protocol, work shared between samples excluded.

    Shared work (a CINEMETRIC panel, MAJ-Eval personas created from documents,
    ``trait_scope=all`` answers) is counted once per run by :func:`run_minimum`.

    Args:
        method: The method.
        sample: The logged sample.
        options: The task options of the run (``both_orders``, ``self_consistency``,
            ``chateval_rounds``...).

    Returns:
        The minimum number of calls.
    """
    if is_item(sample):
        if method == "distribution_judge":
            return 1 + steered_groups(sample, options)
        if method == PANEL_METHOD:
            return panel_votes(sample)
        return sum(sample_minimum(method, s, options) for s in annotator_samples(sample))
    if method in NO_CALLS:
        return 0
    if method in ONE_CALL:
        return 1
    if method == "perse_aspect":
        return 2 if _flag(options, "both_orders") else 1
    if method == "role_identification":
        return int(options.get("self_consistency", 1))
    if method == "trait_ensemble":
        return 0 if options.get("trait_scope") == "all" else max(1, _known_traits(sample))
    if method == "cinemetric":
        return _cinemetric_roleplay(sample, options)
    if method == "geval":
        dimensions = sample.store.get("GEvalRecord:dimensions") or []
        switched = sum(1 for d in dimensions if d.get("switched"))
        return len(sample.metadata["dimensions"]) + switched
    if method == "chateval":
        rounds = int(options.get("chateval_rounds", 2))
        referees = CHATEVAL_REFEREES[str(options.get("chateval_roles", "two"))]
        summaries = (
            rounds - 1 if options.get("chateval_strategy") == "simultaneous_summarizer" else 0
        )
        return rounds * referees + summaries + _chateval_retries(sample)
    if method == "panel":
        record = panel_record(sample)
        return 0 if record is None else panel_scorer_minimum(*record)
    if method == "maj_eval":
        max_rounds = int(options.get("max_rounds", 3))
        closing = _flag(options, "closing_call")
        groups = sample.store.get("PanelDebate:groups") or []
        return sum(group_minimum(g, max_rounds, closing) for g in groups)
    raise ValueError(f"no protocol minimum for method {method!r}")


def _creation_minimum(
    samples: Sequence[EvalSample], options: Mapping[str, Any], groups: int | None = None
) -> int:
    docs = options.get("persona_docs") or []
    if isinstance(docs, str):
        docs = [d for d in docs.split(",") if d.strip()]
    chunks = sum(len(split_document(read_document(d), DEFAULT_MAX_DOC_CHARS)) for d in docs)
    if groups is None:
        groups = max(
            (len(s.store.get("StakeholderPanel:groups") or []) for s in samples), default=0
        )
    return chunks + 1 + groups


def _panel_creation(samples: Sequence[EvalSample], options: Mapping[str, Any]) -> int:
    """The panel scorer's persona creation, when a sample of the run made it (not cached).

    Documents: as ``maj_eval``'s (the groups created, before any ``groups`` selection,
    are unknown to the record; the test runs select none). Inline profiles: 1 per profile.
    """
    records = [r for r in map(panel_record, samples) if r is not None]
    if not any(panel.get("creation_calls") for panel, _ in records):
        return 0
    panel = records[0][0]
    if panel.get("origin") == "documents":
        return _creation_minimum(samples, options, groups=len(panel.get("groups") or []))
    if panel.get("origin") == "profiles":
        return len(parse_profiles(options["personas"]))
    return 0


def shared_minimum(
    method: str,
    samples: Sequence[EvalSample],
    options: Mapping[str, Any],
    trait_values: int = 0,
) -> int:
    """Calls of work shared between samples, once per run.

    Args:
        method: The method.
        samples: The run's samples.
        options: The run's task options.
        trait_values: The dataset's known (dimension, value) pairs (``trait_scope=all``).

    Returns:
        The minimum shared calls (0 for methods that share nothing).
    """
    if method == PANEL_METHOD:  # its runs are labels, not calls: nothing to expand
        return panel_creation(samples, options)
    samples = expand(samples)  # an item's runs are its annotators' samples
    if method == "cinemetric":
        n_personas = int(options.get("n_personas", 3))
        rounds = int(options.get("max_selection_rounds", 2))
        # the paper's protocol builds each annotator's panel anew in every run (epoch)
        per_run = options.get("protocol") == "paper"
        panels: dict[tuple[str, str, int], int] = {}
        for s in samples:
            candidates = s.store.get("CharacterPanel:candidates")
            if candidates is None or s.store.get("CharacterPanel:from_cache"):
                continue
            key = (
                str(s.metadata.get("dataset")),
                str(s.metadata.get("annotator_id")),
                s.epoch if per_run else 0,
            )
            panels[key] = panel_minimum(candidates, n_personas, rounds)
        return sum(panels.values())
    if method == "trait_ensemble" and options.get("trait_scope") == "all":
        asked = {(s.metadata.get("item_id"), s.epoch) for s in samples}
        return len(asked) * trait_values
    if method == "maj_eval" and options.get("persona_docs"):
        return _creation_minimum(samples, options)
    if method == "panel":
        return _panel_creation(samples, options)
    return 0


def run_minimum(
    method: str,
    samples: Sequence[EvalSample],
    options: Mapping[str, Any],
    trait_values: int = 0,
) -> int:
    """The calls a whole run needs by the protocol: per sample, plus shared work once."""
    own = sum(sample_minimum(method, s, options) for s in samples)
    return own + shared_minimum(method, samples, options, trait_values)


def attributed_minimum(
    method: str,
    sample: EvalSample,
    samples: Sequence[EvalSample],
    options: Mapping[str, Any],
) -> int:
    """A sample's minimum with the shared work its record says it did (for evidence).

    A CINEMETRIC sample that built its annotator's panel (``built_here``, not from the
    disk cache) carries the panel's minimum; a MAJ-Eval sample that created the
    personas (``creation_calls`` > 0) carries the creation's, as does the
    ``stakeholder_panel`` item that built its panel. Shared ``trait_scope=all``
    answers cannot be attributed and are left out. An item sample carries the
    attributed minima of its annotators' runs.
    """
    if is_item(sample) and method not in ("distribution_judge", PANEL_METHOD):
        everyone = expand(samples)
        return sum(
            attributed_minimum(method, s, everyone, options) for s in annotator_samples(sample)
        )
    expected = sample_minimum(method, sample, options)
    store = sample.store
    built = store.get("CharacterPanel:built_here") and not store.get("CharacterPanel:from_cache")
    if method == "cinemetric" and built:
        expected += panel_minimum(
            store.get("CharacterPanel:candidates") or [],
            int(options.get("n_personas", 3)),
            int(options.get("max_selection_rounds", 2)),
        )
    if method == "maj_eval" and store.get("StakeholderPanel:creation_calls"):
        expected += _creation_minimum(samples, options)
    if method == PANEL_METHOD:
        expected += panel_creation_of(sample, options)
    record = panel_record(sample) if method == "panel" else None
    if record is not None and record[0].get("creation_calls"):
        expected += _panel_creation(samples, options)
    return expected
