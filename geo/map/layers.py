"""Folium map builders: pure functions from a story's DataFrames to map layers.

Every layer is one ``folium.GeoJson`` whose features carry ready-made, HTML-escaped tooltip and
popup strings. A tooltip ends with a hidden key such as ``[place:baalbek]`` (st_folium reports the
clicked object's tooltip text), so a click is traced back to what was clicked even when several
things share a point; the same key is the object's ``data-key`` attribute in the page.
Each kind of object has its own Leaflet pane (see ``js/basemap.js``), which fixes the z-order:
basemap, uncertainty circles, enclave, convoy path, labels, event markers, convoy positions,
the selected object.
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
from branca.element import Element, MacroElement
from folium.elements import JSCSSMixin
from folium.plugins import MarkerCluster
from folium.utilities import JsCode
from jinja2 import Template
from shapely.geometry import shape

from geo.map import scale
from geo.map.assets import (
    LOCAL_CSS,
    LOCAL_JS,
    MAP_SCRIPTS,
    MAP_STYLES,
    bundle,
    load_css,
    load_js,
    localize,
    script_urls,
    style_urls,
)
from geo.map.png import PngButton, png_config
from geo.map.style import (
    CATEGORY_COLOURS,
    CONVOY_COLOUR,
    HALTED_COLOUR,
    SIDE_STYLE,
    families_of,
    family,
)

# Every value that reaches map HTML goes through this one escape (None, numbers and text alike).
from geo.names import html_text as escape
from geo.story.load import FIGURES, Story, source_names, story_words
from geo.story.timeline import (
    convoy_current,
    convoy_distance_km,
    convoy_paths,
    convoy_until,
    fronts_on,
)

# Places less certain than this get a translucent circle of their radius.
LARGE_RADIUS_M = 2000
REGION_RADIUS_M = 50_000
# Up to this many events the opening frame looks at which places have them (a set of ids);
# a bigger story frames on all its places, as before, at no cost per rerun.
FRAME_BY_EVENTS_LIMIT = 50_000
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
    src = source_names(ev["source"], sources)
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
_UNCERTAINTY = JsCode(load_js("uncertainty"))


def _layer(
    features: list[dict], name: str, point_to_layer: JsCode | None = None, **options
) -> folium.GeoJson:
    """One GeoJSON layer; ``options`` (``pane``, ``interactive``) go to Leaflet as they are."""
    kwargs = {"point_to_layer": point_to_layer} if point_to_layer else {}
    for f in features:
        # Keys are slugs once validated; escaped all the same, like every value in map HTML.
        if "key" in f["properties"]:
            f["properties"]["key"] = escape(f["properties"]["key"])
    return folium.GeoJson(
        _collection(features), name=name, on_each_feature=_BIND, **kwargs, **options
    )


def keyed_tip(html: str, key: str) -> str:
    """A tooltip's HTML with the object's key appended, hidden from the reader."""
    return f'{html}<span class="dl-key" hidden>[{escape(key)}]</span>'


def place_tip(p) -> str:
    """A place dot's tooltip: its name, kind and how uncertain its position is."""
    radius = f"± {p.radius_m / 1000:g} km" if p.radius_m >= 1000 else f"± {p.radius_m} m"
    return keyed_tip(
        f"{escape(p.name)} <small>({escape(p.kind)}, {radius})</small>", f"place:{p.id}"
    )


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
        fam = family(latest["category"])
        colour = fam.colour
        size = 22 if n > 1 else 18
        # One event: its family's symbol; several: how many (colour: the latest one's family).
        label = str(n) if n > 1 else fam.symbol
        icon = (
            f'<div class="dl-pin" style="background:{colour};'
            f"width:{size}px;height:{size}px;"
            f'line-height:{size}px">{label}</div>'
        )
        last = max(e["date"] if pd.isna(e["end_date"]) else e["end_date"] for e in evs)
        tip = (
            f"<b>{escape(latest['place_name'])}</b> · {escape(fmt_span(evs[0]['date'], last))}"
            f" · {n} event{'s' if n > 1 else ''}"
        )
        tip = keyed_tip(tip, f"place:{place_id}")
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
                {
                    "tip": tip,
                    "popup": popup,
                    "icon": icon,
                    "size": size,
                    "count": n,
                    "key": f"place:{place_id}",
                },
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
            f" · {n} event{'s' if n > 1 else ''}"
        )
        tip = keyed_tip(tip, f"place:{ids[row]}")
        props = {
            "key": f"place:{ids[row]}",
            "tip": tip,
            "n": n,
            "r": round(4 + 2 * math.log10(n), 1),
        }
        props["c"] = CATEGORY_COLOURS.get(s.category, "#666")
        dots.append(_point(lat[row], lon[row], props))
    clusters = []
    zoom_to = min(plan.zoom + 3, scale.MAX_ZOOM)
    for c in plan.clusters.itertuples(index=False):
        n = int(c.events)
        props = {
            "tip": keyed_tip(
                f"{n:,} events at {c.points:,} places · click to zoom in", f"cluster:{c.key}"
            ),
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


def places_layer(
    places: pd.DataFrame, circled: set[str] | None = None, selected: str | None = None
) -> folium.FeatureGroup:
    """Every place as a small dot; uncertainty circles only where they carry information.

    A place in ``circled`` (the ones with events on the map; None: every place) gets its circle,
    shown by the map's script only at zooms where it is a readable size; the ``selected`` place's
    is always shown, and a region is outlined only then. Circles never take clicks or hovers.
    """
    group = folium.FeatureGroup(name="Places")
    uncertain = places[places["radius_m"] >= LARGE_RADIUS_M]
    # Regions are outlined only when selected: their radius is an extent, and a dozen of them
    # would cover the map.
    wanted = ~uncertain["kind"].isin(AREA_KINDS) & (uncertain["radius_m"] < REGION_RADIUS_M)
    if circled is not None:
        wanted &= uncertain["id"].isin(circled)
    uncertain = uncertain[wanted | (uncertain["id"] == selected)]
    circles = []
    for p in uncertain.itertuples():
        # A region is outlined only (its radius is an extent, not a doubt about a point), and so
        # is a huge doubt: filled, they would grey out the map.
        fill = bool(p.radius_m < REGION_RADIUS_M and p.kind not in AREA_KINDS)
        style = {
            "radius": int(p.radius_m),
            "color": "#5a6b7b",
            "weight": 1.5 if p.id == selected else 1,
            "opacity": 0.8 if p.id == selected else 0.5,
            "dashArray": "4 4",
            "fill": fill,
            "fillOpacity": 0.07,
            "keep": p.id == selected,
        }
        circles.append(_point(p.lat, p.lon, {"style": style}))
    if circles:
        _layer(circles, "Uncertainty", _UNCERTAINTY, pane="dlCircles", interactive=False).add_to(
            group
        )
    features = []
    for p in places.itertuples():
        tip = place_tip(p)
        style = {
            "radius": 3,
            "color": "#37474f",
            "weight": 1,
            "fillColor": "#fff",
            "fillOpacity": 1,
        }
        features.append(_point(p.lat, p.lon, {"tip": tip, "style": style, "key": f"place:{p.id}"}))
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
    lines = []
    for name, path in paths.items():
        if len(path) > 1:
            style = {
                "color": CONVOY_COLOUR,
                "weight": 4,
                "opacity": 0.8,
                "dashArray": None if name == "all" else "8 6",
            }
            tip = f"Convoy route ({escape(name)}) · {km[name]:.0f} km so far"
            coords = [[round(lon, 5), round(lat, 5)] for lat, lon in path]
            lines.append(
                {
                    "type": "Feature",
                    "geometry": {"type": "LineString", "coordinates": coords},
                    "properties": {"tip": tip, "style": style},
                }
            )
    if lines:
        _layer(lines, "Convoy route", pane="dlConvoyPath").add_to(group)
    circles = [
        _point(
            r.lat,
            r.lon,
            {
                "style": {
                    "radius": int(r.radius_m),
                    "color": CONVOY_COLOUR,
                    "weight": 1,
                    "fill": True,
                    "fillOpacity": 0.06,
                }
            },
        )
        # Only where the convoy is on ``day``: twenty stacked circles along the road grey it out.
        for r in convoy_current(convoy, day).itertuples()
        if r.radius_m >= LARGE_RADIUS_M
    ]
    if circles:
        _layer(circles, "Convoy uncertainty", _UNCERTAINTY, interactive=False).add_to(group)
    current = set(convoy_current(convoy, day)["id"])
    features = []
    for r in seen.itertuples():
        is_now = r.id in current
        where = r.place_name or f"{r.lat:.2f}, {r.lon:.2f}"
        dist = km.get(r.group, 0.0)
        tip = (
            f"Convoy{'' if r.group == 'all' else ' (' + escape(r.group) + ')'} · "
            f"{escape(fmt_day(r.date))} · {escape(r.status)} · {escape(where)}"
        )
        tip = keyed_tip(tip, f"convoy:{r.id}")
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
            "fillColor": HALTED_COLOUR if halted else CONVOY_COLOUR,
            "fillOpacity": 1 if is_now else 0.7,
            "pane": "dlConvoy",
        }
        props = {"tip": tip, "popup": popup, "style": style, "key": f"convoy:{r.id}"}
        features.append(_point(r.lat, r.lon, props))
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
            f"drawn {f.drawn_km2:g} km² · approximate outline"
        )
        tip = keyed_tip(tip, f"front:{f.id}")
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
                "properties": {"tip": tip, "popup": popup, "style": style, "key": f"front:{f.id}"},
            }
        )
    if features:
        _layer(features, "Enclave", pane="dlFronts").add_to(group)
    return group


BASEMAP_URL = "/app/static/basemap/"


def script_json(value) -> str:
    """``value`` as JSON safe inside a <script>: no '<', '>' or '&' that could end the tag."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    for char, code in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026")):
        text = text.replace(char, code)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


class Basemap(JSCSSMixin, MacroElement):
    """The map's own script (``js/basemap.js`` and ``js/story.js``): offline basemap, labels,
    date box, framing, and the story drawn in the browser. Basemap files are fetched from
    ``url``. Served as static files by the app (cached by the browser, not re-sent on every
    rerun), or written into the page with ``inline`` (a published file, a test)."""

    _template = Template(
        """
        {% macro header(this, kwargs) %}{% if this.inline %}<style>{{ this.css }}</style>{% endif %}
        {% endmacro %}
        {% macro script(this, kwargs) %}
        {%- if this.inline %}{{ this.inline_js }}{% endif %}
        window.dlInitMap({{ this._parent.get_name() }}, {{ this.cfg_js }});
        {% endmacro %}
        """
    )

    def __init__(self, url: str | None, pinned: bool = False, inline: bool = False):
        super().__init__()
        self._name = "DatelineBasemap"
        self.cfg_js = script_json({"base": url, "pinned": pinned, "controls": True})
        self.inline = inline
        self.inline_js = "\n".join(load_js(n) for n in MAP_SCRIPTS) if inline else ""
        self.css = "\n".join(load_css(n) for n in MAP_STYLES) if inline else ""
        cluster = [("markerclusterjs", LOCAL_JS["markerclusterjs"])]
        self.default_js = cluster if inline else [*cluster, *script_urls()]
        self.default_css = [
            ("markerclustercss", LOCAL_CSS["markerclustercss"]),
            ("markerclusterdefaultcss", LOCAL_CSS["markerclusterdefaultcss"]),
            *(() if inline else style_urls()),
        ]


def legend_rows(
    categories, convoy: bool, fronts: set[str] | bool, words: dict[str, str], circles: bool = True
) -> list[dict]:
    """What the legend lists: the families of ``categories``, then the convoy and the enclave's
    sides (``fronts``: the sides drawn, or True for both) when they are on the map."""
    rows = [
        {"colour": f.colour, "symbol": f.symbol, "label": f.label} for f in families_of(categories)
    ]
    if convoy:
        rows.append({"colour": CONVOY_COLOUR, "label": f"{words['convoy']} position"})
        rows.append({"colour": HALTED_COLOUR, "label": f"{words['convoy']} halted"})
    sides = set(SIDE_STYLE) if fronts is True else set(fronts or ())
    for side, s in SIDE_STYLE.items():
        if side in sides:
            rows.append(
                {"colour": s["fillColor"], "shape": "sq", "label": f"{words['held']}, {s['label']}"}
            )
    if circles:
        rows.append({"colour": "#eef2f5", "dashed": True, "label": "place uncertainty"})
    return rows


# Online base layers, off unless the reader switches one on: (name, URL template, attribution).
ONLINE_TILES = {
    "osm": (
        "OpenStreetMap",
        "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        "© OpenStreetMap contributors",
    ),
    "topo": (
        "Terrain (OpenTopoMap)",
        "https://tile.opentopomap.org/{z}/{x}/{y}.png",
        "© OpenStreetMap contributors, SRTM · style © OpenTopoMap (CC-BY-SA)",
    ),
    "sat": (
        "Satellite (Esri)",
        "https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}",
        "Tiles © Esri — Source: Esri, Maxar, Earthstar Geographics, and the GIS User Community",
    ),
}


class _Map(folium.Map):
    """folium's map with its page header in one short line: streamlit_folium sends the header
    with every rerun, and folium's is 900 bytes of indented CSS (and an unused ``#map`` rule)."""

    def render(self, **kwargs):
        super().render(**kwargs)
        name = self.get_name()
        header = (
            '<meta name="viewport" content="width=device-width,initial-scale=1.0">'
            f"<style>#{name}{{position:relative;width:100%;height:{self.height[0]}{self.height[1]}}}"
            ".leaflet-container{font-size:1rem}"
            "html,body{width:100%;height:100%;margin:0;padding:0}</style>"
        )
        self.get_root().header.add_child(Element(header), name=name)


def base_map(
    story: Story,
    basemap: str | None = BASEMAP_URL,
    *,
    tiles: str | None = None,
    height: int = 620,
    pinned: tuple[int, tuple[float, float]] | None = None,
    inline: bool = False,
) -> folium.Map:
    """The story's base map: offline basemap and labels from ``basemap`` (a URL folder, None for
    none), legend, scale, fullscreen, the date box; no story objects. ``tiles`` names one of
    ``ONLINE_TILES`` to draw over the offline basemap; ``pinned`` (zoom, centre) is a view a link
    asked for, kept until the reader moves the map."""
    p = story.places
    if 0 < len(story.events) <= FRAME_BY_EVENTS_LIMIT:
        # Framed on where things happened: a place the text only mentions (the Vatican, where
        # the Pope prayed for Goma) would pull the frame across a continent.
        happened = p[p["id"].isin(set(story.events["place_id"]))]
        p = happened if not happened.empty else p
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
    zoom = view.get("zoom", 8)
    if pinned is not None:
        zoom, center = pinned[0], list(pinned[1])
    m = _Map(
        location=center,
        zoom_start=zoom,
        tiles=None,
        control_scale=True,
        prefer_canvas=False,
        height=height,
        min_zoom=2,
        max_zoom=14,
    )
    # With no tile layer folium leaves these off the map, and marker clustering needs maxZoom.
    m.options.update(minZoom=2, maxZoom=14)
    if basemap is not None:
        Basemap(basemap, pinned=pinned is not None, inline=inline).add_to(m)
    if tiles in ONLINE_TILES:
        name, url, attr = ONLINE_TILES[tiles]
        # Above the offline basemap (js/basemap.js puts the tile pane there): where tiles fail to
        # load, the offline land, borders and labels still show through.
        folium.TileLayer(url, name=name, attr=attr, max_zoom=19).add_to(m)
    PngButton(png_config(story.id, story.title, story.start, story.end), inline).add_to(m)
    if "zoom" not in view and pinned is None:
        m.fit_bounds(bounds, padding=(20, 20))
    return localize(m) if inline else bundle(localize(m))


def load_basemap(path: Path) -> dict:
    """The bundled country outlines as a GeoJSON dict."""
    return json.loads(path.read_text(encoding="utf-8"))


class ScriptState(MacroElement):
    """Hands one of the map's scripts its state after each rerun: ``window[function](state)``.
    A subclass names the function and the element."""

    function = ""
    element_name = ""
    _template = Template(
        """
        {% macro script(this, kwargs) %}
        if (window.{{ this.function }}) { window.{{ this.function }}({{ this.state_js }}); }
        {% endmacro %}
        """
    )

    def __init__(self, state: dict):
        super().__init__()
        self._name = self.element_name
        self.state = state
        self.state_js = script_json(state)


class StoryView(ScriptState):
    """Hands the map's script what it needs after each rerun: labels, obstacles, date, framing."""

    function, element_name = "dlShow", "DatelineView"


def _bounds(points: list[tuple[float, float]]) -> list[list[float]] | None:
    if not points:
        return None
    lats, lons = [p[0] for p in points], [p[1] for p in points]
    return [[round(min(lats), 4), round(min(lons), 4)], [round(max(lats), 4), round(max(lons), 4)]]


def view_layer(
    story: Story,
    events: pd.DataFrame,
    day: date,
    layers: set[str] | frozenset[str],
    selected: str | None = None,
    *,
    fit_first: bool = False,
) -> folium.FeatureGroup:
    """The labels of the places with events, the date shown, and what the map should frame.

    The frame holds the window's events (regions aside: they would zoom the map out to a
    country), the convoy's position on ``day`` and the enclave; ``fit_first`` frames it on
    the first draw too instead of keeping the story's opening view.
    """
    group = folium.FeatureGroup(name="View")
    points: list[tuple[float, float]] = []
    labels, marks, keep = [], [], []
    if "events" in layers and len(events) and len(events) <= scale.DETAIL_LIMIT:
        radius = story.places.set_index("id")["radius_m"]
        counts = events.groupby("place_id", sort=False).agg(
            n=("id", "size"),
            name=("place_name", "first"),
            lat=("lat", "first"),
            lon=("lon", "first"),
        )
        radius = story.places.set_index("id")["radius_m"]
        kinds = story.places.set_index("id")["kind"]
        counts["area"] = [
            kinds.get(pid) in AREA_KINDS or radius.get(pid, 0) >= REGION_RADIUS_M
            for pid in counts.index
        ]
        # Points before regions, busiest first.
        ordered = counts.sort_values(["area", "n"], ascending=[True, False], kind="stable")
        for pid, r in ordered.iterrows():
            size = 22 if r.n > 1 else 16
            key = f"place:{pid}"
            item = {
                "t": "area" if r.area else "story",
                "n": str(r["name"]),
                "p": [float(r.lon), float(r.lat)],
                "r": size / 2 + 1,
                "key": key,
            }
            labels.append(item)
            marks.append({"p": item["p"], "r": size / 2 + 2})
            if radius.get(pid, 0) < REGION_RADIUS_M:
                points.append((float(r.lat), float(r.lon)))
    # Then the story's other places (quieter), and its regions last: their names are long and
    # their points are only centres.
    labelled = {item["key"] for item in labels}
    others = story.places[~story.places["id"].map(lambda i: f"place:{i}").isin(labelled)]
    if len(others) <= 2000:
        area = others["kind"].isin(AREA_KINDS) | (others["radius_m"] >= REGION_RADIUS_M)
        for kind, rows in (("place", others[~area]), ("area", others[area])):
            for r in rows.itertuples():
                labels.append(
                    {
                        "t": kind,
                        "n": str(r.name),
                        "p": [float(r.lon), float(r.lat)],
                        "r": 4,
                        "key": f"place:{r.id}",
                    }
                )
    if "convoy" in layers and not story.convoy.empty:
        for r in convoy_current(story.convoy, day).itertuples():
            points.append((float(r.lat), float(r.lon)))
            marks.append({"p": [float(r.lon), float(r.lat)], "r": 11})
            keep.append([float(r.lat), float(r.lon)])
    if "fronts" in layers and not story.fronts.empty:
        for f in fronts_on(story.fronts, day).itertuples():
            x0, y0, x1, y1 = shape(f.geometry).bounds
            points += [(y0, x0), (y1, x1)]
    kind, _, sel_id = (selected or "").partition(":")
    focus = _selected_point(story, kind, sel_id)
    if focus is not None:
        keep.insert(0, list(focus))
        for item in labels:
            if item["key"] == selected:
                item["t"] = "story dl-label-selected"
        labels.sort(key=lambda item: item["key"] != selected)
    drawn_sides = set()
    if "fronts" in layers and not story.fronts.empty:
        drawn_sides = set(fronts_on(story.fronts, day)["side"])
    convoy_shown = "convoy" in layers and not convoy_until(story.convoy, day).empty
    cats = events["category"].unique() if "events" in layers else []
    rows = legend_rows(cats, convoy_shown, drawn_sides, story_words(story.meta), "places" in layers)
    state = {
        "legend": rows,
        "labels": labels,
        "marks": marks,
        "date": f"As of {fmt_day(day)}",
        "fit": _bounds(points),
        "fit_first": fit_first,
        "keep": keep,
        "focus": list(focus) if focus is not None else None,
    }
    StoryView(state).add_to(group)
    return group


def _selected_point(story: Story, kind: str, sel_id: str) -> tuple[float, float] | None:
    """Where the selected object is, or None."""
    if kind == "place":
        hit = story.places[story.places["id"] == sel_id]
    elif kind == "convoy":
        hit = story.convoy[story.convoy["id"] == sel_id]
    else:
        return None
    if hit.empty:
        return None
    return float(hit.iloc[0]["lat"]), float(hit.iloc[0]["lon"])


def selection_layer(story: Story, selected: str | None, day: date) -> folium.FeatureGroup:
    """A ring round the selected place or convoy position, or the selected enclave outlined."""
    group = folium.FeatureGroup(name="Selected")
    kind, _, sel_id = (selected or "").partition(":")
    point = _selected_point(story, kind, sel_id)
    features = []
    if point is not None:
        style = {
            "radius": 15,
            "color": "#111",
            "weight": 3,
            "fill": False,
            "pane": "dlSelected",
            "interactive": False,
        }
        features.append(_point(point[0], point[1], {"style": style}))
        _layer(features, "Selected", _CIRCLE, interactive=False).add_to(group)
    elif kind == "front" and not story.fronts.empty:
        hit = story.fronts[story.fronts["id"] == sel_id]
        for f in hit.itertuples():
            style = {"color": "#111", "weight": 3.5, "fill": False}
            features.append(
                {"type": "Feature", "geometry": f.geometry, "properties": {"style": style}}
            )
        if features:
            _layer(features, "Selected", pane="dlSelected", interactive=False).add_to(group)
    return group


def story_layers(
    story: Story,
    events: pd.DataFrame,
    day: date,
    layers: set[str] | frozenset[str] = frozenset({"events", "places", "convoy", "fronts"}),
    selected_place: str | None = None,
    *,
    viewport: scale.Viewport | None = None,
    codes: np.ndarray | None = None,
    selected: str | None = None,
    fit_first: bool = False,
) -> list[folium.FeatureGroup]:
    """The feature groups drawn for a window ending on ``day``, bottom to top.

    A big story (``scale.needs_viewport``) draws only what is in ``viewport`` (st_folium's zoom
    and bounds; None: the opening view); ``codes`` are ``scale.place_codes`` of its events.
    """
    sources = dict(zip(story.sources["id"], story.sources["publication"], strict=True))
    if selected is None and selected_place:
        selected = f"place:{selected_place}"
    if selected_place is None and selected and selected.startswith("place:"):
        selected_place = selected.partition(":")[2]
    big = scale.needs_viewport(len(story.events), len(story.places))
    if big:
        viewport = viewport or scale.default_viewport(story.places)
    out = []
    if "fronts" in layers:
        out.append(fronts_layer(story.fronts, day, sources))
    if "places" in layers:
        circled = set(events["place_id"].unique()) | ({selected_place} if selected_place else set())
        shown = scale.places_in_view(story.places, viewport) if big else story.places
        out.append(places_layer(shown, circled, selected_place))
    if "convoy" in layers:
        out.append(convoy_layer(story.convoy, day, sources))
    if "events" in layers:
        more = {"places": story.places, "viewport": viewport, "codes": codes} if big else {}
        out.append(events_layer(events, sources, **more))
    out.append(selection_layer(story, selected, day))
    out.append(view_layer(story, events, day, layers, selected, fit_first=fit_first))
    return [localize(g) for g in out]


def standalone_html(story: Story, basemap: dict | None, events: pd.DataFrame, day: date) -> str:
    """The whole map as one HTML page (for benchmarks and inspection)."""
    m = base_map(story, basemap)
    for g in story_layers(story, events, day):
        g.add_to(m)
    return bundle(m).get_root().render()


class StoryWindow(ScriptState):
    """One rerun's worth of map for a story drawn in the browser: the window and the selection."""

    function, element_name = "dlStory", "DatelineStoryWindow"


class _PaintReport(MacroElement):
    _template = Template(
        """
        {% macro script(this, kwargs) %}
        if (window.dlReportPainted) { window.dlReportPainted(); }
        {% endmacro %}
        """
    )

    def __init__(self):
        super().__init__()
        self._name = "DatelinePaintReport"


def paint_report() -> folium.FeatureGroup:
    """A group that has the map tell the page once it has painted the story (js/basemap.js:
    the map's value gains ``dl_painted``): the page's first run draws the rest of itself then."""
    group = folium.FeatureGroup(name="Paint report")
    _PaintReport().add_to(group)
    return group


def browser_layers(
    data: str | dict,
    start: date,
    end: date,
    categories: list[str] | None,
    actors: list[str] | tuple[str, ...],
    layers: set[str] | frozenset[str],
    selected: str | None = None,
    *,
    fit_first: bool = False,
    view: list[list[float]] | None = None,
    view_token: str | None = None,
    animate: bool = False,
    step_ms: int = 0,
    follow: str | None = None,
) -> list[folium.FeatureGroup]:
    """The map's layers for a small story drawn by ``js/story.js``: only the window travels.

    ``view`` (bounds) is a frame the map must take once per ``view_token`` (a chapter opened),
    even if the reader had moved the map. ``animate`` (Play) moves the convoy from the last
    window's position to this one's along its route in ``step_ms``. ``follow`` is the label of
    the page's date slider: the map redraws as its thumbs move, before the rerun comes back.

    ``data`` is the URL of the story's payload (``geo.map.payload``), or the payload itself.
    """
    group = folium.FeatureGroup(name="Story")
    state = {
        "data": data,
        "start": start.isoformat(),
        "end": end.isoformat(),
        "categories": None if categories is None else list(categories),
        "actors": list(actors),
        "layers": sorted(layers),
        "selected": selected,
        "fit_first": fit_first,
        "view": view,
        "view_token": view_token,
        "animate": animate,
        "step_ms": step_ms,
        "follow": follow,
    }
    StoryWindow(state).add_to(group)
    return [group]
