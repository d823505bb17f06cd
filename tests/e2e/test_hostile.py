"""End-to-end: a hostile story, hostile links, a hostile article and zip bombs in real Chromium.

Asserted: no alert or other dialog, no element built from data (link, image, bold, script,
svg, heading), no request leaving localhost (conftest blocks and fails on any), the literal
text on screen, and a server that still answers /_stcore/health after a bomb.
"""

from __future__ import annotations

import re
import urllib.request
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import start_server, stop_server
from tests.e2e.conftest import APP_READY, map_frame, wait_whole_page
from tests.helpers import EVIL_HOST, hostile_story, lying_zip, parquet_bomb_zip, payload

pytestmark = pytest.mark.e2e

# Alerts are recorded, not shown, in every frame (the map is an iframe); dialogs are counted.
RECORD_ALERTS = """
window.__alerts = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (msg) => { (window.top.__alerts || window.__alerts).push(String(msg)); };
}
"""
# Elements that data must never create, in a document: their text or link carries a payload.
FIND_INJECTED = """
(host) => {
  const marker = /^(B|L|I|T|H|R)(title|summary|pub\\d|pl|ev|co|fr)/;
  const bad = [];
  const tags = "a,img,b,strong,em,script,svg,h1,h2,h3,h4,h5,h6,iframe";
  for (const el of document.querySelectorAll(tags)) {
    const link = el.getAttribute("href") || el.getAttribute("src") || "";
    const text = (el.textContent || "").trim();
    const fromData = link.includes(host) || link === "x" || marker.test(text)
      || (el.tagName === "SCRIPT" && /alert\\('/.test(text)) || el.hasAttribute("onload")
      || el.hasAttribute("onerror");
    if (fromData) bad.push(el.tagName + ": " + (link || text).slice(0, 80));
  }
  return bad;
}
"""


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory, gazetteer_cache):
    srv = start_server(
        tmp_path_factory.mktemp("hostile"), {"DATELINE_CACHE_DIR": str(gazetteer_cache)}
    )
    hostile_story(srv.stories_dir)
    yield srv
    stop_server(srv)


def open_guarded(page_for, srv, query=""):
    page, traffic = page_for(srv, query)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.context.add_init_script(RECORD_ALERTS)
    # Again, now with alerts recorded from the start (the same link: a reload would open the
    # URL the app has rewritten by then).
    page.goto(f"{srv.url}/{query}")
    wait_whole_page(page)
    return page, traffic, dialogs


def injected(page) -> list[str]:
    found = page.evaluate(FIND_INJECTED, EVIL_HOST)
    for frame in page.frames[1:]:
        try:
            found += frame.evaluate(FIND_INJECTED, EVIL_HOST)
        except Exception:  # a frame that navigated away while being read
            continue
    return found


def shown(locator, expected: str, timeout: float = 30_000) -> str:
    """A locator's visible text once it holds ``expected``, without the invisible word joiners
    that break autolinks (a rerun may still be filling the element when it first appears)."""
    pattern = "\u2060*".join(r"\s+" if c == " " else re.escape(c) for c in expected)
    expect(locator.first).to_contain_text(re.compile(pattern), use_inner_text=True, timeout=timeout)
    return locator.first.inner_text().replace("\u2060", "")


def alerts(page) -> list[str]:
    return page.evaluate("window.__alerts || []")


def assert_clean(page, traffic, dialogs) -> None:
    assert not dialogs, dialogs
    assert not alerts(page), alerts(page)
    assert not injected(page), injected(page)
    assert not traffic.blocked, traffic.blocked
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_hostile_story_shows_text_only(hostile_server, page_for):
    query = "?" + urlencode({"story": "hostile", "to": "2017-08-31", "sel": "place:baalbek"})
    page, traffic, dialogs = open_guarded(page_for, hostile_server, query)
    heading = page.get_by_role("heading", level=3).filter(has_text="Btitle")
    title = f"**Btitle** [Ltitle](http://{EVIL_HOST}/title)"
    assert title in shown(heading, title)
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text("**Bplnam1**", timeout=30_000)  # Baalbek's name
    summary = "<img src=x onerror=alert('evsum"
    assert summary in shown(details, summary)
    frame = map_frame(page)
    pins = frame.locator(".dl-pin")
    expect(pins.first).to_be_visible(timeout=30_000)
    # Every tooltip, and the details of every pin (a click shows them in the panel, no popup).
    for k in range(pins.count()):
        pins.nth(k).dispatch_event("mouseover")
        expect(frame.locator(".leaflet-tooltip").last).to_contain_text("**Bpl", timeout=10_000)
        pins.nth(k).dispatch_event("click")
        page.wait_for_selector(APP_READY, timeout=60_000)
        expect(details).to_contain_text("**Bev", timeout=30_000)
        assert_clean(page, traffic, dialogs)
    expect(frame.locator(".leaflet-popup")).to_have_count(0)
    enclave = frame.locator("path.leaflet-interactive").first
    enclave.dispatch_event("mouseover")
    enclave.dispatch_event("click")
    page.wait_for_selector(APP_READY, timeout=60_000)
    assert_clean(page, traffic, dialogs)


@pytest.mark.parametrize("sel", ["convoy:c5", "front:lb-1"])
def test_hostile_convoy_and_front_details(hostile_server, page_for, sel):
    query = "?" + urlencode({"story": "hostile", "to": "2017-08-31", "sel": sel})
    page, traffic, dialogs = open_guarded(page_for, hostile_server, query)
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text("**B", timeout=30_000)
    link = f"](http://{EVIL_HOST}/"
    assert link in shown(details, link)
    assert_clean(page, traffic, dialogs)


def test_hostile_link_gives_one_line_of_text(hostile_server, page_for):
    query = "?" + urlencode(
        {
            "story": f"![x](http://{EVIL_HOST}/s.png)",
            "from": f"[click](http://{EVIL_HOST}/f)",
            "cat": f"<img src=http://{EVIL_HOST}/c onerror=alert(1)>",
            "actor": "**bold**",
            "sel": "<script>alert(1)</script>",
        }
    )
    page, traffic, dialogs = open_guarded(page_for, hostile_server, query)
    notices = page.get_by_test_id("stAlert")
    expect(notices).to_have_count(1)
    text = shown(notices, "<script>alert(1)</script>")
    assert f"![x](http://{EVIL_HOST}/s.png)" in text and "<script>alert(1)</script>" in text
    box = notices.first.bounding_box()
    assert box is not None and box["height"] < 140, box
    assert_clean(page, traffic, dialogs)


def test_a_pasted_hostile_article_is_text(hostile_server, page_for):
    page, traffic, dialogs = open_guarded(page_for, hostile_server, "New_story_from_an_article")
    article = "BEIRUT, Aug 28 (Reuters) - Buses left Arsal on Monday.\n\n" + payload("art")
    page.get_by_label("Article text").fill(article)
    page.get_by_role("button", name="Find places, dates and figures").click()
    expect(page.get_by_text("Draft events")).to_be_visible(timeout=120_000)
    page.wait_for_selector(APP_READY, timeout=60_000)
    article_view = page.locator("div[style*='line-height']").filter(has_text="Bart")
    text = shown(article_view, "$xart$")
    assert f"**Bart** [Lart](http://{EVIL_HOST}/art)" in text
    # The tags make it read as HTML, so they are gone as markup; the rest is literal text.
    assert ":red[Rart] www.art.evil.example $xart$ ## Hart" in text
    assert_clean(page, traffic, dialogs)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        pytest.param(lambda: lying_zip(110 << 20), re.compile("damaged|unpacks to more"), id="zip"),
        pytest.param(
            lambda: parquet_bomb_zip(30_000_000), re.compile("rows; at most"), id="parquet"
        ),
    ],
)
def test_bombs_are_refused_and_the_server_lives(hostile_server, page_for, tmp_path, make, message):
    bomb = tmp_path / "bomb.zip"
    bomb.write_bytes(make())
    assert bomb.stat().st_size < 2_000_000
    page, traffic, dialogs = open_guarded(page_for, hostile_server, "New_story_from_an_article")
    page.get_by_text("Upload a story zip").click()
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="A zip made by")
    uploader.locator("input[type=file]").set_input_files(str(bomb))
    page.wait_for_selector(APP_READY, timeout=60_000)
    page.get_by_role("button", name="Add this story").click()
    expect(page.get_by_test_id("stAlert").filter(has_text="Not added")).to_be_visible(
        timeout=120_000
    )
    details = page.get_by_test_id("stAlert").or_(page.get_by_test_id("stCode"))
    expect(details.filter(has_text=message)).to_have_count(1)
    assert not any(p.name != "hostile" for p in hostile_server.stories_dir.iterdir())
    with urllib.request.urlopen(f"{hostile_server.url}/_stcore/health", timeout=10) as resp:
        assert resp.read().decode().strip() == "ok"
    assert hostile_server.proc.poll() is None
    assert_clean(page, traffic, dialogs)
