"""End-to-end: paste an article, save it as a story, open it on the main page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_frame, wait_whole_page

pytestmark = pytest.mark.e2e
ARTICLE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "articles" / "wire_arsal.txt"
).read_text()


def test_paste_save_and_open(server, page_for):
    page, traffic = page_for(server, "New_story_from_an_article")
    page.get_by_label("Article text").fill(ARTICLE)
    page.get_by_role("button", name="Find places, dates and figures").click()
    expect(page.get_by_text("Draft events")).to_be_visible(timeout=120_000)
    page.wait_for_selector(APP_READY, timeout=60_000)
    expect(page.locator("mark").filter(has_text="Arsal").first).to_be_visible()
    # The preview map sends its first value once drawn, which reruns the page: typing into a
    # widget while that run replaces it can lose the text, so wait for the map and that run.
    expect(map_frame(page).locator(".leaflet-container")).to_be_visible(timeout=60_000)
    page.wait_for_selector(APP_READY, timeout=60_000)
    title = page.get_by_label("Story title")
    title.fill("Browser test story")
    title.press("Enter")
    expect(title).to_have_value("Browser test story")
    save = page.get_by_role("button", name="Save story")
    # The title's rerun shows the last run's button until it ends: wait for the one that stays.
    expect(save).to_have_count(1, timeout=120_000)
    expect(save).to_be_enabled(timeout=60_000)
    save.click()
    saved = page.get_by_test_id("stAlert").filter(has_text="Open it from the story picker")
    expect(saved).to_contain_text("browser-test-story", timeout=60_000)
    assert (server.stories_dir / "browser-test-story" / "events.csv").exists()

    page.goto(f"{server.url}/?story=browser-test-story")
    wait_whole_page(page)
    expect(page.get_by_role("heading", name="Browser test story")).to_be_visible()
    expect(map_frame(page).locator(".dl-pin").first).to_be_visible(timeout=30_000)
    assert not traffic.blocked
