"""Play's start, speed and loop: the pure steps over a plain session, and the widgets and URL
state through AppTest."""

from __future__ import annotations

import html
from datetime import date
from types import SimpleNamespace

import pytest

from dashboard.dates import play, play_pace, play_step
from dashboard.state import Key, ViewState
from tests.helpers import FIXTURES, app_run

AUG = {d: date(2017, 8, d) for d in range(1, 32)}  # AUG[19] is 19 Aug
LAST = date(2017, 9, 14)


def view(**values) -> ViewState:
    """A ViewState over a plain dict instead of Streamlit's session."""
    v = ViewState.__new__(ViewState)
    v.session = dict(values)
    return v


def frames(v: ViewState, n: int, days: int = 1) -> list[date]:
    """The window's end over the next ``n`` frames of Play."""
    out = []
    for _ in range(n):
        v.set_flag(Key.PLAY_DUE)
        play_step(v, LAST, days)
        out.append(v.window[1])
    return out


@pytest.mark.parametrize(
    ("speed", "pace"),
    [("0.5", (1.6, 1)), ("1", (0.8, 1)), ("2", (0.4, 1)), ("4", (0.4, 2)), (None, (0.8, 1))],
)
def test_each_speed_has_its_pause_and_days_per_frame(speed, pace):
    pause, days = play_pace(speed, 0.8)
    assert (round(pause, 6), days) == pace
    # Days per second of wall clock: the speed times 1x's.
    assert days / pause == pytest.approx(float(speed or 1) / 0.8)


def test_play_starts_from_the_window_start_and_stops_at_its_end():
    v = view(**{Key.WINDOW: (AUG[19], AUG[22])})
    play(v, LAST, True)
    assert v.window == (AUG[19], AUG[19]) and v.playing
    # The first frame shows the start day: no step is due until a pause has passed.
    assert not v.session.get(Key.PLAY_DUE)
    assert frames(v, 4) == [AUG[20], AUG[21], AUG[22], AUG[22]]
    assert not v.playing


def test_a_one_day_window_plays_to_the_story_end():
    v = view(**{Key.WINDOW: (AUG[28], AUG[28])})
    play(v, LAST, True)
    assert v.play_span == (AUG[28], LAST)


def test_loop_wraps_to_the_window_start_and_4x_steps_two_days():
    v = view(**{Key.WINDOW: (AUG[19], AUG[23]), Key.LOOP: True})
    play(v, LAST, True)
    assert frames(v, 4, days=2) == [AUG[21], AUG[23], AUG[19], AUG[21]]
    assert v.playing


def test_pause_then_play_resumes_where_it_stopped():
    v = view(**{Key.WINDOW: (AUG[19], AUG[25])})
    play(v, LAST, True)
    frames(v, 2)
    play(v, LAST, False)
    assert v.window == (AUG[19], AUG[21])
    play(v, LAST, True)
    assert v.window == (AUG[19], AUG[21]) and v.session[Key.PLAY_DUE]
    # At its end, Play starts afresh from the window's start.
    frames(v, 5)
    play(v, LAST, True)
    assert v.window == (AUG[19], AUG[19])


@pytest.fixture
def _user_stories(monkeypatch, tmp_path):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(FIXTURES / "stories"))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))


def test_speed_and_loop_come_from_the_link_and_go_back_into_it(_user_stories):
    at = app_run(speed="4", loop="1")
    assert at.session_state[Key.SPEED] == "4"
    assert at.toggle(key=Key.LOOP).value is True
    assert at.query_params["speed"] == "4"
    at.toggle(key=Key.LOOP).set_value(False).run()
    assert "loop" not in at.query_params


def test_a_bad_speed_is_ignored_with_a_notice(_user_stories):
    at = app_run(speed="<b>9</b>")
    assert at.session_state[Key.SPEED] == "1"
    assert "speed" not in at.query_params
    # Shown as text: the markup is escaped in what the page is sent, and reads as typed.
    raw = " ".join(i.value for i in at.info)
    assert "<b>" not in raw
    assert "Ignored speed='<b>9</b>'" in html.unescape(raw)


def test_the_search_finds_a_story_place_by_name_alias_or_start(_user_stories):
    from dashboard.search import story_place
    from dashboard.stories import open_shown
    from geo.story.library import find_stories

    shown = open_shown(find_stories(), "qalamoun-2017")
    assert story_place(shown, "baalbek") == "baalbek"
    assert story_place(shown, "Heliopolis") == "baalbek"  # an alias
    assert story_place(shown, "Baal") == "baalbek"  # the first name starting so
    assert story_place(shown, "zzqx") is None
    assert story_place(shown, "  ") is None


def test_picking_a_story_place_in_the_search_selects_it(_user_stories):
    at = app_run()
    at.selectbox(key=Key.PLACE_SEARCH).set_value("baalbek").run()
    assert at.session_state["selected"] == "place:baalbek"
    assert at.query_params["sel"] == "place:baalbek"
    # The box is empty again for the next search.
    assert at.selectbox(key=Key.PLACE_SEARCH).value is None


def test_a_busy_story_lists_its_busiest_places_and_finds_the_others_by_name(
    _user_stories, monkeypatch
):
    from dashboard import search

    monkeypatch.setattr(search, "LISTED_PLACES", 3)
    search._story_labels.clear()
    try:
        at = app_run()
        box = at.selectbox(key=Key.PLACE_SEARCH)
        assert len(box.options) == 3
        assert "Enter" in box.help
        listed = " ".join(box.options)
        assert "Baalbek ·" not in listed  # a place of a few events, not among the three
        # AppTest cannot type a new option; the name typed and entered is read by story_place
        # over every place of the story (the browser test types one).
        from geo.story.library import BUNDLED
        from geo.story.load import load_story

        story = load_story(BUNDLED / "qalamoun-2017")
        assert search.story_place(SimpleNamespace(story=story), "Baalbek") == "baalbek"
    finally:
        search._story_labels.clear()
