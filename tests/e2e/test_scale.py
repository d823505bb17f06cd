"""End-to-end: a 100k-event story is drawn as grid clusters, and clicking one zooms in."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import APP_READY, MAP_FRAME, Server, start_server, stop_server
from tests.e2e.conftest import map_frame, new_context

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from bench.generate import generate_story  # noqa: E402

pytestmark = pytest.mark.e2e
STORY = "synthetic-100000"
QUERY = f"?story={STORY}"  # the whole year: 100k events in the window


@pytest.fixture(scope="session")
def big_server(tmp_path_factory) -> Iterator[Server]:
    stories = tmp_path_factory.mktemp("big-stories")
    generate_story(stories, 100_000, story_id=STORY)
    srv = start_server(tmp_path_factory.mktemp("big-app"), {"DATELINE_STORIES_DIR": str(stories)})
    yield srv
    stop_server(srv)


def _frame(page):
    return page.locator(MAP_FRAME).element_handle().content_frame()


def test_big_story_shows_clusters_and_a_click_zooms_in(big_server, page_for):
    page, traffic = page_for(big_server, QUERY)
    expect(page.get_by_text(re.compile(r"^100,000 events · ")).first).to_be_visible(timeout=60_000)
    clusters = map_frame(page).locator(".dl-agg")
    expect(clusters.first).to_be_visible(timeout=60_000)
    assert clusters.count() >= 2
    labels = clusters.all_inner_texts()
    assert all(re.fullmatch(r"\d+(\.\d)?[kM]?", t) for t in labels), labels
    # The page says the map is an aggregated grid, not one marker per place.
    expect(page.get_by_text("events counted in a grid")).to_be_visible()
    frame = _frame(page)
    # The map opens zoomed out; the app re-aggregates once the browser reports the real view.
    page.wait_for_selector(APP_READY, timeout=60_000)
    zoom = frame.evaluate("window.map.getZoom()")
    key = clusters.first.get_attribute("data-key")
    assert key.startswith("cluster:z")

    clusters.first.click()
    frame.wait_for_function(f"window.map.getZoom() > {zoom}", timeout=30_000)
    # Then the server sends the clusters (or single places) for the new zoom.
    frame.wait_for_function(
        """() => {
            const z = window.map.getZoom();
            const keys = Array.from(document.querySelectorAll('.dl-agg'),
                                    (el) => el.dataset.key);
            return keys.every((k) => k.startsWith('cluster:z' + z + '-'));
        }""",
        timeout=60_000,
    )
    assert frame.evaluate("window.map.getZoom()") > zoom
    assert not traffic.console_errors, traffic.console_errors


# Whether the locator inset is hidden or clear of every grid disc (in the map's frame).
LOCATOR_CLEAR = """() => {
    const loc = document.querySelector("[data-testid='map-locator']");
    const discs = Array.from(document.querySelectorAll('.dl-agg'),
                             (el) => el.getBoundingClientRect());
    if (!loc || !discs.length) { return null; }
    const style = getComputedStyle(loc), r = loc.getBoundingClientRect();
    const hidden = style.visibility === 'hidden' || style.display === 'none';
    const under = discs.filter((d) => d.left < r.right && d.right > r.left &&
                                      d.top < r.bottom && d.bottom > r.top).length;
    return {hidden: hidden, under: under};
}"""


def test_the_locator_inset_never_covers_a_grid_disc(big_server, page_for):
    # A grid disc is a mark the locator dodges, as a place's marker is: one brought under the
    # inset (the map dragged with the mouse) hides it.
    page, traffic = page_for(big_server, QUERY, viewport=(1280, 720))
    clusters = map_frame(page).locator(".dl-agg")
    expect(clusters.first).to_be_visible(timeout=60_000)
    page.wait_for_selector(APP_READY, timeout=60_000)
    frame = _frame(page)
    locator = map_frame(page).get_by_test_id("map-locator")
    expect(locator).to_be_attached()
    box, disc = locator.bounding_box(), clusters.first.bounding_box()
    # Drag the first disc onto the inset's middle with the mouse (grabbing the map beside it).
    start = (disc["x"] + disc["width"] + 8, disc["y"] + disc["height"] / 2)
    target = (box["x"] + box["width"] / 2 + disc["width"] / 2 + 8, box["y"] + box["height"] / 2)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*target, steps=12)
    page.mouse.up()
    page.wait_for_selector(APP_READY, timeout=60_000)
    # Once the new view's discs are drawn, one lies under the inset, which is hidden.
    frame.wait_for_function(
        f"() => {{ const s = ({LOCATOR_CLEAR})(); return s && s.under > 0; }}", timeout=30_000
    )
    state = frame.evaluate(LOCATOR_CLEAR)
    assert state["hidden"], state
    assert not traffic.console_errors, traffic.console_errors


HOLD_CHECK = """async () => {
    const sent = [];
    const S = {setComponentValue(v) { sent.push([v, performance.now()]); }};
    window.Dateline.holdFirstReport(S);
    S.setComponentValue({zoom: 5});
    S.setComponentValue({zoom: 6});
    const before = sent.length;
    let painted = null;
    requestAnimationFrame(() => { painted = performance.now(); });
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 20)));
    S.setComponentValue({zoom: 7});
    return {before, sent: sent.map(([v]) => v.zoom), afterPaint: sent[0][1] >= painted,
            painted};
}"""


@pytest.mark.parametrize("viewport", [(1280, 720), (1440, 900), (390, 844)])
def test_the_first_view_report_waits_for_the_first_paint(browser, viewport):
    # The map's script in a page of its own: what st_folium sends before the map has painted
    # is held until it has, and only the latest of it goes; later values go at once.
    context = new_context(browser, viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.set_content("<html><body></body></html>")
    page.add_script_tag(path=str(ROOT / "geo" / "map" / "js" / "basemap.js"))
    got = page.evaluate(HOLD_CHECK)
    context.close()
    assert got["before"] == 0
    assert got["sent"] == [6, 7]
    assert got["afterPaint"], got


def test_a_big_story_map_holds_its_first_report(big_server, page_for):
    page, _ = page_for(big_server, QUERY)
    frame = _frame(page)
    frame.wait_for_function("() => document.querySelectorAll('.dl-agg').length > 0")
    page.wait_for_selector(APP_READY, timeout=60_000)
    assert frame.evaluate("window.Streamlit.dlHeld") is True
