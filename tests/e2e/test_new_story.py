"""End-to-end, with the real mouse: a pasted report becomes a saved story after fixing places on
the map and an event's category; a second report is merged into it, citing both sources."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_frame, wait_whole_page

pytestmark = pytest.mark.e2e
ARTICLES = Path(__file__).resolve().parents[1] / "fixtures" / "articles"
FIRST = (ARTICLES / "combine_shelling_first.txt").read_text()
SECOND = (ARTICLES / "combine_shelling_second.txt").read_text()
SIZES = {"laptop": (1280, 720), "phone": (390, 844)}


def settled(page) -> None:
    """The script run the last action started has ended (a rerun it asks for too)."""
    page.wait_for_selector(APP_READY, timeout=90_000)


def map_live(page) -> None:
    """The draft's map has sent its first value and the run that caused has ended: until then a
    rerun can replace whatever the test is about to touch."""
    expect(page.get_by_text("Squares are places")).to_be_visible(timeout=90_000)
    settled(page)


def one(locator):
    """``locator`` once the rerun has replaced its last copy: exactly one, and enabled."""
    expect(locator).to_have_count(1, timeout=90_000)
    expect(locator).to_be_enabled(timeout=90_000)
    return locator


def search_button(page):
    """The place search's own button (the tables' toolbars have search buttons too)."""
    form = page.get_by_test_id("stForm").filter(has=page.get_by_label("Find a place"))
    return one(form.get_by_role("button", name="Search", exact=True))


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the selectbox labelled ``label`` with the mouse."""
    box = page.get_by_label(label, exact=True)
    one(box).click()
    # Typing narrows the list to the one option (and opens it again if a rerun closed it).
    page.keyboard.type(option)
    page.get_by_role("option", name=option, exact=True).click()
    settled(page)
    expect(box).to_have_value(option)


@pytest.mark.parametrize("size", list(SIZES))
def test_report_to_story_then_a_second_report(server, page_for, size):
    page, traffic = page_for(server, "New_story_from_an_article", viewport=SIZES[size])
    failed = []
    page.on("response", lambda r: failed.append(r.url) if r.status >= 400 else None)
    story = f"arsal-shelling-{size}"
    page.get_by_label("Article text").fill(FIRST)
    page.get_by_label("Publication", exact=True).first.fill("Border Wire")
    page.get_by_role("button", name="Find places, dates and figures").click()
    expect(page.get_by_text("Draft events")).to_be_visible(timeout=120_000)
    settled(page)
    frame = map_frame(page)
    expect(frame.locator(".dl-handle[data-place='arsal']")).to_be_attached(timeout=60_000)
    map_live(page)
    assert "draft=" in page.url
    draft_url = page.url

    # A place the report leaves out, found with the search and added.
    search = page.get_by_label("Find a place")
    search.fill("Ras Baalbek")
    search_button(page).click()
    settled(page)
    expect(frame.locator(".dl-cand")).not_to_have_count(0, timeout=60_000)
    one(page.get_by_role("button", name="Use this")).click()
    settled(page)
    expect(frame.locator(".dl-handle[data-place='ras-baalbek']")).to_be_attached(timeout=60_000)

    # A place no gazetteer knows, pinned by clicking the map.
    search = page.get_by_label("Find a place")
    search.fill("Wadi Hmayyed")
    search_button(page).click()
    settled(page)
    one(page.get_by_role("button", name=re.compile("Add Wadi Hmayyed as a place to pin"))).click()
    settled(page)
    expect(page.get_by_text("Click the map where Wadi Hmayyed is")).to_be_visible()
    leaflet = frame.locator(".leaflet-container")
    leaflet.scroll_into_view_if_needed()
    box = leaflet.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.7, box["y"] + box["height"] * 0.25)
    pinned = frame.locator(".dl-handle[data-place='wadi-hmayyed']")
    expect(pinned).to_be_attached(timeout=60_000)
    settled(page)
    one(page.get_by_role("button", name="Done")).click()
    expect(page.get_by_text("Click the map where Wadi Hmayyed is")).to_have_count(0)
    settled(page)

    # The event's category, changed with the one-event form.
    choose(page, "category", "airstrike")
    one(page.get_by_role("button", name="Apply to this event")).click()
    settled(page)
    # The event picker is made anew with the new tables: wait for the one that says airstrike
    # (the old one, stale, can still be on the page for a moment).
    edited = page.locator("input[aria-label='Edit one event'][value*='· airstrike ·']")
    expect(edited).to_be_attached(timeout=60_000)
    settled(page)

    title = page.get_by_label("Story title")
    title.fill(f"Arsal shelling {size}")
    title.press("Enter")
    settled(page)
    one(page.get_by_role("button", name="Save story")).click()
    saved = page.get_by_test_id("stAlert").filter(has_text="Open it from the story picker")
    expect(saved).to_contain_text(story, timeout=60_000)
    folder = server.stories_dir / story
    assert "wadi-hmayyed" in (folder / "places.csv").read_text()
    assert "airstrike" in (folder / "events.csv").read_text()

    page.goto(f"{server.url}/?story={story}")
    wait_whole_page(page)
    pin = map_frame(page).locator(".leaflet-marker-icon[data-key='place:arsal']")
    expect(pin).to_be_visible(timeout=60_000)
    pin.click()
    details = page.get_by_test_id("stVerticalBlock").filter(has_text="Source: Border Wire").last
    expect(details).to_be_visible(timeout=60_000)

    # Back to the kept draft: a second report of the same shelling joins it.
    page.goto(draft_url)
    wait_whole_page(page)
    map_live(page)
    page.get_by_label("Its text").fill(SECOND)
    page.get_by_label("Publication", exact=True).last.fill("Valley Courier")
    one(page.get_by_role("button", name="Add this report")).click()
    settled(page)
    expect(page.get_by_text(re.compile(r"1 event merged with one"))).to_be_visible(timeout=90_000)
    settled(page)
    one(page.get_by_role("button", name="Save story")).click()
    expect(page.get_by_test_id("stAlert").filter(has_text=story)).to_be_visible(timeout=60_000)
    events = (folder / "events.csv").read_text()
    assert "article|valley-courier" in events and "disputed" in events

    # Arsal's events, by the address (on a phone its marker may sit in a cluster now).
    page.goto(f"{server.url}/?story={story}&sel=place:arsal")
    wait_whole_page(page)
    both = page.get_by_text(re.compile("Source: Border Wire; Valley Courier"))
    expect(both.first).to_be_visible(timeout=60_000)
    # Streamlit opened at a page's own address first asks that path for its health and host
    # settings (404) and then the server's root; nothing else may fail.
    probes = [u for u in failed if re.search(r"/New_story_from_an_article/_stcore/", u)]
    assert failed == probes, failed
    errors = [e for e in traffic.console_errors if "status of 404" not in e]
    assert not errors, errors
