"""End-to-end: the story told in chapters, and the published one-file map opened offline."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from geo.map.publish import publish_html
from geo.story.load import load_story
from tests.e2e.conftest import ROOT, map_frame

pytestmark = pytest.mark.e2e


def details(page):
    return page.get_by_test_id("stColumn").filter(has_text="Details")


def test_next_opens_chapter_one_and_the_url_follows(server, page_for):
    page, traffic = page_for(server, viewport=(1440, 900))
    expect(map_frame(page).get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    page.get_by_role("button", name="Next ›").click()
    expect(page.get_by_text("From 21 July Hezbollah").first).to_be_visible()
    page.wait_for_function("new URL(location.href).searchParams.get('chapter') === '1'")
    assert "to=2017-08-18" in page.url
    expect(map_frame(page).get_by_test_id("map-date")).to_have_text("As of 18 Aug 2017")
    assert not traffic.console_errors, traffic.console_errors


def test_a_chapter_with_a_selection_fills_the_details(server, page_for):
    page, _ = page_for(server, "?chapter=7", viewport=(1440, 900))
    expect(details(page)).to_contain_text("Baalbek", timeout=30_000)
    expect(page.get_by_text("held the Second Liberation rally in Baalbek").first).to_be_visible()
    page.get_by_role("button", name="Next ›").click()
    page.wait_for_function("new URL(location.href).searchParams.get('chapter') === '8'")
    expect(details(page)).to_contain_text("Convoy", timeout=30_000)


def test_the_published_file_works_from_disk_with_no_network(file_page, tmp_path):
    out = tmp_path / "story.html"
    out.write_text(publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017")))
    opened = file_page(out, (1280, 900))
    page, asked, errors = opened.page, opened.asked, opened.errors
    expect(page.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    expect(page.locator(".dl-label").first).to_be_visible()
    page.wait_for_function("document.querySelectorAll('.leaflet-dlLand-pane path').length > 50")
    before = page.evaluate("window.Dateline.last.events")
    to = page.locator("#dl-to")
    to.focus()
    for _ in range(40):
        to.press("ArrowLeft")
    expect(page.get_by_test_id("map-date")).to_have_text("As of 5 Aug 2017")
    assert page.evaluate("window.Dateline.last.events") < before
    page.locator(".leaflet-marker-icon").first.click()
    expect(page.locator("#dl-details")).to_contain_text(re.compile(r"\d+ events? in the window"))
    hrefs = page.eval_on_selector_all("#dl-sources a", "els => els.map(e => e.href)")
    assert len(hrefs) > 10 and all(h.startswith(("https://", "http://")) for h in hrefs)
    page.get_by_role("button", name="Next ›").click()
    expect(page.locator("#dl-chapter")).to_contain_text("1. The last ISIS enclave on the border")
    assert [u for u in asked if not u.startswith("file://")] == []
    assert not errors, errors
    (ROOT / "test-results").mkdir(exist_ok=True)
    page.screenshot(path=str(ROOT / "test-results" / "published.png"))
