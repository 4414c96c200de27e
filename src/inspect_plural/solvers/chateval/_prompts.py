"""ChatEval's prompts: the turn, final and summary templates and their rendering.

A turn's prompt is ``chateval_turn.txt`` filled with the task, the rated content, the
dimensions, the referee's role and the discussion so far (:func:`render_history`); in
the last round ``chateval_final.txt`` is appended, asking for one score line per
dimension (:func:`turn_prompt`). ``chateval_summary.txt`` folds a round's turns into the
running summary of the ``simultaneous_summarizer`` strategy. Each template's fields and
required fields are listed here, for :func:`~inspect_plural.prompts.load_template`.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_plural.prompts import example_key, load_template
from inspect_plural.records import RatedSampleMetadata
from inspect_plural.solvers._ratings import (
    SCORE_HIGH,
    SCORE_LOW,
    render_dimensions,
    render_rated,
    scores_example,
)
from inspect_plural.solvers.chateval._roles import Referee

__all__ = [
    "FINAL",
    "final_example",
    "FINAL_FIELDS",
    "FINAL_REQUIRED",
    "NO_HISTORY",
    "NO_SUMMARY",
    "SUMMARY",
    "SUMMARY_FIELDS",
    "SUMMARY_REQUIRED",
    "TURN",
    "TURN_FIELDS",
    "TURN_REQUIRED",
    "render_history",
    "turn_prompt",
]

TURN = "chateval_turn.txt"
TURN_FIELDS = {
    "task_description",
    "rated",
    "dimensions",
    "content_label",
    "role_name",
    "role_description",
    "history",
}
TURN_REQUIRED = {"rated", "role_name", "role_description", "history"}
FINAL = "chateval_final.txt"
FINAL_FIELDS = {"score_lines", "low", "high", "content_label"}
FINAL_REQUIRED = {"score_lines"}
SUMMARY = "chateval_summary.txt"
SUMMARY_FIELDS = {"summary", "new_lines", "content_label"}
SUMMARY_REQUIRED = {"summary", "new_lines"}
NO_HISTORY = "(Nobody has spoken yet.)"
NO_SUMMARY = "(Nothing yet.)"


def render_history(lines: Sequence[tuple[str, str]]) -> str:
    """The discussion as ``[name]: text`` lines.

    Args:
        lines: (speaker, text) pairs, in order.

    Returns:
        The lines, or a note that nobody has spoken yet.
    """
    if not lines:
        return NO_HISTORY
    return "\n\n".join(f"[{name}]: {text.strip()}" for name, text in lines)


def final_example(metadata: RatedSampleMetadata, referee: Referee) -> str:
    """The final round's filled example: one score line per dimension.

    The scores are drawn for the sample and the referee
    (:func:`~inspect_plural.solvers._ratings.scores_example`).

    Args:
        metadata: The sample's metadata.
        referee: Who is asked.

    Returns:
        The score lines.
    """
    key = f"{example_key(metadata)}:{referee.name}"
    scores = scores_example(metadata.dimensions, key)
    return "\n".join(f"{d.title} score: {scores[d.name]}" for d in metadata.dimensions)


def turn_prompt(
    metadata: RatedSampleMetadata,
    referee: Referee,
    history: str,
    final: bool,
    prompts: str | None = None,
) -> str:
    """A referee's prompt for one turn.

    Args:
        metadata: The sample's metadata.
        referee: Who speaks.
        history: The discussion so far (or the running summary), rendered.
        final: Whether to ask for the evaluation evidence and the score lines.
        prompts: Folder of replacement prompt templates.

    Returns:
        The prompt text.
    """
    template = load_template(TURN, TURN_FIELDS, TURN_REQUIRED, prompts)
    prompt = template.format(
        task_description=metadata.task_description.strip(),
        rated=render_rated(metadata),
        dimensions=render_dimensions(metadata.dimensions),
        content_label=metadata.content_label,
        role_name=referee.name,
        role_description=referee.description,
        history=history,
    )
    if final:
        closing = load_template(FINAL, FINAL_FIELDS, FINAL_REQUIRED, prompts)
        # a filled example (scores drawn for the sample), never a "<1-5>" to echo
        score_lines = final_example(metadata, referee)
        prompt = (
            prompt.rstrip("\n")
            + "\n"
            + closing.format(
                score_lines=score_lines,
                low=SCORE_LOW,
                high=SCORE_HIGH,
                content_label=metadata.content_label,
            )
        )
    return prompt
