"""``inspect-plural profile run|show``: the arguments and what each does.

``run`` builds every cell (reading its data, never calling a model), prints the cells
not measured and, with ``--dry-run``, the plan; otherwise it runs the eval set, records
each cell's status in ``profile_cells.jsonl`` and writes the profile (``show``) into
``--out`` (default ``<log-dir>/profile``). ``show`` reads the logs only.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from inspect_plural.errors import UserError

__all__ = ["add_profile", "run_profile_command"]

PROG = "inspect-plural profile"


def _model_role(text: str) -> tuple[str, str]:
    role, sep, model = text.partition("=")
    if not sep or not role.strip() or not model.strip():
        raise argparse.ArgumentTypeError(f"expected ROLE=MODEL, got {text!r}")
    return role.strip(), model.strip()


def add_profile(sub: Any) -> None:
    """Add ``profile run`` and ``profile show`` to the command's subparsers."""
    from inspect_plural.profile._cells import BUDGETS

    parser = sub.add_parser(
        "profile",
        help="the pluralism profile of one or more models (run, then show)",
        description="Run the profile's cells for every model, and show the profile. "
        "See docs/profile.md.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    run = actions.add_parser(
        "run",
        help="run every cell for every model as one eval set (resumable)",
        description="Run the profile's cells (task, method, options, sample size by "
        "budget) for every model through Inspect's eval_set; run again to resume. Cells "
        "whose data is not here are listed as not measured.",
    )
    run.add_argument(
        "--model",
        action="append",
        required=True,
        metavar="MODEL",
        help="model to profile (repeatable; any Inspect provider, e.g. plural/random)",
    )
    run.add_argument(
        "--model-role",
        action="append",
        type=_model_role,
        default=[],
        metavar="ROLE=MODEL",
        help="a model role for every task (repeatable; e.g. persona_builder=MODEL)",
    )
    run.add_argument("--log-dir", required=True, metavar="DIR", help="log directory")
    run.add_argument("--budget", choices=BUDGETS, default="quick", help="sample sizes (quick)")
    run.add_argument("--demo", action="store_true", help="every task on its demo rows (DEMO)")
    run.add_argument("--dry-run", action="store_true", help="print the plan and run nothing")
    run.add_argument("--max-connections", type=int, metavar="N", help="connections per model")
    run.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="cap every model answer at N tokens (-T max_tokens, and a panel's persona "
        "creation, -T persona_max_tokens; default: each method's)",
    )
    run.add_argument(
        "--no-reasoning",
        action="store_true",
        help="ask for the answer first, without reasoning (-T reasoning=false; for a slow "
        "local model with --max-tokens)",
    )
    run.add_argument(
        "--only",
        action="append",
        metavar="PREFIX",
        help="run only the cells whose key starts with PREFIX (repeatable; e.g. "
        "distributional/ or jury/csc); run again without it to add the rest",
    )
    run.add_argument("--out", metavar="DIR", help="where to write the profile (<log-dir>/profile)")
    show = actions.add_parser(
        "show",
        help="write the profile (index.html, profile.md, profile.json) from the logs",
        description="Read the profile's logs (no model call) and write OUT/index.html, "
        "OUT/profile.md and OUT/profile.json.",
    )
    show.add_argument("log_dir", metavar="DIR", help="the log directory of `profile run`")
    show.add_argument("--out", required=True, metavar="DIR", help="output folder")
    show.add_argument("--seed", type=int, default=42, help="bootstrap seed (42)")
    show.add_argument("--resamples", type=int, default=2000, metavar="N", help="resamples (2000)")


def _warn(message: str) -> None:
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def _show(log_dir: str, out: str, seed: int = 42, resamples: int = 2000) -> int:
    from inspect_plural.profile._build import NoProfileLogsError, build_profile
    from inspect_plural.profile._render import write_profile

    started = time.perf_counter()
    try:
        profile = build_profile(log_dir, _warn, seed=seed, resamples=resamples)
    except NoProfileLogsError as ex:
        raise UserError(str(ex)) from ex
    written = write_profile(profile, out)
    seconds = time.perf_counter() - started
    demo = " (DEMO data)" if profile.demo else ""
    print(
        f"profile of {len(profile.models)} model(s){demo}: {len(profile.not_measured)} "
        f"cell(s) not measured; wrote {len(written)} files to {out} in {seconds:.1f}s"
    )
    return 0


def _run(args: argparse.Namespace) -> int:
    from inspect_plural.profile._plan import render_plan
    from inspect_plural.profile._run import run_profile

    if args.max_connections is not None and args.max_connections < 1:
        raise UserError("--max-connections must be at least 1")
    if args.max_tokens is not None and args.max_tokens < 1:
        raise UserError("--max-tokens must be at least 1")
    models = list(dict.fromkeys(args.model))
    result = run_profile(
        models,
        args.log_dir,
        args.budget,
        args.demo,
        dry_run=args.dry_run,
        max_connections=args.max_connections,
        max_tokens=args.max_tokens,
        reasoning=False if args.no_reasoning else None,
        model_roles=dict(args.model_role),
        only=args.only,
    )
    missing = [b for b in result.built if not b.measured]
    if args.dry_run:
        print(render_plan(result.plans, models))
        return 0
    for b in missing:
        print(f"{b.cell.key}: {b.missing}")
    outcome = "every task finished" if result.success else "not every task finished: run again"
    print(f"{result.logs} logs in {args.log_dir} ({outcome}).")
    _show(args.log_dir, args.out or str(Path(args.log_dir) / "profile"))
    return 0 if result.success else 1


def run_profile_command(args: argparse.Namespace) -> int:
    """Run ``profile run`` or ``profile show``; the exit status."""
    if args.action == "run":
        return _run(args)
    if args.resamples < 1:
        raise UserError("--resamples must be at least 1")
    return _show(args.log_dir, args.out, args.seed, args.resamples)
