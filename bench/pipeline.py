"""The map pipeline, Dateline's against the naive folium approach's, timed in a child process.

``bench/run.py --worker ours|naive ...`` runs one of these and prints its figures as JSON.
"""

from __future__ import annotations

import json
import time
from datetime import date, timedelta
from pathlib import Path

from bench.measure import peak_mb, timed
from geo.atomic import atomic_write_text
from geo.map import scale

ROOT = Path(__file__).resolve().parents[1]


def st_folium_args(fmap, groups, big: bool) -> dict:
    """What st_folium sends the browser for this map, called as app.py calls it."""
    import folium
    import streamlit_folium

    sent: dict = {}
    real = streamlit_folium._component_func
    streamlit_folium._component_func = lambda **kw: sent.update(kw) or {}
    try:
        streamlit_folium.st_folium(
            fmap,
            key="bench",
            feature_group_to_add=groups,
            returned_objects=["last_object_clicked_tooltip", *(["zoom", "bounds"] if big else [])],
            layer_control=folium.LayerControl(collapsed=True),
            use_container_width=True,
            height=620,
        )
    finally:
        streamlit_folium._component_func = real
    sent.pop("on_change", None)
    return sent


def windows(start: date, end: date) -> dict[str, tuple[date, date]]:
    return {"month": (max(start, end - timedelta(days=29)), end), "all": (start, end)}


def worker_ours(path: Path, repeats: int) -> dict:
    """Load, one-month filter, and map build + payload for one month and for the whole span.

    Every story is drawn by the map's script: a small one from its whole payload (built once
    per story version, ``payload``), a big one from a window payload built on each rerun."""
    from geo.map.layers import base_map, browser_layers, load_basemap
    from geo.map.payload import payload_json
    from geo.map.window import needs_window, window_payload
    from geo.story.load import load_story
    from geo.story.timeline import filter_events

    out: dict = {}
    out["load"], story = timed(lambda: load_story(path), max(1, repeats // 2))
    big = needs_window(len(story.events), len(story.places))
    t0 = time.perf_counter()
    index = scale.PlaceIndex.of(story.events, story.places) if big else None
    out["index"] = time.perf_counter() - t0
    if not big:
        out["payload"], (text, _digest) = timed(lambda: payload_json(story), repeats)
        out["payload_bytes"] = len(text.encode())
    basemap = load_basemap(ROOT / "data" / "basemap" / "countries.geojson")
    categories = sorted(story.events["category"].unique())
    layers = {"events", "places", "convoy", "fronts"}

    def build(events, a, b):
        fmap = base_map(story, basemap)
        data = window_payload(story, events, b, index=index) if big else "/story-data/x.json"
        groups = browser_layers(data, a, b, None, [], layers)
        return st_folium_args(fmap, groups, big)

    # Warm-up: folium and jinja compile templates on first use, as on the app's first run.
    build(story.events.head(300), story.start, story.end)
    for name, (a, b) in windows(story.start, story.end).items():
        out[f"filter_{name}"], events = timed(
            lambda a=a, b=b: filter_events(story.events, a, b, categories, []), repeats * 2
        )
        out[f"events_{name}"] = len(events)
        out[f"map_{name}"], sent = timed(lambda e=events, a=a, b=b: build(e, a, b), repeats)
        out[f"bytes_{name}"] = len(json.dumps(sent))
        out[f"layers_bytes_{name}"] = len(sent["feature_group"] or "")
        out[f"clusters_{name}"] = (sent["feature_group"] or "").count('"key":"cluster:')
    out["peak_mb"] = peak_mb()
    return out


_JQUERY_STUB = """<script>window.$ = function(html) {
    var t = document.createElement('template');
    t.innerHTML = html.trim();
    return [t.content.firstChild];
};</script>"""


def worker_naive(path: Path, repeats: int, page_out: str) -> dict:
    """The same figures for bench/naive.py; the whole-span page is saved for the browser."""
    from bench import naive
    from geo.map.assets import localize
    from geo.story.load import load_story

    span = load_story(path).meta["span"]  # only for the dates: not part of the naive timing
    out: dict = {}
    out["load"], events = timed(lambda: naive.load(path), max(1, repeats // 2))
    naive.render(naive.build_map(events.head(3)))  # warm-up, as for Dateline
    for name, (a, b) in windows(span["start"], span["end"]).items():
        out[f"filter_{name}"], win = timed(lambda a=a, b=b: naive.window(events, a, b), repeats * 2)
        out[f"events_{name}"] = len(win)
        if name == "all" and out.get("map_month") is None:
            out["map_all"] = None  # the month already did not finish: the year will not either
            break
        out[f"map_{name}"], html = timed(
            lambda win=win: naive.render(naive.build_map(win)), repeats
        )
        out[f"bytes_{name}"] = len(html) if html else None
        if name == "all" and html and page_out:
            # The same page with Leaflet from this machine, so the browser can draw it offline;
            # folium's popups call jQuery's $(html)[0], which has no local copy: a small stand-in.
            page = naive.render(localize(naive.build_map(win)))
            atomic_write_text(page_out, page.replace("<head>", "<head>" + _JQUERY_STUB, 1))
    out["peak_mb"] = peak_mb()
    return out
