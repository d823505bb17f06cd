"""Country points for the country table (bench/make_countries.py), from a made-up data file."""

from __future__ import annotations

import json

import pytest

make_countries = pytest.importorskip("bench.make_countries")


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ({"c": {"a": 39.76, "o": -98.5}}, (39.76, -98.5)),
        ({"c": {"a": 60.10867, "o": -113.64258}}, (60.1087, -113.6426)),
        ({"c": {"a": 0, "o": 0}}, (0.0, 0.0)),
        ({"c": {"a": "39", "o": -98.5}}, None),  # not a number: the fallback point decides
        ({"c": {}}, None),
        ({}, None),
    ],
)
def test_geonames_points(tmp_path, row, expected):
    path = tmp_path / "data.json"
    path.write_text(json.dumps({"XX": row}), encoding="utf-8")
    assert make_countries.geonames_points(path).get("XX") == expected


def test_geonames_points_without_a_file():
    assert make_countries.geonames_points(None) == {}
