"""End-to-end: the date window applied in the map's frame, Play's moving convoy, the chapter
marks on the slider and the Tour, with the real keyboard and mouse."""

from __future__ import annotations

import base64
import re
from datetime import datetime

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_js, ready_map

pytestmark = pytest.mark.e2e

SIZES = {"laptop": (1280, 720), "laptop-l": (1440, 900), "phone": (390, 844)}
ALL_SIZES = [pytest.param(v, id=k) for k, v in SIZES.items()]
IDLE = "[data-test-script-state='notRunning']"


def ready(page):
    """The map's frame once the story itself is drawn (its data has arrived)."""
    frame = ready_map(page)
    frame.locator(".dl-pin").first.wait_for()
    return frame


def end_thumb(page):
    return page.get_by_test_id("stSlider").filter(has_text="Dates").get_by_role("slider").nth(1)


@pytest.mark.parametrize("size", ALL_SIZES)
def test_a_slider_move_redraws_the_markers_in_the_same_frame(server, page_for, size):
    page, traffic = page_for(server, "?from=2017-08-28&to=2017-08-31", viewport=size)
    frame = ready(page)
    # A mark left in the map's window: a reloaded frame would lose it.
    map_js(page, "window.dlMarkLeft = 'still here'")
    before = map_js(page, "window.Dateline.last")
    thumb = end_thumb(page)
    thumb.focus()
    for _ in range(3):  # back to 28 Aug, a key press at a time
        thumb.press("ArrowLeft")
    expect(frame.get_by_test_id("map-date")).to_have_text("As of 28 Aug 2017")
    page.wait_for_selector(IDLE)
    after = map_js(page, "window.Dateline.last")
    assert after["events"] < before["events"], (before, after)
    assert map_js(page, "window.dlMarkLeft") == "still here"
    page.wait_for_function("new URL(location.href).searchParams.get('to') === '2017-08-28'")
    assert not traffic.console_errors, traffic.console_errors


@pytest.mark.parametrize("size", ALL_SIZES)
def test_the_map_follows_a_dragged_thumb_before_the_server_reruns(server, page_for, size):
    page, traffic = page_for(server, "?from=2017-08-01&to=2017-09-10", viewport=size)
    frame = ready(page)
    page.wait_for_selector(IDLE)
    draws = map_js(page, "window.Dateline.test.draws.length")
    # The end thumb's knob, dragged left with the mouse held down: Streamlit sends nothing to
    # the server until the button is released, so a changed map is the page's own doing.
    knob = (
        page.get_by_test_id("stSlider")
        .filter(has_text="Dates")
        .get_by_test_id("stSliderThumbValue")
        .nth(1)
        .locator("..")
    )
    knob.scroll_into_view_if_needed()
    box = knob.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 40, y, steps=4)
    label = (
        page.get_by_test_id("stSlider")
        .filter(has_text="Dates")
        .get_by_test_id("stSliderThumbValue")
        .nth(1)
    )
    expect(label).not_to_have_text("10 Sep 2017")
    held = label.inner_text()
    expect(frame.get_by_test_id("map-date")).to_have_text(f"As of {held}")
    assert page.get_by_test_id("stApp").get_attribute("data-test-script-state") == "notRunning"
    page.mouse.up()
    # The release reruns the panel; the window it sends the map was drawn already.
    day = datetime.strptime(held, "%d %b %Y").date().isoformat()
    map_frame = next(f for f in page.frames if "streamlit_folium" in f.url)
    map_frame.wait_for_function(f"(window.Dateline.serverState || {{}}).end === '{day}'")
    sources = map_js(page, "window.Dateline.test.draws")[draws:]
    assert sources and set(sources) == {"slider"}, sources
    expect(frame.get_by_test_id("map-date")).to_have_text(f"As of {held}")
    assert not traffic.console_errors, traffic.console_errors


# The map at rest: no pan or zoom animation under way.
STILL = (
    "() => { const m = window.Dateline.map; return !m._animatingZoom && "
    "!(m._panAnim && m._panAnim._inProgress); }"
)
# Whether the convoy's present positions and Baalbek (by the border enclave) are in the view.
CONVOY_AND_BAALBEK_SHOWN = """() => {
    const m = window.Dateline.map, view = m.getBounds();
    const layers = Object.entries(window.Dateline.byKey);
    const now = layers.filter(([k, l]) => k.startsWith('convoy:') && l.options.radius === 9);
    return now.length === 2 && now.every(([, l]) => view.contains(l.getLatLng())) &&
        view.contains(window.Dateline.byKey['place:baalbek'].getLatLng());
}"""


@pytest.mark.parametrize("size", ALL_SIZES)
def test_slider_steps_frame_the_window_once_and_then_keep_the_view(server, page_for, size):
    page, _ = page_for(server, viewport=size)
    ready(page)
    page.wait_for_selector(IDLE)
    map_frame = next(f for f in page.frames if "streamlit_folium" in f.url)
    thumb = end_thumb(page)
    thumb.focus()
    thumb.press("ArrowLeft")
    expect(
        page.get_by_test_id("stSlider")
        .filter(has_text="Dates")
        .get_by_test_id("stSliderThumbValue")
        .nth(1)
    ).to_have_text("13 Sep 2017")
    map_frame.wait_for_function(
        "window.Dateline.last && window.Dateline.pngWindow.end === '2017-09-13'"
    )
    map_frame.wait_for_function(STILL)
    # The opening view is the border's close-up; the first step widens it to the window's
    # frame, where the convoy (two groups by then, 130 km apart) and Baalbek are both seen.
    assert map_js(page, CONVOY_AND_BAALBEK_SHOWN)
    view = map_js(page, "[Dateline.map.getCenter(), Dateline.map.getZoom()]")
    for day in ("12", "11"):
        thumb.press("ArrowLeft")
        map_frame.wait_for_function(f"window.Dateline.pngWindow.end === '2017-09-{day}'")
        map_frame.wait_for_function(STILL)
        assert map_js(page, "[Dateline.map.getCenter(), Dateline.map.getZoom()]") == view
        assert map_js(page, CONVOY_AND_BAALBEK_SHOWN)


def test_the_details_follow_a_slider_move(server, page_for):
    page, _ = page_for(server, "?from=2017-08-21&to=2017-08-31&sel=place:baalbek")
    ready(page)
    panel = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(panel).to_contain_text("celebration")
    thumb = end_thumb(page)
    thumb.focus()
    thumb.press("ArrowLeft")  # 30 Aug: the celebration of 31 Aug leaves the window
    expect(panel).not_to_contain_text("celebration")
    expect(panel).to_contain_text("Baalbek")


def test_a_move_sends_less_than_10_kb(server, page_for):
    page, _ = page_for(server, "?from=2017-08-01&to=2017-09-10", viewport=SIZES["laptop-l"])
    frame = ready(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes = []

    def frame_bytes(event):
        r = event["response"]
        data = r["payloadData"]
        sizes.append(len(base64.b64decode(data)) if r["opcode"] == 2 else len(data.encode()))

    cdp.on("Network.webSocketFrameReceived", frame_bytes)
    cdp.on("Network.webSocketFrameSent", frame_bytes)
    # The page is whole once the timeline's charts are in.
    expect(page.get_by_test_id("stImage")).to_have_count(2, timeout=30_000)
    page.wait_for_selector(IDLE)
    sizes.clear()
    thumb = end_thumb(page)
    thumb.focus()
    thumb.press("ArrowLeft")
    expect(frame.get_by_test_id("map-date")).to_have_text("As of 9 Sep 2017")
    page.wait_for_selector(IDLE)
    # The rerun's last message ("script finished") has arrived once the page says idle.
    assert sizes, "no websocket traffic seen for a move"
    assert sum(sizes) < 10_000, (sum(sizes), len(sizes))


def test_play_moves_the_convoy_along_its_route_between_halts(server, page_for):
    page, traffic = page_for(server, "?from=2017-08-28&to=2017-08-28", viewport=SIZES["laptop"])
    frame = ready(page)
    map_js(page, "window.dlMarkLeft = 'still here'")
    page.get_by_role("button", name="Play").click()
    frame_window = next(f for f in page.frames if "streamlit_folium" in f.url)
    # A step from one day's position to the next has been animated in the frame.
    frame_window.wait_for_function("(window.Dateline.test.track || []).length >= 5", timeout=60_000)
    # While it plays, the spots passed are labelled with their dates ("29 Aug", "3 – 12 Sep").
    expect(frame.locator(".dl-label-halt").first).to_have_text(re.compile(r"^\d+ [A-Z][a-z]{2}"))
    page.get_by_role("button", name="Pause").click()
    page.wait_for_selector(APP_READY)
    frame_window.wait_for_function("(window.Dateline.test.animating || 0) === 0")
    track = map_js(page, "window.Dateline.test.track")
    # The marker took many positions on its way, not only the days' own points.
    distinct = {(round(a, 4), round(b, 4)) for a, b in track}
    assert len(distinct) >= 5, track
    points = map_js(
        page,
        "Object.keys(window.Dateline.byKey).filter(k => k.startsWith('convoy:'))"
        ".map(k => { const l = window.Dateline.byKey[k].getLatLng(); return [l.lat, l.lng]; })",
    )
    days = {(round(a, 4), round(b, 4)) for a, b in points}
    assert len(distinct - days) >= 3, (distinct, days)
    # The map's frame was never reloaded.
    assert map_js(page, "window.dlMarkLeft") == "still here"
    assert not traffic.console_errors, traffic.console_errors


def test_chapter_marks_sit_on_the_slider_at_their_first_day(server, page_for):
    page, _ = page_for(server, "?chapter=3", viewport=SIZES["laptop"])
    ready(page)
    marks = page.get_by_test_id("dl-chapter-marks").locator("span")
    expect(marks).to_have_count(9)
    lefts = [b["x"] for b in (marks.nth(i).bounding_box() for i in range(9))]
    assert lefts == sorted(lefts)
    # Chapter 3 is open: the window's start thumb stands over mark 3 (the thumb's input sits in
    # a 1-pixel box at the thumb's centre).
    thumb = page.get_by_test_id("stSlider").filter(has_text="Dates").get_by_role("slider").nth(0)
    thumb_x = thumb.evaluate("e => e.parentElement.getBoundingClientRect().x")
    mark = marks.nth(2).bounding_box()
    assert abs(thumb_x - (mark["x"] + mark["width"] / 2)) < 8, (thumb_x, mark)


def test_tour_plays_the_chapters_one_after_another(server, page_for):
    page, _ = page_for(server, viewport=SIZES["laptop-l"])
    ready(page)
    page.get_by_role("button", name="Tour").click()
    page.wait_for_function(
        "new URL(location.href).searchParams.get('chapter') === '1'", timeout=30_000
    )
    page.wait_for_function(
        "new URL(location.href).searchParams.get('chapter') === '2'", timeout=60_000
    )
    page.get_by_role("button", name="Stop tour").click()
    page.wait_for_selector(APP_READY)
    expect(page.get_by_role("button", name="Tour")).to_be_visible()
