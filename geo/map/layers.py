"""The folium map the story is drawn on, and the elements that hand ``js/story.js`` its state.

Every story object is drawn by the map's own script (``js/story.js``) from a JSON payload: the
whole story (``geo.map.payload``), or a big story's window (``geo.map.window``). What stays in
Python is the base map, the script's set-up and the small elements a rerun sends.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import folium
from branca.element import Element, MacroElement
from folium.elements import JSCSSMixin
from jinja2 import Template

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
from geo.map.payload import REGION_RADIUS_M
from geo.map.png import PngButton, png_config
from geo.story.load import Story

# Up to this many events the opening frame looks at which places have them (a set of ids);
# a bigger story frames on all its places, as before, at no cost per rerun.
FRAME_BY_EVENTS_LIMIT = 50_000

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
        window.Dateline.initMap({{ this._parent.get_name() }}, {{ this.cfg_js }});
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
        self.get_root().header.add_child(_Text(header), name=name)  # not compiled


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
    """Hands one of the map's scripts its state after each rerun:
    ``window.Dateline[function](state)``. A subclass names the function and the element."""

    function = ""
    element_name = ""
    _template = Template(
        """
        {% macro script(this, kwargs) %}
        var DL = window.Dateline;
        if (DL && DL.{{ this.function }}) { DL.{{ this.function }}({{ this.state_js }}); }
        {% endmacro %}
        """
    )

    def __init__(self, state: dict):
        super().__init__()
        self._name = self.element_name
        self.state = state
        self.state_js = script_json(state)

    def render(self, **kwargs) -> None:
        # branca wraps a rendered script in Element(text), which compiles the text as a jinja
        # template: a big window's state (100-200 KB of JSON) took 50-100 ms a rerun that way.
        script = self._template.module.__dict__["script"]
        self.get_root().script.add_child(_Text(script(self, kwargs)), name=self.get_name())


class _Text(Element):
    """Text already rendered: given back as it is, never compiled as a template."""

    def __init__(self, text: str):
        super().__init__()
        self.text = text

    def render(self, **kwargs) -> str:
        return self.text


class StoryWindow(ScriptState):
    """One rerun's worth of map for a story drawn in the browser: the window and the selection."""

    function, element_name = "draw", "DatelineStoryWindow"


class _PaintReport(MacroElement):
    _template = Template(
        """
        {% macro script(this, kwargs) %}
        if (window.Dateline && window.Dateline.reportPainted) { window.Dateline.reportPainted(); }
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
    killed: tuple[int, int] | None = None,
    only: list[int] | None = None,
    found: dict | None = None,
) -> list[folium.FeatureGroup]:
    """The map's layers for a story drawn by ``js/story.js``: only the window travels.

    ``view`` (bounds) is a frame the map must take once per ``view_token`` (a chapter opened),
    even if the reader had moved the map. ``animate`` (Play) moves the convoy from the last
    window's position to this one's along its route in ``step_ms``. ``follow`` is the label of
    the page's date slider: the map redraws as its thumbs move, before the rerun comes back.
    ``killed`` (lowest, highest) keeps only events with a reported killed figure in it.
    ``only`` (positions in the payload's events) keeps only those: the server's country and
    text filters, whose columns the payload does not carry.
    ``found`` ({name, lat, lon}) is a gazetteer place the reader searched for, drawn and shown.

    ``data`` is the URL of the story's payload (``geo.map.payload``), the payload itself, or a
    big story's window payload (``geo.map.window``), which the server sends anew with each rerun.
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
        "killed": None if killed is None else list(killed),
        "only": None if only is None else [int(n) for n in only],
        "found": found,
    }
    StoryWindow(state).add_to(group)
    return [group]
