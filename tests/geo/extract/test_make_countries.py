"""Country points for the country table (data/scripts/make_countries.py), from a made-up file."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location(
    "make_countries", ROOT / "data" / "scripts" / "make_countries.py"
)
make_countries = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_countries)


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
