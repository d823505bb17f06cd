"""geo.names: ids, literal text for markdown and HTML, spreadsheet cells."""

from __future__ import annotations

import html
import re

import pytest

from geo.names import html_text, is_slug, literal, one_line, spreadsheet_cell


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("baalbek", True),
        ("lb-0822", True),
        ("a" * 100, True),
        ("a" * 101, False),
        ("-x", False),
        ("Baalbek", False),
        ("<img src=x onerror=alert(1)>", False),
        ("x\n", False),
        ("", False),
        (5, False),
        (None, False),
    ],
)
def test_is_slug(value, ok):
    assert is_slug(value) is ok


@pytest.mark.parametrize(
    "text",
    [
        "**bold**",
        "[link](http://evil.example)",
        "![img](http://evil.example/i.png)",
        "<img src=x onerror=alert(1)>",
        ":red[text]",
        "$x^2$",
        "www.evil.example",
        "see https://evil.example/x or mail a@evil.example",
        "a\n\n# heading",
        "a\r\rb",
        "`code`",
        "    indented",
        "1. list",
        "- item",
        "> quote",
        "a_b_c",
        "~~strike~~",
        "&amp; literal",
    ],
)
@pytest.mark.parametrize("as_html", [False, True])
def test_literal_keeps_no_markup_character(text: str, as_html: bool):
    out = literal(text, html=as_html)
    # No markdown or HTML punctuation survives raw: only letters, digits, spaces, references.
    bare = out.replace("<br>", "").replace("  \n", "")
    assert all(c.isalnum() or c in " &#;\u2060" for c in bare), out
    lines = text.replace("\r\r", "\n\n").split("\n")
    seen = html.unescape(out).replace("\u2060", "")  # the joiners are invisible
    if as_html:
        assert seen == "<br>".join(lines)
    else:
        assert seen == "  \n".join(line.lstrip() for line in lines)


@pytest.mark.parametrize(
    ("value", "shown"),
    [(None, ""), (float("nan"), ""), (5, "5"), ("<b>", "&lt;b&gt;"), ('"', "&quot;")],
)
def test_html_text(value, shown):
    assert html_text(value) == shown


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("+1", "'+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("plain", "plain"),
        ("", ""),
        (-5, -5),
        (None, None),
    ],
)
def test_spreadsheet_cell(value, cell):
    assert spreadsheet_cell(value) == cell


@pytest.mark.parametrize(
    "text", ["http://evil.example", "HTTPS://evil.example", "www.evil.example", "a@evil.example"]
)
def test_literal_breaks_bare_addresses(text: str):
    # What Streamlit's autolinking matches, on the text after references are decoded.
    decoded = html.unescape(literal(text))
    gfm = r"(https?://|www\.)[-.\w]+|[-.\w+]+@[-\w]+(\.[-\w]+)+"
    assert not re.search(gfm, decoded, re.I)


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("show", [literal, html_text, one_line])
def test_bidi_controls_never_reach_the_page(show):
    shown = show(f"Baalbek{BIDI} celebrates \u202eesrever")
    assert not any(c in shown for c in BIDI)
    assert "Baalbek" in shown and "esrever" in shown


def test_arabic_and_hebrew_letters_are_kept():
    assert one_line("بعلبك and עברית") == "بعلبك and עברית"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\u2028b", "a b"),
        ("a\u2029b", "a b"),
        ("  a \n\n b\x85c ", "a b c"),
        ("\u202e", ""),
    ],
)
def test_one_line_folds_every_line_break(text, expected):
    assert one_line(text) == expected
