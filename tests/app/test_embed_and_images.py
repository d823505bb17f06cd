"""AppTest: *Copy embed code* gives the published file's <iframe> as text; a chapter's image
shows with its caption and credit."""

from __future__ import annotations

import html
from pathlib import Path

import pytest

from tests.helpers import app_run, copy_story, replace

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stories"
HOSTILE_TITLE = '"><script>alert(1)</script> **Bold** & [x](https://evil.example)'


@pytest.fixture(autouse=True)
def _stories(monkeypatch, tmp_path):
    folder = tmp_path / "stories"
    story = copy_story(FIXTURES / "mini-media", folder)
    title = HOSTILE_TITLE.replace('"', '\\"')
    replace(story / "story.toml", 'title = "Mini story with a chapter image, for tests"',
            f'title = "{title}"')  # fmt: skip
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def test_the_embed_code_is_text_in_a_code_box_with_the_title_escaped():
    at = app_run(story="mini-media")
    assert "Copy embed code" in [e.label for e in at.expander]
    [box] = [c for c in at.code if "<iframe" in c.value]
    assert box.language == "html"
    assert 'src="mini-media.html"' in box.value and 'loading="lazy"' in box.value
    assert f'title="Map: {html.escape(HOSTILE_TITLE, quote=True)}"' in box.value
    assert "<script>" not in box.value
    # Nothing on the page rendered the snippet as HTML.
    assert not any("<iframe" in m.value for m in at.markdown)


def _chapter_images(at) -> list:
    # The timeline's charts are images too; a chapter's has a caption.
    return [img for e in at.get("image") for img in e.proto.imgs if img.caption]


def test_a_chapter_image_shows_with_its_caption_and_credit():
    at = app_run(story="mini-media", chapter="2")
    [img] = _chapter_images(at)
    # Caption and credit, as markdown that shows only their text (',' as a reference).
    assert img.caption.startswith("Where the made&#45;up speech was given &#40;Credit&#58; Test")
    assert img.alt == "Where the made-up speech was given"
    assert img.url  # served by the media file manager, not inlined as HTML
    at = app_run(story="mini-media", chapter="1")  # a chapter without one shows none
    assert _chapter_images(at) == []
