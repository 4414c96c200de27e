"""Tolerant parsers for the answers models actually produce.

They accept fenced or bare JSON, trailing commas and other JSON slips (repaired with
``json_repair``), prose around the JSON, option names that differ in case, spacing,
punctuation or by an unambiguous prefix, and values given as numbers, numeric strings
or percentages. They never raise on model text: a failure comes back as a result with
``ok=False`` and the reason, so the caller can keep it in the ``Prediction``.

Beside JSON, an unambiguous free-text answer is read: the one allowed label or
candidate the text names (longest first, not negated, not in a question), a numbered
ranking of candidates (read with a fixed Borda weighting), a one-element list as its
element. Every parse records how it was read (``read_as``: ``json``, ``text`` or
``ranked``), so a caller that wants the official strictness can refuse the rest.

The parsers live in private modules by concept (JSON, names, free-text mentions,
rankings, distributions, labels, fixed choices, character lists, echoes and copied
examples); every public name is importable from here. A failed parse says why
(:data:`FailureReason`).
"""

from __future__ import annotations

from inspect_plural.parsing._characters import (
    CharacterParse,
    character_key,
    extract_field,
    parse_characters,
)
from inspect_plural.parsing._choices import PLOT_CHOICES, VERDICTS, parse_choice, parse_verdict
from inspect_plural.parsing._distribution import (
    SUM_TOLERANCE,
    DistributionParse,
    parse_distribution,
)
from inspect_plural.parsing._echo import (
    ECHO_ANSWER_SHARE,
    ECHO_NGRAM,
    ECHO_PROMPT_SHARE,
    ECHO_STRETCH_WORDS,
    EchoCheck,
    copies_example,
    echo_check,
)
from inspect_plural.parsing._json import (
    MAX_ANSWER_CHARS,
    answer_text,
    extract_json_object,
    join_surrogate_escapes,
)
from inspect_plural.parsing._labels import LABEL_KEYS, LabelParse, match_label, parse_label
from inspect_plural.parsing._mentions import Mentions, find_mentions
from inspect_plural.parsing._names import match_option
from inspect_plural.parsing._ranked import rank_weights, ranked_candidates
from inspect_plural.parsing._types import FAILURE_REASONS, READ_AS, FailureReason, ReadAs

__all__ = [
    "ECHO_ANSWER_SHARE",
    "ECHO_NGRAM",
    "ECHO_PROMPT_SHARE",
    "ECHO_STRETCH_WORDS",
    "FAILURE_REASONS",
    "LABEL_KEYS",
    "MAX_ANSWER_CHARS",
    "PLOT_CHOICES",
    "READ_AS",
    "SUM_TOLERANCE",
    "VERDICTS",
    "CharacterParse",
    "DistributionParse",
    "EchoCheck",
    "FailureReason",
    "LabelParse",
    "Mentions",
    "ReadAs",
    "answer_text",
    "character_key",
    "copies_example",
    "echo_check",
    "extract_field",
    "extract_json_object",
    "find_mentions",
    "join_surrogate_escapes",
    "match_label",
    "match_option",
    "parse_characters",
    "parse_choice",
    "parse_distribution",
    "parse_label",
    "parse_verdict",
    "rank_weights",
    "ranked_candidates",
]
