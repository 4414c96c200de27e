"""``inspect-plural demo``: every task of the suite on its demo data, as one eval set.

A wrapper around Inspect's ``eval_set`` (so an interrupted run resumes where it stopped
when run again with the same log directory): each task with ``-T demo=true`` and the
offline chance model by default, logs in ``logs/demo``. The demo data is written for
this package in each dataset's official schema; no file is downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["DEMO_RUNS", "DEMO_TASKS", "run_demo"]

DEMO_TASKS: tuple[str, ...] = (
    "personaeval_literary",
    "personaeval_drama",
    "personaeval_expertise",
    "opinionqa",
    "dp",
    "brexit",
    "epic",
    "mhs",
    "md_agreement",
    "dices",
    "armis",
    "convabuse",
    "csc",
    "mp",
    "paraphrase",
    "varierrnli",
    "mslr_cochrane",
    "storysparkqa",
    "per_mpst",
    "per_doc",
)
"""Every task of the suite (the generic ``perspective`` task needs a dataset plugin)."""

DEMO_RUNS: dict[str, tuple[str, dict[str, Any]]] = {
    "brexit_cinemetric": ("brexit", {"method": "cinemetric"}),
}
"""Further runs of a task with another method: name -> (task, its options).

Every task runs its default method; these add the runs the README's tour looks at
(CINEMETRIC's character panels, validation and vote; MAJ-Eval runs as
``mslr_cochrane``'s default), so each tour step has its log in the demo folder.
"""


def _task(name: str) -> Any:
    """A demo task, built with ``demo=True`` and its :data:`DEMO_RUNS` options.

    Every task is built here (``eval_set`` takes a list of one kind: names or tasks), so
    the log records the options as task arguments, as ``-T`` would.
    """
    import inspect_plural

    task, options = DEMO_RUNS.get(name, (name, {}))
    return getattr(inspect_plural, task)(demo=True, **options)


def run_demo(
    model: str = "plural/random",
    log_dir: str = "logs/demo",
    tasks: Sequence[str] = (*DEMO_TASKS, *DEMO_RUNS),
    limit: int | None = None,
    **eval_options: Any,
) -> tuple[bool, int]:
    """Run the demo tasks as one Inspect eval set.

    Args:
        model: The model (default: the offline chance model).
        log_dir: The eval set's log directory.
        tasks: Task names without the ``inspect_plural/`` prefix, or names of
            :data:`DEMO_RUNS`.
        limit: Samples per task (None: all of the demo data).
        **eval_options: Further ``eval_set`` options (``max_connections``, ...).

    Returns:
        Whether every task succeeded, and how many logs the set holds.
    """
    from inspect_ai import eval_set

    success, logs = eval_set(
        tasks=[_task(name) for name in tasks],
        model=model,
        log_dir=log_dir,
        limit=limit,
        **eval_options,
    )
    return success, len(logs)
