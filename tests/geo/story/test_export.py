"""Tests for geo.story.export: the CSV download loads back as a story file; the GeoJSON is valid."""

from __future__ import annotations

import csv
import io
import json
import shutil
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from geo.story.export import events_csv, events_geojson, events_spreadsheet
from geo.story.load import EVENT_COLUMNS, FIGURES, Story, load_story
from geo.story.timeline import filter_events
from tests.helpers import MINI


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


def reload_with(events_text: str, tmp_path: Path) -> Story:
    """A copy of the mini story whose events.csv is ``events_text``, loaded."""
    dest = tmp_path / "mini"
    shutil.copytree(MINI, dest)
    (dest / "events.csv").write_text(events_text, encoding="utf-8")
    return load_story(dest)


def same_events(a: pd.DataFrame, b: pd.DataFrame) -> None:
    cols = list(EVENT_COLUMNS)
    # Not dtypes: the loader reads an all-empty date column as datetime64[s], else [us].
    pd.testing.assert_frame_equal(
        a[cols].reset_index(drop=True), b[cols].reset_index(drop=True), check_dtype=False
    )


SUBSETS = [
    pytest.param(date(2017, 8, 1), date(2017, 8, 31), None, id="all-events"),
    pytest.param(date(2017, 8, 19), date(2017, 8, 27), None, id="window"),
    pytest.param(date(2017, 8, 1), date(2017, 8, 31), ["speech"], id="one-category"),
    pytest.param(date(2017, 8, 1), date(2017, 8, 31), [], id="header-only"),
]


@pytest.mark.parametrize(("start", "end", "categories"), SUBSETS)
def test_csv_round_trips_through_the_loader(story: Story, tmp_path: Path, start, end, categories):
    shown = filter_events(story.events, start, end, categories)
    loaded = reload_with(events_csv(shown), tmp_path)
    assert list(loaded.events["id"]) == list(shown["id"])
    same_events(loaded.events, shown)


def test_csv_round_trip_keeps_figures(story: Story, tmp_path: Path):
    loaded = reload_with(events_csv(story.events), tmp_path).events.set_index("id")
    assert loaded.loc["e1", "people"] == 7777
    assert loaded.loc["e1", "buses"] == 113
    assert (loaded.loc["e4", "militants"], loaded.loc["e4", "civilians"]) == (308, 331)
    assert loaded.loc["e2", "area_km2"] == 30
    assert loaded[list(FIGURES)].notna().sum().sum() == 5


def test_csv_round_trip_keeps_awkward_text(story: Story, tmp_path: Path):
    events = story.events.copy()
    awkward = 'He said "no", then left;\nlater: ¶2 — «ok»'
    events.loc[events["id"] == "e3", "summary"] = awkward
    events.loc[events["id"] == "e3", "confidence_note"] = "a, b | c"
    loaded = reload_with(events_csv(events), tmp_path).events.set_index("id")
    assert loaded.loc["e3", "summary"] == awkward
    assert loaded.loc["e3", "confidence_note"] == "a, b | c"


def test_csv_has_the_story_columns_and_formats(story: Story):
    rows = list(csv.DictReader(io.StringIO(events_csv(story.events))))
    assert list(rows[0]) == list(EVENT_COLUMNS)
    by_id = {r["id"]: r for r in rows}
    assert (by_id["e2"]["date"], by_id["e2"]["end_date"]) == ("2017-08-19", "2017-08-27")
    assert by_id["e1"]["end_date"] == ""
    assert by_id["e2"]["actors"] == "Lebanese Army|Hezbollah"
    assert by_id["e5"]["actors"] == ""
    assert by_id["e1"]["source_detail"] == "¶1"


@pytest.mark.parametrize(
    ("event", "column", "expected"),
    [
        pytest.param("e1", "people", "7777", id="people"),
        pytest.param("e1", "buses", "113", id="buses"),
        pytest.param("e4", "militants", "308", id="militants"),
    ],
)
def test_csv_writes_figures_as_whole_numbers(story: Story, event, column, expected):
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(events_csv(story.events)))}
    assert rows[event][column] == expected


# --- GeoJSON --------------------------------------------------------------------------------------


def _no_nan(token: str):
    raise AssertionError(f"not valid JSON: {token}")


@pytest.fixture(scope="module")
def collection(story: Story) -> dict:
    return json.loads(events_geojson(story.events), parse_constant=_no_nan)


def test_geojson_has_one_point_per_event(story: Story, collection: dict):
    assert collection["type"] == "FeatureCollection"
    feats = collection["features"]
    assert [f["properties"]["id"] for f in feats] == list(story.events["id"])
    assert {f["type"] for f in feats} == {"Feature"}
    assert {f["geometry"]["type"] for f in feats} == {"Point"}


@pytest.mark.parametrize(
    ("event", "lon", "lat", "place_name"),
    [
        pytest.param("e1", 36.42083, 34.17944, "Arsal", id="arsal"),
        pytest.param("e4", 36.21806, 34.00583, "Baalbek", id="baalbek"),
        pytest.param("e2", 36.6, 34.2, "Test crossing", id="crossing"),
    ],
)
def test_geojson_points_are_lon_lat(collection: dict, event, lon, lat, place_name):
    feat = next(f for f in collection["features"] if f["properties"]["id"] == event)
    assert feat["geometry"]["coordinates"] == [lon, lat]
    assert feat["properties"]["place_name"] == place_name


@pytest.mark.parametrize(
    ("event", "key", "expected"),
    [
        pytest.param("e1", "end_date", None, id="nat-is-null"),
        pytest.param("e2", "end_date", "2017-08-27", id="end-date"),
        pytest.param("e2", "date", "2017-08-19", id="date"),
        pytest.param("e1", "people", 7777, id="figure-is-int"),
        pytest.param("e1", "militants", None, id="na-figure-is-null"),
        pytest.param("e2", "area_km2", 30, id="area"),
        pytest.param("e2", "actors", "Lebanese Army|Hezbollah", id="actors"),
        pytest.param("e1", "source_detail", "¶1", id="non-ascii"),
        pytest.param("e4", "confidence_note", "US says about 670", id="note"),
        pytest.param("e4", "radius_m", 3000, id="radius"),
    ],
)
def test_geojson_properties(collection: dict, event, key, expected):
    props = next(f for f in collection["features"] if f["properties"]["id"] == event)["properties"]
    assert props[key] == expected
    assert type(props[key]) is type(expected)


def test_geojson_properties_cover_the_story_columns(collection: dict):
    keys = set(collection["features"][0]["properties"])
    assert keys == {*EVENT_COLUMNS, "place_name", "radius_m"}


def test_geojson_of_no_events(story: Story):
    doc = json.loads(events_geojson(story.events.iloc[0:0]))
    assert doc == {"type": "FeatureCollection", "features": []}


def test_geojson_keeps_non_ascii_readable(story: Story):
    assert "¶1" in events_geojson(story.events)


def test_spreadsheet_csv_defuses_formulas_and_carries_place_and_publication(story: Story):
    events = story.events.copy()
    events["summary"] = events["summary"].astype(object)
    events.loc[0, "summary"] = '=HYPERLINK("http://evil.example","click")'
    events.loc[1, "source_detail"] = "@SUM(1+1)"
    events.loc[2, "confidence_note"] = "-1+2"
    events.loc[3, "actors"] = ["+cmd"]
    data = events_spreadsheet(events, {"test": "Test fixture", "other": "=evil()"})
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert len(rows) == len(events)
    cells = [v for r in rows for k, v in r.items() if k not in ("lat", "lon", *FIGURES)]
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]
    assert rows[0]["summary"] == "'" + '=HYPERLINK("http://evil.example","click")'
    first = rows[0]
    assert first["place_name"] and float(first["lat"]) and float(first["lon"])
    assert {r["publication"] for r in rows} <= {"Test fixture", "'=evil()"}
    # Numbers stay numbers (a negative longitude would keep its minus sign).
    assert all(r["lat"][:1] != "'" for r in rows)
