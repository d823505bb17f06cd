"""End-to-end in real Chromium: bad story folders dropped into the stories folder while the
server runs, hostile zips and links (issue 23). The page never shows a traceback, the server
lives, the bundled story and every other story still open."""

from __future__ import annotations

import re
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.e2e.appserver import MAP_FRAME, start_server, stop_server
from tests.e2e.conftest import APP_READY, ready_map, wait_whole_page
from tests.helpers import (
    copy_mini,
    deep_fronts_story,
    deep_toml_story,
    huge_array_toml,
    many_days_story,
    spanned_story,
    story_zip_with_toml,
)

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def srv(tmp_path_factory, gazetteer_cache):
    server = start_server(
        tmp_path_factory.mktemp("bad-folders"), {"DATELINE_CACHE_DIR": str(gazetteer_cache)}
    )
    copy_mini(server.stories_dir)
    yield server
    stop_server(server)


def no_traceback(page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)


def alive(srv) -> None:
    with urllib.request.urlopen(f"{srv.url}/_stcore/health", timeout=30) as answer:
        assert answer.status == 200


def mini_on_the_map(page) -> None:
    """Wait until the mini story, just picked, is the page's story and its map has painted."""
    heading = page.get_by_role("heading", name="Mini story for tests", exact=True)
    expect(heading).to_be_visible(timeout=60_000)
    # The run that drew the heading ends, and with it the story before's map frame.
    page.wait_for_selector(APP_READY, timeout=60_000)
    expect(page.locator(MAP_FRAME)).to_have_count(1, timeout=60_000)
    ready_map(page)
    no_traceback(page)


def open_story(page_for, srv, query: str = ""):
    page, _traffic = page_for(srv, query, viewport=(1280, 720))
    wait_whole_page(page)
    no_traceback(page)
    return page


def test_folders_dropped_while_the_server_runs_break_nothing(srv, page_for):
    # Readers have the page open before the bad folders arrive.
    page = open_story(page_for, srv)
    ready_map(page)
    deep_toml_story(srv.stories_dir)
    deep_fronts_story(srv.stories_dir)
    spanned_story(srv.stories_dir, "0001-01-01", "9999-12-31", "forever")
    # The next reader, and the same reader's next page, both get the bundled story.
    page = open_story(page_for, srv)
    ready_map(page)
    picker = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first
    picker.click()
    options = page.get_by_role("option")
    expect(options.filter(has_text="deep-toml — cannot be shown")).to_have_count(1)
    # The mouse picks the mini story: it opens as before.
    page.get_by_role("option", name="Mini story for tests (yours)", exact=True).click()
    mini_on_the_map(page)
    alive(srv)


@pytest.mark.parametrize(
    ("story", "problem"),
    [
        ("deep-toml", "nested more than 16 levels deep"),
        ("deep-fronts", "fronts.geojson:line 1: is nested more than 16 levels deep"),
        ("forever", "span must lie between 1800-01-01 and 2200-12-31"),
    ],
)
def test_a_bad_story_is_a_message_and_the_picker_leads_away(srv, page_for, story, problem):
    if not (srv.stories_dir / story).exists():
        deep_toml_story(srv.stories_dir)
        deep_fronts_story(srv.stories_dir)
        spanned_story(srv.stories_dir, "0001-01-01", "9999-12-31", "forever")
    page, _traffic = page_for(srv, f"?story={story}", viewport=(1280, 720))
    expect(page.get_by_text("This story cannot be shown")).to_be_visible(timeout=60_000)
    expect(page.get_by_test_id("stCode").filter(has_text=problem)).to_have_count(1)
    no_traceback(page)
    picker = page.get_by_test_id("stSidebar").get_by_test_id("stSelectbox").first
    picker.click()
    page.get_by_role("option", name="Mini story for tests (yours)", exact=True).click()
    mini_on_the_map(page)


def test_twenty_years_of_events_draw_a_map_and_monthly_charts(srv, page_for):
    many_days_story(srv.stories_dir)
    page = open_story(page_for, srv, "?story=many-days")
    ready_map(page)
    charts = page.get_by_role("img", name=re.compile("Events per day over the whole story"))
    expect(charts).to_have_count(1, timeout=60_000)
    no_traceback(page)


def test_a_link_with_a_superscript_zoom_draws_the_page(srv, page_for):
    page = open_story(page_for, srv, "?zoom=%C2%B2&center=34,36&chapter=%D9%A3")
    ready_map(page)
    no_traceback(page)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param(huge_array_toml(30_000_000), "story.toml is larger than 512 KB", id="huge"),
        pytest.param("n = " + "[" * 5000 + "]" * 5000, "nested more than 16", id="deep"),
        pytest.param('junk = "' + "x" * 400_000 + '"', "unknown key junk", id="junk"),
    ],
)
def test_hostile_story_zips_are_refused_and_the_server_lives(
    srv, page_for, tmp_path, extra, message
):
    bomb = tmp_path / "story.zip"
    bomb.write_bytes(story_zip_with_toml(extra, "from-a-zip"))
    assert bomb.stat().st_size < 200_000
    before = sorted(p.name for p in srv.stories_dir.iterdir())
    page, _traffic = page_for(srv, "New_story_from_an_article", viewport=(1280, 720))
    page.wait_for_selector(APP_READY, timeout=60_000)
    page.get_by_text("Upload a story zip").click()
    uploader = page.get_by_test_id("stFileUploader").filter(has_text="A zip made by")
    uploader.locator("input[type=file]").set_input_files(str(bomb))
    # The button is drawn by the run the upload starts: wait for it, not for an idle page
    # (the page is idle before that run begins).
    add = page.get_by_role("button", name="Add this story")
    expect(add).to_be_visible(timeout=120_000)
    page.wait_for_selector(APP_READY, timeout=60_000)
    add.click()
    expect(page.get_by_test_id("stAlert").filter(has_text="Not added")).to_be_visible(
        timeout=120_000
    )
    found = page.get_by_test_id("stAlert").or_(page.get_by_test_id("stCode"))
    expect(found.filter(has_text=message)).to_have_count(1)
    no_traceback(page)
    alive(srv)
    assert sorted(p.name for p in srv.stories_dir.iterdir()) == before
    page = open_story(page_for, srv)
    ready_map(page)
