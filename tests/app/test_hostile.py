"""AppTest: a hostile story and hostile links show their text, never markup, and never crash."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import EVIL_HOST, hostile_story

ROOT = Path(__file__).resolve().parents[2]
# What markdown would turn into an element if data reached it unescaped.
# ("Held area" is the page's own chart heading, in the story's default words.)
MARKUP = re.compile(
    r"\*\*B|\]\(http|!\[I|<img|<b>T|<script|<svg|:red\[|^#+ H(?!eld area)|www\.\w+\.evil", re.M
)


@pytest.fixture(autouse=True)
def _stories(monkeypatch, tmp_path):
    hostile_story(tmp_path)
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(tmp_path))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def texts(at: AppTest) -> list[str]:
    """The markdown source of every element that renders markdown."""
    out = []
    for kind in ("markdown", "caption", "info", "warning", "error", "success", "subheader"):
        out += [e.value for e in getattr(at, kind)]
    for exp in at.expander:
        out.append(exp.label)
    return out


def run(**params: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    for k, v in params.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize(
    "sel", ["place:baalbek", "place:crossing", "convoy:c1", "convoy:c5", "front:lb-1", ""]
)
def test_hostile_story_renders_no_markup_from_data(sel: str):
    at = run(story="hostile", sel=sel, to="2017-08-31") if sel else run(story="hostile")
    shown = texts(at)
    leaks = [t for t in shown if MARKUP.search(t)]
    assert not leaks, leaks
    # The text itself is there (as character references).
    assert any("Btitle" in t for t in shown)
    assert not at.error


def test_a_summary_with_a_blank_line_stays_inside_its_html_block():
    at = run(story="hostile", sel="place:baalbek")
    blocks = [m.value for m in at.markdown if m.value.startswith('<div class="dl-detail">')]
    assert blocks
    for b in blocks:
        assert "\n" not in b and "\r" not in b


HOSTILE_LINKS = {
    "story": f"![x](http://{EVIL_HOST}/story.png)",
    "from": f"[click](http://{EVIL_HOST}/from)",
    "to": "**bold**",
    "cat": f"<img src=http://{EVIL_HOST}/cat>",
    "actor": f":red[x] www.{EVIL_HOST}",
    "layers": "$x$",
    "sel": "<script>alert(1)</script>" + "x" * 5000,
}


def test_hostile_link_gives_one_short_notice_of_text():
    at = run(**HOSTILE_LINKS)
    assert len(at.info) == 1
    notice = at.info[0].value
    assert not MARKUP.search(notice) and "](" not in notice and "<" not in notice, notice
    assert len(notice) < 2000


def test_hostile_story_charts_are_pictures_with_its_text_escaped():
    from tests.app.test_app import chart_pictures

    pictures = chart_pictures(run(story="hostile"))
    assert pictures
    for svg in pictures:
        assert "<script" not in svg and "foreignObject" not in svg and "href=" not in svg
        assert "<img" not in svg and "<b>" not in svg
