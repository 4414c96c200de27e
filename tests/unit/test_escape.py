"""The one escaping module: Markdown, CSV, LaTeX and HTML text from data stays text."""

from __future__ import annotations

import html as std_html
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from inspect_plural._escape import csv_cell, html, latex, markdown

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "![i](javascript:alert(1))",
    "<javascript:alert(1)>",
    "`<b>`",
    "&lt;script&gt;",
    "\\<script>",
    "a\n<script>\r\nb",
]

MD = MarkdownIt("commonmark", {"html": True}).enable("table")
TAG = re.compile(r"<(script|img|a|b)\b", re.IGNORECASE)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_renders_no_tag_or_link(payload: str) -> None:
    text = markdown(payload)
    page = MD.render(f"# {text}\n\n- {text}\n\n| h | {text} |\n|---|---|\n| {text} | x |\n")
    assert not TAG.search(page), page
    assert "href" not in page


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("llm_judge", "llm_judge"),  # an underscore inside a word stays bare
        ("_x_", "\\_x\\_"),
        ("a|b", "a\\|b"),
        ("1. first", "1\\. first"),
        ("# title", "\\# title"),
        ("- item", "\\- item"),
        ("0.512", "0.512"),
        ("-0.25", "-0.25"),
    ],
)
def test_markdown_escapes_only_what_markdown_reads(text: str, shown: str) -> None:
    assert markdown(text) == shown


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp"))))
def test_markdown_shows_the_text_itself(text: str) -> None:
    """Rendered inline, the escaped text reads as the text (no markup took effect)."""
    rendered = MD.renderInline(markdown(text))
    assert std_html.unescape(rendered) == text


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-1+2", "'-1+2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("  =1", "'  =1"),
        ("<script>", "&lt;script&gt;"),
        ("plain", "plain"),
        ("-0.25", "-0.25"),  # numbers stay numbers, also as text
        ("1e-05", "1e-05"),
        ("-inf", "-inf"),
        (-0.25, -0.25),
        (3, 3),
        (None, ""),
    ],
)
def test_csv_cell(value: object, written: object) -> None:
    assert csv_cell(value) == written


def test_latex_specials_and_symbols() -> None:
    assert latex("a_b & 50% $ #1 {y}") == r"a\_b \& 50\% \$ \#1 \{y\}"
    assert latex("~^\\") == r"\textasciitilde{}\textasciicircum{}\textbackslash{}"
    assert latex("<b>") == r"\textless{}b\textgreater{}"
    assert latex("0.5† ρ") == r"0.5\textsuperscript{\dag} $\rho$"
    assert latex("中é\nx") == "?é x"


def test_html_escapes_quotes() -> None:
    assert html('<a href="x">\'') == "&lt;a href=&quot;x&quot;&gt;&#x27;"
