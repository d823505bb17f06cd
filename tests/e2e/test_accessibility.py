"""Accessibility: axe-core finds no serious or critical problem on the dashboard, in its map's
frame or in the published file, at laptop and phone sizes; the map can be used by keyboard alone.

axe-core comes from node_modules (package-lock.json pins it; ``python3 dev.py test`` installs
it), injected into the page as a script: nothing is fetched from the internet.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from geo.map.publish import publish_html
from geo.story.load import load_story
from tests.e2e.conftest import APP_READY, ROOT, ready_map

pytestmark = pytest.mark.e2e

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"laptop": (1280, 720), "phone": (390, 844)}
# Minor and moderate findings are reported by axe too; the bar here is what blocks a reader.
BLOCKING = ("serious", "critical")


def axe_source() -> str:
    if not AXE.exists():
        pytest.fail(
            f"{AXE} is missing: run `python3 dev.py js` (npm ci from package-lock.json).",
            pytrace=False,
        )
    return AXE.read_text()


def axe_problems(frame) -> list[str]:
    """axe's serious and critical violations in one frame, as 'rule-id ×count (impact)'."""
    if not frame.evaluate("() => Boolean(window.axe)"):
        # evaluate, not a script tag: the published file's content security policy forbids
        # inline scripts, and Playwright's evaluate is not subject to it.
        frame.evaluate(axe_source())
    found = frame.evaluate(
        """async () => {
            const r = await axe.run(document, {iframes: false, resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, n: v.nodes.length,
                where: v.nodes.slice(0, 4).map(x => x.html.slice(0, 120))}));
        }"""
    )
    return [
        f"{v['id']} ×{v['n']} ({v['impact']}) e.g. {v['where']}"
        for v in found
        if v["impact"] in BLOCKING
    ]


def map_frame_of(page):
    return next(f for f in page.frames if "streamlit_folium" in f.url)


@pytest.mark.parametrize("size", SIZES)
def test_dashboard_and_its_map_have_no_serious_axe_violation(server, page_for, size):
    page, _ = page_for(server, "?to=2017-08-31&sel=place:baalbek", viewport=SIZES[size])
    ready_map(page)
    expect(page.get_by_test_id("stColumn").filter(has_text="Details")).to_contain_text(
        "Baalbek", timeout=30_000
    )
    # The boxes opened, so what they hold is checked too: the events list, and on a laptop the
    # categories (a phone's sidebar is folded away).
    page.locator(".st-key-event_list summary").click()
    expect(page.locator(".st-key-event_list button").first).to_be_visible(timeout=30_000)
    page.wait_for_selector(APP_READY)
    if size == "laptop":
        page.locator(".st-key-cats_box summary").click()
        expect(page.get_by_role("button", name="All categories")).to_be_visible()
    problems = axe_problems(page.main_frame) + [
        f"map frame: {p}" for p in axe_problems(map_frame_of(page))
    ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", SIZES)
def test_published_file_has_no_serious_axe_violation(file_page, tmp_path, size):
    out = tmp_path / "story.html"
    out.write_text(publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017")))
    page = file_page(out, SIZES[size]).page
    expect(page.get_by_test_id("map-date")).not_to_be_empty(timeout=30_000)
    expect(page.locator(".dl-pin").first).to_be_visible()
    problems = axe_problems(page.main_frame)
    assert not problems, "\n".join(problems)


# --- keyboard alone --------------------------------------------------------------------------
FOCUSED = """() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return {text: (el.innerText || el.getAttribute('aria-label') || '').trim(), tag: el.tagName,
            inList: Boolean(el.closest('.st-key-event_list')),
            outline: style.outlineStyle, width: parseFloat(style.outlineWidth)};
}"""


def tab_to(page, wanted, most: int = 80) -> dict:
    """Press Tab until the focused element is ``wanted`` (a test on FOCUSED's record); that
    record. Fails after ``most`` presses: the element is not reachable by keyboard."""
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if wanted(focused):
            return focused
    pytest.fail(f"not reached with {most} presses of Tab")


def assert_ring(focused: dict) -> None:
    assert focused["outline"] != "none" and focused["width"] >= 2, focused


@pytest.mark.parametrize("size", SIZES)
def test_keyboard_alone_walks_the_chapters_and_opens_a_place_from_the_list(server, page_for, size):
    page, traffic = page_for(server, viewport=SIZES[size])
    ready_map(page)
    assert_ring(tab_to(page, lambda f: f["text"] == "Next ›"))
    page.keyboard.press("Enter")
    page.wait_for_function("new URL(location.href).searchParams.get('chapter') === '1'")
    page.wait_for_selector(APP_READY)
    assert page.evaluate(FOCUSED)["text"] == "Next ›"  # still there: Enter again goes on
    page.keyboard.press("Enter")
    page.wait_for_function("new URL(location.href).searchParams.get('chapter') === '2'")
    page.wait_for_selector(APP_READY)
    # The list's box, then its first event (the latest in the window).
    box = tab_to(page, lambda f: f["inList"] and f["tag"] == "SUMMARY")
    assert_ring(box)
    page.keyboard.press("Enter")
    first = page.locator(".st-key-event_list button").first
    expect(first).to_be_visible(timeout=30_000)
    focused = tab_to(page, lambda f: f["inList"] and f["tag"] == "BUTTON", most=3)
    assert_ring(focused)
    place = focused["text"].split(" · ")[1]
    page.keyboard.press("Enter")
    # Chapter 2 selected the enclave; the list's event selects its place, as a click would.
    page.wait_for_function(
        "(new URL(location.href).searchParams.get('sel') || '').startsWith('place:')"
    )
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text(f"{place} ·", timeout=30_000)
    assert not traffic.console_errors, traffic.console_errors


def test_a_focused_marker_shows_a_ring_and_enter_selects_it(server, page_for):
    page, _ = page_for(server, "?to=2017-08-31", viewport=SIZES["laptop"])
    frame = ready_map(page)
    pin = frame.locator(".leaflet-marker-icon[data-key='place:baalbek']")
    expect(pin).to_be_visible(timeout=30_000)
    expect(pin).to_have_accessible_name("Baalbek, 2 events")
    pin.focus()
    ring = pin.evaluate("el => getComputedStyle(el).outlineStyle")
    assert ring != "none"
    page.keyboard.press("Enter")
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text("Baalbek ·", timeout=30_000)
    expect(frame.get_by_role("button", name="Full screen", exact=True)).to_be_visible()
    expect(frame.get_by_role("button", name="Zoom in", exact=True)).to_be_visible()
    expect(frame.get_by_role("button", name="Download PNG")).to_be_visible()
    expect(frame.get_by_role("status", name="Date shown on the map")).to_have_text(
        "As of 31 Aug 2017"
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_skip_link_takes_the_keyboard_past_the_maps_markers(server, page_for, size):
    page, traffic = page_for(server, viewport=SIZES[size])
    ready_map(page)
    skip = tab_to(page, lambda f: f["text"].startswith("Skip the map"))
    assert_ring(skip)
    # Hidden until focused; then shown whole, over the map's corner.
    link = page.locator("a.dl-skip")
    box = link.bounding_box()
    assert box is not None and box["width"] > 150 and box["x"] >= 0, box
    page.keyboard.press("Enter")
    page.wait_for_function("location.hash === '#details'")
    # The events list's box is the next stop after the details, not past one for every
    # marker (30+).
    box = tab_to(page, lambda f: f["inList"] and f["tag"] == "SUMMARY", most=2)
    assert_ring(box)
    assert not traffic.console_errors, traffic.console_errors
