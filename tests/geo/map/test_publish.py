"""Tests for geo.map.publish: one self-contained HTML file of a story."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from geo.__main__ import main
from geo.map.publish import MAX_BYTES, publish_html
from geo.story.load import load_story
from tests.helpers import FIXTURES, copy_mini, replace

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def bundled_html() -> str:
    return publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017"))


def test_the_bundled_story_fits_in_one_small_file(bundled_html: str):
    assert len(bundled_html.encode()) <= MAX_BYTES


def test_the_file_asks_for_nothing_outside_itself(bundled_html: str):
    # No script, stylesheet or image from anywhere: everything is inline.
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", bundled_html)
    assert "connect-src 'none'" in bundled_html  # and the page may not fetch anything either
    assert bundled_html.count("<script>") == bundled_html.count("</script>")


def test_it_carries_the_title_chapters_and_sources(bundled_html: str):
    assert "<title>ISIS leaves the Lebanon–Syria border" in bundled_html
    assert '"chapters":[{"n":1' in bundled_html
    assert "Made with Dateline" in bundled_html
    assert "inherentresolve.mil" in bundled_html  # a source's address


def test_markup_in_the_story_stays_data(tmp_path: Path):
    dest = copy_mini(tmp_path)
    replace(
        dest / "story.toml", 'title = "Mini story for tests"', 'title = "<script>alert(1)</script>"'
    )
    replace(dest / "events.csv", "Buses leave Arsal.", "</script><img src=x onerror=alert(2)>")
    html = publish_html(load_story(dest))
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the <title>, escaped
    assert "\\u003c/script\\u003e\\u003cimg" in html  # the data, JSON-escaped


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["{mini}", "{out}"], 0),
        (["{chapters}", "{out}", "--chapter", "2"], 0),
        (["{chapters}", "{out}", "--chapter", "99"], 2),
        (["{nowhere}", "{out}"], 1),
    ],
)
def test_command_line(tmp_path: Path, args: list[str], code: int):
    paths = {
        "mini": str(FIXTURES / "stories" / "mini"),
        "chapters": str(FIXTURES / "stories" / "mini-chapters"),
        "nowhere": str(tmp_path / "missing"),
        "out": str(tmp_path / "out.html"),
    }
    assert main(["publish", *(a.format(**paths) for a in args)]) == code
    assert (tmp_path / "out.html").exists() == (code == 0)
