"""Long identifiers in the HTML report break at their separators, not between letters."""

from __future__ import annotations

from inspect_plural._escape import html
from inspect_plural.report._render_html import _breakable, _cell


def test_a_log_name_breaks_after_its_separators_only() -> None:
    name = "2026-11-27T17-18-27-00-00_convabuse_KzBo3gyZUWiYMwZ7AeVWaV.eval"
    cell = _cell(name)
    assert cell.startswith("<td>") and cell.count("<wbr>") == 9
    assert "convabuse_<wbr>KzBo3gyZUWiYMwZ7AeVWaV.<wbr>eval" in cell
    assert cell.replace("<wbr>", "") == f"<td>{name}</td>"  # the text itself is unchanged


def test_short_words_and_numbers_are_left_alone() -> None:
    assert _cell('label="hs", seed=42') == "<td>label=&quot;hs&quot;, seed=42</td>"
    assert _cell(123456789) == '<td class="num">123456789</td>'


def test_escaping_comes_first_and_survives() -> None:
    payload = "<script>alert('x')</script>/long_token_with_separators_inside.eval"
    out = _breakable(html(payload))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert out.replace("<wbr>", "") == html(payload)
