"""Checks across rows: places and fronts against country outlines, convoy speed, note figures."""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, box, shape
from shapely.geometry.base import BaseGeometry
from shapely.prepared import PreparedGeometry, prep

from geo.geometry import distance_km

# The map draws these outlines, so a story is checked against what its readers see.
BASEMAP = Path(__file__).resolve().parents[2] / "data" / "basemap" / "countries.geojson"
MAX_CONVOY_KMH = 80.0
# Positions are dated by day, not by hour. Two positions of a group on the same date (in file
# order) are taken as at most this many hours apart: a day-by-day story gives a second position
# on one date for what happened within hours of the first (the gathering point and the
# departure, a split), and reading them as a whole day apart let a 400 km jump within one date
# through. At MAX_CONVOY_KMH this allows 320 km between the edges of their circles.
SAME_DAY_HOURS = 4.0
MIN_FRONT_SHARE = 0.95
_KM_PER_DEGREE = 6371.0088 * math.pi / 180


@dataclass(frozen=True)
class Outlines:
    """Country outlines by ISO alpha-2 code, prepared for fast tests, and the box they cover."""

    shapes: dict[str, BaseGeometry]
    prepared: dict[str, PreparedGeometry]
    coverage: BaseGeometry

    def covers(self, geom: BaseGeometry) -> bool:
        """True when ``geom`` lies inside the area the outlines were clipped to."""
        return self.coverage.contains(geom)


@functools.lru_cache(maxsize=4)
def load_outlines(path: str | Path = BASEMAP) -> Outlines | None:
    """Read a countries GeoJSON once per path; None when it is missing or unreadable."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        shapes = {}
        for feat in doc["features"]:
            code = (feat.get("properties") or {}).get("iso_a2") or ""
            if len(code) == 2:
                shapes[code] = shape(feat["geometry"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if not shapes:
        return None
    # The basemap is clipped to a box: outside it no outline can tell which country a point is in.
    bounds = [g.bounds for g in shapes.values()]
    coverage = box(*(f(b[i] for b in bounds) for i, f in enumerate((min, min, max, max))))
    return Outlines(shapes, {k: prep(v) for k, v in shapes.items()}, coverage)


def distance_to_country_km(outlines: Outlines, code: str, lat: float, lon: float) -> float | None:
    """Distance in km from a point to a country's outline (0 inside); None if it cannot be told."""
    point = Point(lon, lat)
    if code not in outlines.shapes or not outlines.covers(point):
        return None
    if outlines.prepared[code].contains(point):
        return 0.0
    # Measure in a local frame where a degree of longitude is as long as it is at this latitude.
    scale = math.cos(math.radians(lat))
    local = affinity.scale(outlines.shapes[code], xfact=scale, yfact=1.0, origin=(0, 0))
    return local.distance(Point(lon * scale, lat)) * _KM_PER_DEGREE


def outside_km(outlines: Outlines, code: str, lats, lons) -> np.ndarray:
    """Vectorised distance_to_country_km for many points: NaN where it cannot be told."""
    lats, lons = np.asarray(lats, dtype=float), np.asarray(lons, dtype=float)
    out = np.full(len(lats), np.nan)
    if code not in outlines.shapes or not len(lats):
        return out
    x0, y0, x1, y1 = outlines.coverage.bounds
    covered = (lons > x0) & (lons < x1) & (lats > y0) & (lats < y1)
    inside = covered & shapely.contains_xy(outlines.shapes[code], lons, lats)
    out[inside] = 0.0
    # Few points lie outside their country; measure those one by one.
    for i in np.flatnonzero(covered & ~inside):
        out[i] = distance_to_country_km(outlines, code, lats[i], lons[i])
    return out


def share_in_country(outlines: Outlines, code: str, geom: BaseGeometry) -> float | None:
    """The fraction of a polygon's area inside a country; None if it cannot be told."""
    if code not in outlines.shapes or not outlines.covers(geom) or geom.area == 0:
        return None
    if outlines.prepared[code].contains(geom):
        return 1.0
    return geom.intersection(outlines.shapes[code]).area / geom.area


@dataclass(frozen=True)
class Position:
    """One convoy position: its row label, day, group and uncertainty circle."""

    label: Any
    day: date
    group: str
    lat: float
    lon: float
    radius_km: float


def hours_between(a: Position, b: Position) -> float:
    """The most hours ``b`` can lie after ``a``: 24 per day apart, SAME_DAY_HOURS on one date."""
    days = (b.day - a.day).days
    return 24.0 * days if days > 0 else SAME_DAY_HOURS


def min_speed_kmh(a: Position, b: Position) -> float:
    """The least speed that gets from ``a`` to ``b``: both circles' edges over hours_between."""
    gap = max(0.0, distance_km((a.lat, a.lon), (b.lat, b.lon)) - a.radius_km - b.radius_km)
    return gap / hours_between(a, b)


def convoy_legs(positions: Sequence[Position]) -> Iterable[tuple[Position, Position]]:
    """Each position with the one before it on its own group's route ('all' leads every group).

    Positions on one date keep their file order: that order is their order within the day.
    """
    ordered = sorted(positions, key=lambda p: p.day)  # stable: file order within a day
    last: dict[str, Position] = {}
    for pos in ordered:
        prev = last.get(pos.group)
        if pos.group != "all":
            shared = last.get("all")
            if prev is None or (shared is not None and shared.day > prev.day):
                prev = shared
        if prev is not None:
            yield prev, pos
        last[pos.group] = pos


def too_fast(
    positions: Sequence[Position], limit_kmh: float = MAX_CONVOY_KMH
) -> list[tuple[Position, Position, float]]:
    """Legs a bus could not drive: (from, to, least speed in km/h)."""
    legs = ((a, b, min_speed_kmh(a, b)) for a, b in convoy_legs(positions))
    return [leg for leg in legs if leg[2] > limit_kmh]


_MONTHS = (
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"  # names and abbreviations
)
_NOT_FIGURES = re.compile(
    r"\b\d{1,2}[:h.]\d{2}\b"  # times of day: 07:00
    rf"|\b\d{{1,2}}(?:\s*[–-]\s*\d{{1,2}})?\s+{_MONTHS}(?=\W|$)"  # 26 Aug, 19–20 Aug
    rf"|\b{_MONTHS}\s+\d{{1,2}}\b"  # Aug 26
    r"|\b(?:19|20)\d{2}\b"  # years
    r"|¶\s*\d+(?:\s*[–-]\s*¶?\s*\d+)?"  # paragraph marks
    r"|\b\d+(?:st|nd|rd|th)\b"  # ordinals
    r"|[A-Za-z]\d+"  # names with digits in them: T2
    r"|\S*/\S*"  # addresses and paths
    r"|\b\d{5,}\b",  # story and release numbers: figures that large are written 10,000
    re.IGNORECASE,
)
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


def note_figures(note: str) -> list[int]:
    """Whole numbers a confidence note gives, leaving out dates, times, years and references."""
    text = _NOT_FIGURES.sub(" ", note or "")
    return [int(m.group().replace(",", "")) for m in _NUMBER.finditer(text)]


def other_figures(note: str, figures: Iterable[int]) -> list[int]:
    """Numbers in the note that are none of the event's own figures (empty if it has none)."""
    own = {int(f) for f in figures}
    if not own:
        return []
    return sorted({n for n in note_figures(note) if n not in own})
