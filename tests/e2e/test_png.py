"""End-to-end: "Download PNG" in the dashboard's map frame and in the published file, offline.

The picture is the map element's size in CSS pixels times devicePixelRatio (1 on the laptop
viewport, 2 on the phone one), with the caption strip drawn across its top.
"""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest
from PIL import Image  # Streamlit's own dependency: always installed with the app
from playwright.sync_api import expect

from geo.map.publish import publish_html
from geo.story.load import load_story
from tests.e2e.appserver import MAP_FRAME
from tests.e2e.conftest import OUTPUT, ROOT, map_frame
from tests.helpers import copy_mini, replace

pytestmark = pytest.mark.e2e

SIZES = [pytest.param((1280, 720), 1, id="1280x720"), pytest.param((390, 844), 2, id="390x844")]
LAND = (0xF4, 0xF1, 0xEA)  # js/basemap.js's land fill


def png_facts(data: bytes) -> dict:
    """Width and height from the IHDR chunk, after the signature; what the pixels hold."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    with Image.open(io.BytesIO(data)) as img:
        img.load()  # decodes every row: a truncated or damaged file fails here
        assert img.size == (width, height)
        rgb = img.convert("RGB")
    colours = rgb.getcolors(maxcolors=width * height)
    land = sum(n for n, c in colours if c == LAND)
    return {
        "size": (width, height),
        "colours": len(colours),
        "land": land / (width * height),
        "corner": rgb.getpixel((2, 2)),  # inside the caption strip
    }


def check_picture(data: bytes, map_size: tuple[int, int], scale: int, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / name).write_bytes(data)
    facts = png_facts(data)
    assert facts["size"] == (map_size[0] * scale, map_size[1] * scale)
    # Not blank: the offline land, borders, labels, markers and the caption's text.
    assert facts["colours"] > 200, facts
    assert facts["land"] > 0.2, facts
    assert min(facts["corner"]) >= 245 and facts["corner"] != LAND, facts  # the caption strip


@pytest.mark.parametrize(("viewport", "scale"), SIZES)
def test_download_png_from_the_dashboard(server, page_for, viewport, scale):
    page, traffic = page_for(server, "?from=2017-08-19&to=2017-08-28", viewport, scale)
    # Streamlit's component frame allows downloads (its sandbox lists allow-downloads).
    assert "allow-downloads" in page.locator(MAP_FRAME).get_attribute("sandbox").split()
    frame = map_frame(page)
    expect(frame.get_by_test_id("map-date")).to_have_text("As of 28 Aug 2017", timeout=30_000)
    expect(frame.locator(".dl-label").first).to_be_visible()
    frame.locator(".leaflet-dlLand-pane path").first.wait_for(state="attached")
    # The page is whole (the timeline's charts are in) and idle.
    expect(page.get_by_test_id("stImage")).to_have_count(2, timeout=30_000)
    page.wait_for_selector("[data-test-script-state='notRunning']")
    size = frame.locator(".leaflet-container").evaluate("e => [e.clientWidth, e.clientHeight]")
    asked = len(traffic.requests)
    with page.expect_download() as info:
        frame.get_by_role("button", name="Download PNG").click()  # the real mouse
    download = info.value
    assert download.failure() is None
    assert download.suggested_filename == "qalamoun-2017_2017-08-19_2017-08-28.png"
    check_picture(
        Path(download.path()).read_bytes(), tuple(size), scale, f"png-dash-{viewport[0]}.png"
    )
    assert traffic.requests[asked:] == []  # drawn from what the page has: nothing fetched
    expect(frame.locator(".dl-png")).to_have_attribute("data-state", "done")
    assert not traffic.console_errors, traffic.console_errors


@pytest.mark.parametrize(("viewport", "scale"), SIZES)
def test_download_png_from_the_published_file_offline(file_page, tmp_path, viewport, scale):
    out = tmp_path / "story.html"
    out.write_text(publish_html(load_story(ROOT / "data" / "stories" / "qalamoun-2017")))
    opened = file_page(out, viewport, scale, console=True)
    page, asked, errors = opened.page, opened.asked, opened.errors
    expect(page.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    expect(page.locator(".dl-label").first).to_be_visible()
    page.wait_for_function("document.querySelectorAll('.leaflet-dlLand-pane path').length > 50")
    to = page.locator("#dl-to")
    to.focus()
    for _ in range(17):  # the window's end from 14 Sep back to 28 Aug
        to.press("ArrowLeft")
    expect(page.get_by_test_id("map-date")).to_have_text("As of 28 Aug 2017")
    size = page.locator("#dl-map").evaluate("e => [e.clientWidth, e.clientHeight]")
    button = page.get_by_role("button", name="Download PNG")
    with page.expect_download() as info:
        button.click()
    download = info.value
    assert download.suggested_filename == "qalamoun-2017_2017-07-21_2017-08-28.png"
    check_picture(
        Path(download.path()).read_bytes(), tuple(size), scale, f"png-pub-{viewport[0]}.png"
    )
    # Keyboard: the control is a button in the tab order; Enter saves again.
    expect(page.locator(".dl-png")).to_have_attribute("data-state", "done")
    with page.expect_download() as again:
        button.focus()
        page.keyboard.press("Enter")
    assert again.value.suggested_filename == download.suggested_filename
    assert [u for u in asked if not u.startswith("file://")] == []
    assert not errors, errors


def test_a_title_with_markup_is_drawn_as_text(file_page, tmp_path):
    dest = copy_mini(tmp_path)
    title = '<img src=x onerror=\\"window.hit=1\\"> & </script> \' \\"quoted\\"'
    replace(dest / "story.toml", 'title = "Mini story for tests"', f'title = "{title}"')
    out = tmp_path / "mini.html"
    out.write_text(publish_html(load_story(dest)))
    opened = file_page(out, (800, 600))
    page, errors = opened.page, opened.errors
    page.wait_for_function("document.querySelectorAll('.leaflet-dlLand-pane path').length > 0")
    with page.expect_download() as info:
        page.get_by_role("button", name="Download PNG").click()
    assert info.value.suggested_filename == "mini_2017-08-01_2017-08-31.png"
    data = Path(info.value.path()).read_bytes()
    OUTPUT.mkdir(exist_ok=True)
    (OUTPUT / "png-markup.png").write_bytes(data)  # to look at: the title, literally
    facts = png_facts(data)
    size = page.locator("#dl-map").evaluate("e => [e.clientWidth, e.clientHeight]")
    assert facts["size"] == tuple(size)
    assert page.evaluate("window.hit") is None and page.locator("img[src=x]").count() == 0
    assert not errors, errors
