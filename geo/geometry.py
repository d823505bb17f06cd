"""Geodesic measures: distances, route lengths and polygon areas on the WGS84 ellipsoid."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

from geopy.distance import geodesic

# Authalic radius: a sphere with the ellipsoid's surface area, so spherical areas match WGS84
# to well under 0.5% at these latitudes.
_AUTHALIC_RADIUS_KM = 6371.0072


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Geodesic distance in km between two (lat, lon) points."""
    return geodesic(a, b).km


def route_km(points: Iterable[tuple[float, float]]) -> float:
    """Geodesic length in km of a path through (lat, lon) points in order."""
    pts = list(points)
    return sum(distance_km(p, q) for p, q in itertools.pairwise(pts))


def ring_area_km2(ring: Sequence[Sequence[float]]) -> float:
    """Area in km² of one closed GeoJSON ring of (lon, lat) pairs."""
    if len(ring) < 4:
        return 0.0
    total = 0.0
    for (lon1, lat1), (lon2, lat2) in itertools.pairwise(ring):
        total += math.radians(lon2 - lon1) * (
            2 + math.sin(math.radians(lat1)) + math.sin(math.radians(lat2))
        )
    return abs(total) * _AUTHALIC_RADIUS_KM**2 / 2


def polygon_area_km2(coordinates: Sequence[Sequence[Sequence[float]]]) -> float:
    """Area in km² of GeoJSON Polygon coordinates: the outer ring less its holes."""
    outer, *holes = coordinates
    return ring_area_km2(outer) - sum(ring_area_km2(h) for h in holes)
