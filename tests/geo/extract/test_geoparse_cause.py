"""The benchmark's error causes (bench/geoparse.py --far), on made-up mentions."""

from __future__ import annotations

import pytest

from bench.geoparse import cause
from geo.extract.places import PlaceMention


def _mention(source: str, place_id: str) -> PlaceMention:
    return PlaceMention("X", "X", 0, 1, 0, 0.0, 0.0, 1000, "", "town", place_id, source, "name")


@pytest.mark.parametrize(
    ("source", "place_id", "expected"),
    [
        ("country", "country:us", "country point"),
        ("area", "adm1:us-california", "division point"),
        ("area", "adm2:us-indiana-scott-county", "division point"),
        ("area", "continent:eu", "region point"),
        ("area", "feature:euphrates", "region point"),
        ("derived", "north:adm1:us-california", "part of an area (north of, X region)"),
        ("unplaced", "unplaced:baghuz", "unknown name (unplaced)"),
        ("geonames", "gn:2643743", "same-name pick"),
        ("story", "baalbek", "same-name pick"),
    ],
)
def test_cause(source: str, place_id: str, expected: str) -> None:
    assert cause(_mention(source, place_id)) == expected
