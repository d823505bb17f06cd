"""Tests for the committed world basemap (data/basemap/world*.geojson, water, labels)."""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest
import shapely
from shapely.geometry import Point, shape

from geo.map.assets import BASEMAP_FILES, install_static

ROOT = Path(__file__).resolve().parents[3]
BASEMAP = ROOT / "data" / "basemap"
SCRIPT = ROOT / "data" / "scripts" / "build_world.py"
# (file, most bytes): the browser fetches each once; the low tier is what a world view costs.
BUDGET = {
    "world-low.geojson": 300_000,
    "world.geojson": 1_500_000,
    "water.geojson": 120_000,
    "labels.json": 250_000,
}


@cache
def land(name: str) -> dict[str, shapely.Geometry]:
    doc = json.loads((BASEMAP / name).read_text(encoding="utf-8"))
    return {
        f["properties"]["name"]: shape(f["geometry"])
        for f in doc["features"]
        if f["properties"].get("k") == "land"
    }


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_world", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("name", "limit"), BUDGET.items())
def test_files_are_within_budget(name: str, limit: int):
    assert (BASEMAP / name).stat().st_size <= limit


@pytest.mark.parametrize("tier", ["world-low.geojson", "world.geojson"])
@pytest.mark.parametrize(
    ("lat", "lon", "country"),
    [
        (34.0058, 36.2181, "Lebanon"),  # Baalbek
        (34.4565, 40.9383, "Syria"),  # Baghuz
        (36.34, 43.13, "Iraq"),  # Mosul
        (33.3152, 44.3661, "Iraq"),  # Baghdad
        (50.4501, 30.5234, "Ukraine"),  # Kyiv
        (15.3547, 44.2066, "Yemen"),  # Sanaa
        (-33.92, 18.42, "South Africa"),  # Cape Town
        (39.74, -104.99, "United States of America"),  # Denver
    ],
)
def test_places_lie_on_their_country(tier: str, lat: float, lon: float, country: str):
    shapes = land(tier)
    assert shapes[country].buffer(0.05).contains(Point(lon, lat))


@pytest.mark.parametrize(("lat", "lon"), [(34.0, 34.5), (0.0, 0.0), (35.0, -40.0)])
def test_the_sea_is_not_land(lat: float, lon: float):
    for tier in ("world-low.geojson", "world.geojson"):
        assert not any(g.contains(Point(lon, lat)) for g in land(tier).values())


def test_the_detailed_tier_keeps_the_levant_in_full_detail():
    # The story region's outline is the fine one that the validator checks stories against.
    fine = json.loads((BASEMAP / "countries.geojson").read_text(encoding="utf-8"))
    lebanon = next(
        shape(f["geometry"]) for f in fine["features"] if f["properties"]["iso_a2"] == "LB"
    )
    drawn = land("world.geojson")["Lebanon"]
    assert drawn.symmetric_difference(lebanon).area / lebanon.area < 0.01


def test_borders_are_lines_between_countries():
    doc = json.loads((BASEMAP / "world.geojson").read_text(encoding="utf-8"))
    (border,) = [f for f in doc["features"] if f["properties"].get("k") == "border"]
    lines = shape(border["geometry"])
    assert lines.geom_type in ("LineString", "MultiLineString")
    # The Lebanon–Syria border is among them; the Lebanese coast is not.
    assert lines.distance(Point(36.45, 34.49)) < 0.02
    assert lines.distance(Point(35.48, 33.90)) > 0.05


def test_water_has_the_story_rivers_and_lakes():
    doc = json.loads((BASEMAP / "water.geojson").read_text(encoding="utf-8"))
    kinds = {f["properties"]["kind"] for f in doc["features"]}
    assert kinds == {"river", "lake"}
    rivers = shapely.union_all(
        [shape(f["geometry"]) for f in doc["features"] if f["properties"]["kind"] == "river"]
    )
    for lon, lat, name in ((40.14, 35.33, "Euphrates at Deir ez-Zor"), (36.72, 34.73, "Orontes")):
        assert rivers.distance(Point(lon, lat)) < 0.1, name
    lakes = [shape(f["geometry"]) for f in doc["features"] if f["properties"]["kind"] == "lake"]
    # GSHHG has the natural lakes (its high resolution leaves out the Lake Assad reservoir).
    for lon, lat in ((35.59, 32.82), (43.3, 34.0)):  # Lake Tiberias, Lake Tharthar
        assert any(g.contains(Point(lon, lat)) for g in lakes)


def test_labels_are_plain_ranked_and_tiered():
    labels = json.loads((BASEMAP / "labels.json").read_text(encoding="utf-8"))
    assert {d["t"] for d in labels} == {"country", "capital", "city", "river"}
    zooms = [d["z"] for d in labels]
    assert zooms == sorted(zooms)  # most important first: the collision pass keeps the first
    names = {d["n"] for d in labels}
    assert {"Lebanon", "Syria", "Beirut", "Damascus", "Homs", "Euphrates"} <= names
    assert all(set(d) <= {"t", "n", "p", "z"} for d in labels)
    capitals = {d["n"]: d["z"] for d in labels if d["t"] == "capital"}
    assert capitals["Beirut"] <= 4 and capitals["Damascus"] <= 4


@pytest.mark.parametrize(
    ("name", "plain"),
    [
        ("Ḩamāh", "Hamah"),
        ("Ţarţūs", "Tartus"),
        ("‘Irbīn", "Irbin"),
        ("Zahlé", "Zahle"),
        ("Homs", "Homs"),
    ],
)
def test_plain_names(name: str, plain: str):
    assert load_script().plain(name) == plain


def test_install_static_copies_the_basemap(tmp_path: Path):
    install_static(tmp_path, BASEMAP)
    for name in BASEMAP_FILES:
        assert (tmp_path / "basemap" / name).read_bytes() == (BASEMAP / name).read_bytes()
