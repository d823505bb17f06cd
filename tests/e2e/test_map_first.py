"""The map first: a new page draws its map before the sidebar's controls, details and timeline,
and the rest comes without moving the map (app.py, js/basemap.js: Dateline.reportPainted)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import FIRST_RUN_TEXT, MAP_FRAME, wait_whole_page
from tests.e2e.conftest import APP_READY, map_frame, map_js, new_context

pytestmark = pytest.mark.e2e

# Before the page's scripts: on every animation frame, the map frame's box, whether the map has
# drawn its story, and whether the sidebar's story picker and the first run's text are there,
# each time one of them changes.
RECORD = """(() => {
    if (window !== window.top) { return; }
    window.dlSeen = [];
    const tick = () => {
        const frame = document.querySelector("iframe[title='streamlit_folium.st_folium']");
        let drawn = false;
        try { drawn = Boolean(frame.contentWindow.Dateline.last); } catch (e) { drawn = false; }
        const box = frame ? frame.getBoundingClientRect() : null;
        const seen = {
            box: box ? [box.top, box.left, box.width, box.height].map(Math.round).join(',') : '',
            drawn: drawn,
            picker: Boolean(document.querySelector(
                "[data-testid='stSidebar'] [data-testid='stSelectbox']")),
            first: document.body.innerText.includes(%s),
        };
        const key = JSON.stringify(seen);
        if (!window.dlSeen.length || window.dlSeen[window.dlSeen.length - 1].key !== key) {
            window.dlSeen.push(Object.assign({key: key}, seen));
        }
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
})()"""

# The sidebar's categories box, titled with what is on ("Categories: all 15").
CATEGORIES_BOX = re.compile(r"^Categories: ")
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _open(browser, server, viewport, route=None):
    context = new_context(browser, viewport={"width": viewport[0], "height": viewport[1]})
    if route:
        context.route(*route)
    page = context.new_page()
    page.add_init_script(RECORD % repr(FIRST_RUN_TEXT))
    page.goto(server.url)
    return context, page


@pytest.mark.parametrize("viewport", [(1280, 720), (1440, 900), (390, 844)])
def test_the_map_is_drawn_first_and_the_rest_does_not_move_it(browser, server, viewport):
    context, page = _open(browser, server, viewport)
    try:
        wait_whole_page(page)
        # The run has ended; its elements may still be waiting for their scripts.
        expect(page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first).to_be_visible()
        # The recorder notes what each animation frame shows: two more frames, so the last
        # change has been seen.
        page.evaluate(TWO_FRAMES)
        seen = page.evaluate("window.dlSeen")
        drawn_at = next(n for n, s in enumerate(seen) if s["drawn"])
        picker_at = next(n for n, s in enumerate(seen) if s["picker"])
        # The map had drawn its story while the first run's text was up and no picker yet.
        assert drawn_at < picker_at, seen
        assert seen[drawn_at]["first"] and not seen[drawn_at]["picker"], seen
        # From the map's first drawing on, its frame never moved or changed size.
        boxes = {s["box"] for s in seen[drawn_at:]}
        assert len(boxes) == 1, seen
        # The whole page: its controls, no first-run text, the map still drawn (not reloaded).
        expect(page.get_by_text(FIRST_RUN_TEXT)).to_have_count(0)
        # Attached, not visible: a phone's sidebar is folded away, and the box's title with it.
        expect(page.get_by_test_id("stSidebar").get_by_text(CATEGORIES_BOX)).to_be_attached()
        assert page.evaluate("window.dlSeen[window.dlSeen.length - 1].drawn")
    finally:
        context.close()


def test_a_map_that_cannot_draw_still_gets_the_whole_page(browser, server):
    # The map's scripts never arrive: nothing reports a paint, and the page's fallback draws
    # the rest after a few seconds.
    context, page = _open(
        browser, server, (1440, 900), ("**/dateline/map-bundle.js*", lambda r: r.abort())
    )
    try:
        page.wait_for_selector(MAP_FRAME, timeout=60_000)
        expect(page.get_by_text(FIRST_RUN_TEXT)).to_be_visible(timeout=60_000)
        wait_whole_page(page)
        expect(page.get_by_test_id("stSidebar").get_by_text(CATEGORIES_BOX)).to_be_visible()
        assert not page.evaluate("window.dlSeen.some((s) => s.drawn)")
    finally:
        context.close()


def test_a_second_page_in_the_same_session_is_whole_at_once(server, page_for):
    page, _ = page_for(server)
    expect(map_frame(page).get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    page.get_by_test_id("stSidebar").get_by_text("New story from an article").click()
    expect(page.get_by_role("heading", name="New story from an article")).to_be_visible()
    # Back on the map page: the session is not new, so its first run is the whole page and
    # the first run's text never shows.
    page.evaluate(
        """(text) => {
        window.dlFirstShown = false;
        const tick = () => {
            if (document.body.innerText.includes(text)) { window.dlFirstShown = true; }
            requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
    }""",
        FIRST_RUN_TEXT,
    )
    page.get_by_test_id("stSidebar").get_by_text("Map of the story").click()
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar.get_by_text(CATEGORIES_BOX)).to_be_visible(timeout=60_000)
    expect(map_frame(page).get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    assert page.evaluate("window.dlFirstShown") is False


def test_a_link_notice_going_away_leaves_the_map_where_it_was(server, page_for):
    # A link value the page ignores is said once; the next whole run drops the notice. The map
    # below it must keep its place: a map moved up one element is made anew (its frame reloads).
    page, _ = page_for(server, "?killed=lots", viewport=(1280, 720))
    wait_whole_page(page)
    notice = page.get_by_text("Ignored killed='lots'")
    expect(notice).to_be_visible()
    expect(map_frame(page).get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    map_js(page, "() => { window.dlMark = 'kept'; }")
    # A whole run: a layer switched off in the sidebar, with the mouse.
    page.get_by_test_id("stSidebar").get_by_text("Convoy", exact=True).click()
    expect(notice).to_have_count(0, timeout=30_000)
    page.wait_for_selector(APP_READY, timeout=30_000)
    assert map_js(page, "() => window.dlMark") == "kept"
