"""Tests for geo.extract.textclean: HTML and Markdown to plain text."""

from __future__ import annotations

import pytest

from geo.extract.textclean import detect_format, html_to_text, markdown_to_text, to_plain_text


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("<p>Beirut</p>", "html"),
        ("<!DOCTYPE html><html><body>x</body></html>", "html"),
        ("# Title\n\nBody", "markdown"),
        ("Some **bold** words", "markdown"),
        ("See [the map](https://example.org)", "markdown"),
        ("- item one\n- item two", "markdown"),
        ("BEIRUT – A convoy left on Monday.", "text"),
        ("Temperatures were 3 < 5 degrees.", "text"),
    ],
)
def test_detect_format(text: str, fmt: str) -> None:
    assert detect_format(text) == fmt


def test_html_drops_script_style_head_and_furniture() -> None:
    html = (
        "<html><head><title>Lahore</title><style>p{}/* Multan */</style></head><body>"
        "<nav>Home Peshawar</nav><p>Floods hit <b>Sukkur</b>.</p><script>x('Quetta')</script>"
        "<footer>Karachi desk</footer></body></html>"
    )
    text = html_to_text(html)
    assert text == "Floods hit Sukkur."


def test_html_paragraphs_and_entities() -> None:
    text = html_to_text("<h1>Head</h1><p>One&nbsp;&amp; two</p><p>Three<br>four</p>")
    assert text == "Head\n\nOne & two\n\nThree\nfour"


def test_html_self_closing_script_does_not_swallow_text() -> None:
    assert html_to_text("<p>Before<script/> after</p>") == "Before after"


@pytest.mark.parametrize(
    ("md", "plain"),
    [
        ("# Convoy stuck\n\nText", "Convoy stuck\n\nText"),
        ("The **western Qalamoun** region", "The western Qalamoun region"),
        ("an *eastern* push", "an eastern push"),
        ("[US-led coalition](https://x.org/c) said", "US-led coalition said"),
        ("- one\n- two", "one\ntwo"),
        ("> quoted words", "quoted words"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("`code` here", "code here"),
    ],
)
def test_markdown_to_text(md: str, plain: str) -> None:
    assert markdown_to_text(md) == plain


def test_plain_text_whitespace_tidied() -> None:
    text = "BEIRUT \u00a0– A convoy\r\n\r\n\r\n\r\nleft.  "
    assert to_plain_text(text) == "BEIRUT – A convoy\n\nleft."


def test_format_can_be_forced() -> None:
    assert to_plain_text("**not markdown**", "text") == "**not markdown**"
