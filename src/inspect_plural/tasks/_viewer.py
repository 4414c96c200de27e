"""Inspect View sample-list columns of each task family (``Task(viewer=...)``).

The sample list of Inspect View (inspect_ai 0.3.x) can show built-in columns (sample id,
input, target, answer = the scorer's ``Score.answer``, tokens, ...) and per-sample score
values (``score__<scorer>__<key>``); sample metadata cannot be a column. So each family
shows, without opening a sample:

- who and what: the sample id (``<annotator>:<item>``, ``<reviewer>/<story>``, ...) and the
  input;
- the human judgment (``target``) and the prediction (``answer``);
- the numbers that say how close they are (``correct``, ``abs_error``, ``rank``,
  ``pred/<dimension>`` against ``gold/<dimension>``, ...), coloured on their known range.

Inspect View makes a column of every number in ``Score.value`` (its config cannot hide
one), so each scorer shows at most four numbers there, rounded, and keeps every number
at full precision in the score's metadata (:mod:`inspect_plural.scorers._values`): open a
sample's Scoring tab to see them, or read them with ``inspect_plural.analysis``. Annotator
traits, being metadata, are not columns: they are in each sample's metadata (``traits`` when the
task is named, ``metric_traits`` always), and the sample list's filter can select by them,
e.g. ``metadata.metric_traits.gender == "Woman"``.

The log list (one row per log) shows each log's headline metric under *Score*; every
task names it (:func:`headline`) and tags the log ``score: <metric>`` so the list says
which metric the number is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inspect_ai.log import HeadlineMetric
from inspect_ai.viewer import (
    ScoreColorScale,
    TaskSamplesColumn,
    TaskSamplesSort,
    TaskSamplesView,
    ViewerConfig,
)

from inspect_plural.records import RatingDimension
from inspect_plural.scorers.distribution import distribution_scorer, shown_keys
from inspect_plural.scorers.personal import choice_scorer, review_scorer
from inspect_plural.scorers.perspective import annotator_scorer
from inspect_plural.scorers.ratings import rating_scorer
from inspect_plural.scorers.role import role_scorer

__all__ = [
    "SCORE_COLUMN_PREFIX",
    "SCORE_TAG",
    "annotator_viewer",
    "choice_viewer",
    "distribution_viewer",
    "headline",
    "rating_viewer",
    "review_viewer",
    "role_viewer",
    "score_columns",
]

SCORE_COLUMN_PREFIX = "score__"
"""Prefix of score column ids: ``score__<scorer>__<key>``."""

ANNOTATOR_SCORER = annotator_scorer.__name__
RATING_SCORER = rating_scorer.__name__
ROLE_SCORER = role_scorer.__name__
REVIEW_SCORER = review_scorer.__name__
CHOICE_SCORER = choice_scorer.__name__
DISTRIBUTION_SCORER = distribution_scorer.__name__

_CORRECT = ScoreColorScale(palette="good-high", min=0.0, max=1.0)


OFF_BY_DEFAULT = ("tokens", "duration")
"""Built-in columns the viewer would add after ours, listed hidden (the Columns menu
turns them on): the sample list opens on who, what, the judgment and the key scores."""


def _builtin(*ids: str, hidden: Sequence[str] = ()) -> list[TaskSamplesColumn]:
    return [TaskSamplesColumn(id=i, visible=i not in hidden) for i in ids]


def _scores(scorer: str, *keys: str, visible: bool = True) -> list[TaskSamplesColumn]:
    return [TaskSamplesColumn.score(scorer, key, visible=visible) for key in keys]


def _view(
    name: str,
    columns: list[TaskSamplesColumn],
    labels: dict[str, str],
    colors: dict[str, ScoreColorScale],
    sort_by_id: bool = False,
) -> ViewerConfig:
    """The config, with labels and colour scales kept only for the score columns it has."""
    keys = {c.id.removeprefix(SCORE_COLUMN_PREFIX).partition("__")[2] for c in columns}
    columns = [*columns, *(TaskSamplesColumn(id=i, visible=False) for i in OFF_BY_DEFAULT)]
    return ViewerConfig(
        task_samples_view=TaskSamplesView(
            name=name,
            columns=columns,
            sort=[TaskSamplesSort(column="sampleId")] if sort_by_id else None,
            score_labels={k: v for k, v in labels.items() if k in keys},
            score_color_scales={k: v for k, v in colors.items() if k in keys},
        )
    )


def annotator_viewer(
    ordinal: bool, max_error: float | None = None, distribution: bool = False
) -> ViewerConfig:
    """Columns of the annotator-level tasks: one row per (annotator, item) judgment.

    Args:
        ordinal: The labels are ordered, so ``abs_error`` exists.
        max_error: The largest possible ``abs_error`` (labels - 1) when every item shares
            one scale; None leaves the colour range to the viewer.
        distribution: The task asks for a distribution, so ``p_true`` and ``brier`` exist.

    Returns:
        Sample id (``<annotator>:<item>``, sorted so an annotator's rows are together),
        the item, the annotator's label (target), the predicted label (answer),
        ``correct`` and, where they exist, ``abs_error`` and ``p_true``.

    """
    shown = ["correct", *(["abs_error"] if ordinal else []), *(["p_true"] if distribution else [])]
    return _view(
        "Annotator judgments",
        [
            *_builtin("sampleId", "input", "target", "answer"),
            *_scores(ANNOTATOR_SCORER, *shown),
        ],
        labels={
            "correct": "correct",
            "abs_error": "abs error",
            "p_true": "p(gold)",
            "brier": "Brier",
            "parse_ok": "parsed",
        },
        colors={
            "correct": _CORRECT,
            "abs_error": ScoreColorScale(palette="good-low", min=0.0, max=max_error),
            "p_true": ScoreColorScale(palette="good-high", min=0.0, max=1.0),
        },
        sort_by_id=True,
    )


def distribution_viewer(metrics: Sequence[str]) -> ViewerConfig:
    """Columns of the distribution target: one row per item.

    Args:
        metrics: The distribution metrics the task logs (each is a per-item score key,
            except ``hard_micro_f1``, whose per-item value is ``hard_correct``).

    Returns:
        The item id and content, its hard label (target), the predicted top label
        (answer), and the per-item values of the dataset's soft-label, hard-label and
        perspectivist metrics (:func:`~inspect_plural.scorers.distribution.shown_keys`).
    """
    distance = ScoreColorScale(palette="good-low", min=0.0)
    return _view(
        "Item distributions",
        [
            *_builtin("sampleId", "input", "target", "answer"),
            *_scores(DISTRIBUTION_SCORER, *shown_keys(metrics)),
        ],
        labels={
            "manhattan": "Manhattan",
            "wasserstein": "Wasserstein",
            "cross_entropy": "cross-entropy",
            "hard_correct": "hard label",
            "error_rate": "error rate",
            "norm_abs_distance": "norm. abs. distance",
            "parse_ok": "parsed",
        },
        colors={
            "manhattan": ScoreColorScale(palette="good-low", min=0.0, max=2.0),
            "wasserstein": distance,
            "cross_entropy": distance,
            "hard_correct": _CORRECT,
            "error_rate": ScoreColorScale(palette="good-low", min=0.0, max=1.0),
            "norm_abs_distance": ScoreColorScale(palette="good-low", min=0.0, max=1.0),
        },
        sort_by_id=True,
    )


def _range(low: float, high: float) -> str:
    return f"{low:g}–{high:g}"


def rating_viewer(
    dimensions: Sequence[RatingDimension],
    predicted: tuple[float, float] = (1.0, 5.0),
) -> ViewerConfig:
    """Columns of the rating tasks: one row per generated output.

    The method predicts on its own scale (the rating methods' 1–5 rubric; ROUGE-L's
    0–1), the humans rated on the dataset's (MSLR's overall: 0–1), so the two columns
    name their scales and each is coloured on its own range: a 3.33 beside a 0.458 is
    not a miss. Correlations, the metrics, do not depend on the scale.

    Args:
        dimensions: The predicted dimensions; the first (``overall`` when the data has it)
            is shown (the others are in each score's metadata).
        predicted: The method's prediction scale (low, high).

    Returns:
        Sample id, the rated content, the human scores (target, ``name=value; ...``), the
        predicted headline score (answer), and ``pred/<dimension>`` next to
        ``gold/<dimension>``, each labelled with its scale.

    """
    head = dimensions[0]
    columns = [
        *_builtin("sampleId", "input", "target", "answer"),
        *_scores(RATING_SCORER, f"pred/{head.name}", f"gold/{head.name}"),
    ]
    low, high = predicted
    # the list's columns are narrow: their labels are the two scales
    labels = {
        f"pred/{head.name}": f"pred {_range(low, high)}",
        f"gold/{head.name}": f"human {_range(head.low, head.high)}",
    }
    colors = {
        f"pred/{head.name}": ScoreColorScale(palette="neutral", min=low, max=high),
        f"gold/{head.name}": ScoreColorScale(palette="neutral", min=head.low, max=head.high),
    }
    return _view("Rated outputs", columns, labels, colors)


def role_viewer(n_options: int) -> ViewerConfig:
    """Columns of the PersonaEval tasks: one row per dialogue.

    Args:
        n_options: Candidates per item (the worst rank).

    Returns:
        Sample id, the conversation, the true speaker (target), the predicted one
        (answer), ``correct``, the true speaker's ``rank`` and probability ``p_true``.

    """
    return _view(
        "Role identification",
        [
            *_builtin("sampleId", "input", "target", "answer"),
            *_scores(ROLE_SCORER, "correct", "rank", "p_true"),
        ],
        labels={
            "correct": "correct",
            "rank": "rank of truth",
            "p_true": "p(truth)",
            "top2": "top-2",
            "brier": "Brier",
            "parse_ok": "parsed",
        },
        colors={
            "correct": _CORRECT,
            "top2": _CORRECT,
            "rank": ScoreColorScale(palette="good-low", min=1.0, max=float(n_options)),
            "p_true": ScoreColorScale(palette="good-high", min=0.0, max=1.0),
        },
    )


def review_viewer(low: float, high: float) -> ViewerConfig:
    """Columns of Per-MPST: one row per (reviewer, new plot).

    Args:
        low: Lowest score of the scale.
        high: Highest score of the scale.

    Returns:
        Sample id (``<reviewer>/<story>``), the plot, the reviewer's score (``gold``) next
        to the predicted one (``pred``; both numeric so they sort), ``abs_error`` and
        ``exact``; the same two scores as text (target, answer) are hidden columns.

    """
    scale = ScoreColorScale(palette="neutral", min=low, max=high)
    return _view(
        "Personal scores",
        [
            *_builtin("sampleId", "input", "target", "answer", hidden=("target", "answer")),
            *_scores(REVIEW_SCORER, "gold", "pred", "abs_error", "exact"),
        ],
        labels={
            "gold": "human score",
            "pred": "predicted",
            "abs_error": "abs error",
            "exact": "exact",
            "parse_ok": "parsed",
        },
        colors={
            "gold": scale,
            "pred": scale,
            "abs_error": ScoreColorScale(palette="good-low", min=0.0, max=high - low),
            "exact": _CORRECT,
        },
        sort_by_id=True,
    )


def choice_viewer(both_orders: bool = False) -> ViewerConfig:
    """Columns of Per-DOC: one row per (aspect, annotator, plot pair).

    Args:
        both_orders: Both presentation orders are asked, so ``consistent`` exists.

    Returns:
        Sample id (``<aspect>/<annotator>/<n>``), the question and plots, the annotator's
        choice (target), the predicted one (answer), ``correct`` and, with both orders,
        whether the two answers agreed.

    """
    shown = ["correct", *(["consistent"] if both_orders else [])]
    return _view(
        "Personal preferences",
        [
            *_builtin("sampleId", "input", "target", "answer"),
            *_scores(CHOICE_SCORER, *shown),
        ],
        labels={
            "correct": "correct",
            "consistent": "same in both orders",
            "na": "N/A answer",
            "parse_ok": "parsed",
        },
        colors={"correct": _CORRECT, "consistent": _CORRECT},
        sort_by_id=True,
    )


SCORE_TAG = "score: "
"""Prefix of the tag naming the metric of the log list's Score column."""


def headline(metric: str) -> dict[str, Any]:
    """``Task`` arguments that make the log list's Score this metric, and say so.

    Inspect View's log list shows one number per log under *Score*, unlabelled: the
    eval's headline metric (``Task(headline_metric=...)``; by default the first metric
    of the first scorer, which differs from family to family and, for Per-DOC, was one
    aspect's accuracy). Each task declares its headline and a tag ``score: <metric>``,
    which the list shows in its *Tags* column beside the score.

    Args:
        metric: The metric's name in the log (``accuracy``, ``top1``,
            ``overall/spearman``).

    Returns:
        ``headline_metric`` and ``tags`` for ``Task``.
    """
    return {"headline_metric": HeadlineMetric(metric=metric), "tags": [SCORE_TAG + metric]}


def score_columns(viewer: ViewerConfig) -> list[tuple[str, str]]:
    """The ``(scorer, key)`` of every score column and score sort of a viewer config.

    Args:
        viewer: The config.

    Returns:
        The pairs, in column order then sort order.

    """
    views = viewer.task_samples_view
    views = [] if views is None else views if isinstance(views, list) else [views]
    ids = [c.id for view in views for c in view.columns or []]
    ids += [s.column for view in views for s in view.sort or []]
    pairs = []
    for column_id in ids:
        if column_id.startswith(SCORE_COLUMN_PREFIX):
            scorer, _, key = column_id.removeprefix(SCORE_COLUMN_PREFIX).partition("__")
            pairs.append((scorer, key))
    return pairs
