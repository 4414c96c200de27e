"""The profile's pages: every string from data, options or models is escaped; DEMO is said."""

from __future__ import annotations

import json
import re
from pathlib import Path

from markdown_it import MarkdownIt

from inspect_plural._escape import markdown
from inspect_plural.profile import (
    CellResult,
    Difference,
    ModeResult,
    NotMeasured,
    Profile,
    render_html,
    render_markdown,
    write_profile,
)

PAYLOAD = "<script>alert('x')</script>"
MODEL = f"evil/{PAYLOAD}|col"


def _profile(demo: bool) -> Profile:
    value = {"estimate": 0.5, "low": 0.4, "high": 0.6, "n": 20}
    summary = {
        mode: {MODEL: ModeResult(**value, mode=mode, model=MODEL, metric="m", chance=0.0)}
        for mode in ("steerable", "distributional", "jury", "role")
    }
    group = f"POLPARTY={PAYLOAD}"
    return Profile(
        demo=demo,
        models=[MODEL],
        budgets=["quick"],
        summary=summary,  # type: ignore[arg-type]
        cells={
            "steerable": [
                CellResult(
                    **value,
                    key="steerable/opinionqa/steerability",
                    mode="steerable",
                    group="opinionqa",
                    model=MODEL,
                    metric="gain",
                    logs=[f"/logs/{PAYLOAD}.eval"],
                    extra={
                        "styles": [PAYLOAD],
                        "groups": {
                            group: {"unsteered": 0.5, "steered": 0.6, "best_style": PAYLOAD}
                        },
                    },
                )
            ],
            "distributional": [
                CellResult(
                    **value,
                    key="distributional/opinionqa/representativeness",
                    mode="distributional",
                    group="opinionqa",
                    model=MODEL,
                    metric="rep",
                    extra={"worst_groups": [group], "groups": {group: value}},
                )
            ],
        },
        differences=[
            Difference(**value, mode="role", model_a=MODEL, model_b="plural/random", metric="m")
        ],
        not_measured=[NotMeasured(key="role/literary/role", mode="role", note=PAYLOAD)],
        notes=[PAYLOAD],
    )


def test_html_escapes_every_string_and_has_no_script() -> None:
    page = render_html(_profile(demo=False), Path("/out"))
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    assert 'href="../logs/%3Cscript%3E' in page  # the link target percent-encoded


def test_markdown_escapes_markup_html_and_table_separators() -> None:
    text = render_markdown(_profile(demo=False), Path("/out"))
    assert "<script" not in text.lower()
    assert "evil/&lt;script&gt;alert('x')&lt;/script&gt;\\|col" in text
    assert markdown(PAYLOAD) in text  # the package's one escaping module
    # rendered by markdown-it with HTML on, the payload is text: no tag is produced
    rendered = MarkdownIt("commonmark", {"html": True}).render(text)
    assert "<script" not in rendered.lower()
    # the summary row has as many cells as its header: the '|' from the model is escaped
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| model |"))
    cells = [len(re.split(r"(?<!\\)\|", line)) for line in lines[header : header + 3]]
    assert cells[0] == cells[1] == cells[2]


def test_demo_is_said_on_every_page_table_and_the_figure(tmp_path: Path) -> None:
    written = write_profile(_profile(demo=True), tmp_path)
    names = {p.name for p in written}
    assert names == {"index.html", "profile.md", "profile.json", "profile-DEMO.png"}
    page = (tmp_path / "index.html").read_text()
    markdown = (tmp_path / "profile.md").read_text()
    assert page.count("<h3>DEMO: ") == page.count("<h3>")
    assert all(
        line.startswith("### DEMO: ") for line in markdown.splitlines() if line.startswith("### ")
    )
    assert "DEMO" in page.split("</h1>")[0] and markdown.startswith("# DEMO")
    data = json.loads((tmp_path / "profile.json").read_text())
    assert data["demo"] is True
    assert set(data["modes"]) == {"steerable", "distributional", "jury", "role"}
    cell = data["modes"]["steerable"]["cells"][0]
    assert {"estimate", "low", "high", "n", "logs"} <= set(cell)
    plain = write_profile(_profile(demo=False), tmp_path / "real")
    assert "profile.png" in {p.name for p in plain}
    assert "DEMO" not in (tmp_path / "real" / "index.html").read_text()
