"""Tests for geo.map.window: the window payload a big story's map gets per rerun, and the rows it
shares with the whole story's payload (geo.map.payload)."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from geo.map import scale
from geo.map.payload import BROWSER_LIMIT, story_payload
from geo.map.text import parse_key
from geo.map.window import needs_window, window_payload
from geo.story.load import Story, load_story
from geo.story.timeline import filter_events
from tests.helpers import MINI, copy_mini, replace

START, END = date(2017, 8, 1), date(2017, 8, 31)


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


def payload(story: Story, start=START, end=END, categories=None, actors=None, **kw) -> dict:
    events = filter_events(story.events, start, end, categories, actors)
    return window_payload(story, events, end, **kw)


def counts(data: dict) -> dict[str, int]:
    """Events per place id, as the payload's markers say."""
    return {data["places"][r[0]]["id"]: r[1] for r in data["summary"]}


def visible(tip: str) -> str:
    """A tooltip as the reader sees it: without the hidden key."""
    return re.sub(r'<span class="dl-key" hidden>.*?</span>', "", tip)


@pytest.mark.parametrize(
    ("n_events", "n_places", "limit", "expected"),
    [
        pytest.param(BROWSER_LIMIT, 10, None, False, id="at-the-limit"),
        pytest.param(BROWSER_LIMIT + 1, 10, None, True, id="over-the-limit"),
        pytest.param(10, scale.POINT_LIMIT + 1, None, True, id="too-many-places"),
        pytest.param(300, 10, 200, True, id="lowered-limit"),
        pytest.param(0, 0, None, False, id="empty"),
    ],
)
def test_needs_window(n_events, n_places, limit, expected):
    assert needs_window(n_events, n_places, limit) is expected


# --- events: one row per place, counts add up ----------------------------------------------------

FILTERS = [
    pytest.param(START, END, None, None, id="everything"),
    pytest.param(date(2017, 8, 20), date(2017, 8, 27), None, None, id="window-with-span"),
    pytest.param(date(2017, 8, 27), date(2017, 8, 31), None, None, id="last-days"),
    pytest.param(START, END, ["speech", "celebration"], None, id="two-categories"),
    pytest.param(START, END, None, ["Hezbollah"], id="one-actor"),
    pytest.param(START, END, [], None, id="no-category"),
    pytest.param(date(2017, 8, 3), date(2017, 8, 18), None, None, id="empty-window"),
]


@pytest.mark.parametrize(("start", "end", "categories", "actors"), FILTERS)
def test_place_counts_equal_filtered_events(story, start, end, categories, actors):
    events = filter_events(story.events, start, end, categories, actors)
    data = window_payload(story, events, end)
    assert data["kind"] == "window" and data["scope"] == "window"
    assert counts(data) == dict(Counter(events["place_id"]))
    assert data["clusters"] == []
    # The legend's families come from the window's categories, in the payload's own table.
    assert data["categories"] == sorted(set(events["category"]))


def test_place_rows_on_the_whole_story(story: Story):
    data = payload(story)
    assert counts(data) == {"arsal": 1, "crossing": 2, "baalbek": 2, "palmyra": 1}
    rows = {data["places"][r[0]]["id"]: r for r in data["summary"]}
    # First and last day of a place's events (an event's end day counts), and the latest's
    # category: e5, a celebration on 31 Aug.
    assert rows["baalbek"][2:4] == ["2017-08-28", "2017-08-31"]
    assert data["categories"][rows["baalbek"][4]] == "celebration"
    assert rows["crossing"][2:4] == ["2017-08-19", "2017-08-27"]


@pytest.mark.parametrize(
    ("place", "lon", "lat"),
    [
        pytest.param("baalbek", 36.21806, 34.00583, id="baalbek"),
        pytest.param("crossing", 36.6, 34.2, id="crossing"),
    ],
)
def test_places_are_where_they_are(story: Story, place, lon, lat):
    (row,) = [p for p in payload(story)["places"] if p["id"] == place]
    assert (row["lon"], row["lat"]) == (lon, lat)


@pytest.mark.parametrize(
    ("place", "circle", "fill", "area"),
    [
        pytest.param("baalbek", True, True, False, id="uncertain-town"),
        pytest.param("arsal", True, True, False, id="at-the-threshold"),
        pytest.param("crossing", True, True, False, id="approximate"),
    ],
)
def test_place_rows_say_which_doubt_to_draw(story: Story, place, circle, fill, area):
    (row,) = [p for p in story_payload(story)["places"] if p["id"] == place]
    assert (row["circle"], row["fill"], row["area"]) == (circle, fill, area)


def test_a_whole_and_a_window_payload_share_their_rows(story: Story):
    whole, part = story_payload(story), payload(story)
    for name in ("places", "convoy"):
        by_id = {r["id"]: r for r in whole[name]}
        assert part[name] and all(by_id[r["id"]] == r for r in part[name])
    assert {k: whole[k] for k in ("words", "sides", "colours", "limits", "families")} == {
        k: part[k] for k in ("words", "sides", "colours", "limits", "families")
    }


def test_tooltips_hide_their_key(story: Story):
    data = payload(story, end=date(2017, 8, 22))
    rows = [
        *(("place", p) for p in data["places"]),
        *(("convoy", c) for c in data["convoy"]),
        *(("front", f) for f in data["fronts"]),
    ]
    assert {kind for kind, _ in rows} == {"place", "front"}
    for kind, row in rows:
        assert parse_key(row["tip"]) == (kind, row["id"])
        assert "[" not in visible(row["tip"])


# --- the day's convoy and enclave ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        pytest.param("2017-08-18", set(), id="before"),
        pytest.param("2017-08-19", {"lb-1", "sy-1"}, id="first-day"),
        pytest.param("2017-08-21", {"lb-1", "sy-1"}, id="lb-1-last-day"),
        pytest.param("2017-08-22", {"lb-2", "sy-1"}, id="lb-2"),
        pytest.param("2017-08-27", {"lb-2", "sy-1"}, id="last-day"),
        pytest.param("2017-08-28", set(), id="after"),
    ],
)
def test_fronts_are_those_drawn_on_the_day(story: Story, day, expected):
    data = payload(story, end=date.fromisoformat(day))
    (drawn,) = data["front_days"].values()
    assert {data["fronts"][i]["id"] for i in drawn} == expected
    assert all(f["geometry"]["type"] == "Polygon" for f in data["fronts"])


def test_fronts_tooltip_gives_reported_and_drawn_area(story: Story):
    data = payload(story, end=date(2017, 8, 22))
    tips = {f["id"]: f["tip"] for f in data["fronts"]}
    assert "reported 20 km², drawn 16.4 km²" in tips["lb-2"]
    assert "Lebanese side" in tips["lb-2"] and "Syrian side" in tips["sy-1"]


def test_fronts_without_a_figure_say_so(tmp_path: Path):
    dest = copy_mini(tmp_path)
    replace(dest / "fronts.geojson", '"reported_km2": 20,', '"reported_km2": null,')
    data = payload(load_story(dest), end=date(2017, 8, 22))
    (tip,) = [f["tip"] for f in data["fronts"] if f["id"] == "lb-2"]
    assert "reported no published figure" in tip


def test_no_convoy_before_it_starts(story: Story):
    data = payload(story, end=date(2017, 8, 27))
    assert data["convoy"] == [] and data["days"] == {}


@pytest.mark.parametrize(
    ("day", "positions", "current", "lines"),
    [
        pytest.param("2017-08-28", ["c1"], {"c1"}, 0, id="first-day-no-line"),
        pytest.param("2017-08-29", ["c1", "c2"], {"c2"}, 1, id="moving"),
        pytest.param("2017-08-30", ["c1", "c2", "c3"], {"c3"}, 1, id="halted"),
        pytest.param(
            "2017-08-31", ["c1", "c2", "c3", "c5", "c4"], {"c4", "c5"}, 3, id="split-branches"
        ),
    ],
)
def test_convoy_on_the_day(story: Story, day, positions, current, lines):
    data = payload(story, end=date.fromisoformat(day))
    (drawn,) = data["days"].values()
    assert [data["convoy"][i]["id"] for i in drawn["convoy"]] == positions
    assert {data["convoy"][i]["id"] for i in drawn["now"]} == current
    assert len(drawn["paths"]) == lines


def test_convoy_route_gives_the_distance_so_far(story: Story):
    data = payload(story, end=date(2017, 8, 30))
    (drawn,) = data["days"].values()
    assert [p["tip"] for p in drawn["paths"]] == ["Route (all) · 160 km so far"]


# --- the selection -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("selected", "name", "wanted"),
    [
        pytest.param("place:beirut", "places", "beirut", id="place-without-events"),
        pytest.param("convoy:c4", "convoy", "c4", id="convoy-position-to-come"),
        pytest.param("front:lb-1", "fronts", "lb-1", id="front-of-another-day"),
    ],
)
def test_the_selection_is_sent_even_outside_the_view_and_day(story, selected, name, wanted):
    far = scale.Viewport(12, 10.0, 10.0, 10.1, 10.1)  # nowhere near the story
    data = payload(story, end=date(2017, 8, 28), viewport=far, selected=selected)
    assert wanted in [r["id"] for r in data[name]]
    plain = payload(story, end=date(2017, 8, 28), viewport=far)
    assert wanted not in [r["id"] for r in plain[name]]


# --- escaping ------------------------------------------------------------------------------------

XSS = "<script>alert(2)</script>"


@pytest.fixture
def hostile(tmp_path: Path) -> Story:
    """The mini story with markup in a place name and a source."""
    dest = copy_mini(tmp_path)
    replace(dest / "places.csv", "baalbek,Baalbek,", f"baalbek,{XSS},")
    return load_story(dest)


def test_markup_in_story_files_is_escaped(hostile: Story):
    data = payload(hostile)
    (row,) = [p for p in data["places"] if p["id"] == "baalbek"]
    assert row["n"] == XSS  # a label's text, set as textContent
    assert row["nh"] == "&lt;script&gt;alert(2)&lt;/script&gt;"
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in row["tip"]
    assert all("<script>" not in p["tip"] for p in data["places"])
