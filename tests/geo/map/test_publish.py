"""Tests for geo.map.publish: one self-contained HTML file of a story."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from geo.__main__ import main
from geo.map.publish import MAX_BYTES, embed_code, publish_html
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


HOSTILE_TITLES = [
    '"><script>alert(1)</script>',
    "' onload='alert(1)",
    "A & B <b>bold</b>",
    'Line one\nline two" data-x="1',
    "\u202eevil\u202c title `x` {{y}}",
]


def _attributes(snippet: str) -> dict[str, str]:
    """The iframe's attributes as an HTML parser reads them."""
    from html.parser import HTMLParser

    found: dict[str, str] = {}

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if tag == "iframe":
                found.update({k: v or "" for k, v in attrs})

    Parser().feed(snippet)
    return found


@pytest.mark.parametrize("title", HOSTILE_TITLES)
def test_the_embed_code_keeps_a_hostile_title_inside_its_attribute(title: str):
    snippet = embed_code(title, "story.html")
    attrs = _attributes(snippet)
    # Exactly the attributes we wrote: the title could not add one or end the tag.
    assert set(attrs) == {
        "src", "title", "loading", "width", "height", "allow", "allowfullscreen", "sandbox",
        "referrerpolicy", "style",
    }  # fmt: skip
    assert attrs["title"] == "Map: " + " ".join(
        title.replace("\u202e", "").replace("\u202c", "").split()
    )
    assert attrs["src"] == "story.html" and attrs["loading"] == "lazy"
    assert "<script" not in snippet and "<b>" not in snippet
    assert snippet.count("<iframe") == 1 and snippet.count("</iframe>") == 1


def test_the_embed_code_is_a_full_width_frame_in_a_sized_wrapper():
    snippet = embed_code("Qalamoun", "https://example.org/maps/qalamoun-2017.html")
    assert snippet.startswith('<div style="position:relative;width:100%;height:min(85vh, 760px)')
    attrs = _attributes(snippet)
    assert attrs["src"] == "https://example.org/maps/qalamoun-2017.html"
    assert attrs["width"] == "100%" and "allow-scripts" in attrs["sandbox"]
    assert "allow-same-origin" not in attrs["sandbox"]  # the file needs no origin of its own


@pytest.mark.parametrize("src", ["javascript:alert(1)", " JavaScript:x", "data:text/html,x", ""])
def test_the_embed_code_refuses_an_address_that_is_not_a_file_or_web_page(src: str):
    with pytest.raises(ValueError, match="file name or an http"):
        embed_code("t", src)


def test_a_chapter_image_is_embedded_as_data_and_a_broken_one_is_left_out(tmp_path: Path):
    dest = tmp_path / "mini-media"
    shutil.copytree(FIXTURES / "stories" / "mini-media", dest)
    story = load_story(dest)
    html = publish_html(story)
    assert '"image":{"src":"data:image/png;base64,iVBORw0KGgo' in html
    assert '"credit":"Test fixture drawing, CC0","w":240,"h":160}' in html
    assert "img-src data:" in html  # the page's policy lets it show, and nothing else
    assert not re.search(r"<img[^>]+src=", html)  # drawn by the page's script, as data
    # A picture broken after the story loaded: the chapter goes without it, no traceback.
    (dest / "speech.png").write_bytes(b"<svg onload=alert(1)>")
    html = publish_html(story)
    assert '"image":null' in html and "onload=alert" not in html
