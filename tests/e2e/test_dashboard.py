"""End-to-end: the dashboard in real Chromium with every non-local request blocked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import APP_READY, map_frame

pytestmark = pytest.mark.e2e


def wait_idle(page) -> None:
    page.wait_for_selector(APP_READY, timeout=60_000)


def event_count(page) -> int:
    text = page.get_by_text(re.compile(r"^[\d,]+ events · ")).first.inner_text()
    return int(text.split()[0].replace(",", ""))


def test_app_renders_offline(server, page_for):
    page, traffic = page_for(server)
    expect(page.get_by_test_id("stException")).to_have_count(0)
    frame = map_frame(page)
    expect(frame.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    # Leaflet itself came from this server, in the map's one bundle of scripts.
    assert any("/app/static/dateline/map-bundle.js?v=" in u for u in traffic.requests)
    assert frame.locator("body").evaluate("() => Boolean(window.L && L.version)")
    assert not traffic.blocked


def test_markers_and_legend_render(server, page_for):
    page, _ = page_for(server)
    frame = map_frame(page)
    expect(frame.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    expect(frame.locator(".dl-legend")).to_contain_text("Legend")
    expect(frame.locator(".leaflet-control-scale")).to_be_visible()


def test_clicking_baalbek_fills_the_details_panel(server, page_for):
    page, traffic = page_for(server, "?to=2017-08-31")
    frame = map_frame(page)
    pin = frame.locator(".leaflet-marker-icon[data-key='place:baalbek']")
    expect(pin).to_be_visible(timeout=30_000)
    pin.click()
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text("Baalbek", timeout=30_000)
    expect(details).to_contain_text("celebration")
    expect(details).to_contain_text("km from Beirut")
    assert "sel=place%3Abaalbek" in page.url or "sel=place:baalbek" in page.url
    assert not traffic.console_errors, traffic.console_errors


def test_slider_changes_the_number_of_markers(server, page_for):
    page, _ = page_for(server)
    frame = map_frame(page)
    pins = frame.locator(".dl-pin")
    expect(pins.first).to_be_visible(timeout=30_000)
    before_events = event_count(page)
    before_pins = pins.count()
    right_thumb = (
        page.get_by_test_id("stSlider").filter(has_text="Dates").get_by_role("slider").nth(1)
    )
    right_thumb.focus()
    for _ in range(30):  # 30 days earlier
        right_thumb.press("ArrowLeft")
    wait_idle(page)
    expect(page.get_by_text(re.compile(r"^[\d,]+ events · ")).first).not_to_have_text(
        re.compile(rf"^{before_events} events · "), timeout=30_000
    )
    after_events = event_count(page)
    assert after_events < before_events
    expect(pins).not_to_have_count(before_pins, timeout=30_000)
    assert pins.count() < before_pins


def test_convoy_and_front_on_28_august(server, page_for):
    page, traffic = page_for(server, "?to=2017-08-28")
    frame = map_frame(page)
    expect(frame.locator(".dl-pin").first).to_be_visible(timeout=30_000)
    # Leaflet draws vector layers as SVG paths: the convoy's position and the enclave outline.
    convoy = frame.locator("path.leaflet-interactive[data-key^='convoy:']")
    front = frame.locator(
        "path.leaflet-interactive[fill='#e0675f'], path.leaflet-interactive[fill='#a36cc4']"
    )
    expect(convoy.first).to_be_attached()
    expect(front.first).to_be_attached()
    assert not traffic.console_errors, traffic.console_errors
