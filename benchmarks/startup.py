"""Start-up: what importing the package and ``inspect-plural --help`` cost against Inspect's own.

Every ``inspect eval inspect_plural/...`` imports ``inspect_plural._registry`` (the
package's ``inspect_ai`` entry point), and every ``inspect-plural`` command imports the
package, so this is paid on every run. Five commands, each in a fresh process, N rounds,
interleaved in a rotating order so that a phase of a loaded machine touches every command
alike; the median wall time of each, and the ratios issue 30 sets targets for:

- ``python -c "import inspect_plural._registry"`` / ``python -c "import inspect_ai"``
  (target at most 1.3): what the plugin adds to Inspect's own start-up, since Inspect
  loads every ``inspect_ai`` entry point once per process (at its hooks' start-up, and
  when it looks a task up);
- ``python -c "import inspect_plural"`` / ``python -c "import inspect_ai"`` (target at
  most 1.3): the package's public import;
- ``inspect-plural --help`` / ``inspect --help`` (target at most 1.3).

Then one ``python -X importtime -c "import inspect_plural._registry"``: the imports that
cost most, cumulative, outside Inspect's own (scikit-learn, pandas, scipy, ...) and the
package's own modules, so a regression points at its import.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TARGET = 1.3
"""Issue 30: each ratio at most this."""
ROUNDS = {True: 5, False: 15}
"""Fresh processes per command: quick, full."""
TOP = 12
"""Imports listed from the import-time profile."""


def _commands() -> dict[str, list[str]]:
    bin_dir = Path(sys.executable).parent
    return {
        "import inspect_plural._registry": [
            sys.executable,
            "-c",
            "import inspect_plural._registry",
        ],
        "import inspect_plural": [sys.executable, "-c", "import inspect_plural"],
        "import inspect_ai": [sys.executable, "-c", "import inspect_ai"],
        "inspect-plural --help": [str(bin_dir / "inspect-plural"), "--help"],
        "inspect --help": [str(bin_dir / "inspect"), "--help"],
    }


def _env() -> dict[str, str]:
    # nothing downloaded, no repository on the path; bytecode written by the warm-up, as a
    # user's install has it (pip compiles a wheel's modules; an editable install's are
    # compiled at first import): with PYTHONDONTWRITEBYTECODE every run would compile the
    # package's 250 modules again (about 0.7 s) while Inspect's come compiled
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    env.pop("PYTHONPATH", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _time(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, env=_env(), capture_output=True, check=True)
    return time.perf_counter() - start


def summarise_importtime(stderr: str, top: int = TOP) -> dict[str, Any]:
    """The costliest imports in ``python -X importtime`` output (cumulative times).

    Args:
        stderr: The output (lines ``import time: self | cumulative | name``, a module's
            depth in the import tree given by two spaces per level before its name).
        top: How many of each list.

    Returns:
        ``total_s`` (the largest cumulative time); ``third_party``: the costliest
        top-level modules outside ``inspect_ai``, the package and the standard library
        (a module is imported, and timed, once: where it is first needed); ``package``:
        the package's own modules with the largest cumulative times.
    """
    rows: list[tuple[int, str]] = []  # cumulative microseconds, name
    for line in stderr.splitlines():
        if not line.startswith("import time:") or line.count("|") != 2:
            continue
        _, cumulative, name = line.split("|")
        if cumulative.strip().isdigit():  # not the header
            rows.append((int(cumulative), name.strip()))
    third_party = sorted(
        (
            (c, n)
            for c, n in rows
            if not n.startswith(("inspect_ai", "inspect_plural", "_"))
            and "." not in n
            and n not in sys.stdlib_module_names
        ),
        reverse=True,
    )[:top]
    package = sorted(((c, n) for c, n in rows if n.startswith("inspect_plural")), reverse=True)
    return {
        "total_s": round(max((c for c, _ in rows), default=0) / 1e6, 2),
        "third_party": [{"module": n, "cumulative_s": round(c / 1e6, 2)} for c, n in third_party],
        "package": [{"module": n, "cumulative_s": round(c / 1e6, 2)} for c, n in package[:top]],
    }


def import_profile(module: str = "inspect_plural._registry", top: int = TOP) -> dict[str, Any]:
    """:func:`summarise_importtime` of ``python -X importtime -c "import <module>"``."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        cwd=os.path.expanduser("~"),
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    return summarise_importtime(done.stderr, top)


def run(quick: bool = False) -> dict[str, Any]:
    """Time the four commands, interleaved, and profile the package's imports."""
    commands = _commands()
    names = list(commands)
    cwd = os.path.expanduser("~")  # outside the repository
    for name in names:  # a warm-up each (bytecode compiled, files in the page cache)
        _time(commands[name], cwd)
    times: dict[str, list[float]] = {name: [] for name in names}
    rounds = ROUNDS[quick]
    for round_no in range(rounds):
        shift = round_no % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(_time(commands[name], cwd))
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratios = {
        "import": medians["import inspect_plural._registry"] / medians["import inspect_ai"],
        "import_package": medians["import inspect_plural"] / medians["import inspect_ai"],
        "help": medians["inspect-plural --help"] / medians["inspect --help"],
    }
    # the spread: each round's own ratio (its commands ran back to back)
    pairs = {
        "import": ("import inspect_plural._registry", "import inspect_ai"),
        "import_package": ("import inspect_plural", "import inspect_ai"),
        "help": ("inspect-plural --help", "inspect --help"),
    }
    per_round = {
        key: sorted(a / b for a, b in zip(times[num], times[den]))
        for key, (num, den) in pairs.items()
    }
    spread = {key: [round(v[0], 2), round(v[-1], 2)] for key, v in per_round.items()}
    result: dict[str, Any] = {
        "rounds": rounds,
        "ratio_spread": spread,
        "median_s": {k: round(v, 3) for k, v in medians.items()},
        "times_s": {k: [round(x, 3) for x in v] for k, v in times.items()},
        "ratio_import": round(ratios["import"], 2),
        "ratio_import_package": round(ratios["import_package"], 2),
        "ratio_help": round(ratios["help"], 2),
        "target": TARGET,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "profile": import_profile(),
    }
    print(f"== start-up ({rounds} fresh processes each, interleaved; median wall time)")
    for name, value in medians.items():
        print(f"  {name:<36} {value:6.2f} s")
    print(
        f"  import ratio {ratios['import']:.2f} (_registry), "
        f"{ratios['import_package']:.2f} (package); --help ratio {ratios['help']:.2f} "
        f"(target <= {TARGET})"
    )
    print(
        "  per-round ratios, min-max: "
        + ", ".join(f"{key} {lo:.2f}-{hi:.2f}" for key, (lo, hi) in spread.items())
    )
    print("  costliest imports of inspect_plural._registry outside Inspect (cumulative):")
    for row in result["profile"]["third_party"]:
        print(f"    {row['module']:<28} {row['cumulative_s']:5.2f} s")
    return result


def summary(result: dict[str, Any]) -> list[str]:
    """One line for the suite's summary."""
    keys = ("ratio_import", "ratio_import_package", "ratio_help")
    verdict = {k: "ok" if result.get(k, 0) <= result["target"] else "OVER TARGET" for k in keys}
    return [
        f"start-up: import _registry {result['ratio_import']:.2f}x inspect_ai "
        f"({verdict['ratio_import']}), import inspect_plural "
        f"{result.get('ratio_import_package', float('nan')):.2f}x "
        f"({verdict['ratio_import_package']}), --help {result['ratio_help']:.2f}x inspect "
        f"--help ({verdict['ratio_help']}); target <= {result['target']} "
        f"(load {result['load_average']})"
    ]
