"""Fuzzing of every parser of model answers: seeded generated outputs, no exception escapes.

Six parser families, each fed the same number of generated outputs:

- ``distribution``: a probability distribution over candidate names (PersonaEval's role
  identification and the annotator-level ``distribution`` answers): ``parse_distribution``
  (``parse_answer(..., "distribution")`` adds only the top-1 label; the hypothesis tests
  cover it).
- ``labels``: one label of a scale (annotator-level judges, character validation):
  ``parse_answer(..., "label")`` (``parse_label`` and ``extract_field``) and
  ``parse_verdict``.
- ``ratings``: 1-5 scores per dimension (MAJ-Eval, ChatEval, G-Eval): ``parse_scores``,
  ``parse_score_lines``, ``parse_bare_score`` / ``sample_mean_score`` and
  ``weighted_score`` over the output's tokens.
- ``debate``: a MAJ-Eval persona's turn (scores, ``NO MORE COMMENTS``, feedback), the
  moderator's pick (``parse_moderator_pick``, with the code's fallback speaker), the
  aggregator's synthesis, and a ChatEval referee's score lines.
- ``perse``: PERSE's review-and-score JSON (``parse_review``) and pairwise choice
  (``parse_choice``).
- ``stakeholders``: MAJ-Eval's persona construction (``parse_extraction``,
  ``parse_grouping``, ``parse_personas``).

Outputs come from a seeded generator: well-formed answers of each family's format
(among them ranked lists and free-text answers naming one option, echoed templates
such as ``"<1-5>"`` and ranges that must never be scores, and turns that end with, open
with or question the termination phrase),
the same mutated (spans deleted or repeated, pieces of JSON, unicode and adversarial
numbers inserted), truncated or spliced, hand-built structured-ish objects (repeated
keys, names that are prefixes of each other, huge numbers, NaN/inf, out-of-range
values, wrappers), deep nesting, and random unicode. Every parser's documented failure
mode is a returned failure, never an exception: any exception is counted (must be 0),
and so is any result that breaks the family's invariants (distributions non-negative
summing to 1, labels in the label set, scores in the scale, speakers among the
candidates, ``read_as`` set exactly when an answer parsed, a free-text distribution
one-hot, a ranked one positive with a single top option, a turn ending with the
termination phrase done...).

The generated outputs include :data:`benchmarks._generator.REAL_ANSWERS`, answers real
models wrote that a parser once misread (hedges, other scales, cut-off JSON, copied
examples). Then :func:`long_answer_times` times the parsers on long answers (1,000 to
40,000 JSON objects, and prose of the same lengths): parsing is linear in the length
read and reads at most :data:`inspect_plural.parsing.MAX_ANSWER_CHARS` characters, so
the time per doubling must stay near 2x below the cap and flat above it (issue 29,
item 10: 0.47 / 1.07 / 3.73 s at 5k / 10k / 20k objects before).

The families (contexts, answer writers, parsers and their invariants) are in
:mod:`benchmarks.families`, the generator in :mod:`benchmarks._generator`; this module
runs them.

Usage: ``python -m benchmarks.fuzz [--n N] [--seed S] [--json PATH]``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from benchmarks._generator import generate_output
from benchmarks.families import FAMILIES, Family, Violation
from inspect_plural.parsing import parse_distribution, parse_label
from inspect_plural.rating_parsing import parse_scores
from inspect_plural.records import RatingDimension

__all__ = [
    "FAMILIES",
    "Family",
    "ParserResult",
    "Violation",
    "fuzz_family",
    "long_answer_times",
    "run",
    "summary",
]

FULL_OUTPUTS = 10_000
QUICK_OUTPUTS = 1_000
SEED = 0
MAX_EXAMPLES = 5
"""Findings (exceptions, invariant violations) kept per parser."""

C = TypeVar("C")


@dataclass
class Finding:
    """An exception or an invariant violation, with the input that caused it."""

    kind: str
    parser: str
    input: str
    error: str


@dataclass
class ParserResult:
    """Counts of one parser over a family's outputs."""

    family: str
    parser: str
    outputs: int = 0
    parsed: int = 0
    failures: int = 0
    exceptions: int = 0
    violations: int = 0
    seconds: float = 0.0
    findings: list[Finding] = field(default_factory=list)


def _finding(kind: str, parser: str, text: str, ex: BaseException) -> Finding:
    shown = text if len(text) <= 300 else f"{text[:300]}... ({len(text)} chars)"
    error = "".join(traceback.format_exception(type(ex), ex, ex.__traceback__)[-3:])
    return Finding(kind=kind, parser=parser, input=repr(shown), error=error[-1500:])


def _writer(family: Family[C], ctx: C) -> Callable[[random.Random], str]:
    """The family's well-formed answer writer, bound to one context."""
    return lambda rng: family.valid(rng, ctx)


def fuzz_family(family: Family[Any], n: int, seed: int = SEED) -> list[ParserResult]:
    """Run every parser of a family on ``n`` generated outputs.

    Args:
        family: The family.
        n: Outputs to generate.
        seed: Seed of the generator (the family's name is mixed in).

    Returns:
        One result per parser.
    """
    rng = random.Random(f"{seed}:{family.name}")
    results = [ParserResult(family.name, name) for name, _ in family.parsers]
    for _ in range(n):
        ctx = rng.choice(family.contexts)
        text = generate_output(rng, _writer(family, ctx), family.keys(ctx))
        for result, (name, parser) in zip(results, family.parsers):
            result.outputs += 1
            start = time.perf_counter()
            try:
                ok = parser(text, ctx)
            except Violation as ex:
                result.violations += 1
                if len(result.findings) < MAX_EXAMPLES:
                    result.findings.append(_finding("violation", name, text, ex))
            except Exception as ex:  # the point: nothing may escape a parser
                result.exceptions += 1
                if len(result.findings) < MAX_EXAMPLES:
                    result.findings.append(_finding("exception", name, text, ex))
            else:
                if ok:
                    result.parsed += 1
                else:
                    result.failures += 1
            result.seconds += time.perf_counter() - start
    return results


def _table(results: Sequence[ParserResult]) -> str:
    header = (
        f"{'family':<13}{'parser':<30}{'outputs':>8}{'parsed':>8}{'failures':>9}"
        f"{'exceptions':>11}{'violations':>11}{'s':>7}"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        lines.append(
            f"{r.family:<13}{r.parser:<30}{r.outputs:>8}{r.parsed:>8}{r.failures:>9}"
            f"{r.exceptions:>11}{r.violations:>11}{r.seconds:>7.2f}"
        )
    return "\n".join(lines)


LONG_SIZES = (1_000, 2_000, 4_000, 20_000, 40_000)
"""Repeats of a piece in the long answers (objects, or sentences of prose)."""
_OPTIONS = ["Jonah Carrow", "Maren Holloway", "Tobias Wren", "Ilse Marsh"]
_DIMS = [RatingDimension(name="overall", title="Overall", description="d", low=1, high=5)]
_LONG_PIECES = {
    "objects": '{"x": 1} ',
    "named objects": '{"Jonah Carrow": 2} ',
    "prose": "I think it is Jonah Carrow, not Maren Holloway. {} ",
}
_LONG_PARSERS: dict[str, Callable[[str], object]] = {
    "parse_distribution": lambda text: parse_distribution(text, _OPTIONS),
    "parse_label": lambda text: parse_label(text, _OPTIONS),
    "parse_scores": lambda text: parse_scores(text, _DIMS),
}


def long_answer_times(sizes: Sequence[int] = LONG_SIZES) -> list[dict[str, Any]]:
    """Seconds each parser takes on long answers (the best of three runs).

    Args:
        sizes: How many times each piece repeats.

    Returns:
        One row per parser, piece and size: ``chars`` and ``seconds``.
    """
    rows = []
    for piece_name, piece in _LONG_PIECES.items():
        for parser_name, parser in _LONG_PARSERS.items():
            for size in sizes:
                text = piece * size
                best = math.inf
                for _ in range(3):
                    start = time.perf_counter()
                    parser(text)
                    best = min(best, time.perf_counter() - start)
                rows.append(
                    {
                        "piece": piece_name,
                        "parser": parser_name,
                        "repeats": size,
                        "chars": len(text),
                        "seconds": round(best, 4),
                    }
                )
    return rows


def _long_table(rows: Sequence[dict[str, Any]]) -> str:
    sizes = sorted({r["repeats"] for r in rows})
    header = f"{'answer':<15}{'parser':<20}" + "".join(f"{s:>10,}" for s in sizes)
    lines = [header, "-" * len(header)]
    keys = dict.fromkeys((r["piece"], r["parser"]) for r in rows)
    for piece, parser in keys:
        times = {
            r["repeats"]: r["seconds"] for r in rows if (r["piece"], r["parser"]) == (piece, parser)
        }
        lines.append(f"{piece:<15}{parser:<20}" + "".join(f"{times[s]:>10.3f}" for s in sizes))
    return "\n".join(lines)


def run(quick: bool = False, n: int | None = None, seed: int = SEED) -> dict[str, Any]:
    """Fuzz every parser family, print the table, return the counts.

    Args:
        quick: 1,000 outputs per family instead of 10,000.
        n: Outputs per family (overrides ``quick``).
        seed: Seed of the generator.

    Returns:
        Per parser: outputs, parsed, documented failures, exceptions, invariant
        violations, seconds and up to five findings; and the totals.
    """
    count = n if n is not None else (QUICK_OUTPUTS if quick else FULL_OUTPUTS)
    print(f"== Fuzzing: {len(FAMILIES)} parser families x {count} generated outputs (seed {seed})")
    start, cpu_start = time.perf_counter(), time.process_time()
    results = [r for family in FAMILIES for r in fuzz_family(family, count, seed)]
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    print(_table(results))
    for finding in (f for r in results for f in r.findings):
        print(f"\n{finding.kind} in {finding.parser} on {finding.input}:\n{finding.error}")
    exceptions = sum(r.exceptions for r in results)
    violations = sum(r.violations for r in results)
    print(
        f"total: {exceptions} exceptions, {violations} invariant violations, "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU (generation included)"
    )
    sizes = LONG_SIZES[:2] if quick else LONG_SIZES
    long = long_answer_times(sizes)
    print("\n== Parsing long answers: seconds by repeats of a piece (best of 3)")
    print(_long_table(long))
    return {
        "long_answers": long,
        "long_answer_max_s": max(r["seconds"] for r in long),
        "families": len(FAMILIES),
        "parsers": len(results),
        "outputs_per_family": count,
        "seed": seed,
        "exceptions": exceptions,
        "violations": violations,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
        "results": [{**asdict(r), "seconds": round(r.seconds, 3)} for r in results],
    }


def summary(result: dict[str, Any]) -> list[str]:
    """One-line results for the suite's summary table.

    Args:
        result: What :func:`run` returned.

    Returns:
        The lines.
    """
    return [
        f"fuzz: {result['families']} parser families ({result['parsers']} parsers) x "
        f"{result['outputs_per_family']} outputs, {result['exceptions']} exceptions",
        f"fuzz invariant violations: {result['violations']}",
        f"fuzz wall s: {result['wall_s']} (CPU {result['cpu_s']})",
        f"fuzz longest parse of a long answer s: {result['long_answer_max_s']}",
    ]


def main() -> None:
    """Command line: ``python -m benchmarks.fuzz [--n N] [--seed S] [--json PATH]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fuzz")
    parser.add_argument("--n", type=int, default=FULL_OUTPUTS, help="outputs per family")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args()
    result = run(n=args.n, seed=args.seed)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
