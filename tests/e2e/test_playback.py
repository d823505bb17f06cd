"""End-to-end: Play from the window's start, its speeds and loop, its zoom cap, the keyboard;
the place search. Steps are counted per rerun (the map's draws), never timed."""

from __future__ import annotations

import itertools
import statistics

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_js, ready_map

pytestmark = pytest.mark.e2e
LAPTOP = (1280, 720)
PLAY_MAX_ZOOM = 9  # js/story.js
# The windows the server sent the map ([start, end]), in order, from draw ``n`` on.
SERVER_WINDOWS = """n => window.Dateline.test.windows.slice(n)
    .filter(w => w[2] === 'server').map(w => [w[0], w[1]])"""


def drawn(page) -> int:
    return map_js(page, "window.Dateline.test.windows.length")


def windows_since(page, n: int) -> list[list[str]]:
    return map_js(page, f"({SERVER_WINDOWS})({n})")


def play_to_the_end(page) -> None:
    """Press Play with the mouse and wait until Play has stopped by itself."""
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Play")).to_be_visible(timeout=60_000)
    page.wait_for_selector(APP_READY)


def ends(windows) -> list[str]:
    """The windows' last days, each once (Play's last frame is drawn again as it stops)."""
    out = [end for _, end in windows]
    return [e for i, e in enumerate(out) if i == 0 or e != out[i - 1]]


def days_of(windows) -> list[int]:
    return [int(end[-2:]) for end in ends(windows)]


def test_play_starts_from_the_window_start_not_the_story_start(server, page_for):
    page, traffic = page_for(server, "?from=2017-08-19&to=2017-08-22", viewport=LAPTOP)
    ready_map(page)
    n = drawn(page)
    play_to_the_end(page)
    played = windows_since(page, n)
    assert played[0] == ["2017-08-19", "2017-08-19"], played
    assert not any(end < "2017-08-19" for _, end in played), played
    # Day by day to the window's end, where it stops.
    assert ends(played) == [f"2017-08-{d}" for d in (19, 20, 21, 22)], played
    assert not traffic.console_errors, traffic.console_errors


def test_4x_steps_more_days_per_rerun_than_1x(server, page_for):
    steps = {}
    for speed in ("1", "4"):
        page, _ = page_for(server, f"?from=2017-08-19&to=2017-08-31&speed={speed}", viewport=LAPTOP)
        ready_map(page)
        expect(page.get_by_role("radio", name=f"{speed}×")).to_be_checked()
        n = drawn(page)
        play_to_the_end(page)
        days = days_of(windows_since(page, n))
        assert days[0] == 19 and days[-1] == 31, days
        steps[speed] = days
    # Each rerun (a frame drawn) covers two days at 4x, one at 1x. A frame the browser got
    # too late to draw makes a gap wider, never narrower: compare the narrowest and the median.
    gaps = {s: [b - a for a, b in itertools.pairwise(d)] for s, d in steps.items()}
    assert min(gaps["4"]) == 2, steps
    assert statistics.median(gaps["1"]) == 1 and statistics.median(gaps["4"]) == 2, steps
    assert len(steps["4"]) < len(steps["1"]), steps


def test_loop_wraps_to_the_window_start(server, page_for):
    page, _ = page_for(server, "?from=2017-08-19&to=2017-08-21&loop=1", viewport=LAPTOP)
    ready_map(page)
    expect(page.get_by_role("switch", name="Loop")).to_be_checked()
    n = drawn(page)
    page.get_by_role("button", name="Play").click()
    frame = next(f for f in page.frames if "streamlit_folium" in f.url)
    # The window's end, then its start again.
    frame.wait_for_function(
        f"""(() => {{ const w = ({SERVER_WINDOWS})({n}).map(w => w[1]);
            const i = w.indexOf('2017-08-21');
            return i >= 0 && w.slice(i + 1).includes('2017-08-19'); }})()""",
        timeout=60_000,
    )
    page.get_by_role("button", name="Pause").click()
    page.wait_for_selector(APP_READY)
    days = ends(windows_since(page, n))
    wrap = days.index("2017-08-21")
    assert days[: wrap + 2] == ["2017-08-19", "2017-08-20", "2017-08-21", "2017-08-19"], days


def test_play_never_zooms_past_the_cap(server, page_for):
    # A view at zoom 12 (a 5 km scale, one marker on screen), as a link or the reader left it.
    page, _ = page_for(
        server, "?from=2017-08-19&to=2017-08-23&zoom=12&center=34.0600,36.5100", viewport=LAPTOP
    )
    ready_map(page)
    assert map_js(page, "window.Dateline.map.getZoom()") == 12
    map_js(
        page,
        """(() => { const m = window.Dateline.map; window.Dateline.test.zooms = [];
            m.on('zoomend', () => window.Dateline.test.zooms.push(m.getZoom())); })()""",
    )
    page.get_by_role("button", name="Play").click()
    # Two days on (the address follows the window), then paused.
    page.wait_for_function(
        "(new URL(location.href).searchParams.get('to') || '') >= '2017-08-21'", timeout=60_000
    )
    page.get_by_role("button", name="Pause").click()
    page.wait_for_selector(APP_READY)
    zooms = map_js(page, "window.Dateline.test.zooms")
    now = map_js(page, "window.Dateline.map.getZoom()")
    assert now <= PLAY_MAX_ZOOM, (now, zooms)
    assert all(z <= PLAY_MAX_ZOOM for z in zooms), zooms


def test_the_keyboard_alone_picks_a_speed_and_starts_play(server, page_for):
    page, _ = page_for(server, "?from=2017-08-19&to=2017-08-21", viewport=LAPTOP)
    ready_map(page)
    # From the slider's end thumb, Tab reaches Play.
    page.get_by_test_id("stSlider").filter(has_text="Dates").get_by_role("slider").nth(1).focus()
    focused = "document.activeElement.innerText.trim()"
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate(focused) == "Play":
            break
    assert page.evaluate(focused) == "Play"
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Pause")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("button", name="Play")).to_be_visible(timeout=60_000)
    page.wait_for_selector(APP_READY)
    # The speed's buttons are reached the same way, and Space picks one.
    page.get_by_role("radio", name="2×").focus()
    page.keyboard.press("Space")
    page.wait_for_function("new URL(location.href).searchParams.get('speed') === '2'")


# --- Find a place ------------------------------------------------------------------------------


def search(page, text: str):
    """Type ``text`` into the place search with the keyboard; the box's listbox is open."""
    box = page.get_by_role("combobox", name="Find a place")
    box.click()
    page.keyboard.type(text)
    return box


def in_view(page, key: str) -> bool:
    return map_js(
        page,
        f"""(() => {{ const l = window.Dateline.byKey[{key!r}];
            return Boolean(l) && window.Dateline.map.getBounds().contains(l.getLatLng()); }})()""",
    )


def test_search_picks_a_story_place_and_the_map_selects_it(server, page_for):
    page, traffic = page_for(server, "?from=2017-08-19", viewport=LAPTOP)
    frame = ready_map(page)
    search(page, "Baalbek")
    page.get_by_role("option", name="Baalbek · city, LB").click()
    page.wait_for_function(
        "new URL(location.href).searchParams.get('sel') === 'place:baalbek'", timeout=30_000
    )
    page.wait_for_selector(APP_READY)
    expect(frame.locator(".dl-label-selected")).to_have_text("Baalbek")
    assert map_js(page, "window.Dateline.serverState.selected") == "place:baalbek"
    assert in_view(page, "place:baalbek")
    expect(page.get_by_test_id("stColumn").filter(has_text="Details")).to_contain_text(
        "Also spelled"
    )
    assert not traffic.console_errors, traffic.console_errors


def test_search_shows_a_gazetteer_place_that_is_not_the_story_s(server, page_for):
    page, _ = page_for(server, viewport=LAPTOP)
    frame = ready_map(page)
    search(page, "Aleppo")
    page.keyboard.press("Enter")
    # The first search opens the gazetteer (GeoNames' index, built once per cache).
    expect(page.get_by_text("Gazetteer: Aleppo")).to_be_visible(timeout=120_000)
    expect(frame.locator(".dl-label-selected")).to_have_text("Aleppo")
    page.wait_for_selector(APP_READY)
    assert in_view(page, "found:place")


def test_search_input_is_shown_as_text(server, page_for):
    page, traffic = page_for(server, viewport=LAPTOP)
    ready_map(page)
    search(page, "<img src=x onerror=alert(1)>zzqx")
    page.keyboard.press("Enter")
    expect(page.get_by_text("No place called")).to_contain_text("<img src=x", timeout=120_000)
    assert page.locator("img[src='x']").count() == 0
    assert not traffic.console_errors, traffic.console_errors
