"""AppTest: a browser's first run draws the map first, and a second run the rest of the page."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import app_run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stories"
FIRST_RUN_TEXT = "Filters and layers appear once the map is drawn"


@pytest.fixture(autouse=True)
def _user_stories(monkeypatch, tmp_path):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(FIXTURES))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def first_run(**params: str) -> AppTest:
    """The first run as a browser gets it (AppTest has no User-Agent, so it is asked for)."""
    return app_run({"map_first": True}, **params)


def captions(at: AppTest) -> list[str]:
    return [c.value for c in at.caption]


def whole(at: AppTest) -> AppTest:
    """The run that draws the whole page. In a browser the map's paint report asks for it (a
    value AppTest cannot send, tests/e2e/test_map_first.py); here the fallback's time has come,
    which ends the first run the same way."""
    at.session_state["rest_due"] = 0.0
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_first_run_draws_title_dates_and_map_only():
    at = first_run(story="mini")
    assert FIRST_RUN_TEXT in " ".join(c.value for c in at.sidebar.caption)
    # The sidebar's controls, the details, the table toggle and the timeline wait.
    assert not at.sidebar.selectbox and not at.sidebar.multiselect and not at.sidebar.toggle
    # Play's Loop switch belongs to the dates; the table's toggle waits.
    assert [t.key for t in at.toggle] == ["play_loop"] and not at.get("imgs")
    assert not any(m.value.startswith("#### Details") for m in at.markdown)
    # The title, the date slider and the map are there, for the story and window of the link.
    assert at.slider(key="window").value is not None
    # The window's count comes with the panel beside the map, on the whole page's run.
    assert not any(" events · " in c for c in captions(at))
    assert at.get("iframe") or at.get("component_instance")


def test_the_first_run_follows_the_link_like_the_whole_page():
    query = {"story": "mini", "from": "2017-08-01", "to": "2017-08-20", "layers": "events"}
    at = first_run(**query)
    assert at.slider(key="window").value[1].isoformat() == "2017-08-20"
    assert at.query_params["to"] == "2017-08-20"
    # The whole page then shows the same window, filters and layers.
    at = whole(at)
    assert at.slider(key="window").value[1].isoformat() == "2017-08-20"
    assert [t.value for t in at.sidebar.toggle] == [True, False, False, False]
    assert any(c.startswith("2 events · ") for c in captions(at))


def test_the_whole_pages_run_draws_the_rest():
    at = whole(first_run(story="mini"))
    assert at.session_state["map_first"] is False
    assert FIRST_RUN_TEXT not in " ".join(c.value for c in at.sidebar.caption)
    assert at.selectbox(key="story_pick").value == "mini"
    assert at.sidebar.multiselect and at.toggle
    assert any(m.value.startswith("#### Details") for m in at.markdown)


def test_another_run_before_the_map_has_painted_is_still_the_first_runs_page():
    at = first_run(story="mini")
    at.run()  # a rerun for another reason (Play pressed, say) before the map has painted
    assert at.session_state["map_first"] is True
    assert FIRST_RUN_TEXT in " ".join(c.value for c in at.sidebar.caption)


def test_a_link_notice_stays_until_the_whole_page():
    at = first_run(story="mini", layers="events,nonsense")
    assert at.info, "the ignored link value is shown on the first run"
    at = whole(at)
    assert at.info, "and still on the whole page's run"
    # Shown once: a later run has no notice.
    at.slider(key="window").set_value(at.slider(key="window").value).run()
    assert not at.info


def test_a_story_with_chapters_keeps_the_bars_room_on_the_first_run():
    at = first_run(story="mini-chapters")
    # No chapter buttons yet, but a bordered box of the bar's height above the dates.
    assert not [b for b in at.button if b.key in ("chapter_prev", "chapter_next", "tour")]
    assert "The story in 3 chapters …" in captions(at)
    at = whole(at)
    assert {b.key for b in at.button} >= {"chapter_prev", "chapter_next", "tour"}


def test_without_a_browser_the_first_run_is_the_whole_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["story"] = "mini"
    at.run()
    assert at.session_state["map_first"] is False
    assert at.selectbox(key="story_pick").value == "mini"


def test_a_map_that_never_reports_gets_the_whole_page_in_time():
    at = first_run(story="mini")
    assert at.session_state["rest_due"] > 0
    at = whole(at)
    assert at.session_state["map_first"] is False
    assert at.selectbox(key="story_pick").value == "mini"


def test_the_view_is_kept_across_the_new_story_page():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["story"] = "mini"
    at.run()
    at.slider(key="window").set_value((date(2017, 8, 1), date(2017, 8, 20))).run()
    at.toggle(key="layer_convoy").set_value(False).run()
    at.switch_page("pages/1_New_story_from_an_article.py").run()
    assert not at.exception, at.exception
    at.switch_page("app.py").run()
    assert not at.exception, at.exception
    assert at.selectbox(key="story_pick").value == "mini"
    assert at.slider(key="window").value == (date(2017, 8, 1), date(2017, 8, 20))
    assert at.toggle(key="layer_convoy").value is False
