"""Tests for geo.geometry: geodesic distances, route lengths and polygon areas."""

from __future__ import annotations

import pytest
from geographiclib.geodesic import Geodesic
from geopy.distance import geodesic

from geo.geometry import distance_km, polygon_area_km2, ring_area_km2, route_km, sphere_km

BEIRUT = (33.89332, 35.50157)
BAALBEK = (34.00583, 36.21806)
PALMYRA = (34.5624, 38.28402)


def square(lon: float, lat: float, size: float) -> list[list[float]]:
    """A closed, counter-clockwise GeoJSON ring of a size° × size° box from (lon, lat)."""
    return [
        [lon, lat],
        [lon + size, lat],
        [lon + size, lat + size],
        [lon, lat + size],
        [lon, lat],
    ]


def wgs84_area_km2(ring: list[list[float]]) -> float:
    """Ellipsoidal area of a ring by GeographicLib (Karney's algorithm): an independent check."""
    poly = Geodesic.WGS84.Polygon()
    for lon, lat in ring[:-1]:
        poly.AddPoint(lat, lon)
    return abs(poly.Compute()[2]) / 1e6


TRIANGLE = [[36.0, 34.0], [36.3, 34.0], [36.1, 34.25], [36.0, 34.0]]
# An irregular enclave-like outline near Arsal.
IRREGULAR = [
    [36.42, 34.18],
    [36.50, 34.16],
    [36.58, 34.21],
    [36.55, 34.30],
    [36.47, 34.28],
    [36.44, 34.24],
    [36.42, 34.18],
]


@pytest.mark.parametrize(
    "ring",
    [
        pytest.param(square(36.45, 34.0, 0.1), id="0.1deg-square-at-34N"),
        pytest.param(square(36.45, 34.2, 0.1), id="fixture-lb-1-square"),
        pytest.param(square(36.0, 33.5, 1.0), id="1deg-square-at-33.5N"),
        pytest.param(square(36.6, 34.2, 0.08), id="fixture-sy-1-square"),
        pytest.param(TRIANGLE, id="triangle"),
        pytest.param(IRREGULAR, id="irregular-hexagon"),
        pytest.param(IRREGULAR[::-1], id="irregular-clockwise"),
    ],
)
def test_area_matches_geographiclib_within_two_per_mille(ring):
    assert polygon_area_km2([ring]) == pytest.approx(wgs84_area_km2(ring), rel=0.002)


def test_tenth_degree_square_at_34n_is_about_102_km2():
    # The fixture's lb-1 square, whose drawn_km2 is 102.2.
    assert polygon_area_km2([square(36.45, 34.2, 0.1)]) == pytest.approx(102.2, abs=0.1)


def test_orientation_does_not_change_the_area():
    ring = square(36.45, 34.0, 0.1)
    assert ring_area_km2(ring[::-1]) == pytest.approx(ring_area_km2(ring), rel=1e-12)


@pytest.mark.parametrize(
    "ring",
    [
        pytest.param([], id="empty"),
        pytest.param([[36.0, 34.0]], id="one-point"),
        pytest.param([[36.0, 34.0], [36.1, 34.0], [36.0, 34.0]], id="degenerate-3-points"),
    ],
)
def test_ring_with_fewer_than_four_points_has_no_area(ring):
    assert ring_area_km2(ring) == 0.0


@pytest.mark.parametrize(
    ("outer", "holes"),
    [
        pytest.param(square(36.4, 34.0, 0.2), [square(36.45, 34.05, 0.1)], id="one-hole"),
        pytest.param(
            square(36.4, 34.0, 0.2),
            [square(36.41, 34.01, 0.05), square(36.5, 34.1, 0.05)],
            id="two-holes",
        ),
        pytest.param(
            square(36.4, 34.0, 0.2), [square(36.45, 34.05, 0.1)[::-1]], id="clockwise-hole"
        ),
    ],
)
def test_holes_subtract(outer, holes):
    expected = wgs84_area_km2(outer) - sum(wgs84_area_km2(h) for h in holes)
    got = polygon_area_km2([outer, *holes])
    assert got == pytest.approx(expected, rel=0.002)
    without = polygon_area_km2([outer]) - sum(polygon_area_km2([h]) for h in holes)
    assert got == pytest.approx(without, rel=1e-12)
    assert got < polygon_area_km2([outer]) - 40  # the holes here total 51–102 km²


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param(BEIRUT, BAALBEK, id="beirut-baalbek"),
        pytest.param(BAALBEK, PALMYRA, id="baalbek-palmyra"),
        pytest.param(BEIRUT, BEIRUT, id="same-point"),
    ],
)
def test_distance_is_geopy_geodesic_and_symmetric(a, b):
    assert distance_km(a, b) == pytest.approx(geodesic(a, b).km, abs=1e-9)
    assert distance_km(b, a) == pytest.approx(distance_km(a, b), abs=1e-9)


def test_beirut_baalbek_is_about_67_km():
    assert distance_km(BEIRUT, BAALBEK) == pytest.approx(67.4, abs=0.1)


@pytest.mark.parametrize(
    ("points", "legs"),
    [
        pytest.param([], [], id="no-points"),
        pytest.param([BEIRUT], [], id="one-point"),
        pytest.param([BEIRUT, BAALBEK], [(BEIRUT, BAALBEK)], id="one-leg"),
        pytest.param(
            [BEIRUT, BAALBEK, PALMYRA], [(BEIRUT, BAALBEK), (BAALBEK, PALMYRA)], id="two-legs"
        ),
        pytest.param(
            [BEIRUT, BAALBEK, BEIRUT], [(BEIRUT, BAALBEK), (BAALBEK, BEIRUT)], id="there-and-back"
        ),
        pytest.param([PALMYRA, PALMYRA], [], id="standing-still"),
    ],
)
def test_route_is_the_sum_of_geodesic_legs(points, legs):
    expected = sum(geodesic(p, q).km for p, q in legs)
    assert route_km(points) == pytest.approx(expected, abs=1e-9)


def test_route_accepts_any_iterable():
    assert route_km(iter([BEIRUT, BAALBEK])) == pytest.approx(geodesic(BEIRUT, BAALBEK).km)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ((34.0, 36.0), (34.0, 36.0)),
        ((34.0, 36.0), (33.5, 36.3)),
        ((51.5, -0.1), (42.98, -81.23)),
        ((-33.9, 151.2), (40.7, -74.0)),
        ((0.0, 179.9), (0.0, -179.9)),
    ],
)
def test_sphere_km_within_half_a_percent_of_the_geodesic(a, b):
    exact = distance_km(a, b)
    assert abs(sphere_km(a, b) - exact) <= 0.005 * exact + 1e-9
