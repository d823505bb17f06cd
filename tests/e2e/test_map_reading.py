"""End-to-end: the map a reader can read, at laptop and phone sizes, with the real mouse."""

from __future__ import annotations

import shutil
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_frame, map_js, ready_map
from tests.helpers import FIXTURES

pytestmark = pytest.mark.e2e
CENTER = "(() => { const c = window.Dateline.map.getCenter(); return [c.lat, c.lng]; })()"

SIZES = {"laptop": (1280, 720), "laptop-l": (1440, 900), "phone": (390, 844)}
LAPTOPS = [pytest.param(SIZES[k], id=k) for k in ("laptop", "laptop-l")]
ALL_SIZES = [pytest.param(v, id=k) for k, v in SIZES.items()]


def details(page):
    return page.get_by_test_id("stColumn").filter(has_text="Details")


# Streamlit scrolls an inner container, not the window: every scrolled element counts.
SCROLLED = """[document.scrollingElement, ...document.querySelectorAll('*')]
    .filter(e => e && e.scrollTop > 0).map(e => e.scrollTop)"""


def in_map_view(page, key: str) -> bool:
    """Whether the object ``key`` lies inside the map's visible area."""
    return map_js(
        page,
        f"""(() => {{
            const l = window.Dateline.byKey[{key!r}];
            const ll = l.getLatLng ? l.getLatLng() : l.getBounds().getCenter();
            return window.Dateline.map.getBounds().contains(ll);
        }})()""",
    )


@pytest.mark.parametrize("size", ALL_SIZES)
def test_first_real_click_on_baalbek_selects_it(server, page_for, size):
    page, traffic = page_for(server, "?from=2017-08-31&to=2017-08-31", viewport=size)
    frame = ready_map(page)
    pin = frame.locator(".leaflet-marker-icon[data-key='place:baalbek']")
    expect(pin).to_be_visible()
    pin.scroll_into_view_if_needed()  # as a reader scrolls to it; then the press must not
    scroll_before = page.evaluate(SCROLLED)
    pin.click()  # the real mouse: move, press, release at the marker's centre
    expect(details(page)).to_contain_text("Baalbek", timeout=30_000)
    expect(details(page)).to_contain_text("celebration")
    # The press did not scroll the page (a scroll between press and release is a drag).
    assert page.evaluate(SCROLLED) == scroll_before
    # One thing shows what was clicked: the panel, no popup on the map.
    expect(frame.locator(".leaflet-popup")).to_have_count(0)
    assert not traffic.console_errors, traffic.console_errors


@pytest.mark.parametrize("size", LAPTOPS)
def test_place_names_are_on_the_map_without_hovering(server, page_for, size):
    page, _ = page_for(server, viewport=size)
    frame = ready_map(page)
    for name in ("Baalbek", "Arsal", "Ras Baalbek", "Qara"):
        expect(frame.locator(".dl-label", has_text=name).first).to_be_visible()
    expect(frame.locator(".leaflet-tooltip")).to_have_count(0)
    # No two labels overlap.
    boxes = map_js(
        page,
        """Array.from(document.querySelectorAll('.dl-label')).map(e => {
            const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];
        })""",
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), (a, b)


@pytest.mark.parametrize("size", LAPTOPS)
def test_the_lebanese_enclave_is_clickable_on_22_august(server, page_for, size):
    page, _ = page_for(server, "?from=2017-08-22&to=2017-08-22", viewport=size)
    frame = ready_map(page)
    path = frame.locator("path[data-key='front:lb-2017-08-22']")
    expect(path).to_be_attached()
    # A point inside the polygon, in page coordinates, where the reader would click.
    x, y = map_js(
        page,
        """(() => {
            const l = window.Dateline.byKey['front:lb-2017-08-22'];
            const p = window.Dateline.map.latLngToContainerPoint(l.getCenter());
            const r = window.Dateline.map.getContainer().getBoundingClientRect();
            return [r.left + p.x, r.top + p.y];
        })()""",
    )
    box = page.locator("iframe[title='streamlit_folium.st_folium']").bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)
    expect(details(page)).to_contain_text("Lebanese side", timeout=30_000)
    expect(details(page)).to_contain_text("ISIS-held enclave")


@pytest.mark.parametrize("size", LAPTOPS)
def test_the_convoy_is_on_top_and_clickable_on_28_august(server, page_for, size):
    page, _ = page_for(server, "?from=2017-08-28&to=2017-08-28", viewport=size)
    frame = ready_map(page)
    convoy = frame.locator("path[data-key='convoy:convoy-2017-08-28']")
    expect(convoy).to_be_visible()
    topmost = map_js(
        page,
        """(() => {
            const el = document.querySelector("path[data-key='convoy:convoy-2017-08-28']");
            const r = el.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit && hit.getAttribute('data-key');
        })()""",
    )
    assert topmost == "convoy:convoy-2017-08-28"
    convoy.click()
    expect(details(page)).to_contain_text("Convoy · 28 Aug 2017", timeout=30_000)


def test_a_link_to_beirut_opens_with_beirut_in_view(server, page_for):
    page, _ = page_for(server, "?sel=place:beirut", viewport=SIZES["laptop"])
    ready_map(page)
    expect(details(page)).to_contain_text("Beirut")
    assert in_map_view(page, "place:beirut")


def test_zoom_and_centre_round_trip_through_the_url(server, page_for):
    page, _ = page_for(server, "?zoom=9&center=34.1000,36.5000", viewport=SIZES["laptop-l"])
    ready_map(page)
    assert map_js(page, "window.Dateline.map.getZoom()") == 9
    lat, lon = map_js(page, CENTER)
    assert abs(lat - 34.1) < 0.01 and abs(lon - 36.5) < 0.01
    map_frame(page).locator(".leaflet-control-zoom-in").click()
    page.wait_for_function("new URL(location.href).searchParams.get('zoom') === '10'")
    query = parse_qs(urlparse(page.url).query)
    again, _ = page_for(server, "?" + urlparse(page.url).query, viewport=SIZES["laptop-l"])
    ready_map(again)
    assert map_js(again, "window.Dateline.map.getZoom()") == 10
    lat2, lon2 = map_js(again, CENTER)
    want = [float(v) for v in query["center"][0].split(",")]
    assert abs(lat2 - want[0]) < 0.001 and abs(lon2 - want[1]) < 0.001


def test_play_keeps_the_convoy_in_the_frame(server, page_for):
    page, _ = page_for(server, "?from=2017-08-28&to=2017-08-28", viewport=SIZES["laptop"])
    frame = ready_map(page)
    page.get_by_role("button", name="Play").click()
    expect(frame.get_by_test_id("map-date")).to_have_text("As of 3 Sep 2017", timeout=60_000)
    page.get_by_role("button", name="Pause").click()
    page.wait_for_selector(APP_READY)
    current = map_js(
        page,
        """Object.keys(window.Dateline.byKey).filter(k => k.startsWith('convoy:')).filter(k => {
            const l = window.Dateline.byKey[k]; return l._map && l.options.radius === 9;
        })""",
    )
    assert current, "no current convoy position drawn"
    for key in current:
        assert in_map_view(page, key), key


@pytest.fixture
def world_story(server):
    dest = server.stories_dir / "world-test"
    shutil.copytree(FIXTURES / "stories" / "world", dest, dirs_exist_ok=True)
    yield "world-test"
    shutil.rmtree(dest, ignore_errors=True)


@pytest.mark.parametrize(
    ("place", "country"),
    [("baghuz", "Syria"), ("mosul", "Iraq"), ("kyiv", "Ukraine"), ("sanaa", "Yemen")],
)
def test_far_places_are_drawn_on_land(server, page_for, world_story, place, country):
    page, _ = page_for(server, f"?story={world_story}&sel=place:{place}", viewport=SIZES["laptop"])
    ready_map(page)
    map_js(page, "window.Dateline.map.setZoom(6, {animate: false})")
    frame = next(f for f in page.frames if "streamlit_folium" in f.url)
    # The detailed tier is loaded once the zoom's land is drawn and the sea is sea.
    frame.wait_for_function(
        "window.Dateline.landAt(0, 0) === null"
        " && document.querySelectorAll('.leaflet-dlLand-pane path').length > 100"
    )
    lat, lon = map_js(page, f"Object.values(window.Dateline.byKey['place:{place}'].getLatLng())")
    assert map_js(page, f"window.Dateline.landAt({lat}, {lon})") == country


@pytest.mark.parametrize("size", ALL_SIZES)
def test_a_mouse_click_selects_a_place_and_the_view_stays_on_it(server, page_for, size):
    # The convoy stood 250 km east on the story's last day: a click in Lebanon must not take
    # the reader there.
    page, _ = page_for(server, viewport=size)
    frame = ready_map(page)
    pin = frame.locator("div.dl-marker[data-key='place:jurud-ras-baalbek']")
    pin.scroll_into_view_if_needed()
    before = map_js(page, CENTER)
    box = pin.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(details(page)).to_contain_text("Jurud Ras Baalbek and al-Qaa", timeout=30_000)
    # The rerun has reached the map: the place's label is the selected one.
    expect(frame.locator(".dl-label-selected")).to_contain_text("Jurud Ras Baalbek")
    after = map_js(page, CENTER)
    assert after == before
    assert in_map_view(page, "place:jurud-ras-baalbek")
