"""AppTest: bad story folders dropped into the stories folder break neither the page nor another
story (issue 23: one nested story.toml turned every page of every reader into a traceback)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from tests.app.test_app import chart_pictures
from tests.app.test_new_story_page import run_page
from tests.helpers import (
    app_run,
    copy_mini,
    deep_fronts_story,
    deep_toml_story,
    many_days_story,
    spanned_story,
)


@pytest.fixture
def bad_folders(monkeypatch, tmp_path: Path, gazetteer_cache: Path) -> Path:
    folder = tmp_path / "stories"
    folder.mkdir()
    deep_toml_story(folder)
    deep_fronts_story(folder)
    spanned_story(folder, "1900-01-01", "2099-12-31", "century")
    spanned_story(folder, "1998-01-01", "2017-12-31", "twenty-years")
    many_days_story(folder)
    copy_mini(folder)
    (folder / "huge").mkdir()
    (folder / "huge" / "story.toml").write_text("a = 1\n" * 200_000, encoding="utf-8")
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(gazetteer_cache))
    return folder


def picker_labels(at) -> list[str]:
    return list(at.selectbox(key="story_pick").options)  # as the reader sees them


def test_the_bundled_story_opens_and_the_picker_says_which_cannot_be_shown(bad_folders):
    at = app_run()
    assert not at.error
    assert at.subheader[0].value.startswith("ISIS leaves the Lebanon")
    labels = picker_labels(at)
    assert "deep-toml — cannot be shown (story.toml is nested more than 16 levels deep)" in labels
    assert "huge — cannot be shown (story.toml is larger than 512 KB)" in labels
    assert "Mini story for tests (yours)" in labels


@pytest.mark.parametrize(
    ("story", "problem"),
    [
        ("deep-toml", "story.toml: story.toml is nested more than 16 levels deep"),
        ("deep-fronts", "fronts.geojson:line 1: is nested more than 16 levels deep"),
        ("century", "story.toml: span covers 73,049 days; a story covers at most 7,305"),
        ("huge", "story.toml: story.toml is larger than 512 KB"),
    ],
)
def test_a_bad_story_is_a_message_with_its_problems(bad_folders, story, problem):
    at = app_run(story=story)
    assert next(e.value for e in at.error).startswith("This story cannot be shown: ")
    assert problem in at.code[0].value
    # The picker is there to choose another story.
    assert at.selectbox(key="story_pick").value == story


def test_a_bad_story_on_a_first_browser_run_draws_the_whole_page(bad_folders):
    # A browser's first run draws the map only; a story with no map must still get its picker.
    at = app_run(state={"map_first": True}, story="deep-fronts")
    assert at.session_state.map_first is False
    assert at.selectbox(key="story_pick").value == "deep-fronts"
    assert at.error


@pytest.mark.slow
@pytest.mark.parametrize(
    ("story", "period"), [("twenty-years", "month"), ("many-days", "month"), ("mini", "day")]
)
def test_long_stories_draw_their_map_and_charts(bad_folders, story, period):
    at = app_run(story=story)
    assert not at.error
    bars, area = chart_pictures(at)
    assert f"Events per {period}, whole story" in bars
    assert "area (reported km²)" in area
    captions = " ".join(c.value for c in at.caption)
    assert "could not be drawn" not in captions


def test_the_new_story_page_opens_beside_bad_folders(bad_folders):
    at = run_page()
    assert not at.error


def test_picking_another_story_after_a_bad_one_resets_the_window(bad_folders):
    # A link naming a story that cannot be shown left the whole calendar as the window, and the
    # next story's date slider raised StreamlitValueBelowMinError.
    at = app_run(story="deep-toml")
    at.selectbox(key="story_pick").set_value("mini").run()
    assert not at.exception, at.exception
    assert at.session_state.window == (date(2017, 8, 1), date(2017, 8, 31))
