"""Streamlit AppTest: the fatalities, country and text filters, their URL values and the ACLED
download, on the mini story and on the ACLED fixture imported as a story."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.table import acled_parts
from geo.__main__ import main
from geo.names import literal
from geo.story.export import events_acled_csv
from geo.story.load import load_story
from geo.story.timeline import narrow_events
from tests.app.test_app import chart_pictures
from tests.helpers import MINI, app_run

ROOT = Path(__file__).resolve().parents[2]
ACLED = ROOT / "tests" / "fixtures" / "datasets" / "acled.csv"


@pytest.fixture(scope="module")
def stories(tmp_path_factory) -> Path:
    """A stories folder with the mini story and the ACLED fixture imported as ``acled``."""
    folder = tmp_path_factory.mktemp("stories")
    shutil.copytree(MINI, folder / "mini")
    args = ["import", "acled", str(ACLED), str(folder / "acled"), "--title", "ACLED fixture"]
    assert main(args) == 0
    return folder


@pytest.fixture(autouse=True)
def _stories_dir(monkeypatch, tmp_path, stories):
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(stories))
    monkeypatch.setenv("DATELINE_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv("DATELINE_ONLINE_TILES", raising=False)


def run_app(**params: str) -> AppTest:
    return app_run({"show_table": True}, **params)


def rows(at: AppTest) -> int:
    return len(at.dataframe[0].value)


def count_line(at: AppTest) -> str:
    return next(c.value for c in at.caption if " · " in c.value and "event" in c.value)


def test_the_killed_range_narrows_the_events_and_the_link():
    at = run_app(story="acled")
    assert rows(at) == 12
    slider = at.slider(key="killed")
    assert slider.value == (0, 5)  # the fixture's highest toll is 5
    slider.set_value((3, 5)).run()
    assert not at.exception
    assert rows(at) == 3  # 3, 4 and 5 killed
    assert count_line(at).startswith("3 events")
    assert at.query_params["killed"] == "3-5"


def test_the_country_filter():
    at = run_app(story="acled")
    assert at.multiselect(key="countries").options == ["Lebanon (LB)", "Syria (SY)"]
    at.multiselect(key="countries").set_value(["LB"]).run()
    assert not at.exception
    assert rows(at) == 4
    assert at.query_params["country"] == "LB"


def test_a_border_place_counts_for_both_countries():
    # The mini story's crossing is LB|SY: picked with Syria as with Lebanon.
    at = run_app(story="mini")
    at.multiselect(key="countries").set_value(["SY"]).run()
    assert rows(at) == 3  # e2 and e3 at the crossing, e6 at Palmyra
    at.multiselect(key="countries").set_value(["LB"]).run()
    assert rows(at) == 5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("baalbek", 2),  # summaries, any case
        ("US says", 1),  # a confidence note
        ("¶4", 1),  # a source detail
        ("a.*", 0),  # plain text, not a pattern
        ("   ", 6),  # blank: no search
    ],
)
def test_the_text_search(text, expected):
    at = run_app(story="mini")
    at.text_input(key="text_search").input(text).run()
    assert not at.exception
    assert rows(at) == expected


def test_the_filters_together_and_reset():
    at = run_app(story="acled")
    at.text_input(key="text_search").input("invented: a").run()
    n = rows(at)
    at.slider(key="killed").set_value((1, 5)).run()
    assert rows(at) < n
    next(b for b in at.button if b.label == "Reset").click().run()
    assert not at.exception
    assert rows(at) == 12
    assert at.text_input(key="text_search").value == ""
    assert "q" not in at.query_params and "killed" not in at.query_params


def test_a_link_brings_the_filters_back():
    at = run_app(story="acled", killed="1-4", country="SY", q="Town")
    assert at.slider(key="killed").value == (1, 4)
    assert at.multiselect(key="countries").value == ["SY"]
    assert at.text_input(key="text_search").value == "Town"
    assert rows(at) == 1  # shells outside the town (1 killed) in Syria


@pytest.mark.parametrize(
    "params",
    [
        {"killed": "5-1"},
        {"killed": "-1-3"},
        {"killed": "１-2"},
        {"killed": "0-99999999999"},
        {"country": "XX,<b>,SY;"},
        {"q": "x" * 201},
        {"q": "a\x00b"},
    ],
)
def test_hostile_filter_values_are_ignored_with_a_notice(params):
    at = run_app(story="acled", **params)
    assert not at.exception and not at.error
    assert rows(at) == 12
    assert any("Ignored" in i.value for i in at.info)


def test_a_range_past_the_storys_figures_starts_over():
    at = run_app(story="acled", killed="0-900")
    assert at.slider(key="killed").value == (0, 5)
    assert rows(at) == 12


def test_the_acled_download_is_offered():
    at = run_app(story="acled")
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download as ACLED CSV" in labels


def test_the_acled_download_of_a_window_in_parts_has_one_header(stories):
    story = load_story(stories / "acled")
    events = story.events
    whole = events_acled_csv(events, story.places, {"acled": "ACLED"})
    parts = [events.iloc[:5], events.iloc[5:5], events.iloc[5:]]
    assert acled_parts(parts, story.places, {"acled": "ACLED"}) == whole
    assert whole.count("event_id_cnty,") == 1 and len(whole.splitlines()) > 10
    empty = acled_parts([], story.places, {})
    assert empty.startswith("event_id_cnty,event_date,") and len(empty.splitlines()) == 1


def test_a_big_storys_filters_run_in_the_stores_sql(monkeypatch, tmp_path):
    """A story kept on disk (BIG_EVENTS lowered: 3,000 events count as big): the slider's top
    comes from the store (one max()), and every filter reaches the store as a Narrow; the
    timeline chart is counted by the store too (a GROUP BY, no events loaded) and changes,
    except through killed and countries alone, which the figures in memory answer."""
    import sys

    from geo.map import window
    from geo.story import events_store

    sys.path.insert(0, str(ROOT))
    from bench.generate import generate_story

    folder = tmp_path / "big"
    generate_story(folder, 3000, seed=5, story_id="big-local")
    monkeypatch.setenv("DATELINE_STORIES_DIR", str(folder))
    monkeypatch.setattr(events_store, "BIG_EVENTS", 100)
    monkeypatch.setattr(window, "BROWSER_LIMIT", 100)
    narrows = []
    real = events_store.EventStore.window

    def spy(self, *args, **kwargs):
        narrows.append(kwargs.get("narrow"))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(events_store.EventStore, "window", spy)
    counted = []
    real_counts = events_store.EventStore.counts_per_day

    def counts_spy(self, *args, **kwargs):
        counted.append(kwargs.get("narrow"))
        return real_counts(self, *args, **kwargs)

    monkeypatch.setattr(events_store.EventStore, "counts_per_day", counts_spy)
    at = run_app(story="big-local")
    story = load_story(folder / "big-local")
    top = int(story.events["killed"].max())
    assert at.slider(key="killed").value == (0, top)
    everything = count_line(at)
    bars = chart_pictures(at)[0]
    assert not counted  # no filter: counted from the map's columns in memory, as before
    narrows.clear()
    at.slider(key="killed").set_value((1, top)).run()
    # Killed alone is counted from the figures kept in memory, as a small story's are.
    killed_bars = chart_pictures(at)[0]
    assert not counted and killed_bars != bars
    at.text_input(key="text_search").input("near").run()
    assert not at.exception and not at.error
    asked = [n for n in narrows if n is not None]
    assert asked and asked[-1].killed == (1, top) and asked[-1].text == "near"
    want = narrow_events(
        story.events, story.places, events_store.Narrow(killed=(1, top), text="near")
    )
    assert count_line(at).startswith(f"{len(want):,} event")
    assert count_line(at) != everything
    assert counted and counted[-1].killed == (1, top) and counted[-1].text == "near"
    assert chart_pictures(at)[0] != bars
    # Regions and sub-types: offered from the store's places and summary, asked in its SQL.
    assert "Aleppo Governorate" in at.multiselect(key="admin1").options
    subs = sorted(set(story.events["sub_type"]) - {""})
    assert at.multiselect(key="sub_types").options == subs
    at.multiselect(key="admin1").set_value(["Aleppo Governorate"]).run()
    at.multiselect(key="sub_types").set_value(["Armed clash"]).run()
    assert not at.exception and not at.error
    last = [n for n in narrows if n is not None][-1]
    assert (last.admin1, last.sub_types) == (("Aleppo Governorate",), ("Armed clash",))
    want = narrow_events(story.events, story.places, last)
    assert count_line(at).startswith(f"{len(want):,} event") and len(want) > 0


def test_the_charts_follow_the_killed_countries_and_text_filters():
    """Issue 28: the events chart is counted through every filter; the held area is not events
    and stays; the same filter again is the same picture (its cache key holds the filter)."""
    at = run_app(story="acled")
    bars = chart_pictures(at)[0]
    at.slider(key="killed").set_value((3, 5)).run()
    narrowed = chart_pictures(at)[0]
    assert narrowed != bars
    assert "whole story, filtered" in narrowed and "whole story, filtered" not in bars
    at.slider(key="killed").set_value((0, 5)).run()
    assert chart_pictures(at)[0] == bars
    at.multiselect(key="countries").set_value(["LB"]).run()
    assert chart_pictures(at)[0] not in (bars, narrowed)
    at.text_input(key="text_search").input("no such words anywhere").run()
    assert not at.exception
    assert any("no events match the filters" in c.value for c in at.caption)


def _downloads(monkeypatch) -> dict:
    """The table's download buttons' data (callables) by label, as the last run made them."""
    from streamlit.elements.widgets.button import ButtonMixin

    made = {}
    real = ButtonMixin.download_button

    def spy(self, label, data, *args, **kwargs):
        made[label] = data
        return real(self, label, data, *args, **kwargs)

    monkeypatch.setattr(ButtonMixin, "download_button", spy)
    return made


def test_the_downloads_follow_the_filters(monkeypatch, stories):
    """Issue 28: CSV, GeoJSON and ACLED CSV hold the window through every filter, as the map."""
    import json

    made = _downloads(monkeypatch)
    at = run_app(story="acled")
    whole = made["Download CSV"]().decode("utf-8-sig").splitlines()
    at.slider(key="killed").set_value((3, 5)).run()
    at.multiselect(key="countries").set_value(["SY"]).run()
    assert not at.exception
    story = load_story(stories / "acled")
    want = story.events[story.events["killed"].between(3, 5)]
    want = want[want["place_id"].map(story.places.set_index("id")["country"]) == "SY"]
    assert 0 < len(want) < len(whole) - 1
    csv_rows = made["Download CSV"]().decode("utf-8-sig").splitlines()[1:]
    assert len(csv_rows) == len(want) == rows(at)
    assert all(any(i in r for r in csv_rows) for i in want["id"])
    features = json.loads(made["Download GeoJSON"]())["features"]
    assert sorted(f["properties"]["id"] for f in features) == sorted(want["id"])
    acled = made["Download as ACLED CSV"]().splitlines()[1:]
    assert 0 < len(acled) <= len(want)


def test_the_whole_story_exports_say_so():
    at = run_app(story="acled")
    helps = {b.proto.label: b.proto.help for b in at.get("download_button")}
    assert "whole story" in helps["Publish as HTML"]
    assert "filters above do not apply" in helps["Download this story (zip)"]
    assert "pass the filters" in helps["Download CSV"]


def multiselect_keys(at: AppTest) -> set[str]:
    return {m.key for m in at.multiselect}


def test_regions_and_sub_types_appear_only_when_useful():
    # The mini story's places name no admin1 and its events no sub_type: no such box, and no
    # sub-type column in the table.
    mini = run_app(story="mini")
    assert not {"admin1", "sub_types"} & multiselect_keys(mini)
    assert "sub-type" not in mini.dataframe[0].value.columns
    at = run_app(story="acled")
    assert {"admin1", "sub_types"} <= multiselect_keys(at)
    assert "Idleb" in at.multiselect(key="admin1").options
    assert "Armed clash" in at.multiselect(key="sub_types").options


def test_the_region_filter_is_offered_within_the_chosen_countries():
    at = run_app(story="acled")
    at.multiselect(key="admin1").set_value(["Idleb", "Beirut"]).run()
    assert not at.exception
    assert rows(at) == 5  # three events in Idleb, two in Beirut
    assert at.query_params["admin1"] == "Idleb|Beirut"
    at.multiselect(key="countries").set_value(["LB"]).run()
    assert at.multiselect(key="admin1").options == ["Baalbek-Hermel", "Beirut", "South"]
    assert at.multiselect(key="admin1").value == ["Beirut"]  # Idleb is not in Lebanon
    assert rows(at) == 2
    at.multiselect(key="admin1").set_value([]).run()
    assert rows(at) == 4 and "admin1" not in at.query_params  # none chosen: all of Lebanon


def test_a_places_details_name_its_region():
    at = run_app(story="acled", sel="place:ariha")
    assert not at.exception
    assert any(literal("Ariha") in m.value and literal("Idleb, SY") in m.value for m in at.markdown)


def test_the_sub_type_filter():
    at = run_app(story="acled")
    at.multiselect(key="sub_types").set_value(["Peaceful protest", "Armed clash"]).run()
    assert not at.exception
    assert rows(at) == 3
    assert sorted(at.dataframe[0].value["sub-type"]) == ["Armed clash", *["Peaceful protest"] * 2]
    assert count_line(at).startswith("3 events")
    assert at.query_params["sub"] == "Peaceful protest|Armed clash"
    at.multiselect(key="admin1").set_value(["Idleb"]).run()
    assert rows(at) == 1  # the armed clash near Ariha


def test_a_link_brings_regions_and_sub_types_back_and_ignores_unknown_ones():
    at = run_app(story="acled", admin1="Idleb|Atlantis", sub="Armed clash|<b>x</b>")
    assert not at.exception and not at.error
    assert at.multiselect(key="admin1").value == ["Idleb"]
    assert at.multiselect(key="sub_types").value == ["Armed clash"]
    assert rows(at) == 1
    notices = [i.value for i in at.info if "Ignored" in i.value]
    assert any("Atlantis" in n for n in notices)
    # Shown as text: the markup is written as character references, never rendered.
    assert any(literal("<b>x</b>") in n for n in notices) and not any("<b>" in n for n in notices)
    assert at.query_params["admin1"] == "Idleb" and at.query_params["sub"] == "Armed clash"
    next(b for b in at.button if b.label == "Reset").click().run()
    assert rows(at) == 12 and "admin1" not in at.query_params and "sub" not in at.query_params
