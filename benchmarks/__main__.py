"""Entry point: ``python -m benchmarks [throughput] [--n N] [--repeats R]``."""

from __future__ import annotations

import argparse

from benchmarks.throughput import main as throughput_main


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks")
    parser.add_argument("which", nargs="?", default="throughput", choices=["throughput"])
    parser.add_argument("--n", type=int, default=2000, help="samples per run")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each, best kept")
    parser.add_argument("--json", default=None, help="write results to this JSON file")
    args = parser.parse_args()
    throughput_main(n=args.n, repeats=args.repeats, json_path=args.json)


if __name__ == "__main__":
    main()
