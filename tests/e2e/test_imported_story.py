"""End-to-end in real Chromium: an ACLED export imported with ``python -m geo import`` opens
like any story, its places carry the dataset's precision, and nothing leaves the machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from geo.__main__ import main
from tests.e2e.conftest import map_frame, ready_map

pytestmark = pytest.mark.e2e

ACLED = Path(__file__).resolve().parents[1] / "fixtures" / "datasets" / "acled.csv"


@pytest.fixture(scope="module")
def imported(server) -> str:
    story_id = "acled-fixture-e2e"
    if not (server.stories_dir / story_id).exists():
        args = ["import", "acled", str(ACLED), str(server.stories_dir / story_id)]
        assert main([*args, "--title", "ACLED fixture"]) == 0
    return story_id


def test_an_imported_acled_export_opens_with_its_places(server, page_for, imported):
    page, traffic = page_for(server, f"?story={imported}", viewport=(1280, 720))
    expect(page.get_by_role("heading", name="ACLED fixture", exact=True)).to_be_visible()
    frame = ready_map(page)
    expect(page.get_by_text("12 events · 1 Mar – 31 Mar 2023")).to_be_visible()
    pin = frame.locator(".leaflet-marker-icon[data-key='place:arsal']")
    expect(pin).to_be_visible(timeout=30_000)
    pin.click()
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    # Its region (admin1, from the export) between its kind and its country.
    expect(details).to_contain_text("Arsal · town, Baalbek-Hermel, LB", timeout=30_000)
    expect(details).to_contain_text("± 3 km · ACLED geo_precision 1")
    # Shown addresses carry an invisible word joiner after the scheme (no autolink).
    expect(details).to_contain_text("ACLED event LBN900001 (https")
    expect(details).to_contain_text("acleddata.com/ data export)")
    expect(details).to_contain_text("2 killed")
    assert map_frame(page).locator(".dl-pin").count() >= 8
    assert not traffic.blocked and not traffic.console_errors, traffic


def test_a_country_wide_place_says_so(server, page_for, imported):
    page, _traffic = page_for(server, f"?story={imported}&sel=place:syria", viewport=(1280, 720))
    ready_map(page)
    details = page.get_by_test_id("stColumn").filter(has_text="Details")
    expect(details).to_contain_text("Syria · country, SY", timeout=30_000)
    expect(details).to_contain_text("± 440 km · approx: ACLED geo_precision 3, only the country")
