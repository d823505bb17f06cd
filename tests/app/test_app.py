"""Streamlit AppTest: widgets, filters and URL state of app.py, without a browser."""

from __future__ import annotations

import base64
import html
import os
import shutil
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers import app_run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "stories"


@pytest.fixture(autouse=True)
def _user_stories(monkeypatch, tmp_path):
    # The mini fixture story stands in for the user's own stories folder.
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(FIXTURES))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def run_app(table: bool = True, **params: str) -> AppTest:
    # The events table is built only when its toggle is on (on in these tests by default).
    return app_run({"show_table": table}, **params)


def rows(at: AppTest) -> int:
    # The events table is the only dataframe on the page.
    return len(at.dataframe[0].value)


def test_bundled_story_opens_without_exception():
    at = run_app()
    assert at.selectbox(key="story_pick").value == "qalamoun-2017"
    assert rows(at) > 0
    assert not at.error


def test_moving_the_slider_changes_the_rows():
    at = run_app(story="mini")
    assert rows(at) == 6
    at.slider(key="window").set_value((date(2017, 8, 1), date(2017, 8, 20))).run()
    assert not at.exception
    assert rows(at) == 2  # e1 (2 Aug) and the offensive that starts on 19 Aug
    assert at.query_params["to"] == "2017-08-20"


def test_window_keeps_spans_that_overlap_it():
    at = run_app(story="mini")
    at.slider(key="window").set_value((date(2017, 8, 25), date(2017, 8, 26))).run()
    # Only the offensive (19-27 Aug) overlaps 25-26 Aug.
    assert rows(at) == 1


def test_category_filter():
    at = run_app(story="mini")
    at.pills(key="categories").set_value(["speech", "celebration"]).run()
    assert rows(at) == 2
    assert at.query_params["cat"] == "speech,celebration"


def test_actor_filter():
    at = run_app(story="mini")
    at.multiselect(key="actors").set_value(["Hezbollah"]).run()
    assert rows(at) == 3  # e1, e2 and e4 name Hezbollah
    assert at.query_params["actor"] == "Hezbollah"


def test_url_restores_a_view():
    at = run_app(story="mini", to="2017-08-28", cat="speech,ceasefire", sel="place:baalbek")
    assert at.slider(key="window").value == (date(2017, 8, 1), date(2017, 8, 28))
    assert set(at.pills(key="categories").value) == {"speech", "ceasefire"}
    assert rows(at) == 2
    details = html.unescape(" ".join(m.value for m in at.markdown))
    assert "Baalbek" in details and "A speech about Baalbek." in details


@pytest.mark.parametrize(
    ("params", "notice"),
    [
        ({"story": "nope"}, "Unknown story"),
        ({"from": "yesterday"}, "not a date"),
        ({"to": "2031-01-01"}, "outside the story's dates"),
        ({"from": "2017-08-20", "to": "2017-08-10"}, "ends before it starts"),
        ({"cat": "dance,speech"}, "unknown categories: dance"),
        ({"layers": "events,unicorns"}, "unknown layers: unicorns"),
        ({"sel": "<script>"}, "Ignored selection"),
        ({"actor": "Nobody"}, "unknown actors: Nobody"),
    ],
)
def test_garbage_url_falls_back_with_a_notice(params, notice):
    at = run_app(**params)
    shown = [html.unescape(i.value) for i in at.info]
    assert len(shown) == 1
    assert notice in shown[0], shown


def test_layer_toggles_reach_the_url():
    at = run_app(story="mini")
    at.toggle(key="layer_places").set_value(False).run()
    assert at.query_params["layers"] == "events,convoy,fronts"


def test_reset_restores_the_whole_window():
    at = run_app(story="mini", to="2017-08-10")
    assert rows(at) == 1
    assert at.slider(key="window").value == (date(2017, 8, 1), date(2017, 8, 10))
    next(b for b in at.button if b.label == "Reset").click().run()
    assert not at.exception, at.exception
    assert at.slider(key="window").value == (date(2017, 8, 1), date(2017, 8, 31))
    assert rows(at) == 6


def test_switching_story_resets_the_window():
    at = run_app(story="mini", to="2017-08-10")
    at.selectbox(key="story_pick").set_value("qalamoun-2017").run()
    assert not at.exception
    story_span = at.slider(key="window").value
    assert story_span[0] < date(2017, 7, 25) and story_span[1] > date(2017, 9, 1)


@pytest.mark.slow
def test_play_steps_the_window_end_to_the_last_day(monkeypatch):
    monkeypatch.setenv("DATELINE_PLAY_STEP", "0")
    # A one-day window plays to the story's last day.
    at = run_app(story="mini", **{"from": "2017-08-02", "to": "2017-08-02"})
    assert rows(at) == 1
    play = next(b for b in at.button if b.label == "Play")
    play.click().run()  # each frame reruns the script until the story's last day
    assert not at.exception
    assert at.slider(key="window").value == (date(2017, 8, 2), date(2017, 8, 31))
    assert at.session_state.playing is False
    assert rows(at) == 6
    assert any(b.label == "Play" for b in at.button)


def test_the_table_is_built_only_when_asked_for_and_the_charts_always():
    # Off by default: no table sent with every move; the timeline's two charts are there.
    at = run_app(table=False)
    assert at.toggle(key="show_table").value is False
    assert len(chart_pictures(at)) == 2
    assert len(at.dataframe) == 0
    at.toggle(key="show_table").set_value(True).run()
    assert len(chart_pictures(at)) == 2
    assert rows(at) > 0


def test_timeline_charts_cover_the_whole_story_whatever_the_window():
    # Unchanged charts are not sent again on a move: they show the story, not the window.
    wide = run_app(table=False, story="mini")
    narrow = run_app(table=False, story="mini", to="2017-08-10")
    pictures = chart_pictures(wide)
    assert len(pictures) == 2 and all(pictures)
    assert pictures == chart_pictures(narrow)


def test_timeline_charts_are_pictures_drawn_on_the_server():
    # SVG shown as an image: no Vega JavaScript in the page, and no script can run in it.
    bars, area = chart_pictures(run_app(table=False))
    assert "Events per day, whole story" in bars and "area (reported km²)" in area
    for svg in (bars, area):
        assert svg.startswith("<svg") and "<script" not in svg and "foreignObject" not in svg
    # Each chapter has its rule; its label is written down it, number first, unless it would
    # overlap the one before (chapters 2 and 3 are a day apart).
    assert bars.count('stroke-dasharray="3,3"') == 9
    labelled = [n for n in range(1, 10) if f">{n}. " in bars]
    assert labelled[0] == 1 and 5 <= len(labelled) < 9


def chart_pictures(at) -> list[str]:
    """The SVG source of each timeline chart on the page."""
    out = []
    for image in at.get("image"):
        for img in image.proto.imgs:
            head, _, data = img.url.partition(",")
            if head == "data:image/svg+xml;base64":
                out.append(base64.b64decode(data).decode("utf-8"))
    return out


@pytest.mark.slow
def test_a_new_server_takes_the_chart_pictures_from_the_disk_cache(monkeypatch, tmp_path):
    import streamlit as st

    from geo.story import pictures

    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    st.cache_data.clear()
    drawn = chart_pictures(run_app(table=False, story="mini"))
    assert len(drawn) == 2 and list((tmp_path / "charts").glob("*.json"))

    def no_vega(specs):
        raise AssertionError("drawn again instead of read from the disk cache")

    # A new server: the memory cache is empty, the disk still has the pictures.
    st.cache_data.clear()
    monkeypatch.setattr(pictures, "draw_svg", no_vega)
    assert chart_pictures(run_app(table=False, story="mini")) == drawn
    assert not list((tmp_path / "charts").glob("*.tmp*"))


def test_charts_that_cannot_be_drawn_leave_a_note_not_a_traceback(monkeypatch, tmp_path):
    import streamlit as st

    from geo.story import pictures

    def broken(specs):
        raise pictures.PictureError("charts not drawn in 60 s")

    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    st.cache_data.clear()
    monkeypatch.setattr(pictures, "draw_svg", broken)
    at = run_app(table=False, story="mini")
    # The events chart is written in Python: it is there; the held area's has a note instead.
    (events,) = chart_pictures(at)
    assert "Events per day, whole story" in events
    assert any("could not be drawn" in c.value for c in at.caption)
    assert list(at.get("component_instance"))  # the map is there all the same


def test_a_one_day_story_opens_without_a_slider(monkeypatch, tmp_path):
    # A report whose happenings are all of its own day: the slider's two ends would be equal.
    from geo.extract.draft import DraftMeta, story_from_draft
    from geo.story.load import load_story
    from geo.story.storage import save_story

    mini = load_story(FIXTURES / "mini")
    day = mini.events["date"].min().date()
    places = mini.places.head(1).assign(keep=True, aliases="", mentions=1)
    events = mini.events[mini.events["place_id"] == places["id"].iloc[0]].head(1)
    events = events.assign(keep=True, place=events["place_id"], date=day, end_date=None,
                           actors="", sentence="")  # fmt: skip
    _, files, _ = story_from_draft(DraftMeta("One day", "", day, "Wire"), places, events)
    folder = tmp_path / "stories"
    save_story(folder, "one-day", files)
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    at = app_run(story="one-day")
    assert not at.slider
    assert any("the story's one day" in c.value for c in at.caption)


def test_the_story_payload_goes_to_the_cache_folder_and_is_bounded(tmp_path):
    # The map's data for a small story is one file per story version in $DATELINE_CACHE_DIR
    # (never in the checkout), served by the story_data component; old versions are pruned.
    from dashboard.map_panel import PAYLOADS_KEPT

    folder = tmp_path / "story-data"
    folder.mkdir()
    for n in range(PAYLOADS_KEPT + 5):
        old = folder / f"old-{n:02d}.json"
        old.write_text("{}")
        os.utime(old, ns=(n * 10**9, n * 10**9))
    at = run_app(table=False, story="mini")
    assert not at.exception
    written = list(folder.glob("mini-*.json"))
    assert len(written) == 1
    assert len(list(folder.glob("*.json"))) == PAYLOADS_KEPT
    assert not (folder / "old-00.json").exists()
    assert (folder / f"old-{PAYLOADS_KEPT + 4:02d}.json").exists()
    url = f"/component/dashboard.map_panel.story_data/{written[0].name}"
    assert url in str(at.get("component_instance")[0].proto)


def test_two_stories_with_one_title_are_both_chosen_and_linked(monkeypatch, tmp_path):
    # Two imports of one export under one title: the picker holds its choice by label, so the
    # second was shown once from its link and then turned into the first on the next run.
    folder = tmp_path / "stories"
    for story_id in ("alike-1", "alike-2"):
        shutil.copytree(FIXTURES / "mini", folder / story_id)
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    at = app_run(story="alike-2")
    pick = at.selectbox(key="story_pick")
    assert pick.value == "alike-2"
    # AppTest gives the options as the labels shown.
    assert len(set(pick.options)) == len(pick.options) == 3  # with the bundled story
    assert all(any(i in label for label in pick.options) for i in ("alike-1", "alike-2"))
    at.slider(key="window").set_value((date(2017, 8, 1), date(2017, 8, 20))).run()
    assert not at.exception
    assert at.selectbox(key="story_pick").value == "alike-2"
    assert at.query_params["story"] == "alike-2"


def test_the_map_is_sent_the_same_without_streamlit_folium_rendering_its_page(monkeypatch):
    # dashboard/map_panel.py passes render=False: st_folium then renders only the map, which
    # must send the very arguments a whole-page render sends (a folium upgrade could change it).
    import streamlit_folium

    from geo.map.layers import base_map
    from geo.story.load import load_story

    sent = []
    monkeypatch.setattr(streamlit_folium, "_component_func", lambda **kw: sent.append(kw))
    story = load_story(FIXTURES / "mini")
    for render in (True, False):
        streamlit_folium.st_folium(base_map(story), key="m", render=render, height=620)
    whole, alone = ({k: v for k, v in kw.items() if k != "on_change"} for kw in sent)
    assert whole == alone and "L.map" in whole["script"]
