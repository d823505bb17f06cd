"""A reader on any screen (issue 27): the phone's layout (the map first, a one-row chapter bar,
the title clear of Streamlit's top bar, a cue to the details under the map), the laptop's kept,
the story's summary by the map, and each chapter framing its subject at every size."""

from __future__ import annotations

import json
import os

import pandas as pd
import pytest
from playwright.sync_api import expect

from geo.story.chapters import chapter_bounds
from geo.story.load import load_story
from tests.e2e.appserver import APP_READY, MAP_FRAME
from tests.e2e.conftest import ROOT, map_frame, map_js, ready_map

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
LAPTOPS = [(1280, 720), (1440, 900)]
SHOTS = ROOT / "docs" / "screenshots" / "issue-27"
STORY = load_story(ROOT / "data" / "stories" / "qalamoun-2017", basemap=None)


def box(locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, locator
    return found


def shot(page, name: str) -> None:
    """A screenshot for the docs, only when asked (DATELINE_SHOTS=1): a test run writes nothing
    into the checkout, which may be read-only."""
    if os.environ.get("DATELINE_SHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / name))


def test_on_a_phone_the_map_fills_the_first_screen_under_the_whole_title(server, page_for):
    page, traffic = page_for(server, viewport=PHONE)
    ready_map(page)
    header = box(page.get_by_test_id("stHeader"))
    title = box(page.get_by_test_id("stHeading").first.locator("h3"))
    # The title's first line is below Streamlit's top bar, its last on the screen.
    assert title["y"] >= header["y"] + header["height"] - 1, (title, header)
    assert title["y"] + title["height"] <= PHONE[1]
    frame = box(page.locator(MAP_FRAME))
    assert frame["y"] < 200, frame
    assert frame["height"] >= 0.55 * PHONE[1], frame
    assert frame["y"] + frame["height"] <= PHONE[1]
    # The chapter bar: Prev, the picker, Next in one row between the title and the map, none
    # cut off at the screen's edge.
    parts = [
        page.get_by_role("button", name="‹ Prev"),
        page.get_by_role("combobox", name="Chapter"),
        page.get_by_role("button", name="Next ›"),
    ]
    boxes = [box(p) for p in parts]
    for b in boxes:
        assert b["x"] >= 0 and b["x"] + b["width"] <= PHONE[0], boxes
        assert title["y"] + title["height"] <= b["y"] and b["y"] + b["height"] <= frame["y"]
    middles = [b["y"] + b["height"] / 2 for b in boxes]
    assert max(middles) - min(middles) < 2, boxes  # one row
    # The dates come after the map.
    slider = box(page.get_by_test_id("stSlider").filter(has_text="Dates"))
    assert slider["y"] >= frame["y"] + frame["height"], slider
    shot(page, "phone-first-screen.png")
    assert not traffic.console_errors, traffic.console_errors


def test_a_chapter_shows_its_short_title_in_the_phone_bar(server, page_for):
    page, _ = page_for(server, "?chapter=7", viewport=PHONE)
    ready_map(page)
    picker = page.get_by_role("combobox", name="Chapter")
    expect(picker).to_have_value("7. Baalbek celebrates · 31 Aug – 1 Sep 2017")
    # The chapter's number and title are in the part of the field that shows.
    shown = page.evaluate(
        """el => { const c = document.createElement('canvas').getContext('2d');
                   const s = getComputedStyle(el); c.font = s.font;
                   const room = el.clientWidth - parseFloat(s.paddingLeft)
                                - parseFloat(s.paddingRight);
                   return c.measureText('7. Baalbek celebrates').width <= room; }""",
        picker.element_handle(),
    )
    assert shown


def test_a_tap_on_a_phone_cues_the_details_under_the_map(server, page_for):
    page, traffic = page_for(server, viewport=PHONE)
    frame = ready_map(page)
    cue = frame.get_by_test_id("map-cue")
    expect(cue).to_be_hidden()
    frame.locator(".leaflet-marker-icon[data-key='place:halimat-qara']").click()
    details = page.locator(".st-key-dl_details")
    expect(details).to_contain_text("Halimat Qara", timeout=30_000)
    # The details are under the map, out of sight; the cue over the map's lower part says so.
    expect(cue).to_be_visible()
    expect(cue).to_contain_text("Halimat Qara: details below")
    map_box, cue_box = box(page.locator(MAP_FRAME)), box(cue)
    # The details themselves (their heading; above it only the window's count line) are out of
    # sight under the map.
    assert box(details.locator("#details"))["y"] > PHONE[1]
    assert map_box["y"] + map_box["height"] / 2 < cue_box["y"] + map_box["y"]
    page.wait_for_selector(APP_READY)
    shot(page, "phone-after-tap.png")
    cue.click()
    # The page scrolls the details to the top of the screen, under Streamlit's top bar.
    page.wait_for_function(
        """() => { const r = document.querySelector('.st-key-dl_details')
                   .getBoundingClientRect(); return r.top >= 50 && r.top < 120; }"""
    )
    expect(page.get_by_text("About this story")).to_be_in_viewport()
    expect(cue).to_be_hidden()
    assert not traffic.console_errors, traffic.console_errors


ON_SCREEN = """(() => {
    const m = window.Dateline.map, r = m.getContainer().getBoundingClientRect();
    const els = Array.from(document.querySelectorAll('.leaflet-marker-icon[data-key^="place:"]'));
    const inside = els.filter(el => { const b = el.getBoundingClientRect();
        const x = b.left + b.width / 2, y = b.top + b.height / 2;
        // Not under the legend or the locator: a reader could not click it there either.
        const top = document.elementFromPoint(x, y);
        return x > r.left + 60 && x < r.right - 60 && y > r.top + 60 && y < r.bottom - 60 &&
            top && top.closest('.leaflet-marker-icon') === el; });
    return inside.map(el => el.dataset.key).filter(k => k !== 'place:enclave')[0];
})()"""


@pytest.mark.parametrize("viewport", LAPTOPS)
def test_a_laptop_keeps_the_map_and_the_text_side_by_side(server, page_for, viewport):
    page, _ = page_for(server, "?chapter=1", viewport=viewport)
    frame = ready_map(page)
    map_box = box(page.locator(MAP_FRAME))
    assert map_box["y"] < 0.5 * viewport[1] and map_box["height"] >= 300, map_box
    text = page.get_by_text("From 21 July Hezbollah").first
    expect(text).to_be_in_viewport()
    side = box(page.locator(".st-key-dl_details"))
    assert side["x"] >= map_box["x"] + map_box["width"] and side["y"] < viewport[1]
    if viewport == (1280, 720):
        shot(page, "laptop-first-screen.png")
    # Beside the map the details need no cue.
    # A place marker well inside the map, other than the chapter's selection.
    key = map_js(page, ON_SCREEN)
    frame.locator(f".leaflet-marker-icon[data-key='{key}']").click()
    page.wait_for_function("k => new URL(location.href).searchParams.get('sel') === k", arg=key)
    page.wait_for_selector(APP_READY)
    expect(frame.get_by_test_id("map-cue")).to_be_hidden()


@pytest.mark.parametrize("viewport", [PHONE, *LAPTOPS])
def test_the_story_summary_is_one_click_from_the_map(server, page_for, viewport):
    page, _ = page_for(server, viewport=viewport)
    ready_map(page)
    about = page.get_by_text("About this story")
    map_box, about_box = box(page.locator(MAP_FRAME)), box(about)
    # Beside the map on a laptop, right under it on a phone; not in the sidebar.
    assert page.get_by_test_id("stSidebar").get_by_text("About this story").count() == 0
    beside = about_box["x"] >= map_box["x"] + map_box["width"] and about_box["y"] < 400
    # Under it on a phone: after the window's count and the place search (~140 px).
    under = 0 <= about_box["y"] - (map_box["y"] + map_box["height"]) < 200
    assert beside or under, (map_box, about_box)
    about.click()
    expect(page.get_by_text("In August 2017 the last ISIS enclave")).to_be_visible()


def _points(chapter) -> list[tuple[float, float]]:
    """What a chapter must show: its selection and the convoy's positions in its window."""
    points: list[tuple[float, float]] = []
    kind, _, ident = (chapter.select or "").partition(":")
    if kind in ("place", "convoy"):
        table = STORY.places if kind == "place" else STORY.convoy
        points += [(float(r.lat), float(r.lon)) for r in table[table["id"] == ident].itertuples()]
    elif kind == "front":
        rows = STORY.fronts[STORY.fronts["id"] == ident]
        points += [(lat, lon) for g in rows["geometry"] for lon, lat in g["coordinates"][0]]
    days = pd.to_datetime(STORY.convoy["date"])
    moving = STORY.convoy[
        (days >= pd.Timestamp(chapter.start)) & (days <= pd.Timestamp(chapter.end))
    ]
    points += [(float(r.lat), float(r.lon)) for r in moving.itertuples()]
    return points


MARGIN_PX = 20
# Each point's distance (px) from the map's nearest edge, and the map's zoom against the zoom
# that fits the chapter's frame (Leaflet's fitBounds with js/basemap.js's padding).
FRAMED = """([points, frame, view]) => {
    const m = window.Dateline.map, size = m.getSize();
    const edge = points.map(([lat, lon]) => {
        const p = m.latLngToContainerPoint([lat, lon]);
        return Math.min(p.x, p.y, size.x - p.x, size.y - p.y);
    });
    return {edge: edge, zoom: m.getZoom(),
            fits: Math.min(m.getBoundsZoom(frame, false, L.point(72, 72)), 12),
            holdsView: !view || m.getBounds().contains(view)};
}"""
# The map is not in the middle of a pan or zoom (a chapter's frame is taken with an animation).
STILL = """() => { const m = window.Dateline && window.Dateline.map;
    return Boolean(m) && !m._animatingZoom && !(m._panAnim && m._panAnim._inProgress); }"""


@pytest.mark.parametrize("viewport", [PHONE, *LAPTOPS], ids=["phone", "laptop", "wide"])
@pytest.mark.parametrize("number", [c.number for c in STORY.chapters])
def test_a_chapter_frames_its_subject(server, page_for, viewport, number):
    chapter = STORY.chapters[number - 1]
    page, _ = page_for(server, f"?chapter={number}", viewport=viewport)
    ready_map(page)
    expect(page.get_by_text(chapter.text[:40]).first).to_be_attached()
    # The chapter's last day on the map, and the map still: its frame is taken.
    day = pd.Timestamp(chapter.end)
    expect(map_frame(page).get_by_test_id("map-date")).to_have_text(
        f"As of {day.day} {day:%b %Y}", timeout=30_000
    )
    frames = [f for f in page.frames if "streamlit_folium" in f.url]
    frames[0].wait_for_function(STILL)
    frame = chapter_bounds(STORY, chapter)
    view = [list(c) for c in chapter.bounds] if chapter.bounds else None
    found = map_js(page, f"({FRAMED})({json.dumps([_points(chapter), frame, view])})")
    assert min(found["edge"]) >= MARGIN_PX, found
    # The chapter's frame is honoured: the map is zoomed to it, not framed wider.
    assert found["zoom"] >= found["fits"], found
    assert found["holdsView"], found
