"""Copy the register entries, with the repository and commit filled in, for a register PR.

The entries in ``register/<id>/eval.yaml`` are complete but for where the code lives:
``source.repository_url`` and ``source.repository_commit`` hold the placeholders below,
since neither is known before the commit to pin exists and is public. This writes a copy
of every entry with both filled in, laid out as the inspect_evals repository wants them
(``<out>/<id>/eval.yaml``, to copy into its ``register/`` folder). See docs/register.md.

    python tools/register_entries.py --repository-url https://github.com/OWNER/REPO \\
        --commit 0123456789abcdef0123456789abcdef01234567 --out /tmp/register
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

REGISTER = Path(__file__).resolve().parents[1] / "register"
URL_PLACEHOLDER = "https://github.com/REPLACE-OWNER/inspect_plural"
COMMIT_PLACEHOLDER = "REPLACE-WITH-THE-40-CHARACTER-COMMIT-SHA"
SHA = re.compile(r"^[0-9a-f]{40}$")
URL = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+$")


def stamp(text: str, repository_url: str, commit: str) -> str:
    """One entry's text with the placeholders replaced (each must occur exactly once)."""
    for placeholder in (URL_PLACEHOLDER, COMMIT_PLACEHOLDER):
        if text.count(placeholder) != 1:
            raise ValueError(f"expected the placeholder {placeholder!r} once")
    return text.replace(URL_PLACEHOLDER, repository_url).replace(COMMIT_PLACEHOLDER, commit)


def write_entries(repository_url: str, commit: str, out: Path, source: Path = REGISTER) -> int:
    """Write every entry of ``source`` to ``out/<id>/eval.yaml``, filled in.

    Returns:
        How many entries were written.

    Raises:
        ValueError: The commit is not a full SHA, the URL not a GitHub repository, or an
            entry lacks a placeholder.
    """
    if not SHA.fullmatch(commit):
        raise ValueError(f"--commit must be a full 40-character commit SHA, not {commit!r}")
    if not URL.fullmatch(repository_url):
        raise ValueError(
            f"--repository-url must be https://github.com/OWNER/REPO, not {repository_url!r}"
        )
    entries = sorted(source.glob("*/eval.yaml"))
    for entry in entries:
        target = out / entry.parent.name / "eval.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        text = entry.read_text(encoding="utf-8")
        target.write_text(stamp(text, repository_url, commit), encoding="utf-8")
    return len(entries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repository-url", required=True)
    parser.add_argument("--commit", required=True, help="the full SHA the entries pin")
    parser.add_argument("--out", required=True, type=Path, help="folder to write <id>/eval.yaml in")
    args = parser.parse_args(argv)
    try:
        count = write_entries(args.repository_url, args.commit, args.out)
    except ValueError as ex:
        print(f"error: {ex}", file=sys.stderr)
        return 2
    print(f"wrote {count} entries to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
