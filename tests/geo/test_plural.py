"""Counts are written with one helper: no "1 events", "2 event(s)" or "8 summary(ies)"."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

from geo.map.text import noun, plural

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("n", "word", "many", "expected"),
    [
        (0, "event", None, "0 events"),
        (1, "event", None, "1 event"),
        (2, "event", None, "2 events"),
        (1204, "event", None, "1,204 events"),
        (1, "summary", "summaries", "1 summary"),
        (8, "summary", "summaries", "8 summaries"),
        (1, "more problem", None, "1 more problem"),
        (7, "more line", None, "7 more lines"),
        (1, "property", "properties", "1 property"),
        (3, "property", "properties", "3 properties"),
    ],
)
def test_plural(n, word, many, expected):
    assert plural(n, word, many) == expected


@pytest.mark.parametrize(
    ("n", "expected"), [(0, "columns"), (1, "column"), (2, "columns"), (-1, "columns")]
)
def test_noun(n, expected):
    assert noun(n, "column") == expected


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a Python or JavaScript file, with their line numbers."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        return [(t.start[0], t.string) for t in tokens if t.type == tokenize.STRING]
    return [
        (n, m.group())
        for n, line in enumerate(text.splitlines(), 1)
        for m in re.finditer(r"'[^']*'|\"[^\"]*\"", line)
    ]


def test_no_hedged_plural_is_left_in_the_code():
    """No text for the reader says 'word(s)' or 'word(ies)' any more (code's own calls, like
    ``draw(s)``, are not strings and are not looked at)."""
    hedged = re.compile(r"[a-z]\((?:s|ies|es)\)(?!})")  # not f"{call(s)}"
    files = [ROOT / "app.py"] + [
        path
        for folder in ("dashboard", "geo", "pages")
        for path in (ROOT / folder).rglob("*")
        if path.suffix in (".py", ".js") and "vendor" not in path.parts
    ]
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        for n, text in _strings(path)
        if hedged.search(text)
    ]
    assert found == []
