"""Folium map builders: pure functions from a story's DataFrames to map layers.

Every layer is one ``folium.GeoJson`` whose features carry ready-made, HTML-escaped tooltip and
popup strings; tooltips end with a key such as ``[place:baalbek]`` so a click can be traced back
to what was clicked even when several things share a point.
"""

from __future__ import annotations

import json
import math
import re
from datetime import date
from pathlib import Path

import folium
import numpy as np
import pandas as pd
from branca.element import MacroElement
from folium.plugins import MarkerCluster
from folium.utilities import JsCode
from jinja2 import Template

from geo.map import scale
from geo.map.assets import load_js, localize
from geo.story.load import FIGURES, Story
from geo.story.timeline import (
    convoy_current,
    convoy_distance_km,
    convoy_paths,
    convoy_until,
    fronts_on,
)

# Every value that reaches map HTML goes through this one escape (None, numbers and text alike).
from geo.text import html_text as escape

CATEGORY_COLOURS = {
    "offensive": "#d62728",
    "battle": "#8c1c13",
    "airstrike": "#ff7f0e",
    "casualties": "#4d4d4d",
    "ceasefire": "#2ca02c",
    "convoy": "#1f77b4",
    "evacuation": "#17becf",
    "handover": "#9467bd",
    "prisoner-swap": "#6a3d9a",
    "captives": "#e377c2",
    "remains-found": "#8c564b",
    "funeral": "#393b79",
    "speech": "#bcbd22",
    "celebration": "#e6a700",
    "statement": "#999999",
}
SIDE_STYLE = {
    "LB": {"color": "#b3261e", "fillColor": "#e0675f", "label": "Lebanese side"},
    "SY": {"color": "#6b2c91", "fillColor": "#a36cc4", "label": "Syrian side"},
}
CONVOY_COLOUR = "#0b4f8a"
# Places less certain than this get a translucent circle of their radius.
LARGE_RADIUS_M = 2000
REGION_RADIUS_M = 50_000
AREA_KINDS = ("region", "area", "border", "country", "valley")
_KEY = re.compile(r"\[(place|convoy|front):([a-z0-9-]+)\]")


def parse_key(text: str | None) -> tuple[str, str] | None:
    """The (kind, id) named by a clicked object's tooltip, or None."""
    if not text:
        return None
    found = _KEY.findall(text)
    return found[-1] if found else None


def fmt_day(day: pd.Timestamp | date) -> str:
    return pd.Timestamp(day).strftime("%-d %b %Y")


def fmt_span(first: pd.Timestamp, last: pd.Timestamp) -> str:
    if first == last:
        return fmt_day(first)
    if first.year == last.year:
        return f"{first:%-d %b} – {fmt_day(last)}"
    return f"{fmt_day(first)} – {fmt_day(last)}"


def figures_text(row) -> str:
    """'308 militants, 331 civilians' from an event's figure columns."""
    parts = []
    for col in FIGURES:
        val = row.get(col) if hasattr(row, "get") else getattr(row, col, None)
        if val is not None and not pd.isna(val):
            label = "km²" if col == "area_km2" else col
            parts.append(f"{int(val):,} {label}")
    return ", ".join(parts)


def _event_html(ev, sources: dict[str, str]) -> str:
    colour = CATEGORY_COLOURS.get(ev["category"], "#666")
    figs = figures_text(ev)
    src = sources.get(ev["source"], ev["source"])
    if ev.get("source_detail"):
        src = f"{src}, {ev['source_detail']}"
    conf = ev["confidence"]
    if ev.get("confidence_note"):
        conf = f"{conf}: {ev['confidence_note']}"
    when = fmt_span(ev["date"], ev["end_date"] if pd.notna(ev["end_date"]) else ev["date"])
    return (
        '<div class="dl-ev">'
        f'<span class="dl-chip" style="background:{colour}">{escape(ev["category"])}</span> '
        f"<b>{escape(when)}</b><br>{escape(ev['summary'])}"
        + (f"<br><i>{escape(figs)}</i>" if figs else "")
        + f'<br><span class="dl-src">Source: {escape(src)} · {escape(conf)}</span></div>'
    )


def _collection(features: list[dict]) -> dict:
    return {"type": "FeatureCollection", "features": features}


def _point(lat: float, lon: float, props: dict) -> dict:
    return {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [round(lon, 5), round(lat, 5)]},
        "properties": props,
    }


_BIND = JsCode(load_js("bind_feature"))
_DIV_ICON = JsCode(load_js("div_icon"))
_CLUSTER_ICON = load_js("cluster_icon")
_CIRCLE = JsCode(load_js("circle"))


def _layer(features: list[dict], name: str, point_to_layer: JsCode | None = None) -> folium.GeoJson:
    kwargs = {"point_to_layer": point_to_layer} if point_to_layer else {}
    return folium.GeoJson(_collection(features), name=name, on_each_feature=_BIND, **kwargs)


def events_layer(
    events: pd.DataFrame,
    sources: dict[str, str],
    *,
    places: pd.DataFrame | None = None,
    viewport: scale.Viewport | None = None,
    codes: np.ndarray | None = None,
) -> folium.FeatureGroup:
    """One marker per place with events: coloured by its latest event, numbered when several.

    Given ``places`` and a window of more than ``scale.DETAIL_LIMIT`` events, only what is in
    ``viewport`` is drawn, as light markers or grid clusters (see ``scaled_events_layer``).
    """
    if places is not None and len(events) > scale.DETAIL_LIMIT:
        return scaled_events_layer(events, places, viewport, codes)
    group = folium.FeatureGroup(name="Events")
    features = []
    # Plain dicts, not per-group DataFrames: pandas' per-row overhead was most of a rerun.
    by_place: dict[str, list[dict]] = {}
    for rec in events.sort_values("date", kind="stable").to_dict("records"):
        by_place.setdefault(rec["place_id"], []).append(rec)
    for place_id, evs in by_place.items():
        latest = evs[-1]
        n = len(evs)
        colour = CATEGORY_COLOURS.get(latest["category"], "#666")
        size = 22 if n > 1 else 16
        label = str(n) if n > 1 else ""
        icon = (
            f'<div class="dl-pin" data-key="place:{escape(place_id)}" style="background:{colour};'
            f"width:{size}px;height:{size}px;"
            f'line-height:{size}px">{label}</div>'
        )
        last = max(e["date"] if pd.isna(e["end_date"]) else e["end_date"] for e in evs)
        tip = (
            f"<b>{escape(latest['place_name'])}</b> · {escape(fmt_span(evs[0]['date'], last))}"
            f" · {n} event{'s' if n > 1 else ''} [place:{escape(place_id)}]"
        )
        shown = evs[::-1][:12]
        popup = f"<h4>{escape(latest['place_name'])}</h4>" + "".join(
            _event_html(ev, sources) for ev in shown
        )
        if n > len(shown):
            popup += f"<p>+ {n - len(shown)} earlier events: see the details panel.</p>"
        features.append(
            _point(
                latest["lat"],
                latest["lon"],
                {"tip": tip, "popup": popup, "icon": icon, "size": size, "count": n},
            )
        )
    # Places a few km apart overlap at the story's zoom: merge only markers that touch, and
    # spread them out again on click at the deepest zoom.
    cluster = MarkerCluster(
        name="Events",
        control=False,
        options={
            "maxClusterRadius": 26,
            "showCoverageOnHover": False,
            "spiderfyOnMaxZoom": True,
            "disableClusteringAtZoom": 12,
        },
        icon_create_function=_CLUSTER_ICON,
    ).add_to(group)
    _layer(features, "Events", _DIV_ICON).add_to(cluster)
    return group


# Light markers for big windows: circles on one shared canvas instead of a DOM node each.
_CANVAS_DOT = JsCode(load_js("canvas_dot"))
# A grid cluster shows its count; a click zooms to the places inside it (the app re-aggregates).
_GRID_CLUSTER = JsCode(load_js("grid_cluster"))


def _cluster_colour(n: int) -> str:
    return "#3182bd" if n < 100 else "#e6550d" if n < 1000 else "#a50f15"


def scaled_events_layer(
    events: pd.DataFrame,
    places: pd.DataFrame,
    viewport: scale.Viewport | None = None,
    codes: np.ndarray | None = None,
) -> folium.FeatureGroup:
    """A big window's events in ``viewport``: one dot per place, or grid clusters when crowded.

    ``codes`` are story.events' place rows (``scale.place_codes``), cached by the caller.
    """
    group = folium.FeatureGroup(name="Events")
    lat = places["lat"].to_numpy(dtype=float, na_value=np.nan)
    lon = places["lon"].to_numpy(dtype=float, na_value=np.nan)
    window_codes = scale.window_codes(events, places, codes)
    counts = scale.place_counts(window_codes, len(places))
    viewport = viewport or scale.default_viewport(places)
    plan = scale.plan_layer(lat, lon, counts, viewport)
    dots = []
    summary = scale.place_summary(events, window_codes, plan.places)
    ids, names = places["id"].to_numpy(), places["name"].to_numpy()
    for row, s in zip(summary.index, summary.itertuples(index=False), strict=True):
        n = int(s.events)
        tip = (
            f"<b>{escape(names[row])}</b> · "
            f"{escape(fmt_span(pd.Timestamp(s.first), pd.Timestamp(s.last)))}"
            f" · {n} event{'s' if n > 1 else ''} [place:{escape(ids[row])}]"
        )
        props = {"tip": tip, "n": n, "r": round(4 + 2 * math.log10(n), 1)}
        props["c"] = CATEGORY_COLOURS.get(s.category, "#666")
        dots.append(_point(lat[row], lon[row], props))
    clusters = []
    zoom_to = min(plan.zoom + 3, scale.MAX_ZOOM)
    for c in plan.clusters.itertuples(index=False):
        n = int(c.events)
        props = {
            "tip": f"{n:,} events at {c.points:,} places · click to zoom in [cluster:{c.key}]",
            "key": f"cluster:{c.key}",
            "n": n,
            "label": scale.short_count(n),
            "size": round(20 + 4 * math.log10(n)),
            "c": _cluster_colour(n),
            "bounds": [[c.south, c.west], [c.north, c.east]],
            "zoom_to": zoom_to,
        }
        clusters.append(_point(c.lat, c.lon, props))
    if clusters:
        _layer(clusters, "Event clusters", _GRID_CLUSTER).add_to(group)
    _layer(dots, "Events", _CANVAS_DOT).add_to(group)
    return group


def places_layer(places: pd.DataFrame, circled: set[str] | None = None) -> folium.FeatureGroup:
    """Every place as a small dot, and a translucent circle where its radius is large.

    ``circled`` limits the circles to those places (the ones with events on the map), so a
    dozen overlapping guesses do not hide the front lines; None circles every uncertain place.
    """
    group = folium.FeatureGroup(name="Places")
    uncertain = places[places["radius_m"] >= LARGE_RADIUS_M]
    if circled is not None:
        uncertain = uncertain[uncertain["id"].isin(circled)]
    for p in uncertain.itertuples():
        # A region is outlined only (its radius is an extent, not a doubt about a point), and so
        # is a huge doubt: filled, they would grey out the map.
        folium.Circle(
            (p.lat, p.lon),
            radius=int(p.radius_m),
            color="#5a6b7b",
            weight=1,
            opacity=0.6,
            dash_array="4 4",
            fill=bool(p.radius_m < REGION_RADIUS_M and p.kind not in AREA_KINDS),
            fill_opacity=0.07,
            interactive=False,
        ).add_to(group)
    features = []
    for p in places.itertuples():
        radius = f"± {p.radius_m / 1000:g} km" if p.radius_m >= 1000 else f"± {p.radius_m} m"
        tip = f"{escape(p.name)} <small>({escape(p.kind)}, {radius})</small> [place:{escape(p.id)}]"
        style = {
            "radius": 3,
            "color": "#37474f",
            "weight": 1,
            "fillColor": "#fff",
            "fillOpacity": 1,
        }
        features.append(_point(p.lat, p.lon, {"tip": tip, "style": style}))
    _layer(features, "Place dots", _CIRCLE).add_to(group)
    return group


def convoy_layer(convoy: pd.DataFrame, day: date, sources: dict[str, str]) -> folium.FeatureGroup:
    """The convoy's path up to ``day``, its daily positions and where it is on ``day``."""
    group = folium.FeatureGroup(name="Convoy")
    seen = convoy_until(convoy, day)
    if seen.empty:
        return group
    paths = convoy_paths(convoy, day)
    km = convoy_distance_km(convoy, day)
    for name, path in paths.items():
        if len(path) > 1:
            folium.PolyLine(
                path,
                color=CONVOY_COLOUR,
                weight=4,
                opacity=0.8,
                dash_array=None if name == "all" else "8 6",
                tooltip=f"Convoy route ({escape(name)}) · {km[name]:.0f} km so far",
            ).add_to(group)
    for r in seen[seen["radius_m"] >= LARGE_RADIUS_M].itertuples():
        folium.Circle(
            (r.lat, r.lon),
            radius=int(r.radius_m),
            color=CONVOY_COLOUR,
            weight=1,
            fill=True,
            fill_opacity=0.06,
            interactive=False,
        ).add_to(group)
    current = set(convoy_current(convoy, day)["id"])
    features = []
    for r in seen.itertuples():
        is_now = r.id in current
        where = r.place_name or f"{r.lat:.2f}, {r.lon:.2f}"
        dist = km.get(r.group, 0.0)
        tip = (
            f"Convoy{'' if r.group == 'all' else ' (' + escape(r.group) + ')'} · "
            f"{escape(fmt_day(r.date))} · {escape(r.status)} · {escape(where)} "
            f"[convoy:{escape(r.id)}]"
        )
        popup = (
            f"<h4>Convoy · {escape(fmt_day(r.date))}</h4>"
            f"<b>{escape(r.status)}</b> near {escape(where)} (± {r.radius_m / 1000:g} km)<br>"
            f"{escape(r.note)}<br>"
            + (
                f"Distance travelled by {escape(fmt_day(day))}: <b>{dist:.0f} km</b> (geodesic)<br>"
                if is_now
                else ""
            )
            + f'<span class="dl-src">Source: {escape(sources.get(r.source, r.source))}</span>'
        )
        halted = r.status in ("halted", "split")
        style = {
            "radius": 9 if is_now else 5,
            "color": "#ffffff" if is_now else CONVOY_COLOUR,
            "weight": 3 if is_now else 2,
            "fillColor": "#c62828" if halted else CONVOY_COLOUR,
            "fillOpacity": 1 if is_now else 0.7,
        }
        features.append(_point(r.lat, r.lon, {"tip": tip, "popup": popup, "style": style}))
    _layer(features, "Convoy positions", _CIRCLE).add_to(group)
    return group


def reported_text(km2) -> str:
    """'20 km²', or a plain statement that no source gives a figure."""
    return "no published figure" if km2 is None or pd.isna(km2) else f"{km2:g} km²"


def fronts_layer(fronts: pd.DataFrame, day: date, sources: dict[str, str]) -> folium.FeatureGroup:
    """The ISIS-held enclave on each side of the border as drawn for ``day``."""
    group = folium.FeatureGroup(name="Fronts")
    features = []
    for f in fronts_on(fronts, day).itertuples():
        side = SIDE_STYLE.get(f.side, SIDE_STYLE["LB"])
        span = fmt_span(f.valid_from, f.valid_to)
        reported = reported_text(f.reported_km2)
        tip = (
            f"ISIS-held enclave, {side['label']} · {escape(span)} · reported {reported}, "
            f"drawn {f.drawn_km2:g} km² · approximate outline [front:{escape(f.id)}]"
        )
        popup = (
            f"<h4>ISIS-held enclave, {side['label']}</h4><b>{escape(span)}</b><br>"
            f"Reported: {reported} · drawn outline: {f.drawn_km2:g} km²<br>"
            f"{escape(f.note)}<br><i>Approximate outline: no public map of the enclave "
            f"exists; the shape is a sketch sized to the reported area.</i><br>"
            f'<span class="dl-src">Source: {escape(sources.get(f.source, f.source))}</span>'
        )
        style = {
            "color": side["color"],
            "weight": 2,
            "dashArray": "6 4",
            "fillColor": side["fillColor"],
            "fillOpacity": 0.35,
        }
        features.append(
            {
                "type": "Feature",
                "geometry": f.geometry,
                "properties": {"tip": tip, "popup": popup, "style": style},
            }
        )
    if features:
        _layer(features, "Enclave").add_to(group)
    return group


_CSS = """
.leaflet-container { background: #dbe7f0; font: 13px/1.35 system-ui, sans-serif; }
.dl-marker { background: none; border: none; }
.dl-pin { border-radius: 50%; border: 2px solid #fff; box-shadow: 0 0 0 1px rgba(0,0,0,.45);
          color: #fff; font-weight: 700; font-size: 11px; text-align: center;
          box-sizing: content-box; }
.dl-cluster { background: #263238; border-style: double; border-width: 3px; }
.dl-ev { margin: 0 0 .5em; }
.dl-chip { color: #fff; border-radius: 3px; padding: 0 4px; font-size: 11px; }
.dl-src { color: #555; font-size: 11px; }
.leaflet-popup-content h4 { margin: 0 0 .4em; font-size: 14px; }
.dl-legend { background: rgba(255,255,255,.92); padding: 6px 8px; border-radius: 4px;
             box-shadow: 0 1px 4px rgba(0,0,0,.3); font-size: 12px; line-height: 1.5;
             max-height: 300px; overflow-y: auto; }
.dl-legend summary { cursor: pointer; }
.dl-grid { display: grid; grid-template-columns: auto auto; column-gap: 10px; }
.dl-legend i { display: inline-block; width: 11px; height: 11px; border-radius: 50%;
               margin-right: 5px; vertical-align: -1px; border: 1px solid #fff;
               box-shadow: 0 0 0 1px rgba(0,0,0,.35); }
.dl-legend .sq { border-radius: 2px; }
.dl-fs { background: #fff; width: 30px; height: 30px; line-height: 30px; text-align: center;
         cursor: pointer; font-size: 16px; }
"""


class _Control(MacroElement):
    """A Leaflet control with fixed HTML (legend, fullscreen button) and the map's CSS."""

    _template = Template(
        """
        {% macro header(this, kwargs) %}<style>{{ this.css }}</style>{% endmacro %}
        {% macro script(this, kwargs) %}
        (function() {
            var ctl = L.control({position: {{ this.position|tojson }}});
            ctl.onAdd = function(map) {
                var div = L.DomUtil.create('div', {{ this.css_class|tojson }});
                div.innerHTML = {{ this.html|tojson }};
                L.DomEvent.disableClickPropagation(div);
                L.DomEvent.disableScrollPropagation(div);
                {{ this.on_add }}
                return div;
            };
            ctl.addTo({{ this._parent.get_name() }});
        })();
        {% endmacro %}
        """
    )

    def __init__(self, html: str, position: str, css_class: str, css: str = "", on_add: str = ""):
        super().__init__()
        self._name = "DatelineControl"
        self.html, self.position, self.css_class = html, position, css_class
        self.css, self.on_add = css, on_add


# Open on a roomy map; folded on a small one, where it would hide the enclave.
_LEGEND_OPEN_WHEN_ROOMY = load_js("legend_open")


def legend(categories: list[str], convoy: bool = True, fronts: bool = True) -> _Control:
    """The legend: a colour per event category, and the convoy and enclave when there are any."""
    rows = [
        f'<i style="background:{CATEGORY_COLOURS.get(c, "#666")}"></i>{escape(c)}'
        for c in categories
    ]
    if convoy:
        rows.append(f'<i style="background:{CONVOY_COLOUR}"></i>convoy position (red: halted)')
    if fronts:
        rows += [
            f'<i class="sq" style="background:{s["fillColor"]}"></i>ISIS-held, {s["label"]}'
            for s in SIDE_STYLE.values()
        ]
    rows.append('<i style="background:#eef2f5;border:1px dashed #5a6b7b"></i>place uncertainty')
    html = (
        "<details><summary><b>Legend</b></summary><div class='dl-grid'>"
        + "".join(f"<span>{r}</span>" for r in rows)
        + "</div></details>"
    )
    return _Control(html, "bottomright", "dl-legend", css=_CSS, on_add=_LEGEND_OPEN_WHEN_ROOMY)


_FULLSCREEN_SVG = (
    '<svg width="16" height="16" viewBox="0 0 16 16" style="vertical-align:-3px" fill="none" '
    'stroke="#333" stroke-width="2"><path d="M1 6V1h5M10 1h5v5M15 10v5h-5M6 15H1v-5"/></svg>'
)


def fullscreen_button() -> _Control:
    """A button that shows the map full screen (Leaflet's own fullscreen plugin needs a CDN)."""
    on_add = load_js("fullscreen")
    return _Control(_FULLSCREEN_SVG, "topleft", "leaflet-bar dl-fs", on_add=on_add)


ONLINE_TILES = (
    ("OpenStreetMap", "OpenStreetMap"),
    ("Light (CARTO)", "CartoDB positron"),
    (
        "Satellite (Esri)",
        "https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}",
    ),
)
_ESRI_ATTR = "Tiles © Esri — Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community"


def base_map(
    story: Story, basemap: dict | None, *, online_tiles: bool = False, height: int = 620
) -> folium.Map:
    """The story's base map: offline country outlines, legend, scale, fullscreen; no markers."""
    p = story.places
    core = p[p["radius_m"] < REGION_RADIUS_M]
    if core.empty:  # a story of regions only: fit them all
        core = p
    bounds = [
        [float(core["lat"].min()), float(core["lon"].min())],
        [float(core["lat"].max()), float(core["lon"].max())],
    ]
    view = story.meta.get("map") or {}
    center = view.get("center") or [
        (bounds[0][0] + bounds[1][0]) / 2,
        (bounds[0][1] + bounds[1][1]) / 2,
    ]
    m = folium.Map(
        location=center,
        zoom_start=view.get("zoom", 8),
        tiles=None,
        control_scale=True,
        prefer_canvas=False,
        height=height,
        min_zoom=5,
        max_zoom=14,
    )
    # With no tile layer folium leaves these off the map, and marker clustering needs maxZoom.
    m.options.update(minZoom=5, maxZoom=14)
    if basemap is not None:
        folium.GeoJson(
            basemap,
            name="Country outlines (offline)",
            # No hover tooltip: it followed the mouse everywhere and covered the markers.
            style_function=lambda _f: {
                "color": "#8a8f98",
                "weight": 1.2,
                "fillColor": "#f6f3ec",
                "fillOpacity": 1,
            },
            overlay=False,
            control=True,
        ).add_to(m)
    if online_tiles:
        for name, tiles in ONLINE_TILES:
            attr = _ESRI_ATTR if tiles.startswith("https://server.arcgisonline") else None
            # Base layers, so one replaces the opaque outlines instead of hiding under them.
            folium.TileLayer(tiles, name=name, attr=attr, overlay=False).add_to(m)
    categories = sorted(set(story.events["category"].unique()), key=list(CATEGORY_COLOURS).index)
    legend(categories, not story.convoy.empty, not story.fronts.empty).add_to(m)
    fullscreen_button().add_to(m)
    if "zoom" not in view:
        m.fit_bounds(bounds, padding=(20, 20))
    return localize(m)


def load_basemap(path: Path) -> dict:
    """The bundled country outlines as a GeoJSON dict."""
    return json.loads(path.read_text(encoding="utf-8"))


def story_layers(
    story: Story,
    events: pd.DataFrame,
    day: date,
    layers: set[str] | frozenset[str] = frozenset({"events", "places", "convoy", "fronts"}),
    selected_place: str | None = None,
    *,
    viewport: scale.Viewport | None = None,
    codes: np.ndarray | None = None,
) -> list[folium.FeatureGroup]:
    """The feature groups drawn for a window ending on ``day``, bottom to top.

    A big story (``scale.needs_viewport``) draws only what is in ``viewport`` (st_folium's zoom
    and bounds; None: the opening view); ``codes`` are ``scale.place_codes`` of its events.
    """
    sources = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    big = scale.needs_viewport(len(story.events), len(story.places))
    if big:
        viewport = viewport or scale.default_viewport(story.places)
    out = []
    if "fronts" in layers:
        out.append(fronts_layer(story.fronts, day, sources))
    if "places" in layers:
        circled = set(events["place_id"].unique()) | ({selected_place} if selected_place else set())
        shown = scale.places_in_view(story.places, viewport) if big else story.places
        out.append(places_layer(shown, circled))
    if "convoy" in layers:
        out.append(convoy_layer(story.convoy, day, sources))
    if "events" in layers:
        more = {"places": story.places, "viewport": viewport, "codes": codes} if big else {}
        out.append(events_layer(events, sources, **more))
    return [localize(g) for g in out]


def standalone_html(story: Story, basemap: dict | None, events: pd.DataFrame, day: date) -> str:
    """The whole map as one HTML page (for benchmarks and inspection)."""
    m = base_map(story, basemap)
    for g in story_layers(story, events, day):
        g.add_to(m)
    return m.get_root().render()
