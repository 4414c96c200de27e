"""No module of the package is over 400 lines (the project's layout rule, issue 33)."""

from __future__ import annotations

from pathlib import Path

import inspect_plural

MAX_LINES = 400


def test_no_module_is_over_400_lines() -> None:
    root = Path(inspect_plural.__file__).parent
    sizes = {
        str(path.relative_to(root)): len(path.read_text(encoding="utf-8").splitlines())
        for path in root.rglob("*.py")
    }
    assert len(sizes) > 250  # the whole package was found
    over = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not over, f"split these modules (at most {MAX_LINES} lines): {over}"
