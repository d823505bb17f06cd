"""Untrusted text made safe for where it goes: ids, markdown/HTML on a page, spreadsheet cells."""

from __future__ import annotations

import math
import re
import string
from html import escape

SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,99}")
# Every ASCII punctuation character can start markdown (emphasis, links, images, autolinks,
# math, Streamlit's :colour[] directives) or HTML; as a numeric character reference it is
# only ever the character itself, in markdown and in HTML alike.
_PUNCT = re.compile("[" + re.escape(string.punctuation) + "]")
# Streamlit links bare addresses in text after markdown is parsed, so references do not stop it
# (GFM "autolink literals": http://, https://, www., name@host). An invisible WORD JOINER
# (U+2060) after the scheme or "www" and before "@" breaks the pattern; the text looks the same.
_AUTOLINK = re.compile(r"(?i)(https?|ftp|mailto|xmpp|www)(?=[:.])")
_JOINER = "\u2060"
_NEWLINES = re.compile(r"\r\n|\r|\n|\u2028|\u2029|\x0b|\x0c|\x85")
# Cells a spreadsheet would run as a formula (OWASP "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")


def is_slug(value: object) -> bool:
    """Whether ``value`` is an id: lowercase letters, digits and '-', at most 100 characters."""
    return isinstance(value, str) and SLUG.fullmatch(value) is not None


def _plain(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    try:
        import pandas as pd

        if value is pd.NA or value is pd.NaT:
            return ""
    except ImportError:  # pragma: no cover
        pass
    return str(value)


def literal(value: object, *, html: bool = False) -> str:
    """``value`` as markdown (or HTML) that shows exactly its text: no markup, link or image.

    Every ASCII punctuation character becomes a character reference, and bare addresses get an
    invisible word joiner so they are not linked. Newlines become ``<br>``
    with ``html=True`` (so a blank line cannot end an HTML block and start markdown), else a
    markdown hard break.
    """
    text = _AUTOLINK.sub(lambda m: m.group() + _JOINER, _plain(value)).replace("@", _JOINER + "@")
    text = _PUNCT.sub(lambda m: f"&#{ord(m.group())};", text)
    lines = _NEWLINES.split(text)
    if html:
        return "<br>".join(lines)
    # Leading spaces would make an indented code block; the text shows the same without them.
    return "  \n".join(line.lstrip() for line in lines)


def spreadsheet_cell(value: object) -> object:
    """A text cell a spreadsheet shows as text, never runs: a leading ``'`` before formulas."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def html_text(value: object) -> str:
    """Any value (None, NaN, numbers, text) as HTML that shows its text and nothing else."""
    return escape(_plain(value), quote=True)
