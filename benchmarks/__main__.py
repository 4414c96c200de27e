"""Entry point: ``python -m benchmarks [throughput|loading|methods|panels|perse] [--n N]
[--repeats R] [--limit L] [--json F]``."""

from __future__ import annotations

import argparse

from benchmarks.loading import MHS_ROWS
from benchmarks.loading import main as loading_main
from benchmarks.methods import main as methods_main
from benchmarks.panels import main as panels_main
from benchmarks.perse import main as perse_main
from benchmarks.throughput import main as throughput_main


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument(
        "which",
        nargs="?",
        default="throughput",
        choices=["throughput", "loading", "methods", "panels", "perse"],
    )
    parser.add_argument("--n", type=int, default=2000, help="samples per run")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, best kept")
    parser.add_argument("--rows", type=int, default=MHS_ROWS, help="MHS rows (loading)")
    parser.add_argument(
        "--limit", type=int, default=24, help="samples per demo run (methods; panels default 3)"
    )
    parser.add_argument(
        "--real-limit", type=int, default=None, help="samples of the real Brexit run (methods)"
    )
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args()
    if args.which == "perse":
        perse_main(json_path=args.json)
    elif args.which == "panels":
        panels_main(limit=args.limit if args.limit != 24 else 3, json_path=args.json)
    elif args.which == "methods":
        methods_main(limit=args.limit, json_path=args.json, real_limit=args.real_limit)
    elif args.which == "loading":
        loading_main(rows=args.rows, json_path=args.json)
    else:
        throughput_main(n=args.n, repeats=args.repeats, json_path=args.json)


if __name__ == "__main__":
    main()
