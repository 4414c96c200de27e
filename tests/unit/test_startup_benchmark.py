"""The start-up benchmark's reading of ``python -X importtime`` output (benchmarks/startup.py)."""

from __future__ import annotations

from benchmarks.startup import summarise_importtime

OUTPUT = """\
import time: self [us] | cumulative | imported package
import time:     10000 |      10000 |       json.decoder
import time:     20000 |      30000 |     json
import time:    100000 |     100000 |       sklearn.utils
import time:    400000 |     500000 |     sklearn
import time:     50000 |     550000 |   inspect_plural.scorers._calibration
import time:    200000 |     200000 |   pandas
import time:    700000 |     700000 |   inspect_ai
import time:     30000 |    1480000 | inspect_plural._registry
unrelated line
"""


def test_the_costliest_third_party_imports_and_package_modules() -> None:
    profile = summarise_importtime(OUTPUT, top=3)
    assert profile["total_s"] == 1.48
    # top level only (sklearn.utils is inside sklearn), no inspect_ai, no standard library
    assert [(r["module"], r["cumulative_s"]) for r in profile["third_party"]] == [
        ("sklearn", 0.5),
        ("pandas", 0.2),
    ]
    assert [r["module"] for r in profile["package"]] == [
        "inspect_plural._registry",
        "inspect_plural.scorers._calibration",
    ]
