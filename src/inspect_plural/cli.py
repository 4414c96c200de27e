"""The ``inspect-plural`` command: work that runs outside ``inspect eval``.

Subcommands:

- ``demo``: every task of the suite on its demo data with the offline chance model
  (or any model), as one Inspect eval set in ``logs/demo``.
- ``personas``: create MAJ-Eval stakeholder personas from documents, once, and save
  them for ``-T personas=FILE``.
- ``report``: paper-shaped tables per family (rows are runs, 95% bootstrap intervals,
  n and failures beside every cell) and figures from a directory of logs, as Markdown,
  CSV and one HTML page.
- ``profile``: the pluralism profile: ``profile run`` runs its cells for every model
  (one eval set), ``profile show`` writes one page per profile (:mod:`inspect_plural.profile`).

Each subcommand is one ``_add_<name>`` function (its arguments) and one ``_run_<name>``
function (what it does, returning the exit status); :data:`COMMANDS` lists them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["COMMANDS", "build_parser", "main"]

PROG = "inspect-plural"


class CommandError(Exception):
    """A user error reported as ``inspect-plural <command>: error: ...`` (exit status 2)."""


def _model_arg(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as JSON when it parses (numbers, booleans)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    try:
        parsed: Any = json.loads(value)
    except ValueError:
        parsed = value
    return key.strip(), parsed


# --- personas -------------------------------------------------------------------------


def _add_personas(sub: Any) -> None:
    from inspect_plural.stakeholders import (
        DEFAULT_MAX_DOC_CHARS,
        PERSONA_SEED,
        PRESET_TASK_DESCRIPTIONS,
    )

    parser = sub.add_parser(
        "personas",
        help="create stakeholder personas from documents (MAJ-Eval), once per task",
        description=(
            "Extract stakeholders and their perspectives from each document, group them, "
            "and write one persona per perspective; save the persona file for "
            "`inspect eval ... -T personas=FILE`. Results are cached on disk "
            "($INSPECT_PLURAL_CACHE/personas, else ~/.cache/inspect_plural/personas)."
        ),
    )
    parser.add_argument(
        "documents", nargs="+", metavar="DOC", help="documents to read (.txt, .md; .pdf with pypdf)"
    )
    task = parser.add_mutually_exclusive_group(required=True)
    task.add_argument("--task", dest="task_text", metavar="TEXT", help="the evaluation task")
    task.add_argument("--task-file", metavar="FILE", help="a file holding the evaluation task")
    task.add_argument(
        "--preset",
        choices=sorted(PRESET_TASK_DESCRIPTIONS),
        help="use the task description shipped with this task",
    )
    parser.add_argument(
        "--task-name",
        metavar="NAME",
        help="the task name recorded in the file (default: the preset, else 'custom')",
    )
    parser.add_argument("--model", required=True, help="model, e.g. openai/gpt-4.1")
    parser.add_argument(
        "-M",
        dest="model_args",
        action="append",
        type=_model_arg,
        default=[],
        metavar="KEY=VALUE",
        help="model argument (repeatable)",
    )
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="persona file")
    parser.add_argument(
        "--max-doc-chars",
        type=int,
        default=DEFAULT_MAX_DOC_CHARS,
        metavar="N",
        help=f"split longer documents into parts of N characters (default {DEFAULT_MAX_DOC_CHARS})",
    )
    parser.add_argument("--prompts", metavar="DIR", help="folder of replacement prompt templates")
    parser.add_argument(
        "--seed",
        type=int,
        default=PERSONA_SEED,
        help=f"generation seed of every call, at temperature 0 (default {PERSONA_SEED}, "
        "maj_eval's default, so `-T persona_docs=...` finds the same cached set)",
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="create anew even if a cached result exists"
    )


def _task_description(args: argparse.Namespace) -> str:
    from inspect_plural.stakeholders import PRESET_TASK_DESCRIPTIONS

    if args.preset:
        return PRESET_TASK_DESCRIPTIONS[args.preset]
    if args.task_file:
        path = Path(args.task_file)
        if not path.is_file():
            raise CommandError(f"{path}: task file not found")
        text = path.read_text(encoding="utf-8").strip()
    else:
        text = str(args.task_text).strip()
    if not text:
        raise CommandError("the task description is empty")
    return text


def _run_personas(args: argparse.Namespace) -> int:
    from inspect_ai.model import get_model

    from inspect_plural.stakeholders import (
        PersonaCreationError,
        make_personas,
        persona_config,
        read_documents,
    )

    description = _task_description(args)
    if args.max_doc_chars < 1:
        raise CommandError("--max-doc-chars must be positive")
    try:
        documents = read_documents(args.documents)
    except (OSError, ValueError) as ex:
        raise CommandError(str(ex)) from ex
    try:
        model = get_model(  # inspect-evals-lint: ignore[IEBP001] -- a CLI command, no eval
            args.model, **dict(args.model_args)
        )
    except Exception as ex:  # an unknown provider, a missing package or API key
        raise CommandError(f"cannot use model {args.model!r}: {ex}") from ex
    try:
        persona_set, hit = make_personas(
            documents,
            description,
            task=args.task_name or args.preset or "custom",
            model=model,
            prompts=args.prompts,
            max_doc_chars=args.max_doc_chars,
            config=persona_config(args.seed),
            cache=not args.no_cache,
        )
    except PersonaCreationError as ex:
        raise CommandError(str(ex)) from ex
    path = persona_set.save(args.output)
    usage = persona_set.usage
    print(persona_set.summary())
    for note in persona_set.notes:
        print(f"note: {note}")
    if hit:
        print(
            f"from cache: 0 calls now (creating it took {usage.calls} calls, "
            f"{usage.total_tokens} tokens)"
        )
    else:
        print(
            f"{usage.calls} calls, {usage.input_tokens} input + {usage.output_tokens} output tokens"
        )
    print(f"wrote {path}: {len(persona_set.groups)} groups, {len(persona_set.personas)} personas")
    return 0


# --- demo -----------------------------------------------------------------------------


def _add_demo(sub: Any) -> None:
    from inspect_plural._demo import DEMO_RUNS, DEMO_TASKS

    parser = sub.add_parser(
        "demo",
        help="run every task on its demo data (offline), as one eval set",
        description=(
            "Run every task of the suite with -T demo=true as one `inspect eval-set` "
            "(rerun the same command to resume an interrupted set). The demo data is "
            "written for this package; nothing is downloaded. Then: `inspect view "
            "--log-dir LOG_DIR` and `inspect-plural report LOG_DIR --out report`."
        ),
    )
    parser.add_argument(
        "--model", default="plural/random", help="model (default: the offline chance model)"
    )
    parser.add_argument("--log-dir", default="logs/demo", help="log directory (logs/demo)")
    parser.add_argument(
        "--tasks",
        default=",".join([*DEMO_TASKS, *DEMO_RUNS]),
        metavar="LIST",
        help=f"comma-separated task names (default: all, and {', '.join(DEMO_RUNS)})",
    )
    parser.add_argument("--limit", type=int, metavar="N", help="samples per task (default: all)")
    parser.add_argument(
        "--max-connections", type=int, metavar="N", help="concurrent model connections"
    )


def _run_demo(args: argparse.Namespace) -> int:
    from inspect_plural._demo import DEMO_RUNS, DEMO_TASKS, run_demo

    tasks = [t.strip() for t in str(args.tasks).split(",") if t.strip()]
    known = [*DEMO_TASKS, *DEMO_RUNS]
    unknown = sorted(set(tasks) - set(known))
    if unknown:
        raise CommandError(f"unknown task(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    if args.limit is not None and args.limit < 1:
        raise CommandError("--limit must be at least 1")
    options = {} if args.max_connections is None else {"max_connections": args.max_connections}
    success, logs = run_demo(args.model, args.log_dir, tasks, args.limit, **options)
    outcome = "all tasks succeeded" if success else "not all succeeded: run again to resume"
    print(f"{logs} logs in {args.log_dir} ({outcome}).")
    print(f"Next: inspect view --log-dir {args.log_dir}")
    print(f"      {PROG} report {args.log_dir} --out report")
    return 0 if success else 1


# --- report ---------------------------------------------------------------------------


def _add_report(sub: Any) -> None:
    parser = sub.add_parser(
        "report",
        help="tables and figures from a directory of logs",
        description=(
            "Read every log under LOG_DIR (recursively; unfinished logs and logs without "
            "samples are skipped with a warning), keep one log per run configuration "
            "(repeats and cache replays are set aside with a note; demo runs are left out "
            "when real-data runs are present, unless --include-demo), and write the tables "
            "the papers print per family of logs (rows are runs; each cell a point "
            "estimate, its 95% bootstrap interval, n and failed answers, flagged above 10% "
            "failures), breakdowns, cost, PNG "
            "figures, and one HTML page with a table of contents."
        ),
    )
    parser.add_argument("log_dir", metavar="LOG_DIR", help="directory of Inspect logs")
    parser.add_argument("--out", required=True, metavar="DIR", help="output folder")
    parser.add_argument(
        "--format",
        "--formats",
        dest="formats",
        default="md,csv,html",
        metavar="LIST",
        help="comma-separated output formats: md, csv, html, latex (a booktabs .tex per "
        "headline table; default: md,csv,html)",
    )
    parser.add_argument(
        "--include-demo",
        action="store_true",
        help="show demo runs (-T demo=true) beside real-data runs, in rows marked DEMO "
        "(default: a folder with real-data runs shows only those)",
    )
    parser.add_argument("--seed", type=int, default=42, help="bootstrap seed (default 42)")
    parser.add_argument(
        "--resamples",
        type=int,
        default=2000,
        metavar="N",
        help="bootstrap resamples per cell (default 2000)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes for the cells and figures (default: the CPUs, at most 4)",
    )


def _run_report(args: argparse.Namespace) -> int:
    from inspect_plural.report import (
        NoLogsError,
        build_report,
        parse_formats,
        shown_path,
        write_report,
    )

    try:
        formats = parse_formats(args.formats)
    except ValueError as ex:
        raise CommandError(str(ex)) from ex
    if args.resamples < 1:
        raise CommandError("--resamples must be at least 1")
    if args.jobs is not None and args.jobs < 1:
        raise CommandError("--jobs must be at least 1")

    def warn(message: str) -> None:
        print(f"{PROG} report: warning: {message}", file=sys.stderr)

    try:
        report = build_report(
            args.log_dir,
            seed=args.seed,
            resamples=args.resamples,
            warn=warn,
            jobs=args.jobs,
            include_demo=args.include_demo,
        )
    except NoLogsError as ex:
        raise CommandError(str(ex)) from ex
    written = write_report(report, args.out, formats, warn=warn, jobs=args.jobs)
    figures = sum(1 for path in written if path.suffix == ".png")
    left = len(report.skipped)
    left_out = f" ({left} log{'s' if left != 1 else ''} left out)" if left else ""
    runs = len(report.logs)
    print(
        f"{runs} run{'s' if runs != 1 else ''}{left_out}, {len(report.tables)} tables, "
        f"{figures} figures: "
        f"wrote {len(written)} files to {shown_path(args.out)}"
    )
    return 0


# --- profile --------------------------------------------------------------------------


def _add_profile(sub: Any) -> None:
    from inspect_plural.profile._cli import add_profile

    add_profile(sub)


def _run_profile(args: argparse.Namespace) -> int:
    from inspect_plural.errors import UserError
    from inspect_plural.profile._cli import run_profile_command

    try:
        return run_profile_command(args)
    except UserError as ex:
        raise CommandError(str(ex)) from ex


# --- the command ----------------------------------------------------------------------

COMMANDS: dict[str, tuple[Callable[[Any], None], Callable[[argparse.Namespace], int]]] = {
    "demo": (_add_demo, _run_demo),
    "personas": (_add_personas, _run_personas),
    "profile": (_add_profile, _run_profile),
    "report": (_add_report, _run_report),
}
"""Subcommand name → (add its arguments, run it)."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="inspect_plural tools that run outside `inspect eval`."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add, _ in COMMANDS.values():
        add(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``inspect-plural``.

    Args:
        argv: The arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status (0 on success, 2 on a usage error).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    _, run = COMMANDS[args.command]
    try:
        return run(args)
    except CommandError as ex:
        command = " ".join(c for c in (args.command, getattr(args, "action", None)) if c)
        print(f"{PROG} {command}: error: {ex}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
