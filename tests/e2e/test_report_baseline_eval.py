"""The uniform baseline beside a chance model's distribution run (issue 34).

The report computes the uniform distribution's scores on the chance run's items from
their gold distributions; run for real, the ``uniform`` method gets the same numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from tests.conftest import FAST_LOG

from inspect_plural.report import build_report
from inspect_plural.report.sections._panel import UNIFORM_ROW

pytestmark = pytest.mark.e2e


def test_uniform_baseline_beside_the_chance_model_equals_a_uniform_run(tmp_path: Path) -> None:
    for method in ("llm_judge", "uniform"):
        [log] = eval(
            "inspect_plural/md_agreement",
            task_args={"demo": True, "target": "distribution", "method": method},
            model="plural/random",
            log_dir=str(tmp_path),
            display="none",
            **FAST_LOG,
        )
        assert log.status == "success"
    report = build_report(tmp_path, resamples=200, jobs=1, warn=lambda _: None)
    [table] = [t for t in report.tables if t.id == "lewidi__leaderboard"]
    rows = {row.labels: row.cells for row in table.rows}
    labels = [row.labels for row in table.rows]
    baseline = (f"{UNIFORM_ROW} [DEMO]", "(no model)")
    assert labels == [
        ("llm_judge [DEMO]", "plural/random"),
        baseline,
        ("uniform [DEMO]", "plural/random"),
    ]
    run = rows[("uniform [DEMO]", "plural/random")]
    assert [c.value for c in rows[baseline]] == pytest.approx([c.value for c in run])
    assert table.columns  # Manhattan, cross-entropy, micro-F1, error rate
    # the chance model answered, the uniform run did not: only the first gets a baseline
    assert sum(1 for log in report.logs if log.uniform is not None) == 1
