"""Big windows: which places to draw one by one and which to merge into grid clusters.

Everything here works on numpy arrays aligned with ``story.places`` rows, so a window of a
million events costs one ``bincount`` before the map sees a few hundred features.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

# The events grouped by place: built with a big story's cache (geo/story/events_store.py).
from geo.story.place_index import PlaceIndex as PlaceIndex
from geo.story.place_index import place_codes as place_codes
from geo.story.timeline import code_counts

# Up to this many events a big story's window is drawn whole, wherever the reader looks.
DETAIL_LIMIT = 200
# Up to this many places with events in view are drawn one by one; above it, grid clusters.
POINT_LIMIT = 2_000
# Grid cell size on screen: wider than the biggest cluster icon, so neighbours rarely overlap.
CELL_PX = 80
TILE_PX = 256
MIN_ZOOM, MAX_ZOOM = 5, 14
# What the map is assumed to measure before the browser has said (app.py draws it 620 px high).
DEFAULT_SIZE_PX = (800, 620)
_MAX_LAT = 85.0511287798  # Web Mercator's limit, as in Leaflet
_CLUSTER_KEY = re.compile(r"\[cluster:z(\d+)-(\d+)-(\d+)\]")


def to_pixels(lat, lon, zoom: int) -> tuple[np.ndarray, np.ndarray]:
    """Web Mercator pixel coordinates at ``zoom`` (Leaflet's, 256 px tiles)."""
    scale = TILE_PX * 2.0**zoom
    lat = np.clip(np.asarray(lat, dtype=float), -_MAX_LAT, _MAX_LAT)
    x = (np.asarray(lon, dtype=float) + 180.0) / 360.0 * scale
    rad = np.radians(lat)
    y = (1.0 - np.log(np.tan(rad) + 1.0 / np.cos(rad)) / math.pi) / 2.0 * scale
    return x, y


def to_latlon(x, y, zoom: int) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of ``to_pixels``."""
    scale = TILE_PX * 2.0**zoom
    lon = np.asarray(x, dtype=float) / scale * 360.0 - 180.0
    lat = np.degrees(np.arctan(np.sinh(math.pi * (1.0 - 2.0 * np.asarray(y, dtype=float) / scale))))
    return lat, lon


@dataclass(frozen=True)
class Viewport:
    """The part of the map the reader sees: zoom level and bounds in degrees."""

    zoom: int
    south: float
    west: float
    north: float
    east: float

    @classmethod
    def from_state(cls, state: object) -> Viewport | None:
        """The viewport st_folium reported (its ``zoom`` and ``bounds``), or None."""
        if not isinstance(state, dict):
            return None
        try:
            sw, ne = state["bounds"]["_southWest"], state["bounds"]["_northEast"]
            vals = [float(v) for v in (sw["lat"], sw["lng"], ne["lat"], ne["lng"])]
            zoom = round(float(state["zoom"]))
        except (KeyError, TypeError, ValueError):
            return None
        if not all(math.isfinite(v) for v in vals) or vals[0] > vals[2] or vals[1] > vals[3]:
            return None
        return cls(min(max(zoom, 0), 20), *vals)

    @classmethod
    def fitting(
        cls,
        bounds: tuple[float, float, float, float],
        size_px: tuple[int, int] = DEFAULT_SIZE_PX,
        padding_px: int = 20,
    ) -> Viewport:
        """The view Leaflet's ``fitBounds`` shows for (south, west, north, east) at this size."""
        south, west, north, east = bounds
        x0, y1 = to_pixels(south, west, 0)
        x1, y0 = to_pixels(north, east, 0)
        width, height = size_px[0] - 2 * padding_px, size_px[1] - 2 * padding_px
        fit = min(width / max(float(x1 - x0), 1e-9), height / max(float(y1 - y0), 1e-9))
        zoom = int(min(max(math.floor(math.log2(fit)), MIN_ZOOM), MAX_ZOOM))
        cx, cy = to_pixels((south + north) / 2, (west + east) / 2, zoom)
        half_w, half_h = size_px[0] / 2, size_px[1] / 2
        lat, lon = to_latlon([cx - half_w, cx + half_w], [cy + half_h, cy - half_h], zoom)
        return cls(zoom, float(lat[0]), float(lon[0]), float(lat[1]), float(lon[1]))

    def area(self, pad: float = 0.5) -> Viewport:
        """The view grown by ``pad`` of its size on each side, snapped out to whole tiles.

        Snapping keeps small pans inside the same area, so they send the same features again.
        """
        x, y = to_pixels([self.south, self.north], [self.west, self.east], self.zoom)
        w, h = abs(x[1] - x[0]), abs(y[0] - y[1])
        limit = TILE_PX * 2.0**self.zoom
        x0 = max(math.floor((min(x) - pad * w) / TILE_PX) * TILE_PX, 0.0)
        x1 = min(math.ceil((max(x) + pad * w) / TILE_PX) * TILE_PX, limit)
        y0 = max(math.floor((min(y) - pad * h) / TILE_PX) * TILE_PX, 0.0)
        y1 = min(math.ceil((max(y) + pad * h) / TILE_PX) * TILE_PX, limit)
        lat, lon = to_latlon([x0, x1], [y1, y0], self.zoom)
        return Viewport(self.zoom, float(lat[0]), float(lon[0]), float(lat[1]), float(lon[1]))

    def contains(self, lat, lon) -> np.ndarray:
        """Which points lie inside the bounds (edges included)."""
        lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
        return (lat >= self.south) & (lat <= self.north) & (lon >= self.west) & (lon <= self.east)


def default_viewport(places: pd.DataFrame) -> Viewport:
    """The view the base map opens on (it fits the places closer than 100 km), before any zoom."""
    core = places[places["radius_m"] < 100_000]
    if core.empty:
        core = places
    lat = core["lat"].to_numpy(dtype=float, na_value=np.nan)
    lon = core["lon"].to_numpy(dtype=float, na_value=np.nan)
    return Viewport.fitting((np.nanmin(lat), np.nanmin(lon), np.nanmax(lat), np.nanmax(lon)))


def places_in_view(
    places: pd.DataFrame, viewport: Viewport, limit: int | None = None
) -> pd.DataFrame:
    """The places inside the padded view, or none when more than ``limit`` would be drawn."""
    limit = POINT_LIMIT if limit is None else limit
    lat = places["lat"].to_numpy(dtype=float, na_value=np.nan)
    lon = places["lon"].to_numpy(dtype=float, na_value=np.nan)
    inside = viewport.area().contains(lat, lon)
    return places[inside] if inside.sum() <= limit else places.iloc[:0]


def window_codes(
    window: pd.DataFrame, places: pd.DataFrame, story_codes: np.ndarray | None = None
) -> np.ndarray:
    """Place rows of a window's events; ``story_codes`` (by row label) skips the string lookup."""
    labels = window.index.to_numpy()
    if (
        story_codes is not None
        and labels.dtype.kind in "iu"
        and (len(labels) == 0 or (labels.min() >= 0 and labels.max() < len(story_codes)))
    ):
        # The window is a slice of story.events, whose labels are its row numbers.
        return story_codes[labels]
    return place_codes(window, places)


def place_counts(codes: np.ndarray, n_places: int) -> np.ndarray:
    """Events per place row."""
    return code_counts(codes, n_places)


def place_summary(
    window: pd.DataFrame, codes: np.ndarray, wanted: np.ndarray, counts: np.ndarray | None = None
) -> pd.DataFrame:
    """Per wanted place row with events: events, first day, last day, the latest event's
    category, and ``order``, its first event's position in the window. ``counts`` is
    ``place_counts(codes, …)`` when the caller has it."""
    codes = np.asarray(codes)
    size = max(int(codes.max(initial=-1)) + 1, 1)
    wanted = np.asarray(wanted, dtype=np.int64)
    wanted = wanted[(wanted >= 0) & (wanted < size)]
    # Only the wanted places' rows: a map of grid clusters wants a few places of millions of
    # events (10M, fatalities >= 10: 2 places of 2.3M rows; three passes over all took 60 ms).
    is_wanted = np.zeros(size + 1, dtype=bool)  # one more, False, read by code -1 (no place)
    is_wanted[wanted] = True
    known = np.flatnonzero(is_wanted[codes])
    at = codes[known]
    # Unbuffered ufunc.at (5 ms a million): a groupby of the wanted rows, or np.unique's sort,
    # took 40-150 ms of every slider move at 1M events.
    first_row = np.full(size, len(codes), dtype=np.int64)
    np.minimum.at(first_row, at, known)
    last_row = np.full(size, -1, dtype=np.int64)
    np.maximum.at(last_row, at, known)
    dates = window["date"].to_numpy()
    # NaT is the smallest int64: the later of start and end is the end, or the start without one.
    ends = np.maximum(
        window["end_date"].to_numpy()[known].view(np.int64), dates[known].view(np.int64)
    )
    last_day = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(last_day, at, ends)
    wanted = wanted[last_row[wanted] >= 0]
    latest = last_row[wanted]
    events = np.bincount(at, minlength=size) if counts is None else np.asarray(counts)
    return pd.DataFrame(
        {
            "events": events[wanted],
            # The window is in date order: a place's first row has its first day.
            "first": dates[first_row[wanted]],
            "last": last_day[wanted].view(dates.dtype),
            # The window is in date order, so each place's last row is its latest event.
            "category": window["category"].iloc[latest].to_numpy(),
            "order": first_row[wanted],
        },
        index=pd.Index(wanted),
    )


def grid_clusters(lat, lon, weights, zoom: int, cell_px: int = CELL_PX) -> pd.DataFrame:
    """Points merged by screen grid cell at ``zoom``: counts add up to the sum of ``weights``.

    One row per cell: ``key`` (``z8-123-456``), ``events`` (sum of weights), ``points`` (how many
    points), the weighted centre ``lat``/``lon``, the points' bounds and ``point`` (the index of
    one of its points, the only one when ``points`` is 1).
    """
    lat = np.asarray(lat, dtype=float)
    lon = np.asarray(lon, dtype=float)
    w = np.asarray(weights, dtype=np.int64)
    columns = ["key", "events", "points", "lat", "lon", "south", "west", "north", "east", "point"]
    if len(lat) == 0:
        return pd.DataFrame({c: pd.Series(dtype=object if c == "key" else float) for c in columns})
    x, y = to_pixels(lat, lon, zoom)
    ix = np.floor(x / cell_px).astype(np.int64)
    iy = np.floor(y / cell_px).astype(np.int64)
    cells, first, inv = np.unique(ix * (1 << 32) + iy, return_index=True, return_inverse=True)
    events = np.bincount(inv, weights=w).astype(np.int64)
    share = np.where(events[inv] > 0, w / np.maximum(events[inv], 1), 1.0 / np.bincount(inv)[inv])
    south, north = np.full(len(cells), np.inf), np.full(len(cells), -np.inf)
    west, east = south.copy(), north.copy()
    np.minimum.at(south, inv, lat)
    np.maximum.at(north, inv, lat)
    np.minimum.at(west, inv, lon)
    np.maximum.at(east, inv, lon)
    cx, cy = cells >> 32, cells & 0xFFFFFFFF
    return pd.DataFrame(
        {
            "key": [f"z{zoom}-{a}-{b}" for a, b in zip(cx.tolist(), cy.tolist(), strict=True)],
            "events": events,
            "points": np.bincount(inv),
            "lat": np.bincount(inv, weights=share * lat),
            "lon": np.bincount(inv, weights=share * lon),
            "south": south,
            "west": west,
            "north": north,
            "east": east,
            "point": first,
        }
    )


@dataclass(frozen=True)
class Plan:
    """What the events layer draws: place rows one by one, and clusters for the rest."""

    zoom: int
    places: np.ndarray  # rows of story.places drawn as single markers
    clusters: pd.DataFrame  # grid cells holding two or more places


def plan_layer(
    lat,
    lon,
    counts: np.ndarray,
    viewport: Viewport,
    *,
    limit: int | None = None,
    max_zoom: int = MAX_ZOOM,
) -> Plan:
    """Single markers for up to ``limit`` (POINT_LIMIT) places in view, else grid clusters.

    Only what lies in the padded view is planned; at ``max_zoom`` every place is single.
    """
    limit = POINT_LIMIT if limit is None else limit
    area = viewport.area()
    idx = np.flatnonzero((np.asarray(counts) > 0) & area.contains(lat, lon))
    if len(idx) <= limit or viewport.zoom >= max_zoom:
        return Plan(viewport.zoom, idx, grid_clusters([], [], [], viewport.zoom))
    lat, lon = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
    cells = grid_clusters(lat[idx], lon[idx], np.asarray(counts)[idx], viewport.zoom)
    alone = cells["points"].to_numpy() == 1
    # A cell with one place in it is that place: draw it as the place, so a click selects it.
    singles = np.sort(idx[cells.loc[alone, "point"].to_numpy(dtype=np.int64)])
    clusters = apart(cells[~alone].reset_index(drop=True), viewport.zoom)
    return Plan(viewport.zoom, singles, clusters)


def disc_radius_px(events) -> np.ndarray:
    """A grid disc's radius on screen, border included, as ``js/story.js`` (gridSize) draws it."""
    return np.round(20 + 4 * np.log10(np.maximum(np.asarray(events, dtype=float), 1))) / 2 + 3


def apart(clusters: pd.DataFrame, zoom: int) -> pd.DataFrame:
    """``clusters`` (grid_clusters' rows) with every two whose discs would overlap on screen at
    ``zoom`` merged into the bigger one, until none overlap: a cell's disc sits on its places'
    weighted centre, so the discs of two neighbouring cells could cover each other."""
    if len(clusters) < 2:
        return clusters
    c = {k: clusters[k].to_numpy(dtype=float, copy=True) for k in _MERGED}
    c["x"], c["y"] = to_pixels(c["lat"], c["lon"], zoom)
    alive = np.ones(len(clusters), dtype=bool)
    while _merge_pass(c, alive):  # a merged disc is bigger and elsewhere: it may touch another
        pass
    out = clusters[alive].copy()
    for k in _MERGED:
        out[k] = c[k][alive].astype(clusters[k].dtype)
    return out.reset_index(drop=True)


# What merging adds up or widens (key, point: the host's).
_MERGED = ("events", "points", "lat", "lon", "south", "west", "north", "east")


def _merge_pass(c: dict, alive: np.ndarray) -> bool:
    """One pass, biggest disc first: each disc joins the first bigger one it overlaps (arrays
    in ``c`` updated in place, the joined one no longer ``alive``). True when any joined."""
    # Only discs that touch another now: the rest (most: a grid's cells are wider than any
    # disc) join nothing this pass; a disc grown by a join is looked at again in the next.
    idx = np.flatnonzero(alive)
    near = idx[_touching(c["x"][idx], c["y"][idx], disc_radius_px(c["events"][idx]))]
    order = [int(i) for i in near[np.argsort(-c["events"][near], kind="stable")]]
    hosts = np.empty(len(order), dtype=np.int64)
    kept = 0
    for i in order:
        h = hosts[:kept]
        reach = disc_radius_px(c["events"][h]) + disc_radius_px(c["events"][i])
        hit = np.flatnonzero(np.hypot(c["x"][h] - c["x"][i], c["y"][h] - c["y"][i]) < reach)
        if len(hit):
            _merge(c, int(h[hit[0]]), i)
            alive[i] = False
        else:
            hosts[kept] = i
            kept += 1
    return kept < len(order)


def _touching(x: np.ndarray, y: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Which discs (centres ``x``, ``y``, radii ``r``) touch another: swept in x order, each
    against its next-but-k neighbour, k up until no two discs that far apart in x can touch
    (every pair at once took 10 ms a pass for 650 discs)."""
    order = np.argsort(x, kind="stable")
    xs, ys, rs = x[order], y[order], r[order]
    out = np.zeros(len(x), dtype=bool)
    reach = 2 * rs.max(initial=0)
    for k in range(1, len(x)):
        dx = xs[k:] - xs[:-k]
        if dx.min() >= reach:  # sorted: a later k is as far apart or farther, for every disc
            break
        hit = np.hypot(dx, ys[k:] - ys[:-k]) < rs[k:] + rs[:-k]
        out[order[k:][hit]] = True
        out[order[:-k][hit]] = True
    return out


def _merge(c: dict, host: int, other: int) -> None:
    """``other`` counted in ``host``: its centre weighted by events, its bounds the union."""
    a, b = c["events"][host], c["events"][other]
    for k in ("lat", "lon", "x", "y"):
        c[k][host] = (c[k][host] * a + c[k][other] * b) / max(a + b, 1)
    c["events"][host], c["points"][host] = a + b, c["points"][host] + c["points"][other]
    for k, pick in (("south", min), ("west", min), ("north", max), ("east", max)):
        c[k][host] = pick(c[k][host], c[k][other])


def parse_cluster_key(text: str | None) -> tuple[int, int, int] | None:
    """(zoom, x, y) of a ``[cluster:z8-123-456]`` tooltip key, or None."""
    if not text:
        return None
    found = _CLUSTER_KEY.findall(text)
    return tuple(int(v) for v in found[-1]) if found else None  # type: ignore[return-value]


def short_count(n: int) -> str:
    """A cluster label: 987, 1.2k, 12k, 1.2M."""
    if n < 1000:
        return str(n)
    # 999,999 would round to "1000k": from 999,500 on it is "1M".
    div, suffix = (1_000_000, "M") if n >= 999_500 else (1000, "k")
    v = n / div
    return f"{v:.1f}".removesuffix(".0") + suffix if v < 9.95 else f"{v:.0f}{suffix}"
