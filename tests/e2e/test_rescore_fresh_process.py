"""A distribution log scored again from the shell, in a fresh process, gives the same numbers.

Scorers read only what a sample stores (its keys, not the run's context), so
``inspect score`` needs neither the data nor the task; docs/analysis.md shows the
command, with the scorer's options the log records (issue 32 kept the samples small
under this constraint).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from inspect_ai import eval
from inspect_ai.log import EvalLog, read_eval_log

from inspect_plural.scorers._values import values_of
from inspect_plural.tasks import mp


def _metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {k: m.value for s in log.results.scores for k, m in s.metrics.items()}


def test_lewidi_preset_log_rescored_from_the_shell_is_identical(tmp_path: Path) -> None:
    task = mp(demo=True, target="distribution", method="uniform", metrics_preset="lewidi")
    [log] = eval(task, model="plural/random", limit=12, log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.samples
    # the options that change numbers are in the header, to be passed again
    [spec] = log.eval.scorers or []
    assert spec.name == "distribution_scorer" and spec.options
    assert {k: spec.options[k] for k in ("decimals", "normaliser", "hard_label")} == {
        "decimals": 5,
        "normaliser": "code",
        "hard_label": "file",
    }
    copy = tmp_path / "rescored.eval"
    shutil.copy(log.location, copy)
    command = [
        *(sys.executable, "-m", "inspect_ai", "score", str(copy), "--overwrite"),
        *("--action", "overwrite", "--display", "plain"),
        *("--scorer", "inspect_plural/distribution_scorer"),
        *("-S", "decimals=5", "-S", "normaliser=code", "-S", "hard_label=file"),
    ]
    env = {k: v for k, v in os.environ.items() if k != "INSPECT_PLURAL_DATA_DIR"}
    result = subprocess.run(
        command, capture_output=True, text=True, env=env, cwd=tmp_path, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    again = read_eval_log(str(copy))
    assert again.samples and len(again.samples) == len(log.samples)
    assert _metrics(again) == _metrics(log)
    before = {s.id: values_of(s.scores["distribution_scorer"]) for s in log.samples if s.scores}
    after = {s.id: values_of(s.scores["distribution_scorer"]) for s in again.samples if s.scores}
    assert after == before and any(k.startswith("rep/") for v in after.values() for k in v)
