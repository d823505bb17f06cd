"""Tests for geo.story.details: what the panel shows for a clicked place, convoy or front."""

from __future__ import annotations

import itertools
import shutil
from datetime import date
from pathlib import Path

import pandas as pd
import pytest
from geopy.distance import geodesic

from geo.story.details import convoy_details, front_details, landmarks, place_details
from geo.story.load import Story, load_story
from tests.helpers import MINI

COORDS = {
    "beirut": (33.89332, 35.50157),
    "baalbek": (34.00583, 36.21806),
    "arsal": (34.17944, 36.42083),
    "crossing": (34.2, 36.6),
    "palmyra": (34.5624, 38.28402),
}
C1, C2, C3, C5 = COORDS["crossing"], (34.40, 37.50), COORDS["palmyra"], (34.70, 38.90)
START, END = date(2017, 8, 1), date(2017, 8, 31)


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


@pytest.fixture
def landmark_story(tmp_path: Path) -> Story:
    """The mini story with landmarks Beirut and Palmyra."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    toml = dest / "story.toml"
    text = toml.read_text(encoding="utf-8")
    assert "[[sources]]" in text, "fixture changed"
    text = text.replace("[[sources]]", 'landmarks = ["beirut", "palmyra"]\n\n[[sources]]', 1)
    toml.write_text(text, encoding="utf-8")
    return load_story(dest)


def km(a: str, b: str) -> float:
    return geodesic(COORDS[a], COORDS[b]).km


def test_landmarks_default_to_the_dateline_place(story: Story):
    assert landmarks(story) == ["beirut"]


def test_landmarks_from_story_toml(landmark_story: Story):
    assert landmarks(landmark_story) == ["beirut", "palmyra"]


@pytest.mark.parametrize(
    ("place", "start", "end", "expected"),
    [
        pytest.param("baalbek", START, END, ["e4", "e5"], id="baalbek-whole-span"),
        pytest.param("baalbek", START, date(2017, 8, 28), ["e4"], id="baalbek-until-28"),
        pytest.param("baalbek", date(2017, 8, 29), END, ["e5"], id="baalbek-from-29"),
        pytest.param("crossing", START, END, ["e2", "e3"], id="crossing-date-order"),
        pytest.param(
            "crossing", date(2017, 8, 20), date(2017, 8, 26), ["e2"], id="multi-day-overlap"
        ),
        pytest.param("arsal", date(2017, 8, 3), END, [], id="arsal-event-before-window"),
        pytest.param("beirut", START, END, [], id="dateline-place-no-events"),
        pytest.param("palmyra", date(2017, 8, 30), date(2017, 8, 30), ["e6"], id="one-day"),
    ],
)
def test_place_events_inside_the_window_in_date_order(
    story: Story, place: str, start: date, end: date, expected: list[str]
):
    d = place_details(story, place, start, end)
    assert d is not None
    assert list(d["events"]["id"]) == expected
    assert (d["events"]["place_id"] == place).all()
    assert d["events"]["date"].is_monotonic_increasing


def test_place_fields(story: Story):
    d = place_details(story, "baalbek", START, END)
    assert d is not None
    fields = {k: v for k, v in d.items() if k not in ("events", "distances_km")}
    assert fields == {
        "id": "baalbek",
        "name": "Baalbek",
        "aliases": ["Baalbeck", "Ba'labakk"],
        "kind": "city",
        "country": "LB",
        "admin1": "",  # the bundled story's places name no division
        "lat": 34.00583,
        "lon": 36.21806,
        "radius_m": 3000,
        "coord_source": "GeoNames 277130",
    }
    assert type(d["lat"]) is float and type(d["radius_m"]) is int


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        pytest.param("baalbek", {"Beirut": ("baalbek", "beirut")}, id="baalbek"),
        pytest.param("palmyra", {"Beirut": ("palmyra", "beirut")}, id="palmyra"),
        pytest.param("beirut", {}, id="the-landmark-itself"),
    ],
)
def test_distances_to_the_dateline_place(story: Story, place: str, expected: dict):
    d = place_details(story, place, START, END)
    assert d is not None
    assert d["distances_km"].keys() == expected.keys()
    for name, (a, b) in expected.items():
        assert d["distances_km"][name] == pytest.approx(km(a, b), abs=1e-6)


def test_baalbek_is_about_67_km_from_beirut(story: Story):
    d = place_details(story, "baalbek", START, END)
    assert d is not None
    assert d["distances_km"]["Beirut"] == pytest.approx(67.4, abs=0.1)


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        pytest.param(
            "arsal",
            {"Beirut": ("arsal", "beirut"), "Palmyra": ("arsal", "palmyra")},
            id="two-landmarks",
        ),
        pytest.param("palmyra", {"Beirut": ("palmyra", "beirut")}, id="skips-itself"),
    ],
)
def test_distances_to_story_landmarks(landmark_story: Story, place: str, expected: dict):
    d = place_details(landmark_story, place, START, END)
    assert d is not None
    assert list(d["distances_km"]) == list(expected)
    for name, (a, b) in expected.items():
        assert d["distances_km"][name] == pytest.approx(km(a, b), abs=1e-6)


@pytest.mark.parametrize("place", ["nowhere", "", "Baalbek", "<script>"])
def test_unknown_place_is_none(story: Story, place: str):
    assert place_details(story, place, START, END) is None


# --- convoy ---------------------------------------------------------------------------------------


def route(*points: tuple[float, float]) -> float:
    return sum(geodesic(p, q).km for p, q in itertools.pairwise(points))


@pytest.mark.parametrize(
    ("row", "day", "group", "travelled"),
    [
        pytest.param("c1", END, "all", 0.0, id="start-has-not-moved"),
        pytest.param("c2", END, "all", route(C1, C2), id="c2"),
        pytest.param("c3", END, "all", route(C1, C2, C3), id="trunk-seen-after-split"),
        pytest.param("c3", date(2017, 8, 30), "all", route(C1, C2, C3), id="trunk-on-its-day"),
        pytest.param("c5", END, "east", route(C1, C2, C3, C5), id="east-branch-with-trunk"),
        pytest.param("c4", END, "west", route(C1, C2, C3), id="west-branch-back-at-palmyra"),
    ],
)
def test_convoy_details(story: Story, row: str, day: date, group: str, travelled: float):
    d = convoy_details(story, row)
    assert d is not None
    assert (d["id"], d["group"]) == (row, group)
    assert d["travelled_km"] == pytest.approx(travelled, abs=1e-6)


def test_convoy_details_fields(story: Story):
    d = convoy_details(story, "c3")
    assert d is not None
    assert d["date"] == pd.Timestamp("2017-08-30")
    assert (d["status"], d["place_name"], d["note"], d["source"]) == (
        "halted",
        "Palmyra",
        "Stopped.",
        "other",
    )
    assert (d["lat"], d["lon"], d["radius_m"]) == (34.5624, 38.28402, 5000)


@pytest.mark.parametrize("row", ["c9", "", "lb-1"])
def test_unknown_convoy_row_is_none(story: Story, row: str):
    assert convoy_details(story, row) is None


def test_convoy_distance_is_at_the_position_even_when_the_window_ends_before(story: Story):
    d = convoy_details(story, "c3")
    assert d is not None
    assert d["travelled_km"] == pytest.approx(route(C1, C2, C3), abs=1e-6)


# --- fronts ---------------------------------------------------------------------------------------


def test_front_details(story: Story):
    d = front_details(story, "lb-2")
    assert d is not None
    assert "geometry" not in d
    assert {k: d[k] for k in ("id", "side", "holder", "reported_km2", "drawn_km2")} == {
        "id": "lb-2",
        "side": "LB",
        "holder": "ISIS",
        "reported_km2": 20,
        "drawn_km2": 16.4,
    }
    assert (d["valid_from"], d["valid_to"]) == (
        pd.Timestamp("2017-08-22"),
        pd.Timestamp("2017-08-27"),
    )
    assert (d["approximate"], d["source"], d["note"]) == (True, "test", "square")
    assert d["computed_km2"] == pytest.approx(16.4, abs=0.1)


@pytest.mark.parametrize(
    ("front", "side", "reported"),
    [
        pytest.param("lb-1", "LB", 120, id="lb-1"),
        pytest.param("sy-1", "SY", 60, id="sy-1"),
    ],
)
def test_front_details_side_and_figure(story: Story, front: str, side: str, reported: int):
    d = front_details(story, front)
    assert d is not None
    assert (d["side"], d["reported_km2"]) == (side, reported)


@pytest.mark.parametrize("front", ["lb-9", "", "c1"])
def test_unknown_front_is_none(story: Story, front: str):
    assert front_details(story, front) is None
