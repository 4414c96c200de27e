"""What every parser of model answers shares: how an answer was read, or why it was not."""

from __future__ import annotations

from typing import Literal

__all__ = ["FAILURE_REASONS", "READ_AS", "FailureReason", "ReadAs"]

ReadAs = Literal["json", "text", "ranked"]
"""How a parsed answer was read.

- ``json``: from a JSON object (fenced or bare, repaired if needed): the format the
  prompts ask for.
- ``text``: from free text: an ``Answer: ...`` or score line, a bare score, a final line
  that is a label, or the one allowed label or candidate that the text names.
- ``ranked``: from a numbered list of candidates, read as a fixed rank-weighted
  distribution (:func:`inspect_plural.parsing.rank_weights`, a Borda count).
"""

READ_AS: tuple[ReadAs, ...] = ("json", "text", "ranked")
"""Every value of :data:`ReadAs`."""

FailureReason = Literal[
    "echo",
    "copied_example",
    "hedge",
    "truncated",
    "other_scale",
    "invalid",
    "no_answer",
    "no_panel",
    "build_failed",
]
"""Why an answer is not an answer (every failed answer records one).

- ``echo``: the answer reproduces the prompt, or a long stretch of it
  (:func:`inspect_plural.parsing.echo_check`); no parser looks inside it.
- ``copied_example``: the answer is the prompt's filled example
  (:func:`inspect_plural.parsing.copies_example`).
- ``hedge``: it names several labels or candidates, a range (``3-4``, ``1 or 2``,
  ``3/4``), or hedges between them (``a mix of both``).
- ``truncated``: it was cut off (the token cap) before the answer was complete.
- ``other_scale``: a score on another scale than the one asked for (``4/10`` on 1-5).
- ``invalid``: something was read, but it is not allowed (a label not on the scale, a
  score out of range, a value that is not a probability).
- ``no_answer``: nothing that reads as an answer (no JSON, no label named, only negated
  or questioned names).
- ``no_panel``: the method had nothing to answer with (CINEMETRIC: no character of the
  annotator's panel was validated), so no answer was asked for.
- ``build_failed``: the persona set or panel the sample needs could not be built (the
  provider kept failing; :class:`inspect_plural._concurrency.BuildFailed`), so no
  answer was asked for; the sample is also a sample error.
"""

FAILURE_REASONS: tuple[FailureReason, ...] = (
    "echo",
    "copied_example",
    "hedge",
    "truncated",
    "other_scale",
    "invalid",
    "no_answer",
    "no_panel",
    "build_failed",
)
"""Every value of :data:`FailureReason`, in the order reports list them."""
