"""Tests for geo.map.layers and geo.map.text: the base map, the state a rerun sends the map's
script, and the words the map's tooltips are made of."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import folium
import pandas as pd
import pytest

from geo.map.layers import Basemap, base_map, browser_layers, paint_report
from geo.map.text import figures_text, fmt_span, parse_key, reported_text
from geo.story.load import Story, load_story
from tests.helpers import MINI, copy_mini, replace

START, END = date(2017, 8, 1), date(2017, 8, 31)


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


def walk(element) -> Iterator:
    yield element
    for child in element._children.values():
        yield from walk(child)


def children(element, kind: type) -> list:
    return [el for el in walk(element) if isinstance(el, kind)]


def all_features(element, layer: str | None = None) -> list[dict]:
    """Every GeoJSON feature of the folium.GeoJson layers inside ``element`` (named ``layer``)."""
    return [
        f
        for gj in children(element, folium.GeoJson)
        if layer is None or gj.layer_name == layer
        for f in gj.data["features"]
    ]


def features(element) -> list[dict]:
    """The clickable features inside ``element``: those with a key."""
    return [f for f in all_features(element) if f["properties"].get("key")]


# --- parse_key ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("<b>Baalbek</b> · 2 events [place:baalbek]", ("place", "baalbek"), id="place"),
        pytest.param("Convoy · 30 Aug 2017 [convoy:c3]", ("convoy", "c3"), id="convoy"),
        pytest.param("ISIS-held enclave [front:lb-0822]", ("front", "lb-0822"), id="front"),
        pytest.param("[place:a] then [convoy:c1]", ("convoy", "c1"), id="last-key-wins"),
        pytest.param("[place:ras-baalbek]", ("place", "ras-baalbek"), id="key-only"),
        pytest.param(None, None, id="none"),
        pytest.param("", None, id="empty"),
        pytest.param("Baalbek · 2 events", None, id="no-key"),
        pytest.param("[town:baalbek]", None, id="unknown-kind"),
        pytest.param("[place:Baalbek]", None, id="uppercase-id"),
        pytest.param("[place:]", None, id="empty-id"),
        pytest.param("[place:baal bek]", None, id="space-in-id"),
        pytest.param("[place:<script>]", None, id="markup-id"),
    ],
)
def test_parse_key(text: str | None, expected: tuple[str, str] | None):
    assert parse_key(text) == expected


# --- small formatters -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "last", "expected"),
    [
        pytest.param("2017-08-19", "2017-08-19", "19 Aug 2017", id="one-day"),
        pytest.param("2017-08-19", "2017-08-27", "19 Aug – 27 Aug 2017", id="same-year"),
        pytest.param("2017-12-30", "2018-01-02", "30 Dec 2017 – 2 Jan 2018", id="across-years"),
    ],
)
def test_fmt_span(first: str, last: str, expected: str):
    assert fmt_span(pd.Timestamp(first), pd.Timestamp(last)) == expected


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        pytest.param("e1", "7,777 people, 113 buses", id="thousands"),
        pytest.param("e2", "30 km²", id="area"),
        pytest.param("e4", "308 militants, 331 civilians", id="two-figures"),
        pytest.param("e3", "", id="none"),
    ],
)
def test_figures_text(story: Story, event: str, expected: str):
    row = story.events.set_index("id", drop=False).loc[event]
    assert figures_text(row) == expected


@pytest.mark.parametrize(
    ("km2", "expected"),
    [
        pytest.param(None, "no published figure", id="none"),
        pytest.param(float("nan"), "no published figure", id="nan"),
        pytest.param(pd.NA, "no published figure", id="pd-na"),
        pytest.param(20, "20 km²", id="int"),
        pytest.param(16.4, "16.4 km²", id="float"),
        pytest.param(0, "0 km²", id="zero"),
    ],
)
def test_reported_text(km2, expected: str):
    assert reported_text(km2) == expected


# --- base_map and browser_layers ------------------------------------------------------------------


def with_map_view(tmp_path: Path, line: str) -> Story:
    dest = copy_mini(tmp_path)
    replace(dest / "story.toml", "[[sources]]", f"{line}\n\n[[sources]]")
    return load_story(dest)


def test_base_map_honours_story_map_view(tmp_path: Path):
    story = with_map_view(tmp_path, "map = { center = [34.25, 37.3], zoom = 9 }")
    m = base_map(story, None)
    assert m.location == [34.25, 37.3]
    assert m.options["zoom"] == 9
    assert children(m, folium.map.FitBounds) == []


def test_base_map_without_a_view_fits_the_places_with_events(story: Story):
    m = base_map(story, None)
    # The places where something happened (every mini place is within 50 km); a place the
    # story only mentions does not widen the frame.
    happened = story.places[story.places["id"].isin(set(story.events["place_id"]))]
    assert len(happened) < len(story.places)
    lo = [float(happened["lat"].min()), float(happened["lon"].min())]
    hi = [float(happened["lat"].max()), float(happened["lon"].max())]
    assert m.location == pytest.approx([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2])
    (fit,) = children(m, folium.map.FitBounds)
    assert fit.bounds == [lo, hi]


@pytest.mark.parametrize(
    ("basemap", "scripts"),
    [
        pytest.param(None, 0, id="no-basemap"),
        pytest.param("/app/static/basemap/", 1, id="basemap"),
    ],
)
def test_base_map_outlines_and_no_markers(story: Story, basemap, scripts: int):
    m = base_map(story, basemap)
    # The basemap is fetched by the map's script, never embedded in the page.
    assert len(children(m, Basemap)) == scripts
    assert children(m, folium.GeoJson) == []
    assert children(m, folium.TileLayer) == []
    assert features(m) == []


def test_base_map_when_every_place_is_regional(tmp_path: Path):
    dest = copy_mini(tmp_path)
    places = dest / "places.csv"
    text = re.sub(r",(\d+),(\d*),(GeoNames|Wikipedia|approx)", r",60000,\2,\3", places.read_text())
    places.write_text(text, encoding="utf-8")
    story = load_story(dest)
    assert (story.places["radius_m"] == 60000).all()
    m = base_map(story, None)
    # A story of regions only is framed on all the places where its events happened (Baalbek
    # to Palmyra; Beirut is only mentioned), not on nothing or the world.
    fits = [c for c in m._children.values() if isinstance(c, folium.map.FitBounds)]
    assert len(fits) == 1
    assert fits[0].bounds == [[34.00583, 36.21806], [34.5624, 38.28402]]


@pytest.mark.parametrize(
    ("data", "selected"),
    [
        pytest.param("/app/static/story-data/mini-0123.json", None, id="payload-url"),
        pytest.param({"kind": "window", "summary": [["<b>"]]}, "place:baalbek", id="inline"),
    ],
)
def test_browser_layers_hand_the_script_its_state_once(data, selected):
    (group,) = browser_layers(data, START, END, None, ["Hezbollah"], {"events"}, selected)
    (state,) = [c for c in walk(group) if hasattr(c, "state_js")]
    assert json.loads(state.state_js)["data"] == data
    assert json.loads(state.state_js)["selected"] == selected
    m = folium.Map(tiles=None)
    group.add_to(m)
    html = m.get_root().render()
    assert html.count("DL.draw(") == 1
    assert "<b>" not in html.split("{ DL.draw(", 1)[1]  # JSON made safe inside <script>


def test_the_paint_report_asks_the_map_once_and_draws_nothing():
    m = folium.Map(tiles=None)
    group = paint_report()
    group.add_to(m)
    html = m.get_root().render()
    assert html.count("window.Dateline.reportPainted()") == 1
    # No layer of its own: the map's drawing is the story's alone.
    assert not [c for c in group._children.values() if isinstance(c, folium.map.Layer)]
