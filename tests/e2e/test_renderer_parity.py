"""End-to-end: one renderer. The same story drawn by ``js/story.js`` from its whole payload and
from the window payload a big story gets per rerun shows the same places, tooltips, legend and
labels; a crowded view's grid clusters count every event once and zoom in on a click."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bench.generate import generate_story
from geo.map import scale
from geo.map.assets import _FILES, JS_DIR
from geo.map.payload import story_payload
from geo.map.window import needs_window, window_payload
from geo.story.load import load_story
from geo.story.timeline import filter_events
from tests.e2e.conftest import ROOT, new_context
from tests.helpers import MINI

pytestmark = pytest.mark.e2e
BUNDLED = ROOT / "data" / "stories" / "qalamoun-2017"
LAYERS = ["convoy", "events", "fronts", "places"]
SCRIPTS = [
    _FILES["leaflet/leaflet.js"],
    _FILES["markercluster/leaflet.markercluster.js"],
    JS_DIR / "basemap.js",
    JS_DIR / "story.js",
]
STYLES = [
    _FILES["leaflet/leaflet.css"],
    _FILES["markercluster/MarkerCluster.css"],
    JS_DIR / "map.css",
]
# The map's own script on an empty basemap, the way the published page starts it.
START = """() => {
    const el = document.createElement('div');
    el.style.cssText = 'width:800px;height:620px';
    document.body.appendChild(el);
    const map = L.map(el, {minZoom: 2, maxZoom: 14}).setView([34, 36.5], 8);
    const empty = {type: 'FeatureCollection', features: []};
    window.Dateline.initMap(map, {base: '', controls: true, pinned: false,
        files: {'world-low.geojson': empty, 'world.geojson': empty, 'water.geojson': empty,
                'labels.json': []}});
    // What each draw hands js/basemap.js: labels, legend, frame, what stays in view.
    const show = window.Dateline.show;
    window.Dateline.show = (s) => { window.dlShown = s; show(s); };
}"""
# What the reader sees and the app gets: every keyed object's tooltip, the legend, the labels.
DRAWN = """() => {
    const tips = {};
    Object.entries(window.Dateline.byKey).forEach(([k, l]) => {
        const t = l.getTooltip();
        tips[k] = t ? t.getContent() : null;
    });
    const legend = Array.from(document.querySelectorAll('.dl-legend .dl-grid span'),
                              (s) => s.textContent);
    const labels = window.dlShown.labels.map((l) => [l.t, l.n, l.key]);
    const date = document.querySelector('[data-testid="map-date"]').textContent;
    return {tips, legend, labels, last: window.Dateline.last, date, png: window.Dateline.pngWindow,
            shown: window.dlShown};
}"""


def _page(browser):
    context = new_context(browser, viewport={"width": 900, "height": 700})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_content("<html><head></head><body style='margin:0'></body></html>")
    for css in STYLES:
        page.add_style_tag(path=str(css))
    for js in SCRIPTS:
        page.add_script_tag(path=str(js))
    page.evaluate(START)
    return context, page, errors


def _state(data, start: date, end: date, selected: str | None = None) -> dict:
    return {
        "data": data,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "categories": None,
        "actors": [],
        "layers": LAYERS,
        "selected": selected,
        "fit_first": True,
        "follow": None,
    }


def _draw(browser, state: dict) -> dict:
    context, page, errors = _page(browser)
    try:
        page.evaluate("(s) => window.Dateline.draw(s)", state)
        got = page.evaluate(DRAWN)
    finally:
        context.close()
    assert not errors, errors
    return got


WINDOWS = [
    pytest.param(date(2017, 7, 21), date(2017, 9, 14), None, id="whole-story"),
    pytest.param(date(2017, 8, 19), date(2017, 8, 31), None, id="convoy-and-enclave"),
    pytest.param(date(2017, 8, 19), date(2017, 8, 31), "place:baalbek", id="selected-place"),
    pytest.param(date(2017, 8, 19), date(2017, 8, 24), "front:lb-2017-08-22", id="front"),
    pytest.param(date(2017, 7, 1), date(2017, 7, 2), None, id="empty-window"),
]


@pytest.mark.parametrize(("start", "end", "selected"), WINDOWS)
def test_the_bundled_story_draws_alike_from_either_payload(browser, start, end, selected):
    story = load_story(BUNDLED)
    window = filter_events(story.events, start, end)
    whole = _draw(browser, _state(story_payload(story), start, end, selected))
    windowed = window_payload(story, window, end, selected=selected)
    assert windowed["scope"] == "window"  # a few events: drawn wherever they are
    part = _draw(browser, _state(windowed, start, end, selected))
    assert (
        part["last"] == whole["last"] == {"events": len(window), "places": part["last"]["places"]}
    )
    assert part["legend"] == whole["legend"]
    assert part["date"] == whole["date"]
    # The "Download PNG" picture is captioned with the window, whichever payload drew it.
    assert part["png"] == whole["png"] == {"start": start.isoformat(), "end": end.isoformat()}
    # Every object the window draws is drawn alike from the whole story; the whole story also
    # dots the places the window has no reason to send (none here: they are all in view).
    assert part["tips"] == {k: whole["tips"][k] for k in part["tips"]}
    events = {k for k in part["tips"] if k.startswith(("convoy:", "front:"))}
    assert events == {k for k in whole["tips"] if k.startswith(("convoy:", "front:"))}
    assert [lab for lab in part["labels"] if lab[0] != "place"] == [
        lab for lab in whole["labels"] if lab[0] != "place" and lab[2] in part["tips"]
    ]


FAMILY_LABELS = [
    "fighting",
    "strikes",
    "deals and handovers",
    "movement",
    "speeches and statements",
]


@pytest.mark.parametrize("kind", ["whole", "window"])
def test_the_view_state_follows_the_window(browser, kind):
    story = load_story(MINI)

    def drawn(start: str, end: str, selected: str | None = None) -> dict:
        a, b = date.fromisoformat(start), date.fromisoformat(end)
        if kind == "whole":
            data = story_payload(story)
        else:
            data = window_payload(story, filter_events(story.events, a, b), b, selected=selected)
        return _draw(browser, _state(data, a, b, selected))

    whole = drawn("2017-08-01", "2017-08-31")
    # offensive; airstrike; ceasefire; evacuation; speech and celebration: each family once, in
    # the style table's order, then the convoy (the mini story has no [words]: the defaults).
    assert whole["legend"][:5] == FAMILY_LABELS
    assert "convoy position" in whole["legend"]
    early = drawn("2017-08-01", "2017-08-03")
    assert [lab[1] for lab in early["labels"] if lab[0] == "story"] == ["Arsal"]
    assert early["date"] == "As of 3 Aug 2017"
    assert not any("convoy" in row for row in early["legend"])
    late = drawn("2017-08-28", "2017-08-31")
    assert "convoy position" in late["legend"]
    # The frame holds the window's events and the convoy's position on the last day.
    (south, west), (north, east) = late["shown"]["fit"]
    assert south <= 34.00583 <= north and west <= 36.21806 <= east  # Baalbek
    chosen = drawn("2017-08-01", "2017-08-03", selected="place:beirut")
    assert chosen["shown"]["focus"] == [33.89332, 35.50157]
    assert chosen["shown"]["keep"][0] == [33.89332, 35.50157]
    assert chosen["labels"][0] == ["story dl-label-selected", "Beirut", "place:beirut"]


@pytest.fixture(scope="module")
def thousand(tmp_path_factory):
    stories = tmp_path_factory.mktemp("parity-stories")
    return load_story(generate_story(stories, 1000, story_id="synthetic-1000"))


def test_a_big_window_cut_to_the_view_agrees_with_the_whole_story(browser, thousand):
    story = thousand
    assert needs_window(len(story.events), len(story.places), limit=500)
    assert not needs_window(len(story.events), len(story.places))
    view = scale.Viewport(8, 33.0, 35.5, 34.5, 37.5)
    index = scale.PlaceIndex.of(story.events, story.places)
    data = window_payload(story, story.events, story.end, viewport=view, index=index)
    assert data["scope"] == "view" and not data["clusters"]
    whole = _draw(browser, _state(story_payload(story), story.start, story.end))
    part = _draw(browser, _state(data, story.start, story.end))
    assert part["legend"] == whole["legend"]
    pins = [k for k in part["tips"] if k.startswith("place:")]
    assert pins and all(part["tips"][k] == whole["tips"][k] for k in pins)
    story_labels = {lab[2]: lab for lab in whole["labels"] if lab[0] in ("story", "area")}
    for lab in part["labels"]:
        if lab[0] in ("story", "area"):
            assert story_labels[lab[2]] == lab
    assert part["last"]["events"] == sum(r[1] for r in data["summary"])


def test_a_crowded_view_draws_grid_clusters_that_zoom_in(browser, thousand, monkeypatch):
    monkeypatch.setattr(scale, "POINT_LIMIT", 20)
    story = thousand
    view = scale.Viewport(6, 29.0, 33.0, 38.0, 44.0)
    data = window_payload(story, story.events, story.end, viewport=view)
    assert data["clusters"]
    context, page, errors = _page(browser)
    page.evaluate("(s) => window.Dateline.draw(s)", _state(data, story.start, story.end))
    aggs = page.locator(".dl-agg")
    keys = aggs.evaluate_all("(els) => els.map((e) => e.dataset.key)")
    assert sorted(keys) == sorted(c["key"] for c in data["clusters"])
    assert page.evaluate("window.Dateline.last.events") == len(story.events)
    zoom = page.evaluate("window.Dateline.map.getZoom()")
    aggs.first.click()
    page.wait_for_function(f"window.Dateline.map.getZoom() > {zoom}")
    context.close()
    assert not errors, errors


def test_five_thousand_events_arrive_whole_and_cluster(browser, tmp_path: Path):
    story = load_story(generate_story(tmp_path, 5000, story_id="synthetic-5000"))
    assert not needs_window(len(story.events), len(story.places))
    context, page, errors = _page(browser)
    took = page.evaluate(
        """(s) => { const t0 = performance.now(); window.Dateline.draw(s);
                    return performance.now() - t0; }""",
        _state(story_payload(story), story.start, story.end),
    )
    pins = page.locator(".dl-pin").count()
    clusters = page.locator(".dl-pin.dl-cluster").count()
    context.close()
    assert not errors, errors
    print(f"5,000 events drawn in {took:.0f} ms: {pins} pins, {clusters} of them clusters")
    assert clusters > 0 and pins < story.events["place_id"].nunique()
