"""End-to-end: the published one-file map on a phone and on a big screen, a chapter's image in
it and in the dashboard, and the embed code's frame, all with no network."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from geo.map.publish import embed_code, publish_html
from geo.story.load import load_story
from tests.e2e.appserver import start_server, stop_server
from tests.e2e.conftest import ROOT

pytestmark = pytest.mark.e2e

BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
MEDIA = ROOT / "tests" / "fixtures" / "stories" / "mini-media"
CREDIT = "Credit: Test fixture drawing, CC0"
# Widths from a small phone to a big screen, each with a usual height.
SCREENS = [(320, 568), (390, 844), (1280, 720), (1920, 1080)]


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("published")
    out = {
        "bundled": folder / "qalamoun-2017.html",
        "media": folder / "mini-media.html",
        "host": folder / "article.html",
    }
    out["bundled"].write_text(publish_html(load_story(BUNDLED)), encoding="utf-8")
    out["media"].write_text(publish_html(load_story(MEDIA), chapter=2), encoding="utf-8")
    # An article that embeds the published file with the code the dashboard gives.
    snippet = embed_code('A "hostile" <title> & more', "qalamoun-2017.html")
    out["host"].write_text(
        f"<!DOCTYPE html><html><body><h1>An article</h1><p>Text.</p>{snippet}</body></html>",
        encoding="utf-8",
    )
    return out


def layout(page) -> dict:
    return page.evaluate(
        """() => {
            const m = document.getElementById('dl-map').getBoundingClientRect();
            return {top: m.top, height: m.height, width: m.width,
                    scroll: document.documentElement.scrollWidth, view: window.innerWidth,
                    viewHeight: window.innerHeight};
        }"""
    )


def assert_fits(page, size: tuple[int, int]) -> None:
    box = layout(page)
    assert (box["view"], box["viewHeight"]) == size
    # The map is the first screen: it starts near the top and takes at least half of it.
    assert 0 <= box["top"] < 0.3 * size[1], box
    assert box["height"] >= 0.5 * size[1], box
    assert box["width"] >= 0.6 * size[0], box
    # Nothing wider than the screen (no sideways scrolling).
    assert box["scroll"] <= size[0], box


@pytest.mark.parametrize("size", SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_map_is_the_first_screen_and_nothing_overflows(file_page, files, size):
    opened = file_page(files["bundled"], size)
    page, asked, errors = opened.page, opened.asked, opened.errors
    expect(page.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    assert_fits(page, size)
    # A chapter's long title in the picker and its text must not widen the page either.
    page.get_by_role("button", name="Next ›").click()
    expect(page.locator("#dl-chapter")).to_contain_text("1. The last ISIS enclave on the border")
    page.locator("#dl-chapters select").select_option("8")
    expect(page.locator("#dl-chapter summary")).to_contain_text("8. ")
    assert_fits(page, size)
    # The summary is there, below or beside the map, and folds.
    about = page.locator("details.dl-about")
    expect(about).to_have_attribute("open", "")
    about.locator("summary").click()
    expect(about).not_to_have_attribute("open", "")
    assert asked == [files["bundled"].as_uri()], asked  # the file itself, nothing else
    assert not errors, errors


@pytest.mark.parametrize("size", [(390, 844), (1280, 720)], ids=["phone", "laptop"])
def test_a_chapter_image_shows_with_its_credit_in_the_published_file(file_page, files, size):
    opened = file_page(files["media"], size)
    page, asked, errors = opened.page, opened.asked, opened.errors
    figure = page.locator("#dl-chapter figure")
    image = figure.locator("img")
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible(timeout=30_000)
    expect(image).to_have_attribute("alt", "Where the made-up speech was given")
    expect(figure.locator("figcaption")).to_have_text(
        "Where the made-up speech was given " + CREDIT
    )
    # Decoded from the file itself (a data: address), at its own size or narrower.
    assert image.evaluate("i => i.complete && i.naturalWidth") == 240
    assert image.get_attribute("src").startswith("data:image/png;base64,")
    assert image.evaluate("i => i.getBoundingClientRect().width") <= size[0]
    assert_fits(page, size)
    # The next chapter has no image.
    page.get_by_role("button", name="Next ›").click()
    expect(page.locator("#dl-chapter summary")).to_contain_text("3. ")
    expect(figure).to_have_count(0)
    assert asked == [files["media"].as_uri()], asked
    assert not errors, errors


def test_the_embed_code_shows_the_map_inside_an_article(file_page, files):
    opened = file_page(files["host"], (1280, 720))
    page, asked, errors = opened.page, opened.asked, opened.errors
    frame_el = page.locator("iframe")
    expect(frame_el).to_have_attribute("title", 'Map: A "hostile" <title> & more')
    frame = page.frame_locator("iframe")
    expect(frame.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    box = frame_el.bounding_box()
    assert box["width"] > 1200 and box["height"] >= 420, box
    # Inside the frame too, the map is the first thing and nothing overflows.
    inner = frame.locator("html").evaluate(
        "h => [h.scrollWidth, window.innerWidth, "
        "document.getElementById('dl-map').getBoundingClientRect().height]"
    )
    assert inner[0] <= inner[1] and inner[2] >= 0.5 * box["height"], inner
    assert sorted(set(asked)) == sorted({files["host"].as_uri(), files["bundled"].as_uri()})
    assert not errors, errors


@pytest.fixture(scope="module")
def media_server(tmp_path_factory, gazetteer_cache):
    stories = tmp_path_factory.mktemp("media-stories")
    shutil.copytree(MEDIA, stories / "mini-media")
    srv = start_server(
        tmp_path_factory.mktemp("media-app"),
        {"DATELINE_STORIES_DIR": str(stories), "DATELINE_CACHE_DIR": str(gazetteer_cache)},
    )
    yield srv
    stop_server(srv)


def test_a_chapter_image_shows_with_its_credit_in_the_dashboard(media_server, page_for):
    page, traffic = page_for(media_server, "?story=mini-media&chapter=2", viewport=(1280, 720))
    image = page.get_by_role("img", name="Where the made-up speech was given")
    image.scroll_into_view_if_needed()
    expect(image).to_be_visible(timeout=30_000)
    expect(page.get_by_text(CREDIT)).to_be_visible()
    assert image.evaluate("i => i.complete && i.naturalWidth") == 240
    # The caption is text: its parenthesis and colon were not turned into markup.
    expect(page.get_by_text(f"Where the made-up speech was given ({CREDIT})")).to_be_visible()
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text("The convoy stops on the road to Palmyra").first).to_be_visible()
    expect(page.get_by_text(CREDIT)).to_have_count(0)
    assert not traffic.console_errors, traffic.console_errors
