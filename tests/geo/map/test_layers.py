"""Tests for geo.map.layers: the folium layers built from a story, their counts and escaping."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import folium
import pandas as pd
import pytest
from folium.plugins import MarkerCluster

from geo.map.layers import (
    CATEGORY_COLOURS,
    Basemap,
    base_map,
    convoy_layer,
    events_layer,
    figures_text,
    fmt_span,
    fronts_layer,
    legend_rows,
    paint_report,
    parse_key,
    places_layer,
    reported_text,
    standalone_html,
    story_layers,
    view_layer,
)
from geo.map.style import FAMILIES, family
from geo.story.load import Story, load_story
from geo.story.timeline import filter_events
from tests.helpers import (
    MINI,
    copy_mini,
    replace,
)

START, END = date(2017, 8, 1), date(2017, 8, 31)
LAYERS_ALL = ("events", "places", "convoy", "fronts")
XSS = "<img src=x onerror=alert(1)>"
XSS_ESCAPED = "&lt;img src=x onerror=alert(1)&gt;"


@pytest.fixture(scope="module")
def story() -> Story:
    return load_story(MINI)


@pytest.fixture(scope="module")
def sources(story: Story) -> dict[str, str]:
    return dict(zip(story.sources["id"], story.sources["publication"], strict=True))


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


def visible(tip: str) -> str:
    """A tooltip as the reader sees it: without the hidden key."""
    return re.sub(r'<span class="dl-key" hidden>.*?</span>', "", tip)


def keys(element) -> list[tuple[str, str] | None]:
    return [parse_key(f["properties"].get("tip")) for f in features(element)]


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


# --- events_layer: one marker per place, counts add up --------------------------------------------

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
def test_marker_counts_equal_filtered_events(story, sources, start, end, categories, actors):
    events = filter_events(story.events, start, end, categories, actors)
    feats = features(events_layer(events, sources))
    assert sum(f["properties"]["count"] for f in feats) == len(events)
    assert len(feats) == events["place_id"].nunique()
    by_place = {parse_key(f["properties"]["tip"])[1]: f["properties"]["count"] for f in feats}
    assert by_place == dict(Counter(events["place_id"]))


def test_events_layer_counts_on_the_whole_story(story: Story, sources):
    feats = features(events_layer(story.events, sources))
    by_place = {parse_key(f["properties"]["tip"])[1]: f["properties"]["count"] for f in feats}
    assert by_place == {"arsal": 1, "crossing": 2, "baalbek": 2, "palmyra": 1}


def test_events_sit_inside_a_marker_cluster(story: Story, sources):
    group = events_layer(story.events, sources)
    (cluster,) = children(group, MarkerCluster)
    assert len(children(cluster, folium.GeoJson)) == 1


@pytest.mark.parametrize(
    ("place", "lon", "lat"),
    [
        pytest.param("baalbek", 36.21806, 34.00583, id="baalbek"),
        pytest.param("crossing", 36.6, 34.2, id="crossing"),
    ],
)
def test_event_markers_are_at_their_place(story: Story, sources, place, lon, lat):
    feats = features(events_layer(story.events, sources))
    feat = next(f for f in feats if parse_key(f["properties"]["tip"]) == ("place", place))
    assert feat["geometry"] == {"type": "Point", "coordinates": [lon, lat]}


def test_several_events_make_a_numbered_marker(story: Story, sources):
    feats = {
        parse_key(f["properties"]["tip"])[1]: f["properties"]
        for f in features(events_layer(story.events, sources))
    }
    assert ">2</div>" in feats["baalbek"]["icon"] and feats["baalbek"]["size"] == 22
    # One event: its family's symbol instead of a number.
    assert family("convoy").symbol in feats["arsal"]["icon"] and feats["arsal"]["size"] == 18
    # Coloured by the latest event: e5, a celebration on 31 Aug.
    assert CATEGORY_COLOURS["celebration"] in feats["baalbek"]["icon"]
    assert visible(feats["baalbek"]["tip"]).endswith("· 2 events")
    assert visible(feats["arsal"]["tip"]).endswith("· 1 event")
    assert feats["baalbek"]["key"] == "place:baalbek"
    assert "[place:baalbek]" in feats["baalbek"]["tip"]  # st_folium reports the tooltip's text


def test_tooltips_hide_their_key(story: Story, sources):
    for layer in (
        events_layer(story.events, sources),
        places_layer(story.places),
        convoy_layer(story.convoy, END, sources),
        fronts_layer(story.fronts, date(2017, 8, 22), sources),
    ):
        for f in features(layer):
            key = f["properties"]["key"]
            assert f"[{key}]" in f["properties"]["tip"]
            assert "[" not in visible(f["properties"]["tip"])


def test_popup_shows_newest_first(story: Story, sources):
    feats = features(events_layer(story.events, sources))
    popup = next(f for f in feats if "[place:baalbek]" in f["properties"]["tip"])["properties"]
    text = popup["popup"]
    assert text.index("A rally in Baalbek.") < text.index("A speech about Baalbek.")
    assert "US says about 670" in text and "Test fixture, ¶4" in text


def test_popup_is_capped_at_twelve_events(story: Story, sources):
    one = story.events[story.events["id"] == "e1"]
    many = pd.concat([one] * 15, ignore_index=True)
    many["id"] = [f"x{n}" for n in range(15)]
    (feat,) = features(events_layer(many, sources))
    assert feat["properties"]["count"] == 15
    assert feat["properties"]["popup"].count('class="dl-ev"') == 12
    assert "+ 3 earlier events" in feat["properties"]["popup"]


# --- escaping -------------------------------------------------------------------------------------


@pytest.fixture
def hostile(tmp_path: Path) -> Story:
    """The mini story with markup in a summary, a place name, a source and a source detail."""
    dest = copy_mini(tmp_path)
    replace(dest / "events.csv", "A rally in Baalbek.", XSS)
    replace(dest / "events.csv", "test,¶4,disputed", "test,<script>alert(3)</script>,disputed")
    replace(dest / "places.csv", "baalbek,Baalbek,", "baalbek,<script>alert(2)</script>,")
    replace(
        dest / "story.toml",
        'publication = "Another fixture source"',
        'publication = "<script>alert(4)</script>"',
    )
    return load_story(dest)


def hostile_sources(story: Story) -> dict[str, str]:
    return dict(zip(story.sources["id"], story.sources["publication"], strict=True))


def props_text(element) -> str:
    return "\n".join(
        str(f["properties"].get(k, "")) for f in features(element) for k in ("tip", "popup")
    )


def test_event_summary_is_escaped(hostile: Story):
    feats = features(events_layer(hostile.events, hostile_sources(hostile)))
    baalbek = next(f for f in feats if "[place:baalbek]" in f["properties"]["tip"])["properties"]
    assert XSS_ESCAPED in baalbek["popup"]
    assert "<img" not in baalbek["popup"]


@pytest.mark.parametrize(
    ("layer", "escaped"),
    [
        pytest.param("events", "&lt;script&gt;alert(2)&lt;/script&gt;", id="place-in-events"),
        pytest.param("events", "&lt;script&gt;alert(3)&lt;/script&gt;", id="source-detail"),
        pytest.param("events", "&lt;script&gt;alert(4)&lt;/script&gt;", id="source-in-events"),
        pytest.param("places", "&lt;script&gt;alert(2)&lt;/script&gt;", id="place-dot"),
        pytest.param("convoy", "&lt;script&gt;alert(4)&lt;/script&gt;", id="source-in-convoy"),
    ],
)
def test_markup_in_story_files_is_escaped(hostile: Story, layer: str, escaped: str):
    srcs = hostile_sources(hostile)
    element = {
        "events": lambda: events_layer(hostile.events, srcs),
        "places": lambda: places_layer(hostile.places),
        "convoy": lambda: convoy_layer(hostile.convoy, END, srcs),
    }[layer]()
    text = props_text(element)
    assert escaped in text
    assert "<script>" not in text


def decode_js(html: str) -> str:
    """The page with JSON's \\uXXXX escapes undone: what the browser's script sees."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), html)


def test_standalone_html_has_no_raw_markup_from_the_story(hostile: Story):
    html = standalone_html(hostile, None, hostile.events, hostile.end)
    # The view's state carries place names as data for labels' textContent: JSON-escaped so
    # that no '<' reaches the page, and left out of the HTML check below.
    state = re.search(r"window\.dlShow\((.*)\); \}", html).group(1)
    assert "<" not in state and "\\u003cscript\\u003ealert(2)" in state
    seen = decode_js(html.replace(state, ""))
    assert "<img" not in html and "<img" not in seen
    assert XSS_ESCAPED in seen
    for n in (2, 3, 4):
        assert f"<script>alert({n})" not in seen
        assert f"&lt;script&gt;alert({n})&lt;/script&gt;" in seen


# --- fronts_layer ---------------------------------------------------------------------------------


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
def test_fronts_layer_draws_only_polygons_valid_on_the_day(story, sources, day, expected):
    layer = fronts_layer(story.fronts, date.fromisoformat(day), sources)
    assert {k[1] for k in keys(layer)} == expected
    assert all(f["geometry"]["type"] == "Polygon" for f in features(layer))
    if not expected:
        assert children(layer, folium.GeoJson) == []


def test_fronts_tooltip_gives_reported_and_drawn_area(story: Story, sources):
    layer = fronts_layer(story.fronts, date(2017, 8, 22), sources)
    tips = {parse_key(f["properties"]["tip"])[1]: f["properties"]["tip"] for f in features(layer)}
    assert "reported 20 km², drawn 16.4 km²" in tips["lb-2"]
    assert "Lebanese side" in tips["lb-2"] and "Syrian side" in tips["sy-1"]


def test_fronts_without_a_figure_say_so(tmp_path: Path, sources):
    dest = copy_mini(tmp_path)
    replace(dest / "fronts.geojson", '"reported_km2": 20,', '"reported_km2": null,')
    fronts = load_story(dest).fronts
    layer = fronts_layer(fronts, date(2017, 8, 22), sources)
    tip = next(
        f["properties"]["tip"] for f in features(layer) if "[front:lb-2]" in f["properties"]["tip"]
    )
    assert "reported no published figure" in tip


# --- convoy_layer ---------------------------------------------------------------------------------


def test_convoy_layer_is_empty_before_the_convoy_starts(story: Story, sources):
    layer = convoy_layer(story.convoy, date(2017, 8, 27), sources)
    assert layer._children == {}


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
def test_convoy_layer(story: Story, sources, day, positions, current, lines):
    layer = convoy_layer(story.convoy, date.fromisoformat(day), sources)
    feats = features(layer)
    assert [parse_key(f["properties"]["tip"])[1] for f in feats] == positions
    assert all(f["properties"]["style"]["pane"] == "dlConvoy" for f in feats)
    big = {
        parse_key(f["properties"]["tip"])[1]
        for f in feats
        if f["properties"]["style"]["radius"] == 9
    }
    assert big == current
    assert len(all_features(layer, "Convoy route")) == lines
    assert children(layer, folium.PolyLine) == []


def test_convoy_popup_gives_the_distance_for_the_current_position(story: Story, sources):
    feats = features(convoy_layer(story.convoy, date(2017, 8, 30), sources))
    popups = {parse_key(f["properties"]["tip"])[1]: f["properties"]["popup"] for f in feats}
    assert "Distance travelled by 30 Aug 2017: <b>160 km</b>" in popups["c3"]
    assert "Distance travelled" not in popups["c2"]


# --- places_layer ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("circled", "expected"),
    [
        pytest.param(None, 5, id="every-uncertain-place"),
        pytest.param({"baalbek"}, 1, id="one"),
        pytest.param({"baalbek", "palmyra", "nowhere"}, 2, id="unknown-ignored"),
        pytest.param(set(), 0, id="none"),
    ],
)
def test_places_layer_circles(story: Story, circled, expected: int):
    layer = places_layer(story.places, circled)
    assert len(all_features(layer, "Uncertainty")) == expected
    assert children(layer, folium.Circle) == []  # folium.Circle cannot be made unclickable
    assert sorted(k[1] for k in keys(layer)) == sorted(story.places["id"])


# --- base_map and story_layers --------------------------------------------------------------------


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


def test_legend_is_made_by_the_maps_script_from_the_view_state(story: Story):
    # The map's script makes the legend's frame and lists what each window shows.
    (basemap,) = [el for el in walk(base_map(story)) if hasattr(el, "cfg_js")]
    assert json.loads(basemap.cfg_js)["controls"] is True
    view = view_layer(story, story.events, story.end, frozenset(LAYERS_ALL), None)
    (el,) = [c for c in walk(view) if hasattr(c, "state")]
    labels = [r["label"] for r in el.state["legend"]]
    # offensive; airstrike; ceasefire; evacuation; speech and celebration
    assert labels[:5] == [
        "fighting",
        "strikes",
        "deals and handovers",
        "movement",
        "speeches and statements",
    ]
    colours = {r["label"]: r["colour"] for r in el.state["legend"]}
    for name in labels[:5]:
        assert next(f for f in FAMILIES if f.label == name).colour == colours[name]
    # The mini story has no [words]: the plain defaults.
    assert "convoy position" in labels


WORDS = {"convoy": "column", "enclave": "pocket", "held": "rebel-held"}


@pytest.mark.parametrize(
    ("categories", "convoy", "fronts", "labels"),
    [
        pytest.param([], False, set(), ["place uncertainty"], id="nothing"),
        pytest.param(
            ["battle", "offensive", "speech"],
            False,
            set(),
            ["fighting", "speeches and statements", "place uncertainty"],
            id="families-once",
        ),
        pytest.param(
            [],
            True,
            {"SY"},
            ["column position", "column halted", "rebel-held, Syrian side", "place uncertainty"],
            id="story-words",
        ),
        pytest.param(["mystery"], False, set(), ["other", "place uncertainty"], id="unknown"),
    ],
)
def test_legend_rows_list_only_what_is_shown(categories, convoy, fronts, labels):
    rows = legend_rows(categories, convoy, fronts, WORDS)
    assert [r["label"] for r in rows] == labels


def test_view_state_follows_the_window(story: Story):
    def state(start, end, layers=frozenset(LAYERS_ALL), selected=None):
        events = filter_events(story.events, date.fromisoformat(start), date.fromisoformat(end))
        view = view_layer(story, events, date.fromisoformat(end), layers, selected)
        (el,) = [c for c in walk(view) if hasattr(c, "state")]
        return el.state

    early = state("2017-08-01", "2017-08-03")
    assert [lab["n"] for lab in early["labels"] if lab["t"] == "story"] == ["Arsal"]
    assert early["date"] == "As of 3 Aug 2017"
    assert not any("convoy" in r["label"] for r in early["legend"])
    late = state("2017-08-28", "2017-08-31")
    assert any(r["label"] == "convoy position" for r in late["legend"])
    # The frame holds the window's events and the convoy's position on the last day.
    (south, west), (north, east) = late["fit"]
    assert south <= 34.0058 <= north and west <= 36.2181 <= east  # Baalbek
    chosen = state("2017-08-01", "2017-08-03", selected="place:beirut")
    assert chosen["focus"] == [33.89332, 35.50157]
    assert chosen["keep"][0] == [33.89332, 35.50157]


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
    assert m.location is not None


@pytest.mark.parametrize(
    ("layers", "names"),
    [
        pytest.param(
            frozenset({"events", "places", "convoy", "fronts"}),
            ["Fronts", "Places", "Convoy", "Events", "Selected", "View"],
            id="all-bottom-to-top",
        ),
        pytest.param(frozenset({"events"}), ["Events", "Selected", "View"], id="events-only"),
        pytest.param(
            frozenset({"convoy", "fronts"}), ["Fronts", "Convoy", "Selected", "View"], id="two"
        ),
        pytest.param(frozenset(), ["Selected", "View"], id="none"),
    ],
)
def test_story_layers(story: Story, layers, names: list[str]):
    groups = story_layers(story, story.events, END, layers)
    assert [g.layer_name for g in groups] == names


def test_story_layers_circle_the_selected_place(story: Story):
    events = filter_events(story.events, START, END, ["airstrike"])  # Palmyra only
    places, *_ = story_layers(story, events, END, frozenset({"places"}), selected_place="baalbek")
    centres = sorted(
        tuple(f["geometry"]["coordinates"][::-1]) for f in all_features(places, "Uncertainty")
    )
    assert centres == [(34.00583, 36.21806), (34.5624, 38.28402)]


def test_the_paint_report_asks_the_map_once_and_draws_nothing():
    m = folium.Map(tiles=None)
    group = paint_report()
    group.add_to(m)
    html = m.get_root().render()
    assert html.count("window.dlReportPainted()") == 1
    # No layer of its own: the map's drawing is the story's alone.
    assert not [c for c in group._children.values() if isinstance(c, folium.map.Layer)]
